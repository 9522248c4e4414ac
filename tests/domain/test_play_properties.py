"""Invariants of play under random legal players, random seeds, two to six seats
and random rule sets: no card is ever lost or doubled, the legal moves are
exactly the moves accepted, and every hand ends."""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any, TypeVar

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from service.domain.actions import Action, Discard, Draw, LayOff, Meld
from service.domain.cards import FULL_DECK, SUITS, Card
from service.domain.decks import SeededDecks
from service.domain.errors import IllegalMove, all_error_classes
from service.domain.legal import NO_MOVES, LegalMoves
from service.domain.play import play, start
from service.domain.presets import MAX_PLAYERS, MIN_PLAYERS
from service.domain.rule_values import (
    Aces,
    Exhausted,
    GoingOut,
    LayOffRule,
    MeldsPerTurn,
    RummyBonus,
    Scoring,
)
from service.domain.rules import RuleSet
from service.domain.state import Phase, Source, Table
from service.domain.turns import action_problem, is_legal, legal_moves, verify
from tests.domain.tables import all_cards, random_legal_action

WHOLE_DECK = Counter(FULL_DECK)
_A = TypeVar("_A", Meld, LayOff, Discard)
MOVE_CODES = {cls.code for cls in all_error_classes() if issubclass(cls, IllegalMove)}


def values_of(enum: type[Any]) -> st.SearchStrategy[str]:
    return st.sampled_from([member.value for member in enum])


@st.composite
def rule_dicts(draw: st.DrawFn, players: int) -> dict[str, Any]:
    """Any rule set for `players` seats, as plain data (the way a game is created)."""
    options: dict[str, Any] = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "aces": values_of(Aces),
                "melds_per_turn": values_of(MeldsPerTurn),
                "lay_off": values_of(LayOffRule),
                "going_out": values_of(GoingOut),
                "rummy_bonus": values_of(RummyBonus),
                "recycles": st.integers(0, 3),
                "recycle_shuffle": st.booleans(),
                "exhausted": values_of(Exhausted),
                "max_turns": st.integers(1, 500),
                "scoring": values_of(Scoring),
            },
        )
    )
    if draw(st.booleans()):
        # At most ten cards each keeps the exhaustive meld check quick.
        options["hand_size"] = draw(st.integers(1, min(10, (52 - 2) // players)))
    if draw(st.booleans()):
        options["deals"] = draw(st.integers(1, 3))
    else:
        options["target"] = draw(st.integers(1, 150))
    return options


@dataclass
class Setup:
    table: Table
    decks: SeededDecks
    rng: random.Random


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    players = draw(st.integers(MIN_PLAYERS, MAX_PLAYERS))
    rules = RuleSet.from_dict(draw(rule_dicts(players)))
    dealer = draw(st.none() | st.integers(0, players - 1))
    seed = draw(st.text(max_size=8))
    table = Table(rules=rules, seat_count=players, seated=[True] * players, first_dealer=dealer)
    decks = SeededDecks(seed=seed, client_seeds=tuple(str(s) for s in range(players)))
    start(table, decks)
    return Setup(table, decks, random.Random(draw(st.integers(0, 2**32))))


def run(setup: Setup, actions: int, before: Callable[[Setup], None] = lambda _: None) -> list[int]:
    """Play up to `actions` random legal moves (fewer if the game ends), calling
    `before` ahead of each; returns the number of actions each finished hand took."""
    table = setup.table
    per_hand: list[int] = []
    in_hand = 0
    for _ in range(actions):
        if table.over:
            break
        before(setup)
        number = table.hand_number
        seat, action = random_legal_action(table, setup.rng)
        play(table, seat, [action], setup.decks)
        in_hand += 1
        if table.hand_number != number or table.over:
            per_hand.append(in_hand)
            in_hand = 0
            assert table.last_hand is not None
            event(f"a hand ended: {table.last_hand.how}")
        elif table.hand is not None and table.hand.recycles:
            event("the stock was recycled")
        if table.hand is not None:
            assert all_cards(table) == WHOLE_DECK
            assert table.hand.turns <= table.rules.max_turns
    return per_hand


# --- no card lost or doubled -----------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(setups())
def test_random_legal_play_never_loses_or_duplicates_a_card(setup: Setup) -> None:
    assert all_cards(setup.table) == WHOLE_DECK
    run(setup, actions=300)


# --- legal moves are exactly the accepted moves ----------------------------------------


def meld_candidates(held: list[Card]) -> set[frozenset[Card]]:
    """Every 3- and 4-card subset of the hand, and every longer run in it
    (consecutive ranks of one suit, also round the corner)."""
    found = {frozenset(group) for size in (3, 4) for group in combinations(held, size)}
    for suit in SUITS:
        ranks = {c.rank.value: c for c in held if c.suit is suit}
        for first in ranks:
            run_ = [ranks[first]]
            for step in range(1, 13):
                nxt = ranks.get((first - 1 + step) % 13 + 1)
                if nxt is None:
                    break
                run_.append(nxt)
                if len(run_) >= 5:
                    found.add(frozenset(run_))
    return found


def check_refused(table: Table, seat: int, action: Action) -> None:
    problem = action_problem(table, seat, action)
    assert problem is not None, f"{action} should be refused"
    assert problem.code in MOVE_CODES
    assert not is_legal(table, seat, action)
    with pytest.raises(IllegalMove) as refused:
        verify(table, seat, action)
    assert refused.value.code == problem.code


def check_legal_moves_exactly(setup: Setup) -> None:
    table = setup.table
    hand = table.hand
    assert hand is not None
    seat = hand.turn
    moves = legal_moves(table, seat)
    for action in moves.actions():
        verify(table, seat, action)
    for other in range(table.seat_count):
        if other != seat:
            assert legal_moves(table, other) == NO_MOVES
            check_refused(table, other, Draw(Source.STOCK))
            check_refused(table, other, Discard(setup.rng.choice(FULL_DECK)))
    for source in Source:
        assert is_legal(table, seat, Draw(source)) == (source in moves.draw)
    held = hand.hands[seat]
    if hand.phase is Phase.DRAW:
        assert moves == LegalMoves(draw=(Source.STOCK, Source.DISCARD))
        for action in sample_moves(setup):
            if not isinstance(action, Draw):
                problem = action_problem(table, seat, action)
                assert problem is not None
                assert problem.code == "wrong_phase"
        return
    event("checked a play phase")
    if moves.lay_offs:
        event("a lay-off was offered")
    if hand.taken is not None and len(moves.discard) < len(held):
        event("the taken card was held back")
    offered = {frozenset(cards) for cards in moves.melds}
    assert len(offered) == len(moves.melds), "each meld is offered once"
    melds = [Meld(tuple(c)) for c in meld_candidates(held)]
    assert {frozenset(m.cards) for m in accepted(table, seat, melds)} == offered
    lay_offs = [LayOff(c, m.id) for c in held for m in hand.melds]
    assert {(a.card, a.meld_id) for a in accepted(table, seat, lay_offs)} == set(moves.lay_offs)
    discards = [Discard(c) for c in FULL_DECK]
    assert {a.card for a in accepted(table, seat, discards)} == set(moves.discard)
    for action in sample_moves(setup):
        if is_legal(table, seat, action):
            assert offered_by(moves, action), f"{action} is accepted but not offered"
        else:
            check_refused(table, seat, action)


def accepted(table: Table, seat: int, actions: list[_A]) -> list[_A]:
    """The actions that are legal now; every other one is refused with a move code."""
    found = []
    for action in actions:
        problem = action_problem(table, seat, action)
        if problem is None:
            found.append(action)
        else:
            assert problem.code in MOVE_CODES
            event(f"refused: {problem.code}")
    return found


def offered_by(moves: LegalMoves, action: Action) -> bool:
    if isinstance(action, Meld):
        return frozenset(action.cards) in {frozenset(m) for m in moves.melds}
    return action in moves.actions()


def sample_moves(setup: Setup) -> list[Action]:
    """A few moves at random: most of them illegal."""
    table, rng = setup.table, setup.rng
    hand = table.hand
    assert hand is not None
    held = hand.hands[hand.turn]
    ids = [m.id for m in hand.melds] + ["h0-m1", f"h{hand.number}-m{hand.melds_laid + 1}"]
    pool = held + rng.sample(FULL_DECK, 4)
    return [
        Meld(tuple(rng.sample(pool, rng.choice((2, 3, 3, 4, 5))))),
        Meld(tuple(rng.sample(held, min(len(held), 3)))),
        LayOff(rng.choice(pool), rng.choice(ids)),
        Discard(rng.choice(pool)),
        Draw(rng.choice(list(Source))),
    ]


def check_refusal_changes_nothing(setup: Setup) -> None:
    table = setup.table
    hand = table.hand
    assert hand is not None
    for action in sample_moves(setup)[:3]:
        if is_legal(table, hand.turn, action):
            continue
        before = copy.deepcopy(table)
        with pytest.raises(IllegalMove):
            play(table, hand.turn, [action], setup.decks)
        assert table == before
        break


@settings(max_examples=25, deadline=None)
@given(setups())
def test_the_legal_moves_are_exactly_the_moves_accepted(setup: Setup) -> None:
    run(setup, actions=150, before=check_legal_moves_exactly)


@settings(max_examples=25, deadline=None)
@given(setups())
def test_a_refused_move_changes_nothing(setup: Setup) -> None:
    run(setup, actions=60, before=check_refusal_changes_nothing)


# --- every hand ends ----------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(setups(), st.integers(1, 500))
def test_every_hand_ends_within_the_turn_cap(setup: Setup, max_turns: int) -> None:
    rules = RuleSet.from_dict({**setup.table.rules.to_dict(), "max_turns": max_turns})
    setup.table.rules = rules
    # A turn is a draw, at most one play per card held, and a discard.
    bound = max_turns * (2 + 52) + 1
    for actions in run(setup, actions=2000):
        assert actions <= bound
