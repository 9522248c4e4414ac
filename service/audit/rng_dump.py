"""`rummy rng-dump`: the generator's output for test labs (docs/fairness.md, "For test
labs").

- `--words N`: the first N raw 32-bit words of the stream of `deck/1`, one unsigned
  decimal a line: exactly the words the first hand's shuffle reads, and on.
- `--decks N`: the final permutations of hands 1 to N, one deck a line, card codes
  separated by single spaces (the variant's whole pack, `--variant`).

Both for one game's key: the seed (`--seed`, or a fresh one drawn as the server
draws its own and printed to standard error) and two seats that gave no client
seed (`["", ""]`, docs/fairness.md example A), so a lab can recompute any line
from the reference implementation.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice

from service.domain.cards import FULL_DECK, Card, card_codes
from service.domain.shuffle import deck_order, stream_words

CLIENT_SEEDS = ("", "")
"""The client seeds of every dump: a two-seat game where nobody gave one."""
WORDS_LABEL = "deck/1"
"""The stream `--words` dumps: the first hand's deck stream, as long as asked."""


def word_lines(seed: str, count: int) -> Iterator[str]:
    """The first `count` words of the dump's stream, one decimal each."""
    for word in islice(stream_words(seed, CLIENT_SEEDS, WORDS_LABEL), count):
        yield str(word)


def deck_lines(seed: str, count: int, pack: Sequence[Card] = FULL_DECK) -> Iterator[str]:
    """The decks of hands 1 to `count` of a game whose whole pack is `pack` (in reference
    order: a rule set's `pack`), one line each."""
    for hand in range(1, count + 1):
        yield " ".join(card_codes(deck_order(seed, CLIENT_SEEDS, hand, pack)))
