"""Errors of the application (not of the rules), each with a stable `code`.

GameServiceError
├── GameNotFound          not_found
├── VersionNotFound       version_not_found
├── VersionConflict       version_conflict     (If-Match was stale)
├── WriteConflict         write_conflict       (lost the race, retries spent)
└── IdempotencyKeyReused  idempotency_key_reused
"""

from __future__ import annotations


class GameServiceError(Exception):
    code = "service_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class GameNotFound(GameServiceError):
    code = "not_found"


class VersionNotFound(GameServiceError):
    code = "version_not_found"


class VersionConflict(GameServiceError):
    code = "version_conflict"


class WriteConflict(GameServiceError):
    code = "write_conflict"


class IdempotencyKeyReused(GameServiceError):
    code = "idempotency_key_reused"

    @classmethod
    def for_key(cls, key: str) -> IdempotencyKeyReused:
        return cls(
            f"Idempotency key {key!r} was already used for a different request by this seat."
        )
