"""docs/api.md read sentence by sentence: each test names the statement it holds the
service to and checks it through HTTP, as a client written from docs/api.md would
(a few set a long game up through the application first, to be quick).

The statements the other API tests already prove (every error code and status
in test_errors, redaction over random games in test_redaction, a whole game in
test_complete_game) are not repeated here; this file covers the rest.

The ten-type table (`all_event_types`, played by `play_ten_type_hand`): two
open seats, Ann (seat 0) deals 25 cards each, so one card is left in the
stock. Bob draws it (KS), lays
AH 2H 3H and throws 5S; Ann finds the stock empty, so the discard pile under
5S (the upcard QD) is turned over and she draws it, lays 4H off on Bob's run
and throws 2C; Bob finds the stock empty with no recycle left, so the hand
ends and, with one deal, the game.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.bootstrap import bootstrap
from service.config import Settings, Store
from service.domain.actions import Discard, Draw
from service.domain.state import Source
from service.domain.turns import legal_moves
from service.game.store_health import StoreHealth
from tests import fairness_oracle as oracle
from tests.api.client import (
    ADMIN,
    ADMIN_TOKEN,
    PUBLIC,
    Api,
    Game,
    Json,
    check_etag,
    deck,
    discard,
    draw,
    lay_off,
    meld,
)
from tests.api.test_errors import SCENARIOS

ANN, BOB = 0, 1
TWO = [{"name": "Ann"}, {"name": "Bob"}]

EVENT_TYPES = [
    "game_created",
    "player_joined",
    "hand_dealt",
    "card_drawn",
    "meld_laid",
    "card_laid_off",
    "card_discarded",
    "stock_recycled",
    "hand_ended",
    "game_finished",
]
"""The ten types docs/api.md names, in the order the ten-type table records them first."""

SYSTEM_EVENTS = {"game_created", "hand_dealt", "hand_ended", "game_finished"}

# The ten-type table's deal: 25 cards each (Bob's include KD), QD face up, KS the
# one card of stock.
ANN_25 = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD 4H"
BOB_DEALT = "AH 2H 3H 5H 6H 7H 8H 9H 10H JH QH KH AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KD"


def two_player_deck() -> list[str]:
    return deck(
        ["KD QD JD 10C 9D 2D 3D 5C 6C 8D", "AS 2S 3S 4S 4H 5H 6H 7C 8C 9C"],
        upcard="KH",
        stock="5S 10D",
        dealer=ANN,
    )


def all_event_types(api: Api) -> Game:
    """The ten-type table of the module docstring, dealt once both seats are taken."""
    ten_type_deck = deck([ANN_25, BOB_DEALT], upcard="QD", stock="KS", dealer=ANN)
    game = api.create(
        seats=2,
        dealer=ANN,
        rules={
            "hand_size": 25,
            "recycles": 1,
            "recycle_shuffle": False,
            "exhausted": "score",
            "deals": 1,
        },
        decks=[ten_type_deck],
        by_admin=True,
    )
    game.join("Ann")
    game.join("Bob")
    return game


# --- Resources: POST /games -------------------------------------------------------


def test_create_answers_201_with_game_id_players_version_and_an_etag(api: Api) -> None:
    """`POST /games` … 201 with `game_id`, `players` (`seat`, `name`, `token` for
    seats filled now), `version`; every response that shows a game carries its
    `version` and an `ETag`."""
    response = api.client.post("/games", json={"players": TWO, "seats": 3})
    assert response.status_code == 201, response.text
    created = response.json()
    assert isinstance(created["game_id"], str)
    assert [(p["seat"], p["name"]) for p in created["players"]] == [(0, "Ann"), (1, "Bob")]
    assert all(isinstance(p["token"], str) and p["token"] for p in created["players"])
    assert created["version"] == 1
    check_etag(response)


def test_join_answers_201_with_seat_token_version_and_an_etag(api: Api) -> None:
    """`POST /games/{game_id}/players` … 201 with `seat`, `token`."""
    game = api.create(seats=2)
    response = api.client.post(f"/games/{game.id}/players", json={"name": "Cleo"})
    assert response.status_code == 201, response.text
    joined = response.json()
    assert (joined["seat"], joined["version"]) == (0, 2)
    assert isinstance(joined["token"], str)
    assert joined["token"]
    check_etag(response, joined["seat"])


def test_every_create_field_is_taken_as_named(api: Api) -> None:
    """`players` with `name`, `client_seed` and `bot`; `rules` by docs/rules.md names;
    `decks`; `dealer`."""
    cards = two_player_deck()
    game = api.create(
        players=[{"name": "Ann"}, {"name": "Robo", "bot": "basic"}],
        rules={"aces": "high_or_low", "target": 150},
        decks=[cards],
        dealer=BOB,
    )
    # A bot seat is filled, but nobody acts for it: only Ann gets a token.
    assert [p["seat"] for p in game.created["players"]] == [ANN]
    view = game.view(ANN)
    assert [(p["name"], p["bot"]) for p in view["players"]] == [("Ann", None), ("Robo", "basic")]
    assert (view["rules"]["aces"], view["rules"]["target"]) == ("high_or_low", 150)
    assert view["dealer"] == BOB
    # Bob dealt, so Ann was dealt the first card of the given deck.
    assert cards[0] in view["my_hand"]
    # The client seed is the player's own; it is kept for the audit, never shown.
    # (Not with decks: they deal as given, so a client seed is refused there.)
    seeded = api.create(
        players=[{"name": "Ann", "client_seed": "ann's entropy"}, {"name": "Robo", "bot": "basic"}]
    )
    assert "ann's entropy" not in json.dumps(seeded.view(ANN))
    audit = seeded.get("/audit", ADMIN).json()
    assert audit["players"][ANN]["client_seed"] == "ann's entropy"


BAD_CREATE_BODIES: list[tuple[str, Json, str, str]] = [
    # (case, body, code, the name the problem must give)
    ("players is no list", {"players": "Ann"}, "invalid_body", "players"),
    (
        "players over eight",
        {"players": [{"name": f"P{n}"} for n in range(9)]},
        "invalid_body",
        "players",
    ),
    ("a player without a name", {"players": [{}, {"name": "Bob"}]}, "invalid_body", "name"),
    (
        "an empty name",
        {"players": [{"name": ""}, {"name": "Bob"}]},
        "invalid_body",
        "players[0].name",
    ),
    (
        "a name that is no string",
        {"players": [{"name": 7}, {"name": "Bob"}]},
        "invalid_body",
        "players[0].name",
    ),
    (
        "an unknown player field",
        {"players": [{"name": "A", "nick": "a"}, {"name": "B"}]},
        "invalid_body",
        "nick",
    ),
    (
        "a client_seed that is no string",
        {"players": [{"name": "A", "client_seed": 5}, {"name": "B"}]},
        "invalid_body",
        "players[0].client_seed",
    ),
    (
        "a client_seed too long",
        {"players": [{"name": "A", "client_seed": "x" * 257}, {"name": "B"}]},
        "invalid_body",
        "players[0].client_seed",
    ),
    (
        "an unknown bot",
        {"players": [{"name": "A", "bot": "smart"}, {"name": "B"}]},
        "invalid_body",
        "players[0].bot",
    ),
    (
        "only bots",
        {"players": [{"name": "A", "bot": "basic"}, {"name": "B", "bot": "random"}]},
        "invalid_seating",
        "seat",
    ),
    ("one seat", {"seats": 1}, "invalid_body", "seats"),
    # 500 Rum seats eight: the schema's bound; fewer per variant (invalid_rules).
    ("nine seats", {"seats": 9}, "invalid_body", "seats"),
    ("seats as a string", {"seats": "3"}, "invalid_body", "seats"),
    ("seats as a fraction", {"seats": 2.5}, "invalid_body", "seats"),
    ("no players and no seats", {}, "invalid_seating", "players"),
    # Every problem inside `rules` is invalid_rules, and inside a deck order
    # invalid_deck, whether the schema or the service catches it (docs/api.md,
    # "Variants").
    ("an unknown rule", {"seats": 2, "rules": {"colour": "red"}}, "invalid_rules", "colour"),
    (
        "a bad rule value",
        {"seats": 2, "rules": {"aces": "sometimes"}},
        "invalid_rules",
        "rules.aces",
    ),
    ("rules that are no object", {"seats": 2, "rules": [1]}, "invalid_rules", "rules"),
    ("an empty seed", {"players": TWO, "seed": ""}, "invalid_body", "seed"),
    ("a seed that is no string", {"players": TWO, "seed": 5}, "invalid_body", "seed"),
    ("a deck of 51", {"players": TWO, "decks": [["AS"] * 51]}, "invalid_deck", "decks[0]"),
    ("decks that are one deck", {"players": TWO, "decks": ["AS"] * 52}, "invalid_deck", "decks[0]"),
    ("a negative dealer", {"players": TWO, "dealer": -1}, "invalid_body", "dealer"),
    ("a dealer past eight seats", {"players": TWO, "dealer": 8}, "invalid_body", "dealer"),
    ("a dealer not at the table", {"players": TWO, "dealer": 2}, "invalid_seating", "dealer"),
    ("a dealer as a string", {"players": TWO, "dealer": "0"}, "invalid_body", "dealer"),
    ("an unknown top-level field", {"players": TWO, "colour": 1}, "invalid_body", "colour"),
]


@pytest.mark.parametrize(
    ("body", "code", "name"),
    [pytest.param(body, code, name, id=case) for case, body, code, name in BAD_CREATE_BODIES],
)
def test_a_bad_create_field_is_a_422_problem_naming_it(
    api: Api, body: Json, code: str, name: str
) -> None:
    """Validation of every request field: 422 problem+json naming the field."""
    response = api.client.post("/games", json=body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert (problem["status"], problem["code"]) == (422, code)
    assert name in problem["detail"], problem["detail"]


@pytest.mark.parametrize(
    ("body", "name"),
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": "Cleo", "client_seed": 1}, "client_seed"),
        ({"name": "Cleo", "bot": "basic"}, "bot"),
    ],
)
def test_a_bad_join_field_is_a_422_problem_naming_it(api: Api, body: Json, name: str) -> None:
    game = api.create(seats=2)
    response = api.client.post(f"/games/{game.id}/players", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "invalid_body"
    assert name in response.json()["detail"]
    assert game.view(PUBLIC)["players"][0]["name"] is None


# --- Views ---------------------------------------------------------------------------

VIEW_FIELDS = {
    "game_id",
    "version",
    "status",
    "rules",
    "players",
    "hand_number",
    "dealer",
    "turn",
    "phase",
    "stock_count",
    "discard_top",
    "discard_count",
    "melds",
    "last_hand",
    "winner",
}
PLAYER_ONLY = {"my_seat", "my_hand", "legal"}


def test_each_caller_gets_the_view_api_md_lists(api: Api) -> None:
    """A player's view holds at least the listed fields; the public view is the same
    without `my_seat`, `my_hand`, `legal`; the admin token gets the full view."""
    game = api.create(players=TWO, dealer=ANN, decks=[two_player_deck()])
    game.play(BOB, [draw(), meld("AS 2S 3S")])

    bob = game.view(BOB)
    assert set(bob) >= VIEW_FIELDS | PLAYER_ONLY
    assert bob["my_seat"] == BOB
    assert set(bob["players"][0]) >= {"seat", "name", "score", "hand_count"}
    assert set(bob["melds"][0]) >= {"id", "kind", "cards", "owner"}
    assert bob["melds"][0]["kind"] == "run"
    assert set(bob["legal"]) == {"draw", "melds", "lay_offs", "discard"}
    assert {"card": "4S", "meld_id": bob["melds"][0]["id"]} in bob["legal"]["lay_offs"]
    assert all(set(option) == {"card", "meld_id"} for option in bob["legal"]["lay_offs"])

    public = game.view(PUBLIC)
    assert set(public) >= VIEW_FIELDS
    assert not PLAYER_ONLY & set(public), "absent, not null"
    assert {key: public[key] for key in VIEW_FIELDS} == {key: bob[key] for key in VIEW_FIELDS}

    admin = game.view(ADMIN)
    assert set(admin) >= VIEW_FIELDS
    hidden = admin["hidden"]
    assert sorted(hidden["hands"][BOB]) == sorted(bob["my_hand"])
    assert len(hidden["stock"]) == admin["stock_count"]
    assert "hidden" not in bob
    assert "hidden" not in public


def test_my_hand_is_sorted_and_legal_is_empty_lists_off_turn(api: Api) -> None:
    game = api.create(players=TWO, dealer=ANN, decks=[two_player_deck()])
    ann = game.view(ANN)
    assert ann["my_hand"] == ["2D", "3D", "5C", "6C", "8D", "9D", "10C", "JD", "QD", "KD"]
    assert ann["legal"] == {"draw": [], "melds": [], "lay_offs": [], "discard": []}
    assert game.view(BOB)["legal"]["draw"] == ["stock", "discard"]


# --- Events, redaction ---------------------------------------------------------------------


def test_the_ten_event_types_and_their_envelope(api: Api) -> None:
    """Each event is an object with `version`, `type`, `at`, `seat` (absent for the
    system) and its data; types are the ten docs/api.md names."""
    game = all_event_types(api)
    play_ten_type_hand(game)

    for who in (PUBLIC, ANN, BOB, ADMIN):
        events = game.events(who)
        kinds = [event["type"] for event in events]
        assert sorted(set(kinds), key=EVENT_TYPES.index) == EVENT_TYPES, kinds
        assert [event["version"] for event in events] == list(range(1, len(events) + 1))
        for event in events:
            assert isinstance(event["at"], str)
            assert event["at"].endswith("Z")
            if event["type"] in SYSTEM_EVENTS:
                assert "seat" not in event, event
            else:
                assert event["seat"] in (ANN, BOB), event
    joined = [event for event in game.events(PUBLIC) if event["type"] == "player_joined"]
    assert [(event["seat"], event["name"]) for event in joined] == [(ANN, "Ann"), (BOB, "Bob")]


def play_ten_type_hand(game: Game) -> None:
    bob = game.play(BOB, [draw(), meld("AH 2H 3H"), discard("5S")])
    assert bob["stock_count"] == 0
    ann = game.play(ANN, [draw(), lay_off("4H", "h1-m1"), discard("2C")])
    assert "QD" in ann["my_hand"]
    assert game.view(BOB)["legal"]["draw"] == ["stock", "discard"]
    finished = game.play(BOB, draw())
    assert finished["status"] == "finished", finished
    assert finished["last_hand"]["how"] == "exhausted"
    assert finished["winner"] in (ANN, BOB)


def test_what_each_caller_learns_of_a_stock_draw_a_recycle_and_a_deal(api: Api) -> None:
    """A draw from the stock by another player shows the source but not the card; a
    recycle shows the new stock size but not its order; the deal shows a player only
    its own cards and the upcard; the stock order is the admin's alone until the end."""
    game = all_event_types(api)
    bob_drew = game.play(BOB, [draw(), meld("AH 2H 3H"), discard("5S")])
    game.play(ANN, [draw(), lay_off("4H", "h1-m1"), discard("2C")])
    version = game.view(ADMIN)["version"]

    def the(kind: str, who: Any) -> Json:
        return next(event for event in game.events(who) if event["type"] == kind)

    assert "KS" in bob_drew["my_hand"]
    assert the("card_drawn", BOB)["card"] == "KS"
    for who in (ANN, PUBLIC):
        drawn = the("card_drawn", who)
        assert (drawn["seat"], drawn["source"]) == (BOB, "stock")
        assert "card" not in drawn
    assert the("card_drawn", ADMIN)["card"] == "KS"

    for who in (ANN, BOB, PUBLIC):
        recycled = the("stock_recycled", who)
        assert recycled["stock_count"] == 1
        assert "stock" not in recycled
    assert the("stock_recycled", ADMIN)["stock"] == ["QD"]

    for who, own in ((ANN, ANN_25), (BOB, BOB_DEALT), (PUBLIC, None)):
        dealt = the("hand_dealt", who)
        assert dealt["upcard"] == "QD"
        assert "deck" not in dealt
        assert (dealt.get("my_cards") is None) is (own is None)
        if own is not None:
            assert sorted(dealt["my_cards"]) == sorted(own.split())
    assert len(the("hand_dealt", ADMIN)["deck"]) == 52

    for who in (ANN, BOB, PUBLIC):
        for body in (game.view(who), game.replay(who, version), game.replay(who, 4)):
            assert "hidden" not in body
        assert game.get("/audit", who).status_code in (401, 403)


# --- Errors --------------------------------------------------------------------------------

API_MD_CODES = [
    "not_your_turn",
    "wrong_phase",
    "card_not_in_hand",
    "invalid_meld",
    "invalid_lay_off",
    "discard_taken_card",
    "meld_limit",
    "must_discard_last",
    "game_over",
    "unknown_card",
    "version_conflict",
    "unauthorized",
    "forbidden",
    "not_found",
]


def test_every_code_api_md_names_is_reached_with_the_status_it_gives() -> None:
    """Every listed code is reachable (test_errors sends each): unknown_card 422,
    rule refusals 409, unauthorized 401, forbidden 403, not_found 404,
    version_conflict 412."""
    reached = {code: status for _, status, code, _ in SCENARIOS}
    assert set(API_MD_CODES) <= set(reached), sorted(set(API_MD_CODES) - set(reached))
    expected = {"unknown_card": 422, "unauthorized": 401, "forbidden": 403}
    expected |= {"not_found": 404, "version_conflict": 412}
    for code in API_MD_CODES:
        assert reached[code] == expected.get(code, 409), code


@pytest.mark.parametrize("after", ["-1", "abc", "1.5", "", "99999999999"])
def test_a_bad_events_after_is_a_422_naming_it(api: Api, after: str) -> None:
    game = api.create(players=TWO)
    response = game.get("/events", PUBLIC, after=after)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert "after" in response.json()["detail"]


def test_events_after_the_current_version_are_none(api: Api) -> None:
    """Not an error: a client polling with the version it has gets an empty page
    (and the game's version, so it can tell it is ahead)."""
    game = api.create(players=TWO)
    for after in (2, 50):
        response = game.get("/events", BOB, after=after)
        assert response.status_code == 200
        assert response.json()["events"] == []
        assert response.json()["version"] == 2
        check_etag(response, BOB, after=after)


@pytest.mark.parametrize("version", ["-1", "0", "abc", "1.5", "", "99999999999", None])
def test_a_bad_replay_version_is_a_422_naming_it(api: Api, version: str | None) -> None:
    game = api.create(players=TWO)
    params = {} if version is None else {"version": version}
    response = game.get("/replay", BOB, **params)
    assert response.status_code == 422, response.text
    assert "version" in response.json()["detail"]


def test_a_replay_version_past_the_game_is_a_404(api: Api) -> None:
    game = api.create(players=TWO)
    response = game.get("/replay", PUBLIC, version=3)
    assert response.status_code == 404
    assert response.json()["code"] == "version_not_found"
    assert game.replay(PUBLIC, 2)["version"] == 2


def test_events_after_n_come_in_pages_that_say_whether_more_follow() -> None:
    """`GET /games/{game_id}/events?after=N`: the game's events after version N, a
    page at a time (docs/api.md "Limits"): without `limit`, the service's page size;
    `more` tells a first page from the whole, and following it yields every event."""
    settings = Settings(store=Store.MEMORY, admin_token=ADMIN_TOKEN, events_page=25)
    served = bootstrap(settings)
    games = served.games
    with TestClient(served.app) as client:
        # Void hands of one turn each: a long game in few moves (all tie, so it goes on).
        rules = {"max_turns": 1, "exhausted": "void", "deals": 1}
        created = client.post("/games", json={"players": TWO, "rules": rules}).json()
        game_id = UUID(created["game_id"])
        while (table := games.state(game_id).table).hand is not None and (
            games.state(game_id).version < 3 * settings.events_page
        ):
            seat = table.hand.turn
            games.play(game_id, seat, [Draw(Source.STOCK)])
            drawn = games.state(game_id).table
            games.play(game_id, seat, [Discard(legal_moves(drawn, seat).discard[0])])
        version = games.state(game_id).version
        assert version > 2 * settings.events_page
        for after in (0, 5):
            pages: list[Any] = []
            while not pages or pages[-1]["more"]:
                last = pages[-1]["events"][-1]["version"] if pages else after
                pages.append(client.get(f"/games/{game_id}/events", params={"after": last}).json())
            assert [len(page["events"]) for page in pages[:-1]] == [settings.events_page] * (
                len(pages) - 1
            )
            assert [event["version"] for page in pages for event in page["events"]] == list(
                range(after + 1, version + 1)
            )
        paged = client.get(f"/games/{game_id}/events", params={"after": 0, "limit": 10})
        assert [event["version"] for event in paged.json()["events"]] == list(range(1, 11))
        assert paged.json()["more"] is True
        past_the_end = client.get(f"/games/{game_id}/events", params={"after": version})
        assert past_the_end.json()["events"] == []
        assert past_the_end.json()["more"] is False


def test_an_events_page_is_never_older_than_its_events(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every response that shows a game carries its version: on an events page it is
    at least the version of every event on it, even when another writer moves the
    game while the page is being read. And the page holds exactly the events up to
    that version, so its `ETag` (the version, the caller, the query) names it."""
    settings = Settings(store=Store.MEMORY, admin_token=ADMIN_TOKEN)
    served = bootstrap(settings)
    games = served.games
    with TestClient(served.app) as client:
        created = client.post("/games", json={"players": TWO, "dealer": ANN}).json()
        game_id = UUID(created["game_id"])
        read_events = games.events_after

        def another_writer_moves_first(*args: Any, **kwargs: Any) -> Any:
            games.play(game_id, BOB, [Draw(Source.STOCK)])
            return read_events(*args, **kwargs)

        monkeypatch.setattr(games, "events_after", another_writer_moves_first)
        raced = client.get(f"/games/{game_id}/events", params={"after": 0})
        monkeypatch.undo()
        later = client.get(f"/games/{game_id}/events", params={"after": 0})

    page = raced.json()
    assert page["version"] == page["events"][-1]["version"] == created["version"]
    assert page["more"] is False
    check_etag(raced, after=0)
    assert later.json()["events"][-1]["type"] == "card_drawn"
    assert later.json()["events"][:-1] == page["events"]
    assert later.headers["etag"] != raced.headers["etag"]


# --- Concurrency and retries ---------------------------------------------------------------


def test_a_refused_request_repeated_with_its_key_is_refused_alike_and_changes_nothing(
    api: Api,
) -> None:
    """A rejected action changes nothing in the game, yet it is the outcome of its
    key: repeated, even once the game has moved on and the same draw would now be
    legal, it is refused alike and changes nothing."""
    game = api.create(players=TWO, dealer=ANN, decks=[two_player_deck()])
    key = {"Idempotency-Key": "refused-once"}
    first = game.act(ANN, draw(), key)
    game.play(BOB, [draw(), discard("5S")])  # now it is Ann's turn to draw
    before = game.events(ADMIN)
    again = game.act(ANN, draw(), key)
    assert first.status_code == again.status_code == 409
    assert first.json() == again.json()
    assert again.json()["code"] == "not_your_turn"
    # The key is spent on that request: another body with it is a client error.
    other = game.act(ANN, draw("discard"), key)
    assert (other.status_code, other.json()["code"]) == (422, "idempotency_key_reused")
    assert game.events(ADMIN) == before
    assert game.act(ANN, draw(), {"Idempotency-Key": "a-new-request"}).status_code == 200


def test_a_repeated_key_returns_the_original_outcome_after_a_restart(tmp_path: Path) -> None:
    """Idempotency holds across restarts: a second process on the same store
    answers the retry with the first outcome and applies nothing."""
    settings = Settings(
        store=Store.SQLITE, sqlite_path=str(tmp_path / "games.sqlite"), admin_token=ADMIN_TOKEN
    )
    with serve(settings) as first:
        created = first.post(
            "/games", json={"players": TWO, "dealer": ANN, "decks": [two_player_deck()]}
        ).json()
        url = f"/games/{created['game_id']}/actions"
        headers = {"Authorization": f"Bearer {created['players'][BOB]['token']}"}
        headers["Idempotency-Key"] = "draw-1"
        original = first.post(url, json=draw(), headers=headers)
        assert original.status_code == 200
    with serve(settings) as restarted:
        retried = restarted.post(url, json=draw(), headers=headers)
        assert retried.status_code == 200
        assert retried.json() == original.json()
        assert retried.headers["etag"] == original.headers["etag"]
        admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
        view = restarted.get(f"/games/{created['game_id']}", headers=admin).json()
        assert view["version"] == original.json()["version"]


def serve(settings: Settings) -> TestClient[Litestar]:
    return TestClient(bootstrap(settings).app)


# --- Identities, fairness, audit -----------------------------------------------------------


def test_only_a_hash_of_a_token_is_stored(tmp_path: Path) -> None:
    settings = Settings(store=Store.MEMORY, admin_token=ADMIN_TOKEN)
    served = bootstrap(settings)
    games = served.games
    with TestClient(served.app) as client:
        created = client.post("/games", json={"players": [{"name": "Ann"}], "seats": 2}).json()
        joined = client.post(f"/games/{created['game_id']}/players", json={"name": "Bob"})
        tokens = [created["players"][0]["token"], joined.json()["token"]]
    stored = b"".join(record.state for record in games.recorder.select_notifications(0, 100))
    assert stored
    for token in tokens:
        assert token.encode() not in stored
        assert hashlib.sha256(token.encode()).hexdigest().encode() in stored


def test_without_an_admin_token_configured_no_token_is_the_admin() -> None:
    with TestClient(bootstrap(Settings(store=Store.MEMORY)).app) as client:
        game_id = client.post("/games", json={"players": TWO}).json()["game_id"]
        for token in ("", "admin", ADMIN_TOKEN):
            headers = {"Authorization": f"Bearer {token}"}
            assert client.get(f"/games/{game_id}", headers=headers).status_code == 401
            assert client.get(f"/games/{game_id}/audit", headers=headers).status_code == 401
        assert client.get(f"/games/{game_id}").status_code == 200


def test_the_server_commits_to_its_seed_from_creation_and_reveals_it_once_finished(
    api: Api,
) -> None:
    """No `seed` or `decks`: `seed_commitment`, binding the secret seed's chain of hand
    seeds and the rules digest (docs/fairness.md "A seed per hand"), is shown from
    creation on; the audit export reveals the seed once the game is finished, never
    before, with each hand's deck order."""
    game = api.create(players=TWO, rules={"deals": 1, "max_turns": 4, "exhausted": "score"})
    commitment = game.created["seed_commitment"]
    assert len(commitment) == 64
    assert game.view(PUBLIC)["seed_commitment"] == commitment
    assert game.events(PUBLIC)[0]["seed_commitment"] == commitment
    in_play = game.get("/audit", ADMIN).json()
    assert (in_play["seed"], in_play["seed_commitment"]) == (None, commitment)
    assert game.get("/audit", PUBLIC).status_code == 401
    assert game.get("/audit", BOB).status_code == 403

    finish(game)
    audit = game.get("/audit", PUBLIC)
    assert audit.status_code == 200
    export = audit.json()
    assert audit.headers["etag"] == f'"{export["version"]}.audit-v1.{export["game_id"]}"'
    assert oracle.commitment(export["seed"], export["events"][0]["data"]["rules"]) == commitment
    assert export["hands"]
    assert all(len(hand["deck"]) == 52 for hand in export["hands"])
    assert game.get("/audit", BOB).json() == export


def finish(game: Game) -> None:
    """Play the simplest legal turns (draw from the stock, throw the first card
    allowed) until the game ends."""
    for _ in range(200):
        view = game.view(ANN)
        if view["status"] == "finished":
            return
        seat = view["turn"]
        legal = game.view(seat)["legal"]
        if legal["draw"]:
            game.play(seat, draw(legal["draw"][0]))
        else:
            game.play(seat, discard(legal["discard"][0]))
    raise AssertionError("the game did not finish")


def test_a_given_seed_or_given_decks_still_show_the_commitment_of_the_seed_in_use(
    api: Api,
) -> None:
    """docs/api.md only says what a server-picked seed shows. The service reads it as: a
    game always shows the commitment to the seed it shuffles with: the given seed,
    or with given decks the one the server picked (it still shuffles recycles and
    deals past the given decks)."""
    seeded = api.create(players=TWO, seed="tournament-7")
    stored_rules = seeded.get("/audit", ADMIN).json()["events"][0]["data"]["rules"]
    expected = oracle.commitment("tournament-7", stored_rules)
    assert seeded.created["seed_commitment"] == expected
    assert seeded.view(PUBLIC)["seed_commitment"] == expected
    dealt = api.create(players=TWO, decks=[two_player_deck()])
    assert len(dealt.created["seed_commitment"]) == 64


# --- Operations ----------------------------------------------------------------------------


def test_health_ready_and_metrics_answer_anyone(client: TestClient[Litestar]) -> None:
    assert client.get("/health").json() == {"status": "ok"}
    assert client.get("/ready").json() == {"status": "ready"}
    metrics = client.get("/metrics")
    assert metrics.status_code == 200
    assert metrics.headers["content-type"].startswith("text/plain")
    assert "# TYPE rummy_http_requests_total counter" in metrics.text


def test_ready_is_a_503_problem_when_the_store_does_not_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = Settings(store=Store.MEMORY)
    served = bootstrap(settings)

    def down(_: StoreHealth) -> None:
        raise ConnectionError("no store")

    monkeypatch.setattr(StoreHealth, "check_store", down)
    with TestClient(served.app) as client:
        response = client.get("/ready")
        assert response.status_code == 503
        assert response.headers["content-type"].startswith("application/problem+json")
        assert response.json()["code"] == "not_ready"
        assert client.get("/health").status_code == 200
