"""Boathouse Rum under random players and random rule sets: no card lost or
doubled, the legal moves are exactly the moves accepted (and `can_go_out` is
true exactly when a going-out list is accepted), a replay of the events gives
the live table, and every hand ends."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain.decks import SeededDecks
from service.domain.play import start
from service.domain.rule_values import Exhausted, GoingOut, Scoring
from service.domain.rules import RuleSet
from service.domain.state import Table
from tests.domain.concealed_play import Run, replayed, step


def values_of(enum: type[Any]) -> st.SearchStrategy[str]:
    return st.sampled_from([member.value for member in enum])


@st.composite
def runs(draw: st.DrawFn) -> Run:
    options: dict[str, Any] = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "going_out": values_of(GoingOut),
                "recycles": st.integers(0, 2),
                "recycle_shuffle": st.booleans(),
                "exhausted": values_of(Exhausted),
                "max_turns": st.integers(1, 120),
                "scoring": values_of(Scoring),
                # Small hands go out often; ten is the game's own.
                "hand_size": st.integers(1, 5) | st.integers(6, 10),
            },
        )
    )
    if draw(st.booleans()):
        options["deals"] = draw(st.integers(1, 3))
    else:
        options["target"] = draw(st.integers(1, 150))
    rules = RuleSet.from_dict({"variant": "boathouse", **options})
    dealer = draw(st.none() | st.integers(0, 1))
    table = Table(rules=rules, seat_count=2, seated=[True, True], first_dealer=dealer)
    decks = SeededDecks(seed=draw(st.text(max_size=6)), client_seeds=("a", "b"), pack=rules.pack)
    run = Run(table, decks, random.Random(draw(st.integers(0, 2**32))), base=table.copy())
    run.events.extend(start(table, decks))
    return run


@settings(max_examples=40, deadline=None)
@given(runs())
def test_random_boathouse_play_keeps_every_rule_and_replays_to_the_same_table(run: Run) -> None:
    rules = run.table.rules
    # A turn is at most two draws and one going-out list or discard.
    per_hand = rules.max_turns * 3 + 1
    actions_in_hand = 0
    hands_before = 0
    for _ in range(600):
        if run.table.over:
            break
        step(run)
        actions_in_hand += 1
        if run.hands_ended != hands_before:
            hands_before = run.hands_ended
            actions_in_hand = 0
        # Every hand ends: within the turn cap at the latest.
        assert actions_in_hand <= per_hand
    assert replayed(run.base, run.events) == run.table
