"""Random Indian Rummy play for property tests and the fuzz.

Random hands seldom declare validly, so decks are **planted**: `planted_deck`
deals some seats 13 cards that make a valid declaration (a pure sequence, a
second sequence that may hold a wild, then sequences and sets that may hold one),
built here from the rules text, not by the engine's judge. `choose` plays at
random from `legal` and declares those planted groups when it holds them; now and
then it asks the engine's search (`groupings`) for a valid declaration, or for
its best groups to submit, so later deals see valid declarations too; it also
drops, declares at random (mostly wrong shows) and submits random groups.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from service.domain.actions import Action, Declare, Discard, Draw, Drop, SubmitGroups
from service.domain.cards import JOKER, RANKS, SUITS, Card, Rank
from service.domain.indian import groupings
from service.domain.indian.judge import wild_rank_of
from service.domain.rules import RuleSet
from service.domain.state import DealStatus, Phase, Source, Table, indian_of
from service.domain.turns import legal_moves

Group = tuple[Card, ...]
Key = tuple[str, ...]
"""A hand as a sorted tuple of codes (copies are never told apart)."""

_RUN_RANKS = (*RANKS, Rank.ACE)
"""Run positions: the ace low, 2 to K, the ace high."""
_PARTITIONS = (
    (3, 3, 3, 4),
    (4, 3, 3, 3),
    (3, 4, 3, 3),
    (3, 3, 4, 3),
    (4, 4, 5),
    (5, 4, 4),
    (3, 5, 5),
)
"""Sizes of a declaration's groups: the first two are sequences."""

DROP_CHANCE = 0.04
DECLARE_CHANCE = 0.02
"""How often the random player drops before drawing, or declares at random."""
SEARCH_CHANCE = 0.2
"""How often it asks the engine's search for a declaration, or for the groups it
submits."""
PLANTED_CHANCE = 0.9
"""How often a player holding planted groups declares them."""


def key(cards: Sequence[Card]) -> Key:
    return tuple(sorted(card.code for card in cards))


def _fits(group: Sequence[Card], left: Counter[Card]) -> bool:
    return all(left[card] >= count for card, count in Counter(group).items())


def _wild(rng: random.Random, wild: Rank) -> Card:
    return JOKER if rng.random() < 0.5 else Card(wild, rng.choice(SUITS))


def _run(rng: random.Random, wild: Rank, length: int, wilds: int) -> Group:
    """`length` consecutive cards of one suit (an ace low or high), `wilds` of them
    replaced by wild cards: a sequence, pure when `wilds` is 0 (a wild-rank card may
    be in it as itself)."""
    suit = rng.choice(SUITS)
    start = rng.randint(0, len(_RUN_RANKS) - length)
    run = [Card(rank, suit) for rank in _RUN_RANKS[start : start + length]]
    for place in rng.sample(range(length), wilds):
        run[place] = _wild(rng, wild)
    return tuple(run)


def _set(rng: random.Random, wild: Rank, size: int, wilds: int) -> Group:
    """`size` cards of one rank (not the wild one) in different suits, `wilds` of
    them replaced by wild cards."""
    rank = rng.choice([each for each in RANKS if each is not wild])
    chosen = [Card(rank, suit) for suit in rng.sample(SUITS, size)]
    for place in rng.sample(range(size), wilds):
        chosen[place] = _wild(rng, wild)
    return tuple(chosen)


def valid_groups(rng: random.Random, left: Counter[Card], wild: Rank) -> list[Group] | None:
    """Groups of 13 cards from `left` that declare validly under `wild`, taken out of
    `left`; None if a few tries find none."""
    for _ in range(50):
        sizes = rng.choice(_PARTITIONS)
        groups = [_run(rng, wild, sizes[0], 0), _run(rng, wild, sizes[1], rng.choice((0, 1)))]
        for size in sizes[2:]:
            wilds = rng.choice((0, 0, 1))
            if size > 4 or rng.random() < 0.5:
                groups.append(_run(rng, wild, size, wilds))
            else:
                groups.append(_set(rng, wild, size, wilds))
        cards = [card for group in groups for card in group]
        if _fits(cards, left):
            left.subtract(cards)
            return groups
    return None


@dataclass
class Plants:
    """The planted hands dealt so far: each hand's codes to the groups it declares in."""

    groups: dict[Key, list[Group]] = field(default_factory=dict)

    def declaration(self, held: Sequence[Card], taken: Sequence[Card]) -> Declare | None:
        """A planted declaration from `held` (14 cards): the groups of the 13 that were
        planted, finishing with the card left over (never one taken from the pile)."""
        for finish in set(held):
            rest = list(held)
            rest.remove(finish)
            groups = self.groups.get(key(rest))
            if groups is not None and finish not in taken:
                return Declare(finish, tuple(groups))
        return None


def planted_deck(
    rng: random.Random,
    rules: RuleSet,
    players: int,
    dealer: int,
    plants: Plants,
    planted: Sequence[int],
) -> tuple[Card, ...]:
    """A deck order that deals the `planted` seats (of `players`, all dealt in) a
    valid declaration each (when one is found), the others random cards, with a
    random indicator."""
    left = Counter(rules.pack)
    indicator = rng.choice(rules.pack)
    left[indicator] -= 1
    wild = wild_rank_of(indicator)
    hands: dict[int, list[Card]] = {}
    for seat in planted:
        groups = valid_groups(rng, left, wild)
        if groups is not None:
            hands[seat] = [card for group in groups for card in group]
            rng.shuffle(hands[seat])
            plants.groups[key(hands[seat])] = groups
    rest = list(left.elements())
    rng.shuffle(rest)
    for seat in range(players):
        if seat not in hands:
            hands[seat] = [rest.pop() for _ in range(13)]
    order = [
        hands[(dealer + offset) % players][round_]
        for round_ in range(13)
        for offset in range(1, players + 1)
    ]
    order += [rest.pop(), indicator, *rest]
    assert Counter(order) == Counter(rules.pack)
    return tuple(order)


def random_groups(rng: random.Random, held: Sequence[Card]) -> tuple[Group, ...]:
    """Random groups from `held`: chunks of 3 or 4 (now and then 1 or 2) of a random
    part of the hand, or none."""
    cards = list(held)
    rng.shuffle(cards)
    groups: list[Group] = []
    while cards and rng.random() < 0.8:
        size = rng.choice((3, 3, 4, 4, 1, 2))
        groups.append(tuple(cards[:size]))
        cards = cards[size:]
    return tuple(group for group in groups if group)


def acting_seat(table: Table, rng: random.Random) -> int:
    """Whose move the game waits for: the turn's, or in the show any seat to submit."""
    hand = table.hand
    assert hand is not None
    if hand.phase is Phase.SHOW:
        assert hand.indian is not None
        return rng.choice(
            [s for s, st in enumerate(hand.indian.statuses) if st is DealStatus.TO_SUBMIT]
        )
    return hand.turn


def choose(table: Table, seat: int, rng: random.Random, plants: Plants) -> Action:
    """A random move for `seat`, one `legal` offers (or a declaration, which it flags)."""
    hand = table.hand
    assert hand is not None
    moves = legal_moves(table, seat)
    held = hand.hands[seat]
    wild = indian_of(hand).wild
    full_count = table.rules.full_count
    assert wild is not None
    assert full_count is not None
    searched = rng.random() < SEARCH_CHANCE
    if moves.can_submit:
        if searched:
            return SubmitGroups(groupings.best_grouping(held, wild, full_count).groups)
        return SubmitGroups(random_groups(rng, held))
    if moves.draw:
        if key(held) in plants.groups:
            return Draw(Source.STOCK)
        if moves.can_drop and rng.random() < DROP_CHANCE:
            return Drop()
        return Draw(rng.choice(moves.draw))
    assert moves.can_declare
    planted = plants.declaration(held, hand.taken_cards())
    if planted is not None and rng.random() < PLANTED_CHANCE:
        return planted
    if searched:
        best = groupings.best_declaration(held, wild, full_count, keep=hand.taken)
        if best.valid:
            return Declare(best.finish, best.groups)
    finish = rng.choice(moves.discard)
    if rng.random() < DECLARE_CHANCE:
        rest = list(held)
        rest.remove(finish)
        rng.shuffle(rest)
        sizes = rng.choice(_PARTITIONS)
        cut = [sum(sizes[:index]) for index in range(len(sizes) + 1)]
        return Declare(finish, tuple(tuple(rest[a:b]) for a, b in pairwise(cut)))
    return Discard(finish)
