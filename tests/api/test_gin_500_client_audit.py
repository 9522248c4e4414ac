"""A client author's check of Gin Rummy and 500 Rum over HTTP, from docs/api.md and
docs/rules.md alone: each variant created with its defaults and with every range's ends;
every refused option 422 `invalid_rules` naming the option; and each 409 code of
the gin/500 errors section, met where the contract says it is."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from tests.apps import bootstrap_test_app

ALL = [
    f"{r}{s}"
    for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    for s in "CDHS"
]


def people(count: int) -> list[dict[str, str]]:
    return [{"name": f"P{seat}"} for seat in range(count)]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Any]]:
    with TestClient(bootstrap_test_app().app) as test_client:
        yield test_client


GIN_DEFAULTS = {
    "variant": "gin",
    "hand_size": 10,
    "aces": "low",
    "packs": 1,
    "jokers": 0,
    "knock_limit": 10,
    "gin_bonus": 25,
    "big_gin_bonus": 31,
    "undercut_bonus": 25,
    "oklahoma": False,
    "target": 100,
    "game_bonus": 100,
    "box_bonus": 25,
    "shutout": True,
    "max_turns": 500,
}


@pytest.mark.parametrize(
    ("players", "rules", "shown"),
    [
        (2, {"variant": "gin"}, GIN_DEFAULTS),
        (
            2,
            {
                "variant": "gin",
                "knock_limit": 0,
                "gin_bonus": 0,
                "big_gin_bonus": 0,
                "undercut_bonus": 0,
                "target": 10,
                "game_bonus": 0,
                "box_bonus": 0,
                "shutout": False,
            },
            {"knock_limit": 0, "big_gin_bonus": 0, "target": 10, "shutout": False},
        ),
        (
            2,
            {
                "variant": "gin",
                "gin_bonus": 50,
                "big_gin_bonus": 50,
                "undercut_bonus": 50,
                "target": 500,
                "game_bonus": 500,
                "box_bonus": 100,
            },
            {"target": 500, "game_bonus": 500, "box_bonus": 100},
        ),
        (2, {"variant": "gin", "big_gin_bonus": None}, {"big_gin_bonus": None}),
        (2, {"variant": "gin", "oklahoma": True}, {"oklahoma": True}),
        (2, {"variant": "gin", "hand_size": 10, "aces": "low", "packs": 1}, {"hand_size": 10}),
        (
            2,
            {"variant": "rummy500"},
            {"packs": 1, "hand_size": 13, "aces": "high_or_low", "going_out": "any", "target": 500},
        ),
        (3, {"variant": "rummy500"}, {"packs": 1, "hand_size": 7}),
        (
            4,
            {"variant": "rummy500", "target": 100, "going_out": "discard"},
            {"packs": 1, "target": 100, "going_out": "discard"},
        ),
        (5, {"variant": "rummy500", "target": 1000}, {"packs": 2, "hand_size": 7, "target": 1000}),
        (8, {"variant": "rummy500", "packs": 2, "hand_size": 7}, {"packs": 2}),
    ],
)
def test_each_variant_is_created_with_its_defaults_and_its_ranges_ends(
    client: TestClient[Any], players: int, rules: dict[str, Any], shown: dict[str, Any]
):
    created = client.post("/games", json={"players": people(players), "rules": rules})
    assert created.status_code == 201, created.text
    view = client.get(f"/games/{created.json()['game_id']}").json()
    assert {name: view["rules"][name] for name in shown} == shown


@pytest.mark.parametrize(
    ("players", "rules", "option"),
    [
        (2, {"knock_limit": 11}, "knock_limit"),
        (2, {"knock_limit": -1}, "knock_limit"),
        (2, {"gin_bonus": 51}, "gin_bonus"),
        (2, {"big_gin_bonus": 51}, "big_gin_bonus"),
        (2, {"undercut_bonus": -1}, "undercut_bonus"),
        (2, {"target": 9}, "target"),
        (2, {"target": 501}, "target"),
        (2, {"game_bonus": 501}, "game_bonus"),
        (2, {"box_bonus": 101}, "box_bonus"),
        (2, {"oklahoma": True, "knock_limit": 10}, "knock_limit"),
        (2, {"hand_size": 7}, "hand_size"),
        (2, {"aces": "high_or_low"}, "aces"),
        (2, {"packs": 2}, "packs"),
        (2, {"deals": 3}, "deals"),
        (2, {"going_out": "any"}, "going_out"),
        (2, {"knock_penalty": 10}, "knock_penalty"),
        (2, {"shutout": "yes"}, "shutout"),
        (3, {}, "variant"),
    ],
)
def test_every_refused_gin_option_is_invalid_rules_naming_it(
    client: TestClient[Any], players: int, rules: dict[str, Any], option: str
):
    answer = client.post(
        "/games", json={"players": people(players), "rules": {"variant": "gin", **rules}}
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "invalid_rules"
    assert option in answer.json()["detail"]


@pytest.mark.parametrize(
    ("players", "rules", "option"),
    [
        (3, {"target": 99}, "target"),
        (3, {"target": 1001}, "target"),
        (3, {"packs": 2}, "packs"),
        (5, {"packs": 1}, "packs"),
        (2, {"hand_size": 7}, "hand_size"),
        (3, {"hand_size": 13}, "hand_size"),
        (3, {"aces": "low"}, "aces"),
        (3, {"melds_per_turn": "one"}, "melds_per_turn"),
        (3, {"lay_off": "after_own_meld"}, "lay_off"),
        (3, {"going_out": "never"}, "going_out"),
        (3, {"deals": 3}, "deals"),
        (3, {"scoring": "penalty"}, "scoring"),
        (3, {"recycles": 1}, "recycles"),
        (3, {"jokers": 1}, "jokers"),
        (3, {"rummy_bonus": "none"}, "rummy_bonus"),
        (3, {"exhausted": "score"}, "exhausted"),
        (3, {"knock_limit": 5}, "knock_limit"),
        (3, {"oklahoma": False}, "oklahoma"),
    ],
)
def test_every_refused_500_rum_option_is_invalid_rules_naming_it(
    client: TestClient[Any], players: int, rules: dict[str, Any], option: str
):
    answer = client.post(
        "/games", json={"players": people(players), "rules": {"variant": "rummy500", **rules}}
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "invalid_rules"
    assert option in answer.json()["detail"]


class Table:
    """A game dealt from one chosen deck (dealer seat 0), each seat played by its token."""

    def __init__(
        self, client: TestClient[Any], players: int, rules: dict[str, Any], deck: list[str]
    ):
        created = client.post(
            "/games",
            json={"players": people(players), "rules": rules, "decks": [deck], "dealer": 0},
        )
        assert created.status_code == 201, created.text
        body = created.json()
        self.client = client
        self.game = f"/games/{body['game_id']}"
        self.headers = {
            p["seat"]: {"Authorization": f"Bearer {p['token']}"} for p in body["players"]
        }

    def act(self, seat: int, action: dict[str, Any]) -> str:
        """`ok`, or the code of the refusal."""
        answer = self.client.post(f"{self.game}/actions", json=action, headers=self.headers[seat])
        return (
            "ok" if answer.status_code == 200 else f"{answer.status_code} {answer.json()['code']}"
        )

    def view(self, seat: int) -> dict[str, Any]:
        view: dict[str, Any] = self.client.get(self.game, headers=self.headers[seat]).json()
        return view


KNOCKER = ["3C", "3D", "3H", "7S", "8S", "9S", "JH", "QH", "KH", "2D"]
DEFENDER = ["10S", "5D", "5C", "5H", "AC", "AD", "4H", "6D", "8D", "9D"]


def gin_table(client: TestClient[Any], upcard: str, stock: list[str], **rules: Any) -> Table:
    deck = [card for pair in zip(KNOCKER, DEFENDER, strict=True) for card in pair]
    deck += [upcard, *stock]
    deck += [card for card in ALL if card not in deck]
    return Table(client, 2, {"variant": "gin", **rules}, deck)


def test_the_gin_409_codes_where_api_md_puts_them(client: TestClient[Any]):
    table = gin_table(client, "KC", ["4C"])
    assert table.act(0, {"type": "pass"}) == "409 not_your_turn"
    assert table.act(1, {"type": "draw", "source": "stock"}) == "409 wrong_phase"
    assert table.act(1, {"type": "meld", "cards": ["3C", "3D", "3H"]}) == "409 not_in_variant"
    assert table.act(1, {"type": "draw", "source": "discard", "count": 2}) == "409 not_in_variant"
    assert table.act(1, {"type": "draw", "source": "stock", "count": 2}) == "409 not_in_variant"
    assert table.act(1, {"type": "draw", "source": "discard", "count": 0}) == "422 invalid_body"
    assert table.act(1, {"type": "pass"}) == "ok"
    assert table.act(0, {"type": "pass"}) == "ok"
    assert table.act(1, {"type": "draw", "source": "discard"}) == "409 upcard_declined"
    assert table.act(1, {"type": "pass"}) == "409 wrong_phase"
    assert table.act(1, {"type": "draw", "source": "stock"}) == "ok"
    assert table.view(1)["legal"]["knock"] == ["2D", "4C"]
    assert table.act(1, {"type": "knock"}) == "409 invalid_knock"
    # the player's own arrangement is the one counted: 56 is over the limit of 10
    assert table.act(1, {"type": "knock", "card": "4C", "melds": [["3C", "3D", "3H"]]}) == (
        "409 knock_too_high"
    )
    assert table.act(1, {"type": "knock", "card": "4C", "melds": [["5D", "5C", "5H"]]}) == (
        "409 card_not_in_hand"
    )
    twice = [["3C", "3D", "3H"], ["3C", "7S", "8S"]]
    assert table.act(1, {"type": "knock", "card": "4C", "melds": twice}) == "409 card_not_in_hand"
    with_knock_card = [["3C", "3D", "3H"], ["7S", "8S", "9S"], ["JH", "QH", "KH"]]
    assert table.act(1, {"type": "knock", "card": "3H", "melds": with_knock_card}) == (
        "409 card_not_in_hand"
    )
    bad = [["3C", "3D", "7S"], ["JH", "QH", "KH"]]
    assert table.act(1, {"type": "knock", "card": "4C", "melds": bad}) == "409 invalid_meld"
    assert table.act(0, {"type": "knock", "card": "5D"}) == "409 not_your_turn"
    assert table.act(1, {"type": "knock", "card": "4C"}) == "ok"
    last = table.view(1)["last_hand"]
    assert [p["points"] for p in last["players"]] == [0, 27], "docs/rules.md's example"


def test_the_card_taken_from_the_pile_can_be_neither_discarded_nor_knocked(client: TestClient[Any]):
    table = gin_table(client, "4C", ["KS"])
    assert table.act(1, {"type": "draw", "source": "discard"}) == "ok"
    assert table.act(1, {"type": "discard", "card": "4C"}) == "409 discard_taken_card"
    assert table.act(1, {"type": "knock", "card": "4C"}) == "409 discard_taken_card"


def test_big_gin_is_a_knock_without_a_card_unless_it_is_turned_off(client: TestClient[Any]):
    all_melded = ["AC", "2C", "3C", "4D", "5D", "6D", "7H", "8H", "9H", "10H"]
    other = ["10S", "5S", "5C", "KD", "QS", "JD", "4H", "6S", "8D", "9D"]
    for rules, answer in (({}, "ok"), ({"big_gin_bonus": None}, "409 invalid_knock")):
        deck = [card for pair in zip(all_melded, other, strict=True) for card in pair]
        deck += ["KC", "JH"]
        deck += [card for card in ALL if card not in deck]
        table = Table(client, 2, {"variant": "gin", **rules}, deck)
        for seat, move in (
            (1, {"type": "pass"}),
            (0, {"type": "pass"}),
            (1, {"type": "draw", "source": "stock"}),
        ):
            assert table.act(seat, move) == "ok"
        assert table.view(1)["legal"]["big_gin"] is (answer == "ok")
        assert table.act(1, {"type": "knock"}) == answer


def test_the_500_rum_409_codes_where_api_md_puts_them(client: TestClient[Any]):
    hands = {
        0: ["5H", "6H", "9H", "2C", "KS", "9C", "JD"],
        1: ["7H", "AS", "3D", "10C", "KD", "4C", "2S"],
        2: ["4S", "8H", "AD", "3S", "6D", "10S", "QD"],
    }
    deck = [hands[(1 + i) % 3][i // 3] for i in range(21)] + ["QC", "2H", "5S"]
    deck += [card for card in ALL if card not in deck]
    table = Table(client, 3, {"variant": "rummy500"}, deck)
    assert table.act(1, {"type": "draw", "source": "discard", "count": 2}) == "409 pile_too_short"
    assert table.act(1, {"type": "draw", "source": "stock", "count": 2}) == "409 not_in_variant"
    assert table.act(1, {"type": "draw", "source": "stock"}) == "ok"
    assert table.act(1, {"type": "discard", "card": "7H"}) == "ok"
    assert table.act(2, {"type": "draw", "source": "stock"}) == "ok"
    assert table.act(2, {"type": "discard", "card": "4S"}) == "ok"
    assert table.view(0)["legal"]["pile_counts"] == [1, 2], "QC, the third, is of no use"
    assert (
        table.act(0, {"type": "draw", "source": "discard", "count": 3}) == "409 pile_card_unusable"
    )
    assert table.act(0, {"type": "draw", "source": "discard", "count": 4}) == "409 pile_too_short"
    assert table.act(0, {"type": "draw", "source": "discard", "count": 2}) == "ok"
    assert table.view(0)["called_card"] == "7H"
    public = client.get(table.game).json()
    assert "called_card" not in table.view(1), "only the seat that took it sees it"
    assert "called_card" not in public
    assert public["discard_pile"] == ["QC"], "the whole pile, bottom first, to everyone"
    assert [p["melded_points"] for p in public["players"]] == [0, 0, 0]
    assert table.act(0, {"type": "discard", "card": "2C"}) == "409 taken_card_unused"
    assert table.act(0, {"type": "meld", "cards": ["5H", "6H", "9H"]}) == "409 invalid_meld"
    assert table.act(0, {"type": "meld", "cards": ["5H", "6H", "7H"]}) == "ok"
    assert table.act(0, {"type": "discard", "card": "4S"}) == "ok", (
        "a taken card, not the called one"
    )


@pytest.mark.parametrize("variant", ["classic", "knock", "rummy500"])
def test_gin_only_actions_elsewhere_are_not_in_variant(client: TestClient[Any], variant: str):
    """`pass` where there is no upcard offer, and a knock without `card` or with `melds`
    outside gin (docs/api.md: a Knock Rummy knock takes `card` only)."""
    created = client.post(
        "/games", json={"players": people(2), "rules": {"variant": variant}, "dealer": 1}
    ).json()
    game = f"/games/{created['game_id']}"
    headers = {"Authorization": f"Bearer {created['players'][0]['token']}"}
    card = client.get(game, headers=headers).json()["my_hand"][0]
    for action in (
        {"type": "pass"},
        {"type": "knock"},
        {"type": "knock", "card": card, "melds": []},
    ):
        answer = client.post(f"{game}/actions", json=action, headers=headers)
        assert answer.status_code == 409, (action, answer.text)
        assert answer.json()["code"] == "not_in_variant", action


def five_seat_run_table(client: TestClient[Any], run: list[str], extra: list[str]) -> Table:
    """Two packs, five seats, dealer 0: seat 1 holds `run`'s first six hearts, seats 2
    to 4 two more each to lay off, seat 0 `extra` (both aces of hearts, or KH and AH)."""
    junk = {
        1: ["9C"],
        2: ["9D", "2S", "4C", "6S", "8C"],
        3: ["2D", "4S", "6C", "8S", "10C"],
        4: ["3D", "5S", "7C", "9S", "JC"],
        0: ["4D", "6D", "7S", "10S", "QC"],
    }
    hands = {
        1: run[:6] + junk[1],
        2: run[6:8] + junk[2],
        3: run[8:10] + junk[3],
        4: run[10:12] + junk[4],
        0: extra + junk[0],
    }
    deck = [hands[(1 + i) % 5][i // 5] for i in range(35)] + ["KC", "3C", "5C", "7D", "8D", "10D"]
    left = Counter(dict.fromkeys(ALL, 2)) - Counter(deck)
    deck += sorted(left.elements())
    table = Table(client, 5, {"variant": "rummy500"}, deck)
    assert table.act(1, {"type": "draw", "source": "stock"}) == "ok"
    assert table.act(1, {"type": "meld", "cards": run[:6]}) == "ok"
    assert table.act(1, {"type": "discard", "card": "9C"}) == "ok"
    for seat in (2, 3, 4):
        assert table.act(seat, {"type": "draw", "source": "stock"}) == "ok"
        for card in hands[seat][:2]:
            assert table.act(seat, {"type": "lay_off", "card": card, "meld_id": "h1-m1"}) == "ok"
        assert table.act(seat, {"type": "discard", "card": hands[seat][2]}) == "ok"
    assert table.act(0, {"type": "draw", "source": "stock"}) == "ok"
    return table


HEARTS = [f"{rank}H" for rank in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]


def test_a_500_rum_run_never_holds_an_ace_at_both_ends(client: TestClient[Any]):
    """A to K of hearts on the table: the other pack's AH may not go above the K; nor,
    once an AH is above 2..K, may the other go below the 2."""
    table = five_seat_run_table(client, HEARTS[:12], ["KH", "AH"])
    assert table.act(0, {"type": "lay_off", "card": "KH", "meld_id": "h1-m1"}) == "ok"
    assert table.view(0)["legal"]["lay_offs"] == []
    assert table.act(0, {"type": "lay_off", "card": "AH", "meld_id": "h1-m1"}) == (
        "409 invalid_lay_off"
    )
    table = five_seat_run_table(client, HEARTS[1:13], ["AH", "AH"])
    assert table.act(0, {"type": "lay_off", "card": "AH", "meld_id": "h1-m1"}) == "ok"
    assert table.view(0)["legal"]["lay_offs"] == []
    assert table.act(0, {"type": "lay_off", "card": "AH", "meld_id": "h1-m1"}) == (
        "409 invalid_lay_off"
    )


def test_an_ace_laid_off_on_two_to_king_counts_for_the_end_it_is_logged_at(
    client: TestClient[Any],
):
    """2..K: an ace fits either end, and `lay_off` cannot say which (docs/rules.md is
    silent). Whichever end the service picks, the credit is that end's: 1 low, 15 high."""
    table = five_seat_run_table(client, HEARTS[1:13], ["AH", "AH"])
    assert table.act(0, {"type": "lay_off", "card": "AH", "meld_id": "h1-m1"}) == "ok"
    events = client.get(f"{table.game}/events", headers=table.headers[0]).json()["events"]
    end = [e for e in events if e["type"] == "card_laid_off"][-1]["end"]
    melded = [p["melded_points"] for p in client.get(table.game).json()["players"]]
    assert melded[0] == {"low": 1, "high": 15}[end]
