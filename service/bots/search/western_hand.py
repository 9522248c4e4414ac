"""The Western search outside Knock Rummy (classic, wild, Boathouse, Wrotham): few
candidates, each played out to the end of the hand on the same deals, and a
paired test against `basic`'s move.

Why not Knock Rummy's way (`western._Search._staged`): there a knock is
settled exactly on each deal, and two turns a seat judge the rest well enough.
In a going-out game that search lost to `basic` (classic: 42.2% of 64 games in
the arena), and three things were wrong with it:

- the horizon: two turns a seat, scored by the deadwood left, rewards throwing
  high cards and cannot see a seat about to go out, so it overruled `basic`
  toward dumping points when building melds was right. Here every playout runs
  to the end of the hand (someone goes out, or the stock runs out) and scores
  what the hand actually pays;
- the winner's curse: every discard (ten or more) was scored on a quarter of
  the deals, the best three kept, and the leader's lead tested on all the deals,
  the quarter that chose it included. Here only `basic`'s card and the `PRUNE`
  cards the playout's own rule would throw next are candidates, and all of them
  are scored on every deal, the same deals (common random numbers);
- the deals: a uniform deal gives the other seats loose hands, where a seat
  that has played a while kept what fitted and threw the rest. `season` plays
  that back into each sampled hand from the buried discards (`SEASONED`).

Nothing here reads anything but the view: deals come from `Unknown`, seasoning
exchanges only hidden cards between hidden places.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import TypeVar

from service.bots.search.budget import Guard
from service.bots.search.playout import Judge
from service.bots.search.unknown import Deal
from service.domain.cards import Card
from service.domain.rule_values import Aces
from service.domain.rules import RuleSet
from service.domain.wilds import is_wild

_C = TypeVar("_C")

PRUNE = 2
"""Discards searched besides `basic`'s: the next the playout's rule would throw."""
HAND_TURNS = 40
"""Turns a seat a playout may run: past the end of any hand (the stock runs out)."""
HAND_SHARE = 0.75
"""The share of the budget's deals a whole-hand playout takes: it costs several
times a two-turn one, and the full budget took `strong`'s p99 past 100 ms."""
FULL_STOCK = 20
"""A playout runs until someone goes out or the stock runs out, so its cost grows
with the stock: past this many cards a search samples fewer deals, in proportion
(early in the hand, where the stock is longest and threats fewest), which keeps
`strong`'s p99 under 100 ms."""
SURE_HAND = 1.3
"""Standard errors by which another candidate's mean lead over `basic`'s, deal by
deal, must stand above zero for it to play instead."""
SEASONED = True
"""Whether the other hands of each deal are seasoned (`season`)."""
SEASON_STEPS = 8
"""At most this many exchanges a hand in `season`: later ones change little, and each
costs a read of the hand."""


def hand_samples(budget: int, stock: int) -> int:
    """The deals to sample for a level's `budget` with `stock` cards left."""
    samples = budget * HAND_SHARE
    if stock > FULL_STOCK:
        samples = samples * FULL_STOCK / stock
    return max(1, round(samples))


def season(deal: Deal, judge: Judge, rng: Random, steps: int) -> None:
    """Make each other hand of `deal` look played: `steps` times it takes one of the
    buried cards at random and throws back its worst (`Judge.throw`).

    The buried cards are the hand's discards so far; a seat that has played that
    long kept what fitted and threw the rest. A uniform deal forgets it: it deals
    the other seats loose hands and misses how close they are to going out. Cards
    only change places among the hidden ones, so the deal stays one the view allows."""
    buried = deal.buried
    for hand in deal.hands.values():
        for _ in range(min(steps, SEASON_STEPS, len(buried))):
            at = rng.randrange(len(buried))
            hand.append(buried[at])
            thrown = judge.throw(hand, None)
            hand.remove(thrown)
            buried[at] = thrown


def near(card: Card, hand: Sequence[Card], rules: RuleSet) -> bool:
    """Whether `card` could join a meld with the hand: a wild, or a partner in it
    (the same rank, or the same suit up to two ranks away in a run, an ace next to
    the king where aces are high or turn the corner)."""
    if rules.has_wilds and is_wild(card, rules):
        return True
    return any(
        other.rank == card.rank or (other.suit is card.suit and _gap(other, card, rules) <= 2)
        for other in hand
    )


def _gap(one: Card, other: Card, rules: RuleSet) -> int:
    gap = abs(one.rank.value - other.rank.value)
    if rules.aces is Aces.AROUND_THE_CORNER:
        return min(gap, 13 - gap)
    if rules.aces is Aces.HIGH_OR_LOW and 1 in (one.rank.value, other.rank.value):
        return min(gap, 14 - max(one.rank.value, other.rank.value))
    return gap


def pruned(
    choices: Sequence[Card], preferred: Card, judge: Judge, hand: Sequence[Card]
) -> list[Card]:
    """`preferred` (basic's discard) and the `PRUNE` others the playout's rule would
    throw first: deadwood before meld cards, then by `Judge.worth_throwing`."""
    dead = judge.dead(hand).cards
    rest = sorted(
        (card for card in choices if card != preferred),
        key=lambda card: (card not in dead, -judge.worth_throwing(card, dead), card.sort_key),
    )
    return [preferred, *rest[:PRUNE]]


def paired_best(
    candidates: Sequence[_C],
    deal: Callable[[], Deal],
    samples: int,
    guard: Guard,
    score: Callable[[_C, Deal], float],
    sure: float = SURE_HAND,
) -> _C:
    """The first candidate (basic's) unless another's mean lead over it, deal by deal
    on `samples` deals scored for every candidate, stands `sure` standard errors
    above zero. The wall-clock `guard` is the server's only."""
    if len(candidates) == 1:
        return candidates[0]
    scores: list[list[float]] = [[] for _ in candidates]
    for _ in range(samples):
        dealt = deal()
        for index, candidate in enumerate(candidates):
            scores[index].append(score(candidate, dealt))
        if guard.passed():
            break
    return candidates[sure_lead(scores, range(len(candidates)), sure)]


def sure_lead(
    scores: Sequence[Sequence[float]], indices: Sequence[int] | range, sure: float
) -> int:
    """The index of the best mean score among `indices` if its lead over index 0 is
    `sure` standard errors of the paired differences above zero, else 0."""
    best = max(indices, key=lambda index: (sum(scores[index]), -index))
    if best == 0:
        return 0
    leads = [mine - first for mine, first in zip(scores[best], scores[0], strict=True)]
    count = len(leads)
    if count < 2:
        return 0
    mean = sum(leads) / count
    spread = sum((lead - mean) ** 2 for lead in leads) / (count - 1)
    return best if mean > 0 and mean * mean * count > sure * sure * spread else 0
