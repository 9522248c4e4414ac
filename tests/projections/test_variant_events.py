"""The variants' events as each caller sees them (docs/api.md, "Variants"): swaps,
readings and second draws are face up; the knock card is face down until the
hand's result shows it.

The stored form of each event is the domain's own plain form (`events.plain`),
so these read exactly what the store would hold.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from service.domain.cards import Card
from service.domain.changes import apply
from service.domain.events import (
    CardDrawn,
    CardLaidOff,
    Event,
    HandDealt,
    HandEnded,
    Knocked,
    MeldLaid,
    WildSwapped,
    actor,
    plain,
)
from service.domain.melds import End, MeldKind
from service.domain.rules import RuleSet
from service.domain.state import HandEnding, Source
from service.projections.event_views import event_view
from service.projections.hand_results import last_hand
from service.projections.views import ADMIN, PUBLIC, Viewer, game_view
from tests.domain.tables import deck_for, seated_game
from tests.projections.recorded import STARTED, Recorded
from tests.projections.snapshots import snapshot

ANN, BOB, CLEO = 0, 1, 2
VIEWERS = {
    "public": PUBLIC,
    "Ann": Viewer(seat=ANN),
    "Bob": Viewer(seat=BOB),
    "Cleo": Viewer(seat=CLEO),
    "admin": ADMIN,
}
KNOCK = RuleSet.from_dict({"variant": "knock"})
WILD = RuleSet.from_dict({"variant": "wild"})


def c(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes.split())


def stored(event: Event, version: int = 5) -> Recorded:
    name, data = plain(event)
    return Recorded(version, name, data, actor(event), STARTED)


HEAD = "cd" * 32
"""A live chain head, as the caller of `event_view` gives it."""


def seen(event: Event, who: str, rules: RuleSet = WILD) -> dict[str, Any]:
    view = event_view(stored(event), VIEWERS[who], rules, seat_count=3, chain=HEAD)
    decoded: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(view))
    assert decoded.pop("chain") == HEAD  # the live head: service/projections/chain_heads.py
    return decoded


def by_everyone(event: Event, rules: RuleSet = WILD) -> dict[str, Any]:
    bodies = [seen(event, who, rules) for who in VIEWERS]
    assert all(body == bodies[0] for body in bodies), bodies
    return bodies[0]


@pytest.mark.parametrize("who", ["public", "Ann", "Bob", "Cleo"])
def test_the_knock_card_is_shown_to_no_player_not_even_the_knocker(who: str) -> None:
    body = seen(Knocked(seat=BOB, card=Card.parse("KD")), who, KNOCK)
    assert (body["type"], body["seat"]) == ("knocked", BOB)
    assert "card" not in body
    assert "KD" not in msgspec.json.encode(body).decode()


def test_the_admin_sees_the_knock_card() -> None:
    assert seen(Knocked(seat=BOB, card=Card.parse("KD")), "admin", KNOCK)["card"] == "KD"


KNOCKED_HAND = HandEnded(
    hand_number=1,
    how=HandEnding.KNOCK,
    out_seat=None,
    remaining=(c("2C 2D 2H 9S"), c("3C 4C 5C 8D JH"), c("KS QS")),
    values=(15, 28, 20),
    points=(0, 0, 33),
    totals=(0, 0, 33),
    knocker=BOB,
    knock_card=Card.parse("KD"),
    pot=33,
    counts=(9, 18, 20),
    unmatched=(c("9S"), c("JH 8D"), c("KS QS")),
    arranged=((c("2C 2D 2H"),), (c("3C 4C 5C"),), ()),
)


def test_the_result_of_a_knock_shows_everyone_the_knock_card_counts_and_melds() -> None:
    body = by_everyone(KNOCKED_HAND, KNOCK)
    assert (body["how"], body["knocker"], body["knock_card"], body["pot"]) == (
        "knock",
        BOB,
        "KD",
        33,
    )
    assert [(seat["count"], seat["unmatched"], seat["melds"]) for seat in body["players"]] == [
        (9, ["9S"], [["2C", "2D", "2H"]]),
        (18, ["8D", "JH"], [["3C", "4C", "5C"]]),
        (20, ["QS", "KS"], []),
    ]


def test_a_classic_result_has_none_of_the_knock_fields() -> None:
    ended = HandEnded(
        hand_number=1,
        how=HandEnding.OUT,
        out_seat=ANN,
        remaining=((), c("KS"), c("2C")),
        values=(0, 10, 2),
        points=(12, 0, 0),
        totals=(12, 0, 0),
    )
    body = by_everyone(ended, RuleSet())
    assert not {"knocker", "knock_card", "pot"} & set(body)
    assert all(
        set(seat) == {"seat", "cards", "value", "points", "total"} for seat in body["players"]
    )


def test_a_swap_is_face_up_for_everyone() -> None:
    swapped = WildSwapped(
        seat=ANN,
        meld_id="h1-m1",
        card=Card.parse("7H"),
        wild=Card.parse("JK"),
        as_=Card.parse("7H"),
    )
    body = by_everyone(swapped)
    assert {key: body[key] for key in ("type", "seat", "meld_id", "card", "wild", "as")} == {
        "type": "wild_swapped",
        "seat": ANN,
        "meld_id": "h1-m1",
        "card": "7H",
        "wild": "JK",
        "as": "7H",
    }


def test_readings_of_melds_and_lay_offs_are_face_up_for_everyone() -> None:
    laid = MeldLaid(
        seat=BOB,
        meld_id="h1-m1",
        kind=MeldKind.RUN,
        cards=c("5H 6H JK"),
        as_=c("5H 6H 7H"),
    )
    assert by_everyone(laid)["as"] == ["5H", "6H", "7H"]
    off = CardLaidOff(
        seat=ANN, meld_id="h1-m1", card=Card.parse("JK"), end=End.HIGH, as_=Card.parse("8H")
    )
    assert by_everyone(off)["as"] == "8H"


def test_a_meld_without_wilds_has_no_as() -> None:
    laid = MeldLaid(seat=BOB, meld_id="h1-m1", kind=MeldKind.SET, cards=c("5H 5D 5C"))
    assert "as" not in by_everyone(laid, RuleSet())


@pytest.mark.parametrize(("second", "shown"), [(True, True), (False, False)])
def test_the_second_draw_is_marked_and_a_first_draw_is_as_before(second: bool, shown: bool) -> None:
    drawn = CardDrawn(seat=BOB, source=Source.DISCARD, card=Card.parse("9H"), second=second)
    body = by_everyone(drawn)
    assert body.get("second", False) is shown
    assert ("second" in body) is shown


def test_the_view_of_a_result_is_the_events_result() -> None:
    shown = msgspec.to_builtins(last_hand(KNOCKED_HAND))
    body = by_everyone(KNOCKED_HAND, KNOCK)
    assert {key: body[key] for key in shown} == shown


def test_a_knock_card_in_play_is_counted_for_players_and_shown_only_to_the_admin() -> None:
    game = seated_game(KNOCK, 2, dealer=ANN, explicit=(deck_for([ANN_CARDS, BOB_CARDS], "KH"),))
    apply(game.table, CardDrawn(seat=BOB, source=Source.STOCK, card=Card.parse("AC")))
    apply(game.table, Knocked(seat=BOB, card=Card.parse("9C")))
    for viewer in (PUBLIC, Viewer(seat=ANN), Viewer(seat=BOB)):
        view = msgspec.to_builtins(game_view(snapshot(game.table, ["Ann", "Bob"]), viewer))
        assert view["out_of_play_count"] == 1
        assert "hidden" not in view
        assert "9C" not in msgspec.json.encode(view).decode()
    admin = game_view(snapshot(game.table, ["Ann", "Bob"]), ADMIN)
    assert admin.hidden is not None
    assert admin.hidden.out_of_play == ["9C"]


ANN_CARDS = "KD QD JD 10C 9D 2D 3D 5C 6C 8D"
BOB_CARDS = "AS 2S 3S 4S 4H 5H 6H 7C 8C 9C"


def test_wrotham_s_deal_shows_no_upcard_and_the_starter_s_eight_cards() -> None:
    # Wrotham deals 7 rounds from the starter (after the dealer), then deck[7n] to
    # the starter; no upcard, the stock starts at deck[7n + 1].
    wrotham = RuleSet.from_dict({"variant": "wrotham"})
    deck = tuple(wrotham.pack)
    dealt = HandDealt(hand_number=1, dealer=ANN, deck=deck)
    for who, seat in (("Bob", BOB), ("Cleo", CLEO), ("Ann", ANN)):
        view = seen(dealt, who, wrotham)
        assert view["upcard"] is None
        assert view["stock_count"] == 55 - 7 * 3 - 1
        expected = [deck[round_ * 3 + (seat - BOB) % 3].code for round_ in range(7)]
        if seat == BOB:  # the starter
            expected.append(deck[21].code)
        assert sorted(view["my_cards"], key=lambda code: Card.parse(code).sort_key) == sorted(
            expected, key=lambda code: Card.parse(code).sort_key
        )
    classic = seen(dealt, "Bob", RuleSet())
    assert classic["upcard"] == deck[21].code  # classic deals 7 each to 3 seats: deck[21]
