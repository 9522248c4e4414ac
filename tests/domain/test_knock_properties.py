"""Invariants of Knock Rummy under random legal players (test_play_properties.py's
patterns): no card is lost or doubled, the knock card included while it lies out
of play; the legal moves are exactly the moves accepted; replaying the recorded
events rebuilds the live table; every hand ends; every result adds up."""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from service.domain import events
from service.domain.actions import Discard, Draw, Knock, LayOff, Meld, Swap
from service.domain.cards import FULL_DECK
from service.domain.changes import apply
from service.domain.decks import SeededDecks
from service.domain.errors import IllegalMove
from service.domain.events import Event, HandEnded, Knocked
from service.domain.legal import NO_MOVES
from service.domain.play import play, start
from service.domain.presets import MAX_PLAYERS, MIN_PLAYERS, VARIANTS
from service.domain.rule_values import Exhausted, Variant
from service.domain.rules import RuleSet
from service.domain.state import HandEnding, Phase, Source, Table
from service.domain.turns import action_problem, is_legal, legal_moves
from tests.domain import knock_oracle
from tests.domain.tables import all_cards, random_legal_action
from tests.domain.test_play_properties import check_refused, rule_dicts

WHOLE_DECK = Counter(FULL_DECK)


@st.composite
def knock_rule_dicts(draw: st.DrawFn, players: int) -> dict[str, Any]:
    """Any Knock Rummy rule set for `players` seats, as plain data: the classic
    options it keeps, drawn as for any game, and its own."""
    used = VARIANTS[Variant.KNOCK].used
    options = {name: value for name, value in draw(rule_dicts(players)).items() if name in used}
    options |= draw(
        st.fixed_dictionaries(
            {"variant": st.just("knock")},
            optional={
                "ace_value": st.integers(1, 15),
                "knock_penalty": st.integers(0, 50),
                "knock_bonus": st.integers(0, 100),
            },
        )
    )
    return options


@dataclass
class Setup:
    table: Table
    decks: SeededDecks
    rng: random.Random
    first: Table
    """The table before the first deal, to replay onto."""


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    players = draw(st.integers(MIN_PLAYERS, MAX_PLAYERS))
    rules = RuleSet.from_dict(draw(knock_rule_dicts(players)))
    dealer = draw(st.none() | st.integers(0, players - 1))
    table = Table(rules=rules, seat_count=players, seated=[True] * players, first_dealer=dealer)
    decks = SeededDecks(
        seed=draw(st.text(max_size=8)), client_seeds=tuple(str(s) for s in range(players))
    )
    return Setup(table, decks, random.Random(draw(st.integers(0, 2**32))), copy.deepcopy(table))


class Recorder:
    """Applies each event and keeps it; checks the pack is whole after each event,
    and each hand's result against the table it ends, before applying it."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.events: list[Event] = []

    def __call__(self, made: Event) -> None:
        if isinstance(made, HandEnded):
            check_result(self.table, made)
        apply(self.table, made)
        self.events.append(made)
        hand = self.table.hand
        if hand is not None:
            assert all_cards(self.table) == WHOLE_DECK
            if isinstance(made, Knocked):
                # Between the knock and the result: the card lies out of play.
                assert hand.out_of_play == [made.card]
                assert made.card not in hand.hands[made.seat]
                assert made.card not in hand.discard


def run(setup: Setup, actions: int, before: Any = None) -> tuple[Recorder, list[int]]:
    """Play up to `actions` random legal moves, recording every event; returns the
    recorder and the number of actions each finished hand took."""
    table = setup.table
    recorder = Recorder(table)
    start(table, setup.decks, recorder)
    per_hand: list[int] = []
    in_hand = 0
    for _ in range(actions):
        if table.over:
            break
        if before is not None:
            before(setup)
        number = table.hand_number
        seat, action = random_legal_action(table, setup.rng)
        play(table, seat, [action], setup.decks, recorder)
        in_hand += 1
        if table.hand_number != number or table.over:
            per_hand.append(in_hand)
            in_hand = 0
    if table.finished:
        event("a game finished")
    return recorder, per_hand


# --- no card lost or doubled; every result adds up ------------------------------------------


def check_result(table: Table, ended: HandEnded) -> None:
    """A result checked against the hand it ends (not yet applied to `table`) and the
    oracle's counts."""
    rules = table.rules
    hand = table.hand
    assert hand is not None
    assert ended.counts is not None
    assert ended.unmatched is not None
    assert ended.arranged is not None
    for seat, held in enumerate(ended.remaining):
        assert list(held) == hand.hands[seat]
        best = knock_oracle.best(held, rules)
        assert ended.counts[seat] == best.count
        assert ended.unmatched[seat] == best.unmatched
        for meld in ended.arranged[seat]:
            assert knock_oracle.is_meld(meld, rules.aces)
    assert all(points >= 0 for points in ended.points)
    assert ended.totals == tuple(t + p for t, p in zip(table.totals, ended.points, strict=True))
    if ended.how is HandEnding.KNOCK:
        event("a hand ended by a knock")
        knocker = ended.knocker
        assert knocker is not None
        assert ended.pot is not None
        assert [ended.knock_card] == hand.out_of_play
        others = [ended.counts[s] for s in range(len(ended.counts)) if s != knocker]
        if min(others) <= ended.counts[knocker]:
            event("the knocker was undercut")
            assert ended.points[knocker] == 0
        else:
            event("the knocker won")
            assert ended.points[knocker] == ended.pot
        assert sum(ended.points) <= ended.pot
    else:
        event(f"a hand ended: {ended.how}")
        assert (ended.knocker, ended.knock_card, ended.pot) == (None, None, None)
        if rules.exhausted is Exhausted.VOID:
            assert not any(ended.points)


@settings(max_examples=60, deadline=None)
@given(setups())
def test_random_knock_games_keep_every_card_and_every_result_adds_up(setup: Setup) -> None:
    run(setup, actions=300)


# --- legal moves are exactly the accepted moves -------------------------------------------


def check_legal_moves_exactly(setup: Setup) -> None:
    table = setup.table
    hand = table.hand
    assert hand is not None
    seat = hand.turn
    moves = legal_moves(table, seat)
    assert (moves.melds, moves.lay_offs, moves.swaps, moves.meld_readings) == ((), (), (), ())
    for other in range(table.seat_count):
        if other != seat:
            assert legal_moves(table, other) == NO_MOVES
            check_refused(table, other, Knock(setup.rng.choice(FULL_DECK)))
    for source in Source:
        assert is_legal(table, seat, Draw(source)) == (source in moves.draw)
    knocks = {c for c in FULL_DECK if is_legal(table, seat, Knock(c))}
    discards = {c for c in FULL_DECK if is_legal(table, seat, Discard(c))}
    assert knocks == set(moves.knock)
    assert discards == set(moves.discard)
    if hand.phase is Phase.DRAW:
        assert not knocks
        return
    event("checked a play phase")
    # A knock is a discard face down: the same cards, never the one just taken.
    assert knocks == discards
    assert hand.taken not in knocks
    held = hand.hands[seat]
    for action in (
        Meld(tuple(setup.rng.sample(held, min(3, len(held))))),
        LayOff(setup.rng.choice(held), "h1-m1"),
        Swap("h1-m1", setup.rng.choice(held)),
    ):
        problem = action_problem(table, seat, action)
        assert problem is not None
        assert problem.code == "not_in_variant"


@settings(max_examples=25, deadline=None)
@given(setups())
def test_the_legal_moves_are_exactly_the_moves_accepted(setup: Setup) -> None:
    run(setup, actions=150, before=check_legal_moves_exactly)


def test_a_refused_knock_changes_nothing() -> None:
    rules = RuleSet.from_dict({"variant": "knock"})
    table = Table(rules=rules, seat_count=2, seated=[True, True], first_dealer=0)
    decks = SeededDecks(seed="refused", client_seeds=("", ""))
    start(table, decks)
    assert table.hand is not None
    before = copy.deepcopy(table)
    with pytest.raises(IllegalMove):
        play(table, 1, [Knock(table.hand.hands[1][0])], decks)  # before the draw
    assert table == before


# --- replay = live ----------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(setups())
def test_replaying_the_stored_events_rebuilds_the_live_table(setup: Setup) -> None:
    recorder, _ = run(setup, actions=300)
    replayed = setup.first
    for made in recorder.events:
        name, data = events.plain(made)
        apply(replayed, events.from_plain(name, events.actor(made), data))
        if isinstance(made, Knocked):
            event("replayed a knock")
    assert replayed == setup.table


# --- every hand ends ---------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(setups(), st.integers(1, 200))
def test_every_hand_ends_within_the_turn_cap(setup: Setup, max_turns: int) -> None:
    setup.table.rules = RuleSet.from_dict({**setup.table.rules.to_dict(), "max_turns": max_turns})
    # A turn is a draw and a discard or a knock; the draw from an empty stock may
    # end the hand before the cap.
    for actions in run(setup, actions=1500)[1]:
        assert actions <= 2 * max_turns
