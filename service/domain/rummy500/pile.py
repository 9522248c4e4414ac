"""500 Rum's spread pile (docs/rules.md "500 Rum"): how many cards a draw may take,
and whether the called card (the deepest of several taken) can be used this turn.

A draw of n > 1 cards is allowed only if some meld or lay-off that holds the called
card can be made from the hand after the draw: a meld of the called card with cards
held (a set of its rank, a run through it in its suit), a lay-off of it onto a meld
on the table, or a lay-off at the end of a chain of held cards that reach it from a
run's end (a lay-off may extend another). The search is over the called card's
rank and suit only, so `legal`'s `pile_counts` over a deep pile stays cheap.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from service.domain import melds
from service.domain.cards import Card, Rank, Suit
from service.domain.melds import End, MeldKind, TableMeld
from service.domain.rule_values import Aces, GoingOut

_ACE_HIGH = 14
"""An ace's place above the king in a run (`high_or_low`: Q-K-A)."""
_SHORTEST = 3
"""The fewest cards of a meld."""


def places(rank: Rank, aces: Aces) -> tuple[int, ...]:
    """Where a rank may stand in a run: an ace low (1), or under `high_or_low` (500
    Rum's) high (14) too, never both in one run."""
    if rank is not Rank.ACE:
        return (rank.value,)
    return (1, _ACE_HIGH) if aces is Aces.HIGH_OR_LOW else (1,)


def melds_holding(called: Card, held: Sequence[Card], aces: Aces) -> Iterator[tuple[Card, ...]]:
    """Every meld of `held` (which holds `called`) that holds `called`: sets of its
    rank, no suit twice, and runs through it in its suit (ace low or high, never
    both: `aces` is 500 Rum's `high_or_low`); copies never told apart."""
    rank, suit = called.rank, called.suit
    suits: dict[Suit, Card] = {}
    in_suit: dict[int, Card] = {}
    for card in _others(called, held):
        if card.rank is rank:
            if card.suit is not suit:
                suits[card.suit] = card
        elif card.suit is suit:
            for place in places(card.rank, aces):
                in_suit[place] = card
    for size in (2, 3):
        for group in combinations(list(suits.values()), size):
            yield (called, *group)
    for place in places(rank, aces):
        low = place
        while low - 1 >= 1 and low - 1 in in_suit:
            low -= 1
        high = place
        while high + 1 <= _ACE_HIGH and high + 1 in in_suit:
            high += 1
        for start in range(low, place + 1):
            for end in range(max(place, start + _SHORTEST - 1), high + 1):
                if start == 1 and end == _ACE_HIGH:
                    continue  # the ace at both ends: no run
                yield tuple(called if at == place else in_suit[at] for at in range(start, end + 1))


def _others(called: Card, held: Sequence[Card]) -> list[Card]:
    """`held` less one copy of `called`: the cards that may join it."""
    others = list(held)
    others.remove(called)
    return others


def chain_length(called: Card, held: Sequence[Card], meld: TableMeld, aces: Aces) -> int | None:
    """How many cards a lay-off of `called` onto `meld` lays off, counting the held
    cards laid off first to reach it from one of the meld's ends (1: it fits now), or
    None if no chain of held cards reaches it."""
    if melds.can_lay_off(meld, called, aces):
        return 1
    if meld.kind is not MeldKind.RUN or meld.cards[0].suit is not called.suit:
        return None
    found = [_chain(called, held, meld, aces, end) for end in (End.LOW, End.HIGH)]
    lengths = [length for length in found if length is not None]
    return min(lengths) if lengths else None


def _chain(called: Card, held: Sequence[Card], meld: TableMeld, aces: Aces, end: End) -> int | None:
    """The chain of held cards laid off at `end` only, until `called` fits."""
    trial = meld.copy()
    held_left = [card for card in _others(called, held) if card.suit is called.suit]
    laid = 0
    while True:
        step = next(
            (
                card
                for card in held_left
                if melds.can_lay_off(trial, card, aces)
                and melds.lay_off_end(trial, card, aces) is end
            ),
            None,
        )
        if step is None:
            return None
        held_left.remove(step)
        melds.extend(trial, step, end, seat=-1)
        laid += 1
        if melds.can_lay_off(trial, called, aces):
            return laid + 1


def usable(
    called: Card,
    held: Sequence[Card],
    table_melds: Sequence[TableMeld],
    aces: Aces,
    going_out: GoingOut,
) -> bool:
    """Whether some meld or lay-off holding `called` can be made from `held` (which
    holds it) on a table of `table_melds`. Under `going_out: discard` it must leave a
    card to discard."""
    spare = 1 if going_out is GoingOut.DISCARD else 0
    most = len(held) - spare
    if any(len(meld) <= most for meld in melds_holding(called, held, aces)):
        return True
    for meld in table_melds:
        length = chain_length(called, held, meld, aces)
        if length is not None and length <= most:
            return True
    return False
