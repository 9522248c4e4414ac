"""Our own statistical test of the shuffle (docs/fairness.md, "For test labs"): a fixed
sample of 200,000 decks of the classic pack (hands 1 to 200,000 of one seed,
two seats without client seeds: what `rummy rng-dump --decks 200000 --seed
stats-2026` prints), two χ² tests, each passing at p ≥ 0.001:

- **card by position**: how often each of the 52 cards lies at each of the 52
  positions, against N/52 each; (52 - 1)² = 2601 degrees of freedom (every row
  and column of the table sums to N).
- **adjacent pairs**: how often each ordered pair of distinct cards lies at
  positions (i, i + 1), against N·51/2652 = N/52 each; 2652 - 1 degrees of
  freedom. The 51 pairs of one deck are not independent, so this p-value is the
  usual approximation.

The p-values are the χ² survival function computed exactly (a closed form: the
recurrence below, from erfc or exp at 1 or 2 degrees of freedom), itself tested
against textbook critical values. Shuffles with a known bias fail each at a tenth
of the sample, so the tests can fail: each card swapped with any position, not
only those before it, by position; four riffles, by pairs.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise

import pytest

from service.domain.cards import FULL_DECK
from service.domain.shuffle import deck_order, stream_words

pytestmark = pytest.mark.xdist_group("shuffle-sample")
"""On one pytest-xdist worker: the 200,000 decks are shuffled once (`sample`), for all of them."""

SEED = "stats-2026"
CLIENT_SEEDS = ("", "")
DECKS = 200_000
THRESHOLD = 0.001
"""Each test passes when its p-value is at least this."""
CARDS = len(FULL_DECK)


def chi2_sf(statistic: float, df: int) -> float:
    """P(χ²_df ≥ statistic), exactly: sf(x; 1) = erfc(√(x/2)), sf(x; 2) = e^(-x/2), and
    sf(x; k + 2) = sf(x; k) + (x/2)^(k/2) e^(-x/2) / Γ(k/2 + 1)."""
    if statistic <= 0:
        return 1.0
    half = statistic / 2
    total, k = (math.exp(-half), 2) if df % 2 == 0 else (math.erfc(math.sqrt(half)), 1)
    while k < df:
        total += math.exp((k / 2) * math.log(half) - half - math.lgamma(k / 2 + 1))
        k += 2
    return min(total, 1.0)


@pytest.mark.parametrize(
    ("statistic", "df"),
    [(3.841458820694124, 1), (5.991464547107979, 2), (18.307038053275146, 10), (124.342, 100)],
)
def test_the_survival_function_gives_the_textbook_critical_values(
    statistic: float, df: int
) -> None:
    assert chi2_sf(statistic, df) == pytest.approx(0.05, abs=5e-5)


def chi_squared(counts: Iterable[int], expected: float) -> float:
    return sum((count - expected) ** 2 / expected for count in counts)


def by_position(decks: Iterable[Sequence[int]]) -> tuple[float, int]:
    table = [[0] * CARDS for _ in range(CARDS)]
    total = 0
    for deck in decks:
        for position, card in enumerate(deck):
            table[position][card] += 1
        total += 1
    statistic = chi_squared((count for row in table for count in row), total / CARDS)
    return chi2_sf(statistic, (CARDS - 1) ** 2), total


def adjacent_pairs(decks: Iterable[Sequence[int]]) -> float:
    counts = [0] * (CARDS * CARDS)
    total = 0
    for deck in decks:
        for first, second in pairwise(deck):
            counts[first * CARDS + second] += 1
        total += 1
    cells = [counts[a * CARDS + b] for a in range(CARDS) for b in range(CARDS) if a != b]
    return chi2_sf(chi_squared(cells, total * (CARDS - 1) / len(cells)), len(cells) - 1)


def our_decks(count: int) -> list[list[int]]:
    index = {card: place for place, card in enumerate(FULL_DECK)}
    return [
        [index[card] for card in deck_order(SEED, CLIENT_SEEDS, hand)]
        for hand in range(1, count + 1)
    ]


def biased_decks(count: int) -> list[list[int]]:
    """The classic mistake: swap each card with any position (n^n paths for n! orders)."""
    words = stream_words(SEED, CLIENT_SEEDS, "biased")
    decks = []
    for _ in range(count):
        deck = list(range(CARDS))
        for i in range(CARDS):
            j = next(words) % CARDS
            deck[i], deck[j] = deck[j], deck[i]
        decks.append(deck)
    return decks


@pytest.fixture(scope="module")
def sample() -> list[list[int]]:
    return our_decks(DECKS)


def test_every_card_is_as_likely_at_every_position(sample: list[list[int]]) -> None:
    p_value, total = by_position(sample)
    assert total == DECKS
    assert p_value >= THRESHOLD, p_value


def test_every_ordered_pair_is_as_likely_side_by_side(sample: list[list[int]]) -> None:
    assert adjacent_pairs(sample) >= THRESHOLD


def riffled_decks(count: int, riffles: int = 4) -> list[list[int]]:
    """Decks riffled a few times (the Gilbert-Shannon-Reeds model): runs of the
    starting order stay side by side."""
    chance = random.Random(SEED)
    decks = []
    for _ in range(count):
        deck = list(range(CARDS))
        for _ in range(riffles):
            cut = sum(chance.random() < 0.5 for _ in range(CARDS))
            left, right, merged = deck[:cut], deck[cut:], []
            while left or right:
                take_left = chance.random() * (len(left) + len(right)) < len(left)
                merged.append((left if take_left else right).pop(0))
            deck = merged
        decks.append(deck)
    return decks


@pytest.mark.parametrize(
    ("test", "biased"),
    [(lambda d: by_position(d)[0], biased_decks), (adjacent_pairs, riffled_decks)],
    ids=["swap-with-any-by-position", "four-riffles-by-pairs"],
)
def test_a_biased_shuffle_fails_at_a_tenth_of_the_sample(
    test: Callable[[list[list[int]]], float],
    biased: Callable[[int], list[list[int]]],
) -> None:
    assert test(biased(DECKS // 10)) < THRESHOLD
