"""The independent gin and 500 Rum referee (tests/audit_stream/independent_gin_500.py)
on the rules' own examples, and on exports of hands dealt from chosen decks over
HTTP: it agrees with docs/rules.md's numbers, and it notices a forged score, count,
lay-off, dealer or credit (so its silence on the random games means something)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from tests.apps import bootstrap_test_app
from tests.audit_stream.clients import ADMIN_TOKEN, bearer
from tests.audit_stream.independent_gin_500 import (
    check_export,
    least_deadwood,
    least_defender_deadwood,
    usable,
)

ALL = [
    f"{r}{s}"
    for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    for s in "CDHS"
]
KNOCKER = ["3C", "3D", "3H", "7S", "8S", "9S", "JH", "QH", "KH", "2D"]
DEFENDER = ["10S", "5D", "5C", "5H", "AC", "AD", "4H", "6D", "8D", "9D"]
KNOCKER_MELDS = [["3C", "3D", "3H"], ["7S", "8S", "9S"], ["JH", "QH", "KH"]]


def test_the_rules_gin_example_counts_2_and_29():
    assert least_deadwood(KNOCKER) == 2
    assert least_defender_deadwood(DEFENDER, KNOCKER_MELDS, lay=True) == (29, 1)
    assert least_defender_deadwood(DEFENDER, KNOCKER_MELDS, lay=False) == (39, 0), "after gin"


def test_a_chain_of_lay_offs_counts():
    """8H then 9H on 5H 6H 7H (docs/rules.md), and 2H on the deuces: docs/rules.md's chain."""
    melds = [["5H", "6H", "7H"], ["2C", "2D", "2S"], ["JC", "QC", "KC"]]
    hand = ["8H", "9H", "2H", "4S", "4D", "4C", "10D", "10S", "KD", "QS"]
    assert least_defender_deadwood(hand, melds, lay=True) == (40, 3)


def test_a_called_card_is_usable_by_a_meld_or_a_chain_of_lay_offs():
    assert usable("7H", ["5H", "6H", "7H", "2C"], [])
    assert not usable("QC", ["QC", "KS", "JD"], [])
    assert usable("9H", ["8H", "9H", "2C"], [["5H", "6H", "7H"]])
    assert not usable("9H", ["8H", "9H"], [["5H", "6H", "7H"]], keep=1)
    assert not usable("AH", ["AH", "KH", "2H"], []), "K-A-2 is no run"
    assert usable("AH", ["AH", "KH", "QH"], [])


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Any]]:
    with TestClient(bootstrap_test_app(admin_token=ADMIN_TOKEN).app) as test_client:
        yield test_client


def gin_deck(non_dealer: list[str], dealer: list[str], upcard: str, stock: list[str]) -> list[str]:
    """A deck that deals `non_dealer` and `dealer` their hands (dealer seat 0)."""
    deck = [card for pair in zip(non_dealer, dealer, strict=True) for card in pair]
    deck += [upcard, *stock]
    return deck + [card for card in ALL if card not in deck]


def seat_tokens(client: TestClient[Any], body: dict[str, Any]) -> tuple[str, dict[int, Any]]:
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.text
    game = created.json()
    headers = {p["seat"]: {"Authorization": f"Bearer {p['token']}"} for p in game["players"]}
    return f"/games/{game['game_id']}", headers


def play_moves(
    client: TestClient[Any], body: dict[str, Any], moves: list[tuple[int, dict[str, Any]]]
) -> dict[str, Any]:
    """The export of a game created with `body` and played by `moves` (each 200), read
    with the admin token (a game in play)."""
    game, headers = seat_tokens(client, body)
    for seat, move in moves:
        answer = client.post(f"{game}/actions", json=move, headers=headers[seat])
        assert answer.status_code == 200, (move, answer.text)
    exported = client.get(f"{game}/audit", headers=bearer(ADMIN_TOKEN))
    assert exported.status_code == 200, exported.text
    export: dict[str, Any] = exported.json()
    return export


@pytest.fixture(scope="module")
def gin_example(client: TestClient[Any]) -> dict[str, Any]:
    """docs/rules.md's gin example, target 25: one hand, 27 points, the game won with a shutout."""
    body = {
        "players": [{"name": "Dee"}, {"name": "Kay"}],
        "rules": {"variant": "gin", "target": 25},
        "decks": [gin_deck(KNOCKER, DEFENDER, "KC", ["4C"])],
        "dealer": 0,
    }
    moves = [
        (1, {"type": "pass"}),
        (0, {"type": "pass"}),
        (1, {"type": "draw", "source": "stock"}),
        (1, {"type": "knock", "card": "4C"}),
    ]
    return play_moves(client, body, moves)


def _event(export: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(e for e in export["events"] if e["type"] == kind)


def test_the_gin_example_over_http_agrees_with_the_referee(gin_example: dict[str, Any]):
    assert check_export(gin_example) == []
    ended = _event(gin_example, "hand_ended")["data"]
    assert ended["points"] == [0, 27]
    assert ended["counts"] == [29, 2]
    assert _event(gin_example, "game_finished")["data"]["totals"] == [0, (27 + 25 + 100) * 2]


@pytest.mark.parametrize(
    ("where", "path", "forged"),
    [
        ("hand_ended", ("points", 1), 28),
        ("hand_ended", ("counts", 0), 39),
        ("hand_ended", ("laid_off", 0), []),
        ("hand_ended", ("how",), "undercut"),
        ("game_finished", ("totals", 1), 152),
        ("knocked", ("melds",), [["3C", "3D", "3H"], ["7S", "8S", "9S"]]),
    ],
)
def test_the_referee_notices_a_forged_gin_result(
    gin_example: dict[str, Any], where: str, path: tuple[Any, ...], forged: Any
):
    export = copy.deepcopy(gin_example)
    target = _event(export, where)["data"]
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = forged
    assert check_export(export), f"a forged {where} {path} went unnoticed"


@pytest.fixture(scope="module")
def rummy500_example(client: TestClient[Any]) -> dict[str, Any]:
    """Three players: seat 0 takes two pile cards calling 7H and melds 5H 6H 7H; seat 2
    calls 9H and lays off 8H then 9H on it; an ace is melded low (A-2-3)."""
    hands = {
        0: ["5H", "6H", "9H", "2C", "KS", "9C", "JD"],
        1: ["7H", "AS", "3D", "10C", "KD", "4C", "2S"],
        2: ["4S", "8H", "AD", "3S", "6D", "10S", "QD"],
    }
    deck = [hands[(1 + i) % 3][i // 3] for i in range(21)] + ["QC", "2H", "5S", "7C"]
    deck += [card for card in ALL if card not in deck]
    body = {
        "players": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
        "rules": {"variant": "rummy500", "target": 100},
        "decks": [deck],
        "dealer": 0,
    }
    moves: list[tuple[int, dict[str, Any]]] = [
        (1, {"type": "draw", "source": "stock"}),
        (1, {"type": "discard", "card": "7H"}),
        (2, {"type": "draw", "source": "stock"}),
        (2, {"type": "discard", "card": "4S"}),
        (0, {"type": "draw", "source": "discard", "count": 2}),
        (0, {"type": "meld", "cards": ["5H", "6H", "7H"]}),
        (0, {"type": "discard", "card": "9H"}),
        (1, {"type": "draw", "source": "stock"}),
        (1, {"type": "discard", "card": "10C"}),
        (2, {"type": "draw", "source": "discard", "count": 2}),
        (2, {"type": "lay_off", "card": "8H", "meld_id": "h1-m1"}),
        (2, {"type": "lay_off", "card": "9H", "meld_id": "h1-m1"}),
        (2, {"type": "discard", "card": "10C"}),
    ]
    return play_moves(client, body, moves)


def test_a_500_rum_turn_with_called_cards_agrees_with_the_referee(rummy500_example: dict[str, Any]):
    assert check_export(rummy500_example) == []
    forged = copy.deepcopy(rummy500_example)
    drawn = [e for e in forged["events"] if e["type"] == "card_drawn" and "count" in e["data"]]
    drawn[0]["data"]["cards"] = ["4S", "7H"]
    assert check_export(forged), "cards taken out of pile order went unnoticed"
    forged = copy.deepcopy(rummy500_example)
    laid = [e for e in forged["events"] if e["type"] == "card_laid_off"]
    forged["events"].remove(laid[1])  # the called 9H never used, then discarded
    assert check_export(forged)
