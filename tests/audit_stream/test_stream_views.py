"""The live stream's SSE event names, and its views (`?view=true`), over a real server."""

from __future__ import annotations

import time
from collections.abc import Iterator
from itertools import pairwise
from typing import Any
from uuid import UUID

import pytest

import service.projections.shared
from service.api.live.stream import VIEW_EVENT
from service.projections.views import GameView, Viewer, game_view
from tests.audit_stream.clients import EVENT_TYPES, Message, bearer, sse
from tests.audit_stream.conftest import served
from tests.audit_stream.games import play
from tests.audit_stream.test_stream import CLASSIC_TWO_HANDS, events_of
from tests.game.stores import StoreUnderTest

EVENTSOURCE_NAMES = {"message", "open", "error"}
"""What an EventSource names its own events: an event type so named would be taken
for one of them (`message` would even reach `onmessage`)."""


def test_no_event_type_is_named_as_eventsource_or_the_view_message_is() -> None:
    assert {"game_created", "card_drawn", "game_finished"} <= set(EVENT_TYPES)
    assert not set(EVENT_TYPES) & (EVENTSOURCE_NAMES | {VIEW_EVENT})


def test_each_event_message_is_named_by_its_type_and_heartbeats_stay_comments(
    sqlite_store: StoreUnderTest,
) -> None:
    with served(sqlite_store) as (wiring, client):
        created = client.post("/games", json=CLASSIC_TWO_HANDS).json()
        game_id, token = UUID(created["game_id"]), created["players"][0]["token"]
        play(wiring.games, game_id)
        with client.stream("GET", f"/games/{game_id}/stream", headers=bearer(token)) as response:
            messages = list(sse(response))

        events = [message for message in messages if message.id is not None]
        assert [message.data for message in events] == events_of(client, game_id, bearer(token))
        for message in events:
            assert message.data is not None
            assert message.event == message.data["type"]
            assert message.id == message.data["version"]
        assert all(message.event is None for message in messages if message.id is None)
        assert messages[0].comment is not None, "the opening comment"


def until_view(messages: Iterator[Message], seconds: float = 10) -> tuple[list[Message], Message]:
    """The event messages up to the next view message, and that view message (which
    must come within `seconds`: heartbeats keep the stream talking meanwhile)."""
    deadline = time.monotonic() + seconds
    events: list[Message] = []
    for message in messages:
        if message.event == VIEW_EVENT:
            return events, message
        if message.id is not None:
            events.append(message)
        assert time.monotonic() < deadline, f"no view in {seconds} s after {events}"
    raise AssertionError("the stream ended without a view")


def test_with_view_the_stream_sends_the_callers_view_each_time_it_has_caught_up(
    sqlite_store: StoreUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[int] = []

    def counted(state: Any, viewer: Viewer, shown: Any = None) -> GameView:
        made.append(state.version)
        return game_view(state, viewer, shown)

    monkeypatch.setattr(service.projections.shared, "game_view", counted)
    with served(sqlite_store) as (wiring, client):
        created = client.post("/games", json=CLASSIC_TWO_HANDS).json()
        game_id, token = UUID(created["game_id"]), created["players"][1]["token"]
        game_path = f"/games/{game_id}"

        def view_now() -> dict[str, Any]:
            body: dict[str, Any] = client.get(game_path, headers=bearer(token)).json()
            return body

        path = f"{game_path}/stream"
        with client.stream("GET", path, params={"view": "true"}, headers=bearer(token)) as response:
            messages = sse(response)
            # On opening: the events so far, then the view they lead to.
            events, view = until_view(messages)
            assert [event.id for event in events] == list(range(1, created["version"] + 1))
            assert (view.id, view.data) == (created["version"], view_now())
            # After each batch of new events: the view at the last of them.
            for _ in range(4):
                play(wiring.games, game_id, moves=1)
                events, view = until_view(messages)
                assert events
                assert view.id == events[-1].id
                assert view.data == view_now()
            # To the end: the last view follows `game_finished`, then the stream ends.
            play(wiring.games, game_id)
            rest = list(messages)

        after_opening = [m for m in rest if m.id is not None]
        assert after_opening[-2].event == "game_finished"
        assert after_opening[-1].event == VIEW_EVENT
        final = after_opening[-1].data
        assert final is not None
        assert final["status"] == "finished"
        assert final == view_now()
        for before, message in pairwise(after_opening):
            if message.event == VIEW_EVENT:
                assert before.event != VIEW_EVENT, "at most one view per batch"
                assert message.id == before.id, "a view shows the event just before it"
        views_sent = 1 + 4 + sum(m.event == VIEW_EVENT for m in after_opening)
        assert made == sorted(set(made)), "no version's view made twice"
        assert len(made) == views_sent, "a view made for every view sent, and no other"


def test_without_view_the_stream_sends_events_only(sqlite_store: StoreUnderTest) -> None:
    with served(sqlite_store) as (wiring, client):
        created = client.post("/games", json=CLASSIC_TWO_HANDS).json()
        game_id, token = UUID(created["game_id"]), created["players"][0]["token"]
        play(wiring.games, game_id)
        path = f"/games/{game_id}/stream"
        with client.stream("GET", path, params={"view": "false"}, headers=bearer(token)) as r:
            messages = list(sse(r))
        assert not [message for message in messages if message.event == VIEW_EVENT]
        assert messages[-1].event == "game_finished"
