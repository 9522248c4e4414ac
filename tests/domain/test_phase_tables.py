"""Each engine's phase table (`western/engine.py`, `indian/engine.py`,
`gin/engine.py`): the table
is what the engine plays (every move made in a phase is one the phase allows, and
the hand moves only to a phase the table names), and what the engine enforces (an
action no phase allows is not in the variant)."""

from __future__ import annotations

import random

import pytest

from service.domain import concealed
from service.domain.actions import (
    Action,
    Declare,
    Discard,
    Draw,
    Drop,
    Knock,
    LayOff,
    Meld,
    Pass,
    SubmitGroups,
    Swap,
)
from service.domain.cards import Card
from service.domain.engine import engine_for
from service.domain.errors import NotInVariant
from service.domain.indian import groupings
from service.domain.play import play
from service.domain.rules import RuleSet
from service.domain.state import Phase, Table
from service.domain.turns import action_problem, legal_moves
from tests.domain.tables import VARIANT_RULES, dealt_table


def _choose(table: Table, seat: int, rng: random.Random) -> tuple[Action, ...]:
    hand = table.hand
    assert hand is not None
    moves = legal_moves(table, seat)
    if moves.can_submit:
        assert hand.indian is not None
        assert table.rules.full_count is not None
        found = groupings.best_grouping(hand.hands[seat], hand.indian.wild, table.rules.full_count)
        return (SubmitGroups(found.groups),)
    if moves.can_pass and rng.random() < 0.5:  # gin's upcard offer
        return (Pass(),)
    if moves.draw:
        if moves.can_drop and rng.random() < 0.05:
            return (Drop(),)
        return (Draw(rng.choice(moves.draw)),)
    if moves.can_declare:
        assert hand.indian is not None
        assert table.rules.full_count is not None
        best = groupings.best_declaration(
            hand.hands[seat], hand.indian.wild, table.rules.full_count, keep=hand.taken
        )
        if best.valid:
            return (Declare(best.finish, best.groups),)
    if moves.can_go_out:
        request = concealed.going_out_request(table, seat)
        if request is not None:
            return request
    plays: list[Action] = [Meld(cards, as_) for cards, as_ in moves.meld_readings]
    if not table.rules.has_wilds:
        plays.extend(Meld(cards) for cards in moves.melds)
    plays.extend(LayOff(card, meld_id) for card, meld_id in moves.lay_offs)
    plays.extend(Knock(card) for card in moves.knock[:1])
    if plays and rng.random() < 0.7:
        return (rng.choice(plays),)
    return (Discard(rng.choice(moves.discard)),)


@pytest.mark.parametrize("variant", VARIANT_RULES)
def test_every_move_is_one_its_phase_allows_and_leads_where_the_table_says(variant: str) -> None:
    seen: set[tuple[Phase, type[Action]]] = set()
    for game in range(3):
        table, decks = dealt_table(variant, f"phases/{game}")
        phases = table.engine.phases(table.rules)
        rng = random.Random(game)
        for _ in range(400):
            hand = table.hand
            if hand is None or table.over:
                break
            seat = hand.to_act()
            before, number = hand.phase, hand.number
            request = _choose(table, seat, rng)
            seen.update((before, type(action)) for action in request)
            assert type(request[0]) in phases[before].allows, (before, request)
            play(table, seat, request, decks)
            after = table.hand
            if after is not None and after.number == number and after.phase is not before:
                assert after.phase in phases[before].then, (before, after.phase)
    assert seen, "moves were played"


@pytest.mark.parametrize(
    ("variant", "action"),
    [
        ("classic", Knock(Card.parse("KD"))),
        ("classic", Declare(Card.parse("KD"), ())),
        ("knock", Meld((Card.parse("KD"), Card.parse("KH"), Card.parse("KS")))),
        ("knock", LayOff(Card.parse("KD"), "h1-m1")),
        ("knock", Swap("h1-m1", Card.parse("KD"))),
        ("wild", Drop()),
        ("indian", Meld((Card.parse("KD"), Card.parse("KH"), Card.parse("KS")))),
        ("indian", Knock(Card.parse("KD"))),
        ("indian", Pass()),
        ("classic", Pass()),
        ("gin", Meld((Card.parse("KD"), Card.parse("KH"), Card.parse("KS")))),
        ("gin", LayOff(Card.parse("KD"), "h1-m1")),
        ("gin", Drop()),
        ("gin", Declare(Card.parse("KD"), ())),
        ("rummy500", Knock(Card.parse("KD"))),
        ("rummy500", Declare(Card.parse("KD"), ())),
        ("rummy500", Drop()),
    ],
)
def test_an_action_no_phase_allows_is_not_in_the_variant(variant: str, action: Action) -> None:
    table, _ = dealt_table(variant, "absent")
    phases = table.engine.phases(table.rules)
    assert all(type(action) not in step.allows for step in phases.values())
    assert isinstance(action_problem(table, 0, action), NotInVariant)


def test_the_tables_drop_what_a_variants_features_lack() -> None:
    def table_of(variant: str) -> dict[Phase, tuple[type[Action], ...]]:
        rules = RuleSet.from_dict(VARIANT_RULES[variant], players=2)
        return {phase: step.allows for phase, step in engine_for(rules).phases(rules).items()}

    assert table_of("classic") == {
        Phase.DRAW: (Draw,),
        Phase.PLAY: (Meld, LayOff, Discard),
    }
    assert table_of("wild")[Phase.PLAY] == (Meld, LayOff, Swap, Discard)
    assert table_of("boathouse")[Phase.SECOND_DRAW] == (Draw,)
    assert table_of("knock")[Phase.PLAY] == (Knock, Discard)
    assert table_of("rummy500") == {
        Phase.DRAW: (Draw,),
        Phase.PLAY: (Meld, LayOff, Discard),
    }
    assert table_of("indian") == {
        Phase.DRAW: (Draw, Drop),
        Phase.PLAY: (Discard, Declare),
        Phase.SHOW: (SubmitGroups,),
    }
    assert table_of("gin") == {
        Phase.UPCARD_OFFER: (Draw, Pass),
        Phase.DRAW: (Draw,),
        Phase.PLAY: (Discard, Knock),
    }
