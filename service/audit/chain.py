"""The hash chain of an audit export, exactly as docs/audit.md writes it down.

Every exported event carries `previous_hash` (the `hash` of the event before
it; for the first event, the genesis hash of the game) and `hash`: the
SHA-256 of its canonical form, which is the event object without its `hash`
member as canonical JSON (RFC 8785 for the values an export holds).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import Any

FORMAT = "straight-rummy/audit/v1"
"""The export format; also the prefix of the genesis hash."""

ALGORITHM = "sha-256"
"""The hash of the chain, as the export's `chain.algorithm` names it."""

HASH_FIELD = "hash"


def canonical(value: Any) -> bytes:
    """Canonical JSON: keys sorted, no whitespace, UTF-8, only the escapes JSON needs."""
    return json.dumps(
        value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
    ).encode("utf-8")


def genesis(game_id: str) -> str:
    """The `previous_hash` of a game's first event: binds the chain to the game."""
    return hashlib.sha256(f"{FORMAT}:{game_id}".encode()).hexdigest()


def event_hash(event: Mapping[str, Any]) -> str:
    """The SHA-256 (hex) of an exported event's canonical form (every member but `hash`)."""
    content = {name: value for name, value in event.items() if name != HASH_FIELD}
    return hashlib.sha256(canonical(content)).hexdigest()


def link(event: Mapping[str, Any], previous_hash: str) -> dict[str, Any]:
    """`event` with its place in the chain: `previous_hash`, then its own `hash`."""
    linked = {name: value for name, value in event.items() if name != HASH_FIELD}
    linked["previous_hash"] = previous_hash
    linked[HASH_FIELD] = event_hash(linked)
    return linked


# --- Live chain heads, salted (docs/fairness.md "Live chain heads") ---------------------

SALT_LABEL = "straight-rummy/chain-salt/v1"
"""What the game's seed keys to make its chain salt: one fixed label, so the salt is
the seed's and nothing else's."""


def chain_salt(seed: str) -> str:
    """The game's chain salt (hex): HMAC-SHA-256 keyed by the seed's UTF-8 bytes over
    `SALT_LABEL`. Secret while the seed is; revealed with it (the export's
    `chain_salt`)."""
    return hmac.new(seed.encode("utf-8"), SALT_LABEL.encode("ascii"), hashlib.sha256).hexdigest()


def salted_head(salt: str, event_hash_hex: str) -> str:
    """The live head after an event (hex), as every served event's `chain` shows it:
    HMAC-SHA-256 keyed by the salt's 32 bytes over the event's export `hash` (its 64
    hex characters). Without the salt it says nothing of the hash, so nothing of the
    hidden cards the hash covers."""
    return hmac.new(bytes.fromhex(salt), event_hash_hex.encode("ascii"), hashlib.sha256).hexdigest()
