"""Each event is defined once: its plain form, its name and its actor are read off
its dataclass, and reading the plain form back gives the same event."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from service.domain import events
from service.domain.cards import FULL_DECK, Card
from service.domain.decks import SeededDecks
from service.domain.errors import UnknownCard
from service.domain.indian.judge import Group, GroupKind
from service.domain.melds import MeldKind
from service.domain.play import play, start
from service.domain.rules import RuleSet
from service.domain.state import (
    AbortedBy,
    DropKind,
    GinFinal,
    HandEnding,
    KnockKind,
    LaidOff,
    LeaveReason,
    Source,
    Table,
)
from tests.domain.tables import random_legal_action


def played_events(seed: int, players: int = 3, moves: int = 400) -> list[events.Event]:
    """The events of `moves` random legal moves of a game that deals one card less
    than the stock can bear, so stocks run out and get recycled."""
    rng = random.Random(seed)
    table = Table(
        rules=RuleSet(hand_size=10, target=40), seat_count=players, seated=[True] * players
    )
    decks = SeededDecks(seed=f"events-{seed}", client_seeds=("",) * players)
    made = start(table, decks)
    for _ in range(moves):
        if table.hand is None:
            break
        seat, action = random_legal_action(table, rng)
        made += play(table, seat, [action], decks)
    return made


JK, AS = Card.parse("JK"), Card.parse("AS")
RUN = (Card.parse("5S"), Card.parse("6S"), Card.parse("7S"))
MELD_WITH_JOKER = events.MeldLaid(
    seat=0,
    meld_id="h2-m1",
    kind=MeldKind.SET,
    cards=(AS, Card.parse("AD"), JK),
    as_=(AS, Card.parse("AD"), Card.parse("AH")),
)
EXAMPLES = [
    *(event for seed in range(6) for event in played_events(seed)),
    events.WildSwapped(seat=1, meld_id="h1-m2", card=AS, wild=JK, as_=AS),
    events.Knocked(seat=0, card=JK),
    MELD_WITH_JOKER,
    events.HandDealt(hand_number=2, dealer=2, deck=tuple(FULL_DECK), seats=(0, 2)),
    events.Declared(
        seat=2,
        card=AS,
        groups=(Group(RUN, GroupKind.PURE_SEQUENCE), Group((AS, JK), GroupKind.INVALID)),
        valid=False,
        points=80,
    ),
    events.GroupsSubmitted(seat=1, groups=(Group(RUN, GroupKind.PURE_SEQUENCE),), points=34),
    events.PlayerDropped(seat=0, kind=DropKind.MIDDLE, points=40),
    events.PlayerEliminated(player=0, score=104),
    events.TurnTimedOut(player=1, timeouts=2),
    events.PlayerLeft(player=1, reason=LeaveReason.TIMED_OUT, replaced=True),
    events.PlayerLeft(
        player=2, reason=LeaveReason.RESIGNED, replaced=False, drop=DropKind.FIRST, points=20
    ),
    events.GameAborted(by=AbortedBy.CAP, reason="max_hands: the cap of 2 hands dealt is reached."),
    events.TimeBankUsed(player=1, seconds=12),
    # Gin: a pass, big gin (no card) with its arrangement, a result with lay-offs.
    events.UpcardPassed(seat=1),
    events.Knocked(
        seat=1,
        card=None,
        kind=KnockKind.BIG_GIN,
        melds=((AS, Card.parse("2S"), Card.parse("3S")),),
    ),
    events.GameFinished(
        winner=0,
        totals=(250, 0),
        result=(
            GinFinal(hands_won=2, box=50, game_bonus=100, shutout=True, total=250),
            GinFinal(hands_won=0, box=0, game_bonus=0, shutout=False, total=0),
        ),
    ),
    events.HandEnded(
        hand_number=1,
        how=HandEnding.KNOCK,
        out_seat=None,
        remaining=((AS,), (JK,)),
        values=(1, 0),
        points=(5, 0),
        totals=(5, 0),
        knocker=0,
        deadwood=((AS,), ()),
        laid_off=((), (LaidOff(card=JK, meld=0),)),
        hand_winner=0,
    ),
]


def test_the_examples_hold_every_kind_of_event_but_a_join() -> None:
    kinds = {type(event) for event in EXAMPLES}
    assert kinds == set(events.EVENTS) - {events.PlayerJoined}


def test_every_event_read_back_from_its_plain_form_is_the_same_event() -> None:
    for event in [events.PlayerJoined(seat=2), *EXAMPLES]:
        name, data = events.plain(event)
        encoded = json.loads(json.dumps(data))
        assert events.from_plain(name, events.actor(event), encoded) == event


def test_the_plain_form_holds_codes_values_and_lists() -> None:
    event = events.MeldLaid(
        seat=1,
        meld_id="h1-m1",
        kind=MeldKind.RUN,
        cards=(Card.parse("7H"), Card.parse("8H"), Card.parse("9H")),
    )
    assert events.plain(event) == (
        "meld_laid",
        {"meld_id": "h1-m1", "kind": "run", "cards": ["7H", "8H", "9H"]},
    )


def test_the_player_events_are_exactly_those_with_a_seat() -> None:
    with_seat = {
        event_type
        for event_type in events.EVENTS
        if "seat" in {field.name for field in dataclasses.fields(event_type)}
    }
    assert set(events.PLAYER_EVENTS) == with_seat
    for event in EXAMPLES:
        assert events.actor(event) == getattr(event, "seat", None)


def test_an_actor_is_stored_beside_the_data_not_in_it() -> None:
    for event in EXAMPLES:
        _, data = events.plain(event)
        assert "seat" not in data


def test_each_event_is_named_for_its_class_in_snake_case() -> None:
    names = [events.name_of(event_type) for event_type in events.EVENTS]
    assert names == [
        "player_joined",
        "hand_dealt",
        "card_drawn",
        "meld_laid",
        "card_laid_off",
        "card_discarded",
        "stock_recycled",
        "hand_ended",
        "game_finished",
        "wild_swapped",
        "knocked",
        "declared",
        "groups_submitted",
        "player_dropped",
        "player_eliminated",
        "turn_timed_out",
        "player_left",
        "game_aborted",
        "time_bank_used",
        "upcard_passed",
    ]


def test_a_keyword_field_is_named_without_its_underscore_and_a_default_is_left_out() -> None:
    plain_meld = events.plain(MELD_WITH_JOKER)[1]
    assert plain_meld["as"] == ["AS", "AD", "AH"]
    assert "as_" not in plain_meld
    classic_draw = events.CardDrawn(seat=0, source=Source.STOCK, card=AS)
    assert events.plain(classic_draw)[1] == {"source": "stock", "card": "AS"}
    second = events.CardDrawn(seat=0, source=Source.STOCK, card=AS, second=True)
    assert events.plain(second)[1]["second"] is True
    assert events.from_plain("card_drawn", 0, {"source": "stock", "card": "AS"}) == classic_draw


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"drop": "card"}, TypeError),
        ({"set": ("card", "11H")}, UnknownCard),
        ({"set": ("source", "hand")}, ValueError),
    ],
    ids=["missing field", "bad card", "bad enum"],
)
def test_a_plain_form_that_is_not_the_event_s_is_refused(
    change: dict[str, Any], error: type[Exception]
) -> None:
    data: dict[str, Any] = {"source": "stock", "card": "10H"}
    if "drop" in change:
        del data[change["drop"]]
    if "set" in change:
        data[change["set"][0]] = change["set"][1]
    with pytest.raises(error):
        events.from_plain("card_drawn", 0, data)


def test_a_player_s_event_needs_its_seat() -> None:
    with pytest.raises(TypeError, match="needs the seat"):
        events.from_plain("card_discarded", None, {"card": "10H"})


def test_a_deal_reads_back_with_its_whole_deck() -> None:
    dealt = events.HandDealt(hand_number=1, dealer=0, deck=FULL_DECK)
    name, data = events.plain(dealt)
    assert data["deck"] == [card.code for card in FULL_DECK]
    assert events.from_plain(name, None, data).deck == FULL_DECK  # type: ignore[union-attr]
