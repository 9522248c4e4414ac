"""The bodies of players across games (routes/platforms.py, docs/players.md): a
platform registered, its keys, and the assertion a seat is taken with.

Names and shapes are the contract's (docs/players.md).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import msgspec
from msgspec import Meta

from service.players.keys import KID_PATTERN

PlayerAssertion = Annotated[
    str,
    Meta(
        min_length=1,
        # A JWT's compact form: ASCII, three base64url parts. An EdDSA or ES256 one of
        # these claims is about 300 characters; 2048 leaves room for long ids and names
        # while eight seats' assertions stay far below the body limit (64 KiB).
        max_length=2048,
        pattern=r"^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$",
        description=(
            "A JWT the player's platform signed (docs/players.md): `iss` the platform's "
            "id, `sub` the player, `name`, `aud` `rummy`, `exp` at most an hour ahead; "
            "a `kid` header once the platform has two keys. The seat then shows "
            "`player` `<platform_id>:<sub>` and the assertion's `name` (the body's "
            "`name` is not shown). Refused with 401 `assertion_*`."
        ),
    ),
]
Rated = Annotated[
    bool,
    Meta(
        description=(
            "`true`: a rated game; every human seat, named now or joining later, needs a "
            "`player_assertion` (else 422 `rated_needs_players`). Left out: not rated."
        )
    ),
]


class Alg(StrEnum):
    HS256 = "HS256"
    EDDSA = "EdDSA"
    ES256 = "ES256"


Kid = Annotated[str, Meta(pattern=KID_PATTERN, description="The key's id (the JWT `kid`).")]


class PlatformKey(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A signing key: an HS256 `secret` (base64url, at least 32 bytes), or an EdDSA
    (Ed25519) or ES256 (P-256) `public_key` in PEM."""

    alg: Alg
    kid: Kid
    secret: Annotated[str, Meta(min_length=1, max_length=1024)] | None = None
    public_key: Annotated[str, Meta(min_length=1, max_length=4096)] | None = None


class NewPlatform(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: Annotated[str, Meta(min_length=1, max_length=100)]
    key: PlatformKey


class RegisteredPlatform(msgspec.Struct, kw_only=True):
    platform_id: str
    token: str
    """The platform's bearer token, shown this once (only its hash is kept)."""
