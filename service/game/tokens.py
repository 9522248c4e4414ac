"""Player tokens: random bearer secrets of which only a hash is ever stored."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """256 bits from the OS's CSPRNG, URL-safe."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    # A fast hash is enough: tokens are 256-bit random, not guessable passwords.
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, token_hash: str) -> bool:
    """Compare in constant time, so response timing tells nothing about the hash."""
    return hmac.compare_digest(hash_token(token), token_hash)


def new_seed() -> str:
    """A secret shuffle seed for a game whose creator gave none."""
    return secrets.token_hex(32)
