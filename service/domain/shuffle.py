"""Provably fair shuffling: deck orders derived from a secret seed.

The algorithm is written down byte by byte in docs/fairness.md, with a
reference implementation that the tests run against this module.

In short: key = SHA-256 of a version prefix and the length-prefixed UTF-8
seed and client seeds; for each purpose a labelled HMAC-SHA-256 stream of
unsigned 32-bit big-endian words; unbiased integers by rejection sampling;
Fisher-Yates (Durstenfeld) over the reference deck order.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Iterator, Sequence
from itertools import count
from typing import TypeVar

from service.domain.cards import FULL_DECK, Card
from service.domain.presets import MIN_PLAYERS, MOST_PLAYERS

_T = TypeVar("_T")

# Part of the key material, so that changing the algorithm (a "v2") can never
# reproduce a v1 deck from the same seeds by accident.
_KEY_PREFIX = b"straight-rummy/fairness/v1"

_WORD_RANGE = 1 << 32
# One SHA-256 block is 32 bytes: eight 32-bit words per HMAC call.
_BLOCK_WORDS = struct.Struct(">8I")


def commitment(seed: str) -> str:
    """The SHA-256 (hex) published before the first deal, binding the server to `seed`."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def first_dealer(seed: str, client_seeds: Sequence[str], players: int) -> int:
    """The seat of the first dealer, drawn from the seed."""
    if not MIN_PLAYERS <= players <= MOST_PLAYERS:
        raise ValueError(
            f"players must be between {MIN_PLAYERS} and {MOST_PLAYERS}, got {players!r}."
        )
    return _uniform(_words(_key(seed, client_seeds), "first-dealer"), players)


def deck_order(
    seed: str,
    client_seeds: Sequence[str],
    hand_number: int,
    pack: Sequence[Card] = FULL_DECK,
) -> list[Card]:
    """The deck order for hand `hand_number` (1-based); index 0 is dealt first.
    `pack` is the game's whole pack in reference order (`cards.pack`)."""
    _check_number("hand_number", hand_number)
    words = _words(_key(seed, client_seeds), f"deck/{hand_number}")
    return _fisher_yates(pack, words)


def recycle_order(
    seed: str,
    client_seeds: Sequence[str],
    hand_number: int,
    recycle_number: int,
    cards: Sequence[Card],
) -> list[Card]:
    """The new stock when the discard pile (`cards`, oldest first, without the top
    discard) is shuffled for recycle `recycle_number` (1-based) of the hand.
    Index 0 of the result is the top of the new stock."""
    _check_number("hand_number", hand_number)
    _check_number("recycle_number", recycle_number)
    words = _words(_key(seed, client_seeds), f"recycle/{hand_number}/{recycle_number}")
    return _fisher_yates(cards, words)


def stream_words(seed: str, client_seeds: Sequence[str], label: str) -> Iterator[int]:
    """The generator's raw output: the endless stream of 32-bit words of `label` (`deck/1`,
    `recycle/1/1`, `first-dealer`), exactly the words the shuffles above read (for test
    labs: `rummy rng-dump`, docs/fairness.md "For test labs")."""
    return _words(_key(seed, client_seeds), label)


def _check_number(name: str, value: int) -> None:
    # bool is an int subclass; True as a hand number is a bug, not hand 1.
    if isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} counts from 1, got {value!r}.")


def _key(seed: str, client_seeds: Sequence[str]) -> bytes:
    """The 32-byte HMAC key: the SHA-256 of the key material."""
    return hashlib.sha256(_key_material(seed, client_seeds)).digest()


def _key_material(seed: str, client_seeds: Sequence[str]) -> bytes:
    """The version prefix, then the seed and each client seed as u64be(length) || UTF-8."""
    # A str is itself a Sequence[str]: "abc" would silently mean three seats.
    if isinstance(client_seeds, str):
        raise TypeError("client_seeds must be a sequence of strings (one per seat), not a str.")
    material = bytearray(_KEY_PREFIX)
    for part in (seed, *client_seeds):
        encoded = part.encode("utf-8")
        # The length prefix makes the split unambiguous: ("ab", "c") and ("a", "bc")
        # give different material, as do [] and [""].
        material += len(encoded).to_bytes(8, "big")
        material += encoded
    return bytes(material)


def _block(key: bytes, label: str, counter: int) -> bytes:
    """Block `counter` of the stream for `label`: HMAC-SHA-256(key, label || u64be(counter))."""
    return hmac.digest(key, label.encode("ascii") + counter.to_bytes(8, "big"), "sha256")


def _words(key: bytes, label: str) -> Iterator[int]:
    """The endless stream of unsigned 32-bit big-endian words for `label`."""
    for counter in count():
        yield from _BLOCK_WORDS.unpack(_block(key, label, counter))


def _uniform(words: Iterator[int], n: int) -> int:
    """A uniform integer in [0, n), consuming words until one is below the cutoff."""
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n!r}.")
    # The largest multiple of n that fits in 2**32: words at or above it would
    # make the low remainders more likely (modulo bias), so they are skipped.
    limit = _WORD_RANGE - _WORD_RANGE % n
    for word in words:
        if word < limit:
            return word % n
    raise ValueError("the word stream ended before an acceptable word was found.")


def _fisher_yates(items: Sequence[_T], words: Iterator[int]) -> list[_T]:
    """A shuffled copy of `items` (Durstenfeld's in-place Fisher-Yates)."""
    shuffled = list(items)
    for i in range(len(shuffled) - 1, 0, -1):
        j = _uniform(words, i + 1)
        shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
    return shuffled
