"""The views of one known table: what a player, the public and the admin see.

Ann (seat 0) deals; Bob (seat 1) draws 8D from the stock, lays the run
5D 6D 7D 8D and discards 2C; Ann takes the 2C from the discard pile. So Ann
is in her play phase holding eight cards, Bob holds three, the run is on the
table, the upcard 10H is alone in the discard pile and the stock starts KS 3C.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from service.domain.cards import FULL_DECK, card_codes
from service.domain.rules import RuleSet
from service.domain.state import Source, Table
from service.domain.turns import legal_moves
from service.projections.views import ADMIN, PUBLIC, GameView, Viewer, game_view
from tests.domain.tables import Game, deck_for, new_game
from tests.projections.snapshots import snapshot

ANN, BOB = 0, 1
HANDS = ["AS 2S 3S 4S 9D 9C 9H", "QC 8H 5D 6D 7D JH 2C"]
UPCARD, STOCK = "10H", "8D KS 3C"
NAMES = ("Ann", "Bob")
CARD_CODES = frozenset(card.code for card in FULL_DECK)


def ann_has_taken_the_2c() -> Game:
    game = new_game(HANDS, UPCARD, STOCK, dealer=ANN)
    game.draw(BOB)
    game.meld(BOB, "5D 6D 7D 8D")
    game.discard(BOB, "2C")
    game.draw(ANN, Source.DISCARD)
    return game


def view(table: Table, viewer: Viewer) -> GameView:
    return game_view(snapshot(table, NAMES, version=6), viewer)


def strings(value: Any) -> Iterator[str]:
    """Every string anywhere in a decoded JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def plain(view: GameView) -> dict[str, Any]:
    """The view as a client receives it."""
    decoded: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(view))
    return decoded


def test_a_player_sees_its_own_hand_sorted_and_only_counts_of_the_others() -> None:
    table = ann_has_taken_the_2c().table
    ann = view(table, Viewer(seat=ANN))
    assert ann.my_seat == ANN
    assert ann.my_hand == ["AS", "2C", "2S", "3S", "4S", "9C", "9D", "9H"], "by rank, then suit"
    assert [(p.name, p.hand_count) for p in ann.players] == [("Ann", 8), ("Bob", 3)]
    assert ann.hidden is None
    bob = view(table, Viewer(seat=BOB))
    assert bob.my_hand == ["8H", "JH", "QC"]
    assert not set(bob.my_hand) & set(ann.my_hand)


def test_the_face_up_cards_are_the_same_for_every_caller() -> None:
    table = ann_has_taken_the_2c().table
    views = [view(table, viewer) for viewer in (PUBLIC, Viewer(seat=ANN), Viewer(seat=BOB), ADMIN)]
    for seen in views:
        assert (seen.status, seen.turn, seen.phase, seen.dealer) == ("playing", ANN, "play", ANN)
        assert (seen.discard_top, seen.discard_count) == (UPCARD, 1)
        assert seen.stock_count == 52 - 2 * 7 - 1 - 1
        assert [(m.id, m.kind, m.cards, m.owner) for m in seen.melds] == [
            ("h1-m1", "run", ["5D", "6D", "7D", "8D"], BOB)
        ]
        assert seen.version == 6


def test_the_legal_moves_offered_are_the_domains_own() -> None:
    table = ann_has_taken_the_2c().table
    legal = view(table, Viewer(seat=ANN)).legal
    assert legal is not None
    moves = legal_moves(table, ANN)
    assert legal.draw == [source.value for source in moves.draw] == []
    assert legal.melds == [card_codes(meld) for meld in moves.melds]
    assert ["AS", "2S", "3S", "4S"] in legal.melds
    assert [(o.card, o.meld_id) for o in legal.lay_offs] == [("9D", "h1-m1")]
    assert legal.discard == card_codes(moves.discard)
    assert "2C" not in legal.discard, "the card taken from the discard pile stays this turn"


def test_a_player_whose_turn_it_is_not_is_offered_nothing() -> None:
    legal = view(ann_has_taken_the_2c().table, Viewer(seat=BOB)).legal
    assert legal is not None
    assert (legal.draw, legal.melds, legal.lay_offs, legal.discard) == ([], [], [], [])


def test_the_public_sees_no_hand_no_legal_moves_and_nothing_hidden() -> None:
    public = plain(view(ann_has_taken_the_2c().table, PUBLIC))
    for absent in ("my_seat", "my_hand", "legal", "hidden"):
        assert absent not in public
    face_up = {UPCARD, "5D", "6D", "7D", "8D"}
    # And the 2C everyone saw Ann take from the pile: her one known card.
    assert {code for code in strings(public) if code in CARD_CODES} == face_up | {"2C"}
    assert [player["known_cards"] for player in public["players"] if "known_cards" in player] == [
        ["2C"]
    ]


def test_a_player_sees_no_card_but_its_own_and_the_face_up_ones() -> None:
    game = ann_has_taken_the_2c()
    ann = plain(view(game.table, Viewer(seat=ANN)))
    face_up = {UPCARD, "5D", "6D", "7D", "8D"}
    assert {code for code in strings(ann) if code in CARD_CODES} == face_up | game.held(ANN)


def test_the_admin_sees_every_hand_the_stock_top_first_and_the_discard_pile() -> None:
    game = ann_has_taken_the_2c()
    admin = view(game.table, ADMIN)
    assert admin.my_seat is None
    assert admin.legal is None
    assert admin.hidden is not None
    assert admin.hidden.hands == [
        ["AS", "2C", "2S", "3S", "4S", "9C", "9D", "9H"],
        ["8H", "JH", "QC"],
    ]
    dealt = deck_for(HANDS, UPCARD, STOCK, dealer=ANN)
    after_the_deal_and_the_8d = dealt[2 * 7 + 1 + 1 :]
    assert admin.hidden.stock == card_codes(after_the_deal_and_the_8d)
    assert admin.hidden.stock[:2] == ["KS", "3C"]
    assert admin.hidden.discard_pile == [UPCARD]


def test_a_finished_hand_shows_every_seats_cards_to_everyone() -> None:
    game = new_game(HANDS, UPCARD, STOCK, dealer=ANN)
    game.draw(BOB)
    game.meld(BOB, "5D 6D 7D 8D")
    game.discard(BOB, "2C")
    game.draw(ANN)  # the KS
    game.meld(ANN, "AS 2S 3S 4S")
    game.meld(ANN, "9C 9D 9H")
    game.discard(ANN, "KS")  # out, in one turn: rummy
    result = game.last
    shown = [view(game.table, v).last_hand for v in (PUBLIC, Viewer(seat=BOB), ADMIN)]
    assert shown[0] == shown[1] == shown[2], "laid face up to be counted"
    last = shown[0]
    assert last is not None
    assert (last.hand_number, last.how, last.out_seat, last.rummy) == (1, "rummy", ANN, True)
    assert [(p.seat, p.cards) for p in last.players] == [(ANN, []), (BOB, ["8H", "JH", "QC"])]
    assert [(p.value, p.points, p.total) for p in last.players] == list(
        zip(result.values, result.points, result.totals, strict=True)
    )
    assert [p.score for p in view(game.table, PUBLIC).players] == list(result.totals)


def test_an_open_seat_has_no_name_and_a_waiting_game_no_hand() -> None:
    table = Table(rules=RuleSet(), seat_count=2, seated=[True, False])
    waiting = view(table, Viewer(seat=ANN))
    open_seat = game_view(snapshot(table, ("Ann", None)), Viewer(seat=ANN))
    assert [(p.name, p.hand_count) for p in open_seat.players] == [("Ann", 0), (None, 0)]
    assert (waiting.status, waiting.turn, waiting.phase, waiting.dealer) == (
        "waiting",
        None,
        None,
        None,
    )
    assert (waiting.stock_count, waiting.discard_top, waiting.melds) == (0, None, [])
    assert waiting.my_hand == []
    assert waiting.legal is not None
    assert waiting.legal.draw == []


def test_a_view_of_a_game_gets_its_own_copy_of_the_rules() -> None:
    table = ann_has_taken_the_2c().table
    first = view(table, PUBLIC)
    first.rules["target"] = -1
    assert view(table, PUBLIC).rules == table.rules.shown()
