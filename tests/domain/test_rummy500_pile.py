"""500 Rum's `pile_counts` held to a brute force written apart from the engine: for
every count of the pile, whether some meld or lay-off holding the called card can
be made from the hand after the draw (every subset of the cards of its rank or
suit tried as a set or a run; a lay-off onto a table meld, or after the held cards
that lead up to it from a run's end). Tables come from random legal play."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain.actions import Discard, Draw, LayOff, Meld
from service.domain.cards import Card, Rank
from service.domain.decks import SeededDecks
from service.domain.melds import MeldKind, TableMeld
from service.domain.play import play, start
from service.domain.rules import RuleSet
from service.domain.state import Phase, Source, Table
from service.domain.turns import action_problem, legal_moves

ACE_HIGH = 14


def _positions(card: Card) -> list[int]:
    return [1, ACE_HIGH] if card.rank is Rank.ACE else [int(card.rank)]


def _is_set(cards: tuple[Card, ...]) -> bool:
    return (
        3 <= len(cards) <= 4
        and len({card.rank for card in cards}) == 1
        and len({card.suit for card in cards}) == len(cards)
    )


def _is_run(cards: tuple[Card, ...]) -> bool:
    if len(cards) < 3 or len({card.suit for card in cards}) != 1:
        return False
    # Some reading of the aces (low or high) makes the positions consecutive.
    readings: list[list[int]] = [[]]
    for card in cards:
        readings = [[*seen, place] for seen in readings for place in _positions(card)]
    for placed in readings:
        ordered = sorted(placed)
        if len(set(ordered)) == len(ordered) and ordered[-1] - ordered[0] == len(ordered) - 1:
            return True
    return False


def _table_positions(meld: TableMeld) -> list[int]:
    """A table run's positions (its cards as laid: low to high)."""
    if meld.cards[0].rank is Rank.ACE and meld.cards[1].rank is not Rank.TWO:
        raise AssertionError("a run never starts with a high ace")
    places = []
    for index, card in enumerate(meld.cards):
        if card.rank is Rank.ACE:
            places.append(1 if index == 0 else ACE_HIGH)
        else:
            places.append(int(card.rank))
    return places


def oracle(called: Card, held: list[Card], table_melds: list[TableMeld], spare: int) -> bool:
    """Whether `held` (holding `called`) can meld or lay off `called` now, leaving
    `spare` cards at least."""
    others = list(held)
    others.remove(called)
    near = [card for card in others if card.rank is called.rank or card.suit is called.suit]
    for size in range(2, len(near) + 1):
        if size + 1 > len(held) - spare:
            break
        for group in combinations(near, size):
            cards = (called, *group)
            if _is_set(cards) or _is_run(cards):
                return True
    for meld in table_melds:
        if meld.kind is MeldKind.SET:
            if (
                meld.cards[0].rank is called.rank
                and len(meld.cards) < 4
                and all(card.suit is not called.suit for card in meld.cards)
                and len(held) - spare >= 1
            ):
                return True
            continue
        if meld.cards[0].suit is not called.suit:
            continue
        places = _table_positions(meld)
        low, high = places[0], places[-1]
        suit_places = {
            place for card in others if card.suit is called.suit for place in _positions(card)
        }
        for target in _positions(called):
            if target > high:
                needed = range(high + 1, target)
            elif target < low:
                needed = range(target + 1, low)
            else:
                continue
            if (target == ACE_HIGH and low == 1) or (target == 1 and high == ACE_HIGH):
                continue  # the ace at both ends
            if (
                all(place in suit_places for place in needed)
                and len(needed) + 1 <= len(held) - spare
            ):
                return True
    return False


def _random_table(seed: int) -> Table:
    rng = random.Random(seed)
    players = rng.randint(2, 4)
    going_out = rng.choice(["any", "discard"])
    rules = RuleSet.from_dict({"variant": "rummy500", "going_out": going_out}, players=players)
    table = Table(rules=rules, seat_count=players, seated=[True] * players)
    decks = SeededDecks(seed=f"pile-{seed}", client_seeds=("",) * players, pack=rules.pack)
    start(table, decks)
    steps = rng.randint(0, 60)
    for step in range(200):
        hand = table.hand
        if hand is None or hand.number != 1:
            break
        if step >= steps and hand.phase is Phase.DRAW:
            break
        seat = hand.turn
        moves = legal_moves(table, seat)
        if moves.draw:
            action: Draw | Meld | LayOff | Discard = Draw(Source.STOCK)
        elif moves.melds and rng.random() < 0.5:
            action = Meld(rng.choice(moves.melds))
        elif moves.lay_offs and rng.random() < 0.5:
            card, meld_id = rng.choice(moves.lay_offs)
            action = LayOff(card, meld_id)
        else:
            action = Discard(rng.choice(moves.discard))
        play(table, seat, [action], decks)
    return table


def _expected(table: Table) -> list[int]:
    hand = table.hand
    assert hand is not None
    seat = hand.turn
    spare = 1 if table.rules.going_out.value == "discard" else 0
    expected = [1]
    for count in range(2, len(hand.discard) + 1):
        taken = hand.discard[-count:]
        if oracle(taken[0], [*hand.hands[seat], *taken], hand.melds, spare):
            expected.append(count)
    return expected


def test_the_random_tables_hold_deep_draws_allowed_and_refused() -> None:
    allowed = refused = 0
    for seed in range(60):
        table = _random_table(seed)
        if table.hand is None or table.hand.number != 1:
            continue
        expected = _expected(table)
        allowed += len(expected) - 1
        refused += len(table.hand.discard) - len(expected)
    assert allowed > 20, allowed
    assert refused > 20, refused


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6))
def test_pile_counts_are_the_brute_forces_and_the_draws_accepted(seed: int) -> None:
    table = _random_table(seed)
    hand = table.hand
    if hand is None or hand.number != 1:
        return  # the hand ended in the random play
    seat = hand.turn
    expected = _expected(table)
    assert list(legal_moves(table, seat).pile_counts) == expected
    for count in range(1, len(hand.discard) + 2):
        problem = action_problem(table, seat, Draw(Source.DISCARD, count))
        assert (problem is None) == (count in expected), (count, problem)
