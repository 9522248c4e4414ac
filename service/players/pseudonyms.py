"""What the events hold of a player: a pseudonym keyed per player.

`pseudonym(secret, ref)` is HMAC-SHA256 of the player's reference
(`platform:player`) under a random secret of that player alone, kept in the
side table (service/store/player_tables.py), never in the events. With the
secret the service tells whom a pseudonym stands for (it looks the pseudonym
up); without it nobody can, not even by trying every player reference of a
platform, which a plain hash would allow. Erasing the player deletes the secret
(crypto-shredding): the pseudonym stays in the events, and in the audit
exports' hash chains, as 256 bits that stand for nobody any more.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

PREFIX = "ps_"
"""Every pseudonym starts so: told apart from a reference (which has a `:`) at a glance."""


def player_ref(platform_id: str, player: str) -> str:
    """`<platform_id>:<player>`, how views name an asserted seat's player. A platform id
    holds no `:`, so the first one splits it."""
    return f"{platform_id}:{player}"


def new_secret() -> str:
    """A player's key: 256 random bits, hex."""
    return secrets.token_hex(32)


def pseudonym(secret: str, ref: str) -> str:
    """The pseudonym of the player `ref` whose secret is `secret`."""
    digest = hmac.new(bytes.fromhex(secret), ref.encode("utf-8"), hashlib.sha256).hexdigest()
    return PREFIX + digest
