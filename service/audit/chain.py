"""The hash chain of an audit export, exactly as docs/audit.md writes it down.

Every exported event carries `previous_hash` (the `hash` of the event before
it; for the first event, the genesis hash of the game) and `hash`: the
SHA-256 of its canonical form, which is the event object without its `hash`
member as canonical JSON (RFC 8785 for the values an export holds).
"""

from __future__ import annotations

import hashlib
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
