"""Player tokens: random bearer secrets of which only a hash is ever stored."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from uuid import UUID


def new_token(game_id: UUID) -> str:
    """`<game id>.<256 random bits>`: the prefix only says which game the token
    is for (so a token for another game is told apart from a bad one)."""
    return f"{game_id.hex}.{secrets.token_urlsafe(32)}"


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


def token_matches(token: str, token_hash: str) -> bool:
    """Compare in constant time, so response timing tells nothing about the hash."""
    return hmac.compare_digest(hash_token(token), token_hash)


def new_seed() -> str:
    """A secret shuffle seed for a game whose creator gave none."""
    return secrets.token_hex(32)


def new_command_id() -> str:
    """The identity of one command's write (96 random bits): two writers of the same
    game version never share one."""
    return secrets.token_urlsafe(12)
