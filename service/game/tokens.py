"""Player tokens: bearer secrets of which only a hash is ever stored.

A token is random, or, for a request sent with an `Idempotency-Key` (creating or
joining a game), derived from that key: the key is a secret the client keeps
like the token, and a retry with it derives the same token again, so the
service answers it with the same token without ever storing one. The id of a
game created with a key is derived from it too, so every replica finds that
game from the key alone.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from uuid import UUID, uuid5


def new_token(game_id: UUID) -> str:
    """`<game id>.<256 random bits>`: the prefix only says which game the token
    is for (so a token for another game is told apart from a bad one)."""
    return f"{game_id.hex}.{secrets.token_urlsafe(32)}"


def keyed_token(game_id: UUID, key: str, purpose: str) -> str:
    """The token a request with `key` gets in `game_id` for `purpose` (`seat<n>` of a
    new game, `join`): as unguessable as the key, and the same every time."""
    derived = hmac.digest(key.encode("utf-8"), f"{purpose}/{game_id}".encode(), "sha256")
    return f"{game_id.hex}.{base64.urlsafe_b64encode(derived).rstrip(b'=').decode()}"


CREATED_WITH_KEY = UUID("6f3c1d0e-5a7b-4c2e-9f8d-2b1a0c3e4d5f")
"""The namespace of the ids of games created with an `Idempotency-Key`."""


def keyed_game_id(key: str, by_admin: bool) -> UUID:
    """The id of the game a creation with `key` makes: the admin's keys and everyone
    else's are apart."""
    return uuid5(CREATED_WITH_KEY, f"{'admin' if by_admin else 'anyone'}/{key}")


def key_digest(key: str) -> str:
    """What is stored of a key that stands for a token (creating, joining): its hash."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def token_game(token: str) -> UUID | None:
    """The game a token says it is for, or None if it is not a token at all."""
    prefix, dot, _ = token.partition(".")
    if not dot:
        return None
    try:
        return UUID(hex=prefix)
    except ValueError:
        return None


def hash_token(token: str) -> str:
    # A fast hash is enough: tokens are 256-bit random, not guessable passwords.
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def hash_matches(hashed: str, token_hash: str) -> bool:
    """Whether a token's hash (`hash_token`) is `token_hash`. Compared in constant
    time, so response timing tells nothing about the hash."""
    return hmac.compare_digest(hashed, token_hash)


def new_seed() -> str:
    """A secret shuffle seed for a game whose creator gave none."""
    return secrets.token_hex(32)


def new_command_id() -> str:
    """The identity of one command's write (96 random bits): two writers of the same
    game version never share one."""
    return secrets.token_urlsafe(12)
