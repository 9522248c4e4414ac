"""A seed per hand (`seed_scheme: hand_chain`): the chain, the rules digest and
the commitment, byte by byte as docs/fairness.md "A seed per hand" writes them.

From the game's secret seed the server derives the last hand seed of a chain
as long as the game's `max_hands`; each earlier one is the SHA-256 of the next
(seed k = H(seed k+1)), and the chain's head is the SHA-256 of seed 1. The
commitment binds the head and the rules digest before the first deal. Revealing
seed k (when hand k ends) tells nothing of seed k+1, yet anyone can check it:
its hash is seed k-1 (the head for k = 1). Each hand's cards come from its own
seed by the unchanged algorithm of `service.domain.shuffle`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

CHAIN_LABEL = b"straight-rummy/hand-chain/v1"
"""The HMAC message that draws the chain's last seed from the game's secret seed."""
COMMITMENT_PREFIX = b"straight-rummy/commitment/v2"
"""What the commitment hashes first, so it can never equal a `game` scheme one."""

LONGEST_CHAIN = 500
"""The chain of a game with no `max_hands` (none is made now): the upper bound of
`max_hands` (service/domain/presets.py), the most hands any new game may deal."""


class SeedScheme(StrEnum):
    HAND_CHAIN = "hand_chain"
    """A seed per hand, each revealed when its hand ends (this module)."""
    GAME = "game"
    """One seed for the whole game, revealed at its end (games stored before)."""


def rules_digest(rules: Mapping[str, Any]) -> str:
    """Lowercase hex SHA-256 of the rule set as stored in `game_created`: JSON with
    sorted keys, no spaces, UTF-8 (non-ASCII characters written as themselves)."""
    text = json.dumps(rules, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def chain_length(max_hands: int | None) -> int:
    """How many hand seeds a game's chain holds: one per hand it may deal."""
    return LONGEST_CHAIN if max_hands is None else max_hands


def hand_seeds(seed: str, length: int) -> tuple[str, ...]:
    """Seeds of hands 1 to `length` (lowercase hex), derived from the secret `seed`."""
    if length < 1:
        raise ValueError(f"a chain holds at least one seed, got {length!r}.")
    last = hmac.digest(seed.encode("utf-8"), CHAIN_LABEL, "sha256")
    chain = [last]
    for _ in range(length - 1):
        chain.append(hashlib.sha256(chain[-1]).digest())
    return tuple(link.hex() for link in reversed(chain))


def previous_link(hand_seed: str) -> str:
    """What the seed before `hand_seed` must be (the head, for hand 1's)."""
    return hashlib.sha256(bytes.fromhex(hand_seed)).hexdigest()


def chain_head(seeds: tuple[str, ...]) -> str:
    """The chain's head: the SHA-256 of hand 1's seed."""
    return previous_link(seeds[0])


def chain_commitment(head: str, digest: str) -> str:
    """`seed_commitment` of a `hand_chain` game: SHA-256(prefix || head || digest),
    the head and the digest as their 32 raw bytes each."""
    material = COMMITMENT_PREFIX + bytes.fromhex(head) + bytes.fromhex(digest)
    return hashlib.sha256(material).hexdigest()


def is_hand_seed(value: object) -> bool:
    """Whether `value` has a hand seed's shape: 64 lowercase hex characters."""
    return (
        isinstance(value, str)
        and len(value) == 64
        and all(char in "0123456789abcdef" for char in value)
    )
