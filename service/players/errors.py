"""Errors of the players' identity, each with a stable `code` (service/api/errors.py
makes them HTTP).

PlayerError
├── AssertionRefused       401  (a refused assertion, each by its own code:)
│   ├── AssertionInvalid   401  assertion_invalid (forged, malformed, `exp` too far)
│   ├── AssertionExpired   401  assertion_expired
│   ├── UnknownKey         401  assertion_unknown_key (unknown platform or `kid`)
│   └── WrongAudience      401  assertion_wrong_audience
├── PlatformNotFound       404  not_found (a platform, or a key of one)
├── InvalidKey             422  invalid_key
└── KeyExists              409  key_exists
"""

from __future__ import annotations


class PlayerError(Exception):
    code = "player_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class AssertionRefused(PlayerError):
    code = "assertion_invalid"


class AssertionInvalid(AssertionRefused):
    """Forged, malformed, a claim missing, or living too long."""


class AssertionExpired(AssertionRefused):
    code = "assertion_expired"


class UnknownKey(AssertionRefused):
    code = "assertion_unknown_key"


class WrongAudience(AssertionRefused):
    code = "assertion_wrong_audience"


class PlatformNotFound(PlayerError):
    code = "not_found"


class InvalidKey(PlayerError):
    code = "invalid_key"


class KeyExists(PlayerError):
    code = "key_exists"
