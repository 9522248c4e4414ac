"""Player assertions: JWTs a platform signs, verified with PyJWT.

What one must hold (docs/players.md): `iss` the platform's id, `sub` the
player, `name` its display name, `aud` `rummy`, `exp` at most `LONGEST_SECONDS`
ahead; a `kid` header once the platform has two keys (with one, it may be left
out). Clocks may disagree by `LEEWAY_SECONDS` either way. An assertion is
reusable until it expires (it is a statement about who the player is, not a
one-time ticket); the service keeps nothing of it but the player it names.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import jwt

from service.players.errors import AssertionExpired, AssertionInvalid, UnknownKey, WrongAudience
from service.players.keys import verifying_key
from service.store.player_tables import KeyRow

AUDIENCE = "rummy"
LEEWAY_SECONDS = 60
LONGEST_SECONDS = 3600
"""An assertion expires at most this long after it is shown (plus the leeway)."""
LONGEST_PLAYER = 128
"""Characters of `sub`, at most."""


@dataclass(frozen=True, slots=True)
class Asserted:
    """Who an assertion says the player is."""

    platform_id: str
    player: str
    name: str


def verify(
    assertion: str,
    keys_of: Callable[[str], Sequence[KeyRow]],
    now: Callable[[], float] = time.time,
) -> Asserted:
    """The player `assertion` vouches for, or the refusal (401, by its code)."""
    try:
        header = jwt.get_unverified_header(assertion)
        unverified = jwt.decode(assertion, options={"verify_signature": False})
    except jwt.PyJWTError:
        raise AssertionInvalid("The player assertion is not a signed JWT.") from None
    issuer = unverified.get("iss")
    if not isinstance(issuer, str) or not issuer:
        raise AssertionInvalid("The player assertion names no platform (`iss`).")
    key = _key(keys_of(issuer), header.get("kid"))
    claims = _verified(assertion, key, issuer)
    if claims["exp"] > now() + LONGEST_SECONDS + LEEWAY_SECONDS:
        raise AssertionInvalid(
            f"The player assertion's `exp` is more than {LONGEST_SECONDS} seconds ahead: "
            "sign short-lived assertions."
        )
    player, name = claims.get("sub"), claims.get("name")
    if not isinstance(player, str) or not 0 < len(player) <= LONGEST_PLAYER:
        raise AssertionInvalid(f"`sub`: the player's id, 1 to {LONGEST_PLAYER} characters.")
    if not player.isprintable():
        raise AssertionInvalid("`sub`: printable characters only.")
    if not isinstance(name, str):
        raise AssertionInvalid("`name`: the player's display name, a string.")
    return Asserted(platform_id=issuer, player=player, name=name)


def _key(keys: Sequence[KeyRow], kid: Any) -> KeyRow:
    if not keys:
        raise UnknownKey("No platform of that id (`iss`) has a key here.")
    if kid is None:
        if len(keys) > 1:
            raise UnknownKey(
                f"The platform has {len(keys)} keys: the assertion's header must name one (`kid`)."
            )
        return keys[0]
    for key in keys:
        if key.kid == kid:
            return key
    raise UnknownKey("The platform has no key of that `kid` (retired, or never added).")


def _verified(assertion: str, key: KeyRow, issuer: str) -> dict[str, Any]:
    try:
        claims: dict[str, Any] = jwt.decode(
            assertion,
            verifying_key(key),
            algorithms=[key.alg],
            audience=AUDIENCE,
            issuer=issuer,
            leeway=LEEWAY_SECONDS,
            options={"require": ["exp", "iss", "sub", "aud"]},
        )
    except jwt.ExpiredSignatureError:
        raise AssertionExpired(
            "The player assertion has expired: ask the platform for a new one."
        ) from None
    except jwt.InvalidAudienceError:
        raise WrongAudience(
            f"The player assertion is not for this service (`aud` `{AUDIENCE}`)."
        ) from None
    except jwt.MissingRequiredClaimError as missing:
        if missing.claim == "aud":
            raise WrongAudience(
                f"The player assertion names no audience (`aud` `{AUDIENCE}`)."
            ) from None
        raise AssertionInvalid(f"The player assertion lacks `{missing.claim}`.") from None
    except jwt.PyJWTError:
        raise AssertionInvalid(
            "The player assertion's signature or claims do not verify with the key it names."
        ) from None
    return claims
