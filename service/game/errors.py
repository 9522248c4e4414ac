"""Errors of the application (not of the rules), each with a stable `code`.

GameServiceError
├── GameNotFound          not_found
├── VersionNotFound       version_not_found
├── VersionConflict       version_conflict     (If-Match was stale)
├── WriteConflict         write_conflict       (lost the race, retries spent)
├── IdempotencyKeyReused  idempotency_key_reused
├── ExplicitDealForbidden explicit_deal_forbidden (a chosen deal with seats open,
│                                                  without the admin token)
├── PlayerAlreadySeated   player_already_seated (one seat per player per table)
└── RatedNeedsPlayers     rated_needs_players (a rated game's human seat unvouched)

Apart from the tree, and never an answer to a request: `StoreUnavailable`, the
event store cannot be opened, so the service does not start.
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
    def for_key(
        cls, key: str, used: str = "for a different request by this seat"
    ) -> IdempotencyKeyReused:
        return cls(f"Idempotency key {key!r} was already used {used}.")


class ExplicitDealForbidden(GameServiceError):
    """A `seed` or `decks` for a game with open seats, from a creator without the admin
    token: a stranger joining would play cards its creator knows (docs/fairness.md)."""

    code = "explicit_deal_forbidden"


class PlayerAlreadySeated(GameServiceError):
    """A player a platform vouched for asks for a second seat at one table (GLI-19
    §5.3.2: one seat per player per table). Told by the seat's pseudonym."""

    code = "player_already_seated"


class RatedNeedsPlayers(GameServiceError):
    """A rated game's human seat without a player assertion: a rating is a player's."""

    code = "rated_needs_players"


class StoreUnavailable(RuntimeError):
    """The event store cannot be opened: the service cannot start."""
