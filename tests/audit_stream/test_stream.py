"""The live stream over a real server: resuming, many clients, heartbeats, the end."""

from __future__ import annotations

import gc
import json
import threading
import time
from collections.abc import Callable
from typing import Any
from uuid import UUID

import httpx
import pytest
from litestar import Request

from service.domain.state import Status
from service.game.application import RummyApplication
from tests.audit_stream.clients import ADMIN_TOKEN, Message, bearer, metric, sse, wait_for
from tests.audit_stream.conftest import live_settings
from tests.audit_stream.games import LONG_HAND_RULES, play
from tests.game.stores import StoreUnderTest
from tests.servers import serve

CLASSIC_TWO_HANDS = {"players": [{"name": "Ann"}, {"name": "Bob"}], "rules": {"deals": 2}}


class Mover:
    """Plays the game to its end in a thread, a move every few milliseconds,
    through another replica of the service (or any `act`)."""

    def __init__(
        self,
        games: RummyApplication,
        game_id: UUID,
        act: Callable[[int, Any], None] | None = None,
        *,
        pause: float = 0.003,
        meld_from_hand: int = 1,
    ) -> None:
        self.games = games
        self.game_id = game_id
        self.act = act
        self.pause = pause
        self.meld_from_hand = meld_from_hand
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> Mover:
        self.thread.start()
        return self

    def join(self) -> None:
        self.thread.join(timeout=60)
        assert not self.thread.is_alive(), "the game did not end"
        if self.error is not None:
            raise self.error

    def _run(self) -> None:
        try:
            while play(
                self.games, self.game_id, moves=1, act=self.act, meld_from_hand=self.meld_from_hand
            ):
                time.sleep(self.pause)
        except BaseException as error:
            self.error = error


def events_of(client: httpx.Client, game_id: UUID, headers: dict[str, str]) -> list[dict[str, Any]]:
    """The caller's whole event log, from `GET /games/{id}/events`."""
    events: list[dict[str, Any]] = []
    while True:
        page = client.get(
            f"/games/{game_id}/events", params={"after": len(events)}, headers=headers
        ).json()
        if not page["events"]:
            return events
        events.extend(page["events"])


def stream_until_end(
    client: httpx.Client, game_id: UUID, headers: dict[str, str], into: list[Message]
) -> None:
    with client.stream("GET", f"/games/{game_id}/stream", headers=headers) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        into.extend(sse(response))


def test_a_stream_dropped_mid_game_and_resumed_with_last_event_id_gets_every_event_once(
    shared_store: StoreUnderTest,
) -> None:
    app = shared_store.bootstrap(live_settings(shared_store.settings)).app
    replica = shared_store.games()  # the moves are committed by another replica of the service
    with serve(app) as url, httpx.Client(base_url=url, timeout=10) as client:
        created = client.post("/games", json=CLASSIC_TWO_HANDS).json()
        game_id, token = UUID(created["game_id"]), created["players"][0]["token"]
        mover = Mover(replica, game_id).start()

        first: list[Message] = []
        with client.stream("GET", f"/games/{game_id}/stream", headers=bearer(token)) as response:
            for message in sse(response):
                if message.id is not None:
                    first.append(message)
                if len(first) == 25:
                    break  # leaving the block drops the connection mid-game
        # The server lets the dropped stream go.
        wait_for(lambda: metric(client, "rummy_stream_connections") == 0)

        second: list[Message] = []
        resume = {**bearer(token), "Last-Event-ID": str(first[-1].id)}
        stream_until_end(client, game_id, resume, second)
        mover.join()

        received = [message.id for message in first + second if message.id is not None]
        expected = events_of(client, game_id, bearer(token))
        assert first[-1].id is not None
        assert first[-1].id < expected[-1]["version"], "the drop happened mid-game"
        assert received == [event["version"] for event in expected], "each event exactly once"
        assert [message.data for message in first + second if message.id] == expected
        assert expected[-1]["type"] == "game_finished"
        assert metric(client, "rummy_stream_connections") == 0
        assert metric(client, "rummy_streams_opened_total") == 2


def every_kind_of_viewer(tokens: list[str]) -> dict[str, dict[str, str]]:
    """The headers of each kind of caller of a game (a seat twice), by name."""
    return {
        "seat 0": bearer(tokens[0]),
        "seat 0 again": bearer(tokens[0]),
        "seat 1": bearer(tokens[1]),
        "public": {},
        "admin": bearer(ADMIN_TOKEN),
    }


def events_in(messages: list[Message]) -> list[Message]:
    return [message for message in messages if message.id is not None]


def test_many_streams_at_once_each_get_the_callers_own_redacted_events(
    sqlite_store: StoreUnderTest,
) -> None:
    served = sqlite_store.bootstrap(live_settings(sqlite_store.settings))
    games, app = served.games, served.app
    with serve(app) as url, httpx.Client(base_url=url, timeout=10) as client:
        created = client.post(
            "/games",
            json={
                "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cleo"}],
                "rules": LONG_HAND_RULES.to_dict(),
            },
        ).json()
        game_id = UUID(created["game_id"])
        tokens = [player["token"] for player in created["players"]]
        viewers = every_kind_of_viewer(tokens)
        streams: dict[str, list[Message]] = {name: [] for name in viewers}
        readers = [
            threading.Thread(
                target=stream_until_end, args=(client, game_id, headers, streams[name])
            )
            for name, headers in viewers.items()
        ]
        for reader in readers:
            reader.start()
        wait_for(lambda: metric(client, "rummy_stream_connections") == len(viewers))

        def act_over_http(seat: int, action: Any) -> None:
            response = client.post(
                f"/games/{game_id}/actions", json=_action_body(action), headers=bearer(tokens[seat])
            )
            assert response.status_code == 200, response.text

        Mover(games, game_id, act_over_http, pause=0, meld_from_hand=2).start().join()
        for reader in readers:
            reader.join(timeout=30)

        for name, headers in viewers.items():
            got = [message.data for message in events_in(streams[name])]
            assert got == events_of(client, game_id, headers), name
        # The same events, ids and data alike; heartbeats keep each connection's own time.
        assert events_in(streams["seat 0"]) == events_in(streams["seat 0 again"])
        _assert_redacted(streams["seat 0"], seat=0)
        _assert_redacted(streams["seat 1"], seat=1)
        _assert_redacted(streams["public"], seat=None)
        admin_deals = [
            m.data for m in streams["admin"] if m.data and m.data["type"] == "hand_dealt"
        ]
        assert all(len(deal["deck"]) == 52 for deal in admin_deals)


def _assert_redacted(messages: list[Message], seat: int | None) -> None:
    """What docs/api.md lets a player (or the public) learn, and nothing more."""
    events = [message.data for message in messages if message.data is not None]
    kinds = {event["type"] for event in events}
    assert {"hand_dealt", "card_drawn", "stock_recycled", "hand_ended"} <= kinds
    for event in events:
        text = repr(event)
        assert "'seed'" not in text  # the game's; client and ended hands' seeds are public
        assert "token" not in text
        match event["type"]:
            case "hand_dealt":
                assert "deck" not in event
                assert ("my_cards" in event) is (seat is not None)
            case "card_drawn" if event["source"] == "stock":
                assert ("card" in event) is (event.get("seat") == seat)
            case "stock_recycled":
                assert "stock" not in event
                assert event["stock_count"] > 0


def _action_body(action: Any) -> dict[str, Any]:
    from service.domain.actions import Discard, Draw, LayOff, Meld

    match action:
        case Draw(source=source):
            return {"type": "draw", "source": source.value}
        case Meld(cards=cards):
            return {"type": "meld", "cards": [card.code for card in cards]}
        case LayOff(card=card, meld_id=meld_id):
            return {"type": "lay_off", "card": card.code, "meld_id": meld_id}
        case Discard(card=card):
            return {"type": "discard", "card": card.code}
    raise AssertionError(action)


def test_an_idle_stream_sends_heartbeats_and_ends_when_the_client_goes(
    sqlite_store: StoreUnderTest,
) -> None:
    app = sqlite_store.bootstrap(live_settings(sqlite_store.settings)).app
    with serve(app) as url, httpx.Client(base_url=url, timeout=10) as client:
        game_id = client.post("/games", json={"seats": 2}).json()["game_id"]
        started = time.monotonic()
        with client.stream("GET", f"/games/{game_id}/stream") as response:
            messages = sse(response)
            opening = next(messages)
            assert opening.retry is not None
            assert [m.id for m in (next(messages),)] == [1]  # game_created
            beat = next(messages)
            assert beat.comment == "heartbeat"
            assert time.monotonic() - started < 2
        wait_for(lambda: metric(client, "rummy_stream_connections") == 0)


@pytest.mark.postgres
def test_on_postgresql_another_replicas_event_wakes_the_stream_without_polling(
    postgres_store: StoreUnderTest,
) -> None:
    # Polls and heartbeats a minute apart: only LISTEN/NOTIFY can bring the move in time.
    settings = live_settings(
        postgres_store.settings, stream_poll_ms=60_000, stream_heartbeat_ms=60_000
    )
    app = postgres_store.bootstrap(settings).app
    replica = postgres_store.games()
    with serve(app) as url, httpx.Client(base_url=url, timeout=10) as client:
        created = client.post("/games", json=CLASSIC_TWO_HANDS).json()
        game_id, token = UUID(created["game_id"]), created["players"][1]["token"]
        with client.stream("GET", f"/games/{game_id}/stream", headers=bearer(token)) as response:
            messages = sse(response)
            versions: list[int] = []
            while len(versions) < created["version"]:
                message = next(messages)
                if message.id is not None:
                    versions.append(message.id)
            moved = time.monotonic()
            play(replica, game_id, moves=1)
            woken = next(message for message in messages if message.id is not None)
            assert woken.id == created["version"] + 1
            assert woken.data is not None
            assert woken.data["type"] == "card_drawn"
            assert time.monotonic() - moved < 2


def test_a_finished_game_streams_to_its_end_then_answers_204(sqlite_store: StoreUnderTest) -> None:
    served = sqlite_store.bootstrap(live_settings(sqlite_store.settings))
    games, app = served.games, served.app
    with serve(app) as url, httpx.Client(base_url=url, timeout=10) as client:
        created = client.post("/games", json=CLASSIC_TWO_HANDS).json()
        game_id = UUID(created["game_id"])
        play(games, game_id)
        assert games.state(game_id).table.status is Status.FINISHED
        messages: list[Message] = []
        stream_until_end(client, game_id, {}, messages)
        final = games.state(game_id).version
        assert [m.id for m in messages if m.id is not None] == list(range(1, final + 1))
        again = client.get(f"/games/{game_id}/stream", headers={"Last-Event-ID": str(final)})
        assert again.status_code == 204
        assert client.get(f"/games/{game_id}/stream", params={"after": final}).status_code == 204


@pytest.mark.parametrize(
    ("headers", "status", "code"),
    [
        ({"Last-Event-ID": "seven"}, 422, "invalid_request"),
        ({"Authorization": "Bearer not-a-token"}, 401, "unauthorized"),
    ],
)
def test_a_stream_refuses_bad_requests_as_problems(
    sqlite_store: StoreUnderTest, headers: dict[str, str], status: int, code: str
) -> None:
    app = sqlite_store.bootstrap(live_settings(sqlite_store.settings)).app
    with serve(app) as url, httpx.Client(base_url=url, timeout=10) as client:
        game_id = client.post("/games", json={"seats": 2}).json()["game_id"]
        response = client.get(f"/games/{game_id}/stream", headers=headers)
        assert response.status_code == status
        assert response.headers["content-type"].startswith("application/problem+json")
        assert response.json()["code"] == code
        missing = client.get("/games/00000000-0000-4000-8000-000000000000/stream")
        assert missing.status_code == 404


def test_an_open_stream_holds_nothing_of_litestars_request(sqlite_store: StoreUnderTest) -> None:
    """A stream's body is sent after litestar's request chain has returned
    (`StreamHandOff`): while it is open the request is already counted and logged,
    and neither litestar's `Request` nor its per-request state in the scope lives on."""
    app = sqlite_store.bootstrap(live_settings(sqlite_store.settings)).app
    with serve(app) as url, httpx.Client(base_url=url, timeout=10) as client:
        game_id = client.post("/games", json={"seats": 2}).json()["game_id"]
        path = f"/games/{game_id}/stream"
        counted = (
            'rummy_http_requests_total{method="GET",route="/games/{game_id}/stream",status="200"} '
        )
        with client.stream("GET", path) as stream:
            lines = stream.iter_lines()  # kept: a dropped iterator closes the response
            assert next(lines).startswith(": events of game")
            assert metric(client, "rummy_stream_connections") == 1
            scrape = client.get("/metrics").text
            assert f"{counted}1.0" in scrape, "the stream's request is counted once it opens"
            gc.collect()
            requests = [
                held
                for held in gc.get_objects()
                if isinstance(held, Request) and held.scope.get("path") == path
            ]
            assert not requests, "litestar's request of an open stream is still alive"
        wait_for(lambda: metric(client, "rummy_stream_connections") == 0)


def test_streams_beyond_the_cap_are_503_until_one_closes(sqlite_store: StoreUnderTest) -> None:
    settings = live_settings(sqlite_store.settings, max_streams=2)
    app = sqlite_store.bootstrap(settings).app
    with serve(app) as url, httpx.Client(base_url=url, timeout=10) as client:
        game_id = client.post("/games", json={"seats": 2}).json()["game_id"]
        path = f"/games/{game_id}/stream"
        with client.stream("GET", path) as first, client.stream("GET", path) as second:
            assert (first.status_code, second.status_code) == (200, 200)
            with client.stream("GET", path) as refused:
                assert refused.status_code == 503
                assert json.loads(refused.read())["code"] == "too_many_streams"
                assert int(refused.headers["retry-after"]) >= 1
            with client.stream("GET", f"/games/{game_id}/stream?after=1") as third:
                assert third.status_code == 503, "a place is taken however the stream starts"
        # Both closed: their places are given back, and new streams open.
        wait_for(lambda: metric(client, "rummy_stream_connections") == 0)
        with client.stream("GET", path) as again, client.stream("GET", path) as also:
            assert (again.status_code, also.status_code) == (200, 200)
