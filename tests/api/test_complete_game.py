"""A whole game over HTTP, from creation to the winner, with the decks given.

Two players, Ann (seat 0) and Bob (seat 1), play to 90 points.

Hand 1, Ann deals, so Bob moves first. Bob draws 8H and throws it away;
Ann takes it from the discard pile and throws KS; Bob draws QS, lays
2H 3H 4H, 7C 7D 7S and 9S 10S JS, lays QS off on the spade run and goes
out discarding KD: rummy (no meld in an earlier turn), so he scores twice
what Ann holds: 2 x 42 = 84.

Hand 2, Bob deals, so Ann moves first. Ann draws 8H, lays 5H 6H 7H and
JC JD JH and throws KC; Bob takes KC and throws 5S; Ann draws 4C and, in
one atomic list, lays 2C 3C 4C, lays 8H off on her heart run and goes out
discarding AD: not a rummy (she melded a turn before). Bob holds 91, so
Ann reaches 91 and wins, 91 to 84.
"""

from __future__ import annotations

from typing import Any

from tests.api.client import ADMIN, PUBLIC, Api, Game, deck, discard, draw, lay_off, meld

ANN, BOB = 0, 1

HAND_1 = {
    ANN: "AH AC 2D 2S 3S 4C 5C 6D KS QH",
    BOB: "2H 3H 4H 7C 7D 7S 9S 10S JS KD",
}
HAND_2 = {
    ANN: "5H 6H 7H JC JD JH 2C 3C AD KC",
    BOB: "KH QD QC 10D 10C 9H 8D 8S 6C 5S",
}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "CDHS"


def in_order(cards: str) -> list[str]:
    """Cards as a view lists a hand: by rank (ace low), then suit C D H S."""
    return sorted(cards.split(), key=lambda code: (RANKS.index(code[:-1]), SUITS.index(code[-1])))


def as_sets(melds: list[list[str]]) -> set[frozenset[str]]:
    return {frozenset(cards) for cards in melds}


def no_moves() -> dict[str, list[Any]]:
    return {"draw": [], "melds": [], "lay_offs": [], "discard": []}


def new_game(api: Api) -> Game:
    return api.create(
        players=[{"name": "Ann"}, {"name": "Bob"}],
        rules={"target": 90},
        dealer=ANN,
        decks=[
            deck([HAND_1[ANN], HAND_1[BOB]], upcard="5D", stock="8H QS", dealer=ANN),
            deck([HAND_2[ANN], HAND_2[BOB]], upcard="4S", stock="8H 4C", dealer=BOB),
        ],
    )


def test_a_complete_game_from_creation_to_the_winner(api: Api) -> None:
    game = new_game(api)
    assert [player["name"] for player in game.created["players"]] == ["Ann", "Bob"]
    assert game.created["version"] == 2  # created, then the first hand dealt at once

    # --- hand 1: the deal -------------------------------------------------
    bob = game.view(BOB)
    assert bob["status"] == "playing"
    assert bob["hand_number"] == 1
    assert bob["dealer"] == ANN
    assert (bob["turn"], bob["phase"]) == (BOB, "draw")
    assert bob["my_seat"] == BOB
    assert bob["my_hand"] == in_order(HAND_1[BOB])
    assert (bob["stock_count"], bob["discard_top"], bob["discard_count"]) == (31, "5D", 1)
    assert bob["melds"] == []
    assert bob["last_hand"] is None
    assert bob["winner"] is None
    assert bob["rules"]["target"] == 90
    assert bob["legal"] == {
        "draw": ["stock", "discard"],
        "melds": [],
        "lay_offs": [],
        "discard": [],
    }
    assert [(p["seat"], p["name"], p["score"], p["hand_count"]) for p in bob["players"]] == [
        (ANN, "Ann", 0, 10),
        (BOB, "Bob", 0, 10),
    ]
    ann = game.view(ANN)
    assert ann["my_hand"] == in_order(HAND_1[ANN])
    assert ann["legal"] == no_moves()

    # Bob draws 8H from the stock and throws it away (a stock card may be).
    bob = game.play(BOB, draw())
    assert bob["phase"] == "play"
    assert "8H" in bob["my_hand"]
    assert bob["stock_count"] == 30
    assert bob["legal"]["draw"] == []
    assert sorted(bob["legal"]["discard"]) == sorted([*HAND_1[BOB].split(), "8H"])
    assert as_sets(bob["legal"]["melds"]) >= {
        frozenset({"2H", "3H", "4H"}),
        frozenset({"7C", "7D", "7S"}),
        frozenset({"9S", "10S", "JS"}),
    }
    bob = game.play(BOB, discard("8H"))
    assert (bob["turn"], bob["phase"], bob["discard_top"], bob["discard_count"]) == (
        ANN,
        "draw",
        "8H",
        2,
    )
    assert bob["legal"] == no_moves()

    # Ann takes 8H from the discard pile: she may not throw it back this turn.
    ann = game.play(ANN, draw("discard"))
    assert (ann["discard_top"], ann["discard_count"], ann["stock_count"]) == ("5D", 1, 30)
    assert "8H" in ann["my_hand"]
    assert "8H" not in ann["legal"]["discard"]
    assert len(ann["legal"]["discard"]) == 10
    ann = game.play(ANN, discard("KS"))
    assert ann["discard_top"] == "KS"
    assert [p["hand_count"] for p in ann["players"]] == [10, 10]

    # Bob draws QS and lays his three melds, one request each.
    bob = game.play(BOB, draw())
    assert "QS" in bob["my_hand"]
    bob = game.play(BOB, meld("2H 3H 4H"))
    bob = game.play(BOB, meld("7S 7C 7D"))
    bob = game.play(BOB, meld("JS 9S 10S"))
    assert bob["melds"] == [
        {"id": "h1-m1", "kind": "run", "cards": ["2H", "3H", "4H"], "owner": BOB, "laid_off": []},
        {"id": "h1-m2", "kind": "set", "cards": ["7C", "7D", "7S"], "owner": BOB, "laid_off": []},
        {"id": "h1-m3", "kind": "run", "cards": ["9S", "10S", "JS"], "owner": BOB, "laid_off": []},
    ]
    assert bob["my_hand"] == ["QS", "KD"]
    assert {"card": "QS", "meld_id": "h1-m3"} in bob["legal"]["lay_offs"]

    # He lays QS off on his own spade run; the meld records who laid it off.
    bob = game.play(BOB, lay_off("QS", "h1-m3"))
    spades = bob["melds"][2]
    assert spades["cards"] == ["9S", "10S", "JS", "QS"]
    assert spades["laid_off"] == [{"card": "QS", "seat": BOB}]
    assert bob["my_hand"] == ["KD"]
    assert bob["legal"]["discard"] == ["KD"]
    assert [p["hand_count"] for p in game.view(PUBLIC)["players"]] == [10, 1]

    # Bob goes out discarding KD: a rummy. Hand 2 is dealt at once.
    bob = game.play(BOB, discard("KD"))
    ann_left = "AH AC 2D 2S 3S 4C 5C 6D QH 8H"
    assert bob["last_hand"] == {
        "hand_number": 1,
        "how": "rummy",
        "out_seat": BOB,
        "rummy": True,
        "players": [
            {"seat": ANN, "cards": in_order(ann_left), "value": 42, "points": 0, "total": 0},
            {"seat": BOB, "cards": [], "value": 0, "points": 84, "total": 84},
        ],
    }
    assert [(p["score"], p["hand_count"]) for p in bob["players"]] == [(0, 10), (84, 10)]
    assert bob["status"] == "playing"
    assert (bob["hand_number"], bob["dealer"], bob["turn"], bob["phase"]) == (2, BOB, ANN, "draw")
    assert bob["my_hand"] == in_order(HAND_2[BOB])
    assert (bob["melds"], bob["discard_top"], bob["stock_count"]) == ([], "4S", 31)

    # --- hand 2 -----------------------------------------------------------
    ann = game.view(ANN)
    assert ann["last_hand"] == bob["last_hand"]
    assert ann["my_hand"] == in_order(HAND_2[ANN])
    assert ann["legal"]["draw"] == ["stock", "discard"]

    ann = game.play(ANN, [draw(), meld("5H 6H 7H"), meld("JC JD JH")])
    assert [(m["id"], m["owner"]) for m in ann["melds"]] == [("h2-m1", ANN), ("h2-m2", ANN)]
    ann = game.play(ANN, discard("KC"))
    assert ann["my_hand"] == ["AD", "2C", "3C", "8H"]

    bob = game.play(BOB, draw("discard"))
    assert "KC" not in bob["legal"]["discard"]
    bob = game.play(BOB, discard("5S"))
    assert bob["my_hand"] == in_order("KH QD QC 10D 10C 9H 8D 8S 6C KC")

    ann = game.play(ANN, draw())
    assert ann["my_hand"] == ["AD", "2C", "3C", "4C", "8H"]
    # Melded last turn, so going out now is no rummy.
    ann = game.play(ANN, [meld("2C 3C 4C"), lay_off("8H", "h2-m1"), discard("AD")])

    # --- the end ----------------------------------------------------------
    assert ann["status"] == "finished"
    assert ann["winner"] == ANN
    assert (ann["turn"], ann["phase"]) == (None, None)
    assert ann["legal"] == no_moves()
    assert ann["last_hand"] == {
        "hand_number": 2,
        "how": "out",
        "out_seat": ANN,
        "rummy": False,
        "players": [
            {"seat": ANN, "cards": [], "value": 0, "points": 91, "total": 91},
            {
                "seat": BOB,
                "cards": in_order("KH QD QC 10D 10C 9H 8D 8S 6C KC"),
                "value": 91,
                "points": 0,
                "total": 84,
            },
        ],
    }
    assert [p["score"] for p in ann["players"]] == [91, 84]
    for who in (PUBLIC, BOB, ADMIN):
        final = game.view(who)
        assert (final["status"], final["winner"]) == ("finished", ANN)
        assert final["last_hand"] == ann["last_hand"]
        assert final["version"] == ann["version"]

    # The event log tells the same story, in order.
    events = game.events(ADMIN)
    assert [event["version"] for event in events] == list(range(1, ann["version"] + 1))
    assert [event["type"] for event in events] == [
        "game_created",
        "hand_dealt",
        *["card_drawn", "card_discarded"] * 2,
        "card_drawn",
        *["meld_laid"] * 3,
        "card_laid_off",
        "card_discarded",
        "hand_ended",
        "hand_dealt",
        "card_drawn",
        *["meld_laid"] * 2,
        "card_discarded",
        "card_drawn",
        "card_discarded",
        "card_drawn",
        "meld_laid",
        "card_laid_off",
        "card_discarded",
        "hand_ended",
        "game_finished",
    ]
    finished = events[-1]
    assert (finished["winner"], finished["totals"]) == (ANN, [91, 84])
    assert "seat" not in finished  # the system's, not a player's
    assert events[2]["seat"] == BOB


def test_replay_shows_each_version_as_it_was(api: Api) -> None:
    game = new_game(api)
    game.play(BOB, draw())
    game.play(BOB, discard("8H"))
    now = game.view(BOB)

    dealt = game.replay(BOB, 2)
    assert (dealt["version"], dealt["turn"], dealt["phase"]) == (2, BOB, "draw")
    assert dealt["my_hand"] == in_order(HAND_1[BOB])
    assert dealt["discard_top"] == "5D"
    drawn = game.replay(BOB, 3)
    assert drawn["phase"] == "play"
    assert "8H" in drawn["my_hand"]
    assert game.replay(BOB, now["version"]) == now
    created = game.replay(PUBLIC, 1)
    assert (created["status"], created["hand_number"], created["turn"]) == ("waiting", 0, None)
