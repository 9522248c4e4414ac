"""500 Rum as each caller sees it (docs/api.md "500 Rum"): the whole spread pile,
each player's `melded_points`, `legal.pile_counts`, the called card in its taker's
view only, the taken cards public in `card_drawn`, and the result's per-seat
`melded_points`, `in_hand`, `points`, `total`."""

from __future__ import annotations

from typing import Any

import msgspec

from service.domain.events import CardDrawn, HandEnded
from service.domain.state import HandEnding
from service.projections.event_views import event_view
from service.projections.views import ADMIN, PUBLIC, Viewer, game_view
from tests.domain.tables import Game, cards
from tests.domain.test_rummy500 import pile, three_player_pile
from tests.projections.snapshots import snapshot
from tests.projections.test_variant_events import stored

NAMES = ["Ann", "Bob", "Cleo"]
VIEWERS = {"public": PUBLIC, "Ann": Viewer(seat=0), "Bob": Viewer(seat=1), "admin": ADMIN}


def view(game: Game, who: str) -> dict[str, Any]:
    made = game_view(snapshot(game.table, NAMES), VIEWERS[who])
    decoded: dict[str, Any] = msgspec.to_builtins(made)
    return decoded


def called_game() -> Game:
    """Seat 0 has just taken all six pile cards, calling 9D (tests/domain/test_rummy500)."""
    game = three_player_pile()
    game.turn(1, "2D")
    game.turn(2, "8C")
    return game


def test_every_caller_sees_the_whole_pile_oldest_first() -> None:
    game = called_game()
    for who in VIEWERS:
        body = view(game, who)
        assert body["discard_pile"] == ["9D", "4S", "QC", "10H", "2D", "8C"], who
        assert body["discard_top"] == "8C"


def test_pile_counts_are_offered_to_the_seat_to_draw_only() -> None:
    game = called_game()
    assert view(game, "Ann")["legal"]["pile_counts"] == [1, 6]
    assert view(game, "Bob")["legal"]["pile_counts"] == []


def test_the_called_card_is_shown_to_its_taker_only_until_it_is_used() -> None:
    game = called_game()
    game.act(0, pile(6))
    assert view(game, "Ann")["called_card"] == "9D"
    for who in ("public", "Bob", "admin"):
        assert "called_card" not in view(game, who), who
    assert view(game, "Ann")["legal"]["discard"] == []
    game.meld(0, "7D 8D 9D")
    assert "called_card" not in view(game, "Ann")
    players = view(game, "public")["players"]
    assert [player["melded_points"] for player in players] == [24, 0, 0]


HEAD = "ef" * 32
"""A live chain head, as the caller of `event_view` gives it."""


def test_a_deep_draw_shows_every_taken_card_to_everyone() -> None:
    event = CardDrawn(
        seat=0, source=pile(6).source, card=cards("9D")[0], count=6, cards=tuple(cards("9D 4S QC"))
    )
    for who in VIEWERS:
        body: dict[str, Any] = msgspec.to_builtins(
            event_view(
                stored(event), VIEWERS[who], called_game().table.rules, seat_count=3, chain=HEAD
            )
        )
        assert (body["count"], body["cards"], body["card"]) == (6, ["9D", "4S", "QC"], "9D"), who


def test_the_result_shows_each_seats_credit_cards_and_score() -> None:
    game = called_game()
    game.act(0, pile(6))
    game.meld(0, "7D 8D 9D")
    result = HandEnded(
        hand_number=1,
        how=HandEnding.OUT,
        out_seat=None,
        remaining=tuple(tuple(held) for held in game.hand.hands),
        values=(1, 2, 3),
        points=(23, -2, -3),
        totals=(23, -2, -3),
        melded=(24, 0, 0),
    )
    body: dict[str, Any] = msgspec.to_builtins(
        event_view(stored(result), PUBLIC, game.table.rules, seat_count=3, chain=HEAD)
    )
    first = body["players"][0]
    assert (first["melded_points"], first["points"], first["total"]) == (24, 23, 23)
    assert sorted(first["in_hand"]) == sorted(card.code for card in game.hand.hands[0])
