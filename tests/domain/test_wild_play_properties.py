"""Invariants of play in `variant: wild` games under random legal players, random
seeds, two to six seats and random wild options (jokers, a wild rank, min_natural,
swaps, meld_now, penalties, every classic option): the whole pack is accounted for
as a multiset at every step, `legal` is exactly what is accepted (readings, wild
lay-offs and swaps included), replaying the events rebuilds the live table, and
every hand ends."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from service.domain import wilds
from service.domain.actions import Action, Discard, Draw, LayOff, Meld, Swap
from service.domain.cards import FULL_DECK, RANKS, Card
from service.domain.changes import apply
from service.domain.decks import SeededDecks
from service.domain.errors import IllegalMove, all_error_classes
from service.domain.events import Event, WildSwapped, from_plain, plain
from service.domain.legal import NO_MOVES, LegalMoves
from service.domain.melds import MeldKind
from service.domain.play import play, start
from service.domain.rule_values import SwappedWild
from service.domain.rules import RuleSet
from service.domain.state import Phase, Source, Table
from service.domain.turns import action_problem, decide, legal_moves
from tests.domain.test_play_properties import rule_dicts, values_of

MOVE_CODES = {cls.code for cls in all_error_classes() if issubclass(cls, IllegalMove)}


@st.composite
def wild_rule_dicts(draw: st.DrawFn, players: int) -> dict[str, Any]:
    """Any `wild` rule set: the classic options as the classic properties draw them,
    and the wild ones."""
    options: dict[str, Any] = draw(rule_dicts(players))
    options.update(
        draw(
            st.fixed_dictionaries(
                {"variant": st.just("wild"), "jokers": st.integers(0, 2)},
                optional={
                    "min_natural": st.integers(1, 3),
                    "swap": st.booleans(),
                    "swapped_wild": values_of(SwappedWild),
                    "wild_penalty": st.integers(0, 50),
                    "ace_value": st.none() | st.integers(1, 15),
                },
            )
        )
    )
    if options["jokers"] == 0 or draw(st.booleans()):
        options["wild_rank"] = draw(st.sampled_from([rank.code for rank in RANKS]))
    # At most seven cards each keeps the exhaustive checks below quick.
    options["hand_size"] = draw(st.integers(2, min(7, (52 - 2) // players)))
    return options


@dataclass
class Setup:
    table: Table
    decks: SeededDecks
    rng: random.Random
    events: list[Event]
    players: int
    dealer: int | None


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    players = draw(st.integers(2, 6))
    rules = RuleSet.from_dict(draw(wild_rule_dicts(players)))
    dealer = draw(st.none() | st.integers(0, players - 1))
    seed = draw(st.text(max_size=8))
    table = Table(rules=rules, seat_count=players, seated=[True] * players, first_dealer=dealer)
    decks = SeededDecks(
        seed=seed, client_seeds=tuple(str(s) for s in range(players)), pack=rules.pack
    )
    events = start(table, decks)
    rng = random.Random(draw(st.integers(0, 2**32)))
    return Setup(table, decks, rng, events, players, dealer)


def random_request(setup: Setup) -> tuple[int, list[Action]]:
    """A legal request for the seat to play: mostly melds, lay-offs and swaps (a
    `meld_now` swap with a meld or lay-off of the wild it takes), else a discard."""
    table, rng = setup.table, setup.rng
    hand = table.hand
    assert hand is not None
    seat = hand.turn
    moves = legal_moves(table, seat)
    if moves.draw:
        return seat, [Draw(rng.choice(moves.draw))]
    plays = [a for a in moves.actions() if isinstance(a, Meld | LayOff | Swap)]
    if plays and rng.random() < 0.8:
        action = rng.choice(plays)
        if not isinstance(action, Swap) or table.rules.swapped_wild is SwappedWild.FREE:
            return seat, [action]
        trial = table.copy()
        (swapped,) = decide(trial, seat, action, setup.decks)
        assert isinstance(swapped, WildSwapped)
        apply(trial, swapped)
        uses = [
            follow
            for follow in legal_moves(trial, seat).actions()
            if (isinstance(follow, Meld) and swapped.wild in follow.cards)
            or (isinstance(follow, LayOff) and follow.card == swapped.wild)
        ]
        if uses:
            event("a meld_now swap with its meld or lay-off")
            return seat, [action, rng.choice(uses)]
    return seat, [Discard(rng.choice(moves.discard))]


def run(setup: Setup, requests: int, check: bool = False) -> list[int]:
    """Play up to `requests` random legal requests; returns the requests each finished
    hand took. Checks the pack at every step, and `legal` too when `check`."""
    table = setup.table
    per_hand: list[int] = []
    in_hand = 0
    for _ in range(requests):
        if table.over:
            break
        if check:
            check_legal_exactly(setup)
        number = table.hand_number
        seat, actions = random_request(setup)
        setup.events.extend(play(table, seat, actions, setup.decks))
        for action in actions:
            event(f"played {type(action).__name__}")
        in_hand += 1
        if table.hand_number != number or table.over:
            per_hand.append(in_hand)
            in_hand = 0
            assert table.last_hand is not None
            event(f"a hand ended: {table.last_hand.how}")
        if table.hand is not None:
            assert Counter(table.hand.cards()) == Counter(table.rules.pack)
            assert table.hand.turns <= table.rules.max_turns
    return per_hand


# --- the whole pack, and replay ---------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(setups())
def test_random_legal_play_keeps_the_pack_and_replays_to_the_live_table(setup: Setup) -> None:
    assert Counter(setup.table.hand.cards() if setup.table.hand else ()) == Counter(
        setup.table.rules.pack
    )
    run(setup, requests=300)
    rebuilt = Table(
        rules=setup.table.rules,
        seat_count=setup.players,
        seated=[True] * setup.players,
        first_dealer=setup.dealer,
    )
    for made in setup.events:
        name, data = plain(made)
        seat = getattr(made, "seat", None)
        assert from_plain(name, seat, data) == made
        apply(rebuilt, made)
    assert rebuilt == setup.table


# --- legal moves are exactly the accepted moves -----------------------------------------


def multiset(cards: tuple[Card, ...] | list[Card]) -> tuple[str, ...]:
    return tuple(sorted(card.code for card in cards))


def accepted(table: Table, seat: int, action: Action) -> bool:
    problem = action_problem(table, seat, action)
    if problem is not None:
        assert problem.code in MOVE_CODES
    return problem is None


def check_legal_exactly(setup: Setup) -> None:
    table = setup.table
    hand = table.hand
    assert hand is not None
    rules = table.rules
    seat = hand.turn
    moves = legal_moves(table, seat)
    for action in moves.actions():
        assert accepted(table, seat, action), action
    for other in range(table.seat_count):
        if other != seat:
            assert legal_moves(table, other) == NO_MOVES
    if hand.phase is Phase.DRAW:
        assert moves == LegalMoves(draw=(Source.STOCK, Source.DISCARD))
        for meld in hand.melds:
            problem = action_problem(table, seat, Swap(meld.id, hand.hands[seat][0]))
            assert problem is not None
            assert problem.code == ("wrong_phase" if rules.swap else "invalid_swap")
        return
    event("checked a play phase")
    held = hand.hands[seat]
    # Melds: every sub-multiset of 3 to 5 cards, each reading the judge finds.
    offered = {multiset(cards) for cards in moves.melds}
    assert len(offered) == len(moves.melds), "each meld is offered once"
    offered_readings: dict[tuple[str, ...], set[Any]] = {}
    for cards, as_ in moves.meld_readings:
        key = wilds.Reading(MeldKind.SET, cards, as_).key
        offered_readings.setdefault(multiset(cards), set()).add(key)
    assert sum(len(keys) for keys in offered_readings.values()) == len(moves.meld_readings)
    groups = {
        multiset(group): group
        for size in range(3, min(5, len(held)) + 1)
        for group in combinations(held, size)
    }
    for codes, group in groups.items():
        good = {
            reading.key
            for reading in wilds.readings(group, rules)
            if accepted(table, seat, Meld(reading.cards, reading.as_))
        }
        assert (codes in offered) == bool(good), codes
        if any(wilds.is_wild(card, rules) for card in group):
            assert offered_readings.get(codes, set()) == good, codes
            if good:
                event("a meld with a wild was offered")
        if accepted(table, seat, Meld(tuple(group))):
            assert codes in offered
    # Lay-offs and swaps: every distinct card held, onto every meld, as every card.
    distinct = list({card.code: card for card in held}.values())
    for meld in hand.melds:
        for card in distinct:
            if wilds.is_wild(card, rules):
                good_as = {
                    stands
                    for stands in FULL_DECK
                    if accepted(table, seat, LayOff(card, meld.id, stands))
                }
                assert good_as == {
                    s for c, m, s in moves.wild_lay_offs if c == card and m == meld.id
                }
                if accepted(table, seat, LayOff(card, meld.id)):
                    assert good_as
                if good_as:
                    event("a wild lay-off was offered")
            else:
                fits = accepted(table, seat, LayOff(card, meld.id))
                assert fits == ((card, meld.id) in moves.lay_offs)
            swap = accepted(table, seat, Swap(meld.id, card))
            assert swap == any(m == meld.id and c == card for m, c, _ in moves.swaps)
            if swap:
                event("a swap was offered")
    assert {c for c in distinct if accepted(table, seat, Discard(c))} == set(moves.discard)


@settings(max_examples=60, deadline=None)
@given(setups())
def test_the_legal_moves_are_exactly_the_moves_accepted(setup: Setup) -> None:
    run(setup, requests=120, check=True)


# --- every hand ends ---------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(setups())
def test_every_hand_ends_within_the_turn_cap(setup: Setup) -> None:
    # A turn is a draw, at most one play per card of the pack, and a discard.
    bound = setup.table.rules.max_turns * (2 + len(setup.table.rules.pack)) + 1
    for requests in run(setup, requests=1500):
        assert requests <= bound
