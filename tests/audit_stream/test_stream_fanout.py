"""How the hub feeds the live streams: one delivery per game fanned out to every
stream, in order whatever order deliveries come in, nothing read for a heartbeat,
and nothing kept once the streams are gone (service/api/live/channels.py, stream.py)."""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import httpx
import pytest

from service.api.live.channels import Channels
from service.api.live.listener import Listener
from service.api.live.stream import _Stream
from service.bootstrap import Wiring
from tests.audit_stream.clients import Message, bearer, sse, wait_for
from tests.audit_stream.conftest import served
from tests.audit_stream.games import play
from tests.audit_stream.test_stream import CLASSIC_TWO_HANDS, events_of, every_kind_of_viewer
from tests.game.stores import StoreUnderTest

QUIET = {"stream_poll_ms": 60_000}
"""The shared poller a minute apart: only what the test delivers (or this process's
own saves) reaches the streams."""


class Reader(threading.Thread):
    """Reads one stream into `messages` until it ends or the test closes it."""

    def __init__(self, client: httpx.Client, path: str, headers: dict[str, str]) -> None:
        super().__init__(daemon=True)
        self.client, self.path, self.headers = client, path, headers
        self.messages: list[Message] = []
        self.opened = threading.Event()
        self.response: httpx.Response | None = None

    def run(self) -> None:
        try:
            with self.client.stream("GET", self.path, headers=self.headers) as response:
                self.response = response
                self.opened.set()
                for message in sse(response):
                    self.messages.append(message)
        except httpx.HTTPError:
            pass  # closed by the test

    def ids(self) -> list[int]:
        return [message.id for message in self.messages if message.id is not None]

    def close(self) -> None:
        if self.response is not None:
            self.response.close()
        self.join(timeout=10)


def readers(
    client: httpx.Client, game_id: UUID, viewers: dict[str, dict[str, str]]
) -> Iterator[Reader]:
    for headers in viewers.values():
        reader = Reader(client, f"/games/{game_id}/stream", headers)
        reader.start()
        assert reader.opened.wait(10)
        yield reader


def test_deliveries_out_of_order_reach_every_stream_in_order_once(
    sqlite_store: StoreUnderTest,
) -> None:
    replica = sqlite_store.games()  # moves stored by another replica: only delivered ones come
    with served(sqlite_store, **QUIET) as (wiring, client):
        created = client.post("/games", json=CLASSIC_TWO_HANDS).json()
        game_id, tokens = UUID(created["game_id"]), [p["token"] for p in created["players"]]
        viewers = every_kind_of_viewer(tokens)
        streams = list(readers(client, game_id, viewers))
        start = created["version"]
        for stream in streams:
            wait_for(lambda stream=stream: stream.ids() == list(range(1, start + 1)))

        play(replica, game_id, moves=4)
        stored = replica.events_after(game_id, start)
        assert len(stored) >= 4
        # The second save's events arrive before the first's, then the first's, then
        # the first's again (this process's save, then the watcher's).
        channels = wiring.hub.channels
        channels.publish(game_id, stored[2:])
        channels.publish(game_id, stored[:2])
        channels.publish(game_id, stored[:2])
        final = stored[-1].originator_version
        for stream in streams:
            wait_for(lambda stream=stream: stream.ids()[-1:] == [final])
        time.sleep(0.3)  # whatever else would come

        for stream, (name, headers) in zip(streams, viewers.items(), strict=True):
            stream.close()
            assert stream.ids() == list(range(1, final + 1)), name
            got = [message.data for message in stream.messages if message.id is not None]
            assert got == events_of(client, game_id, headers), name


def test_a_delivery_is_redacted_and_encoded_once_per_kind_of_caller(
    sqlite_store: StoreUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    import service.api.live.stream
    from service.projections.event_views import event_view as redact

    made: list[tuple[int, Any]] = []

    def counted(event: Any, viewer: Any, rules: Any, players: int, chain: str) -> Any:
        made.append((event.originator_version, viewer))
        return redact(event, viewer, rules, players, chain)

    monkeypatch.setattr(service.api.live.stream, "event_view", counted)
    with served(sqlite_store, **QUIET) as (wiring, client):
        created = client.post("/games", json=CLASSIC_TWO_HANDS).json()
        game_id, token = UUID(created["game_id"]), created["players"][0]["token"]
        viewers = {f"seat 0 #{n}": bearer(token) for n in range(3)} | {
            f"public #{n}": {} for n in range(3)
        }
        streams = list(readers(client, game_id, viewers))
        start = created["version"]
        for stream in streams:
            wait_for(lambda stream=stream: stream.ids() == list(range(1, start + 1)))
        made.clear()

        play(wiring.games, game_id, moves=3)  # this process's saves: delivered in hand
        final = wiring.games.state(game_id).version
        for stream in streams:
            wait_for(lambda stream=stream: stream.ids()[-1:] == [final])
        for stream in streams:
            stream.close()

    versions = range(start + 1, final + 1)
    assert sorted({version for version, _ in made}) == list(versions)
    assert len(made) == 2 * len(versions), "once for the seat's streams, once for the public's"


def test_heartbeats_and_idle_streams_read_nothing_from_the_store(
    sqlite_store: StoreUnderTest,
) -> None:
    with served(sqlite_store, stream_heartbeat_ms=50, **QUIET) as (wiring, client):
        created = client.post("/games", json=CLASSIC_TWO_HANDS).json()
        game_id, tokens = UUID(created["game_id"]), [p["token"] for p in created["players"]]
        viewers = {"seat 0": bearer(tokens[0]), "seat 1": bearer(tokens[1]), "public": {}}
        streams = list(readers(client, game_id, viewers))
        for stream in streams:
            wait_for(lambda stream=stream: stream.ids()[-1:] == [created["version"]])

        reads = count_reads(wiring)
        time.sleep(1.0)  # some 20 heartbeats a stream
        idle_reads = reads.total()
        beats = [sum(m.comment == "heartbeat" for m in stream.messages) for stream in streams]
        play(wiring.games, game_id, moves=2)
        final = wiring.games.state(game_id).version
        for stream in streams:
            wait_for(lambda stream=stream: stream.ids()[-1:] == [final])
        for stream in streams:
            stream.close()

    assert min(beats) >= 5, beats
    assert idle_reads == 0, "a heartbeat read the store"


class Reads:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def total(self) -> int:
        return len(self.calls)


def count_reads(wiring: Wiring) -> Reads:
    """Count every read of the events table by the served application from now on."""
    reads = Reads()
    recorder = wiring.games.recorder
    select = recorder.select_events

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.calls.append("select_events")
        return select(*args, **kwargs)

    recorder.select_events = counted  # type: ignore[method-assign]
    return reads


def test_closed_streams_leave_nothing_behind(sqlite_store: StoreUnderTest) -> None:
    def alive() -> int:
        gc.collect()
        return sum(isinstance(found, Listener | _Stream) for found in gc.get_objects())

    with served(sqlite_store, **QUIET) as (wiring, client):
        created = client.post("/games", json=CLASSIC_TWO_HANDS).json()
        game_id, token = UUID(created["game_id"]), created["players"][0]["token"]
        before = alive()
        streams = list(readers(client, game_id, {"seat": bearer(token), "public": {}}))
        channels = wiring.hub.channels
        wait_for(lambda: len(listeners_of(channels, game_id)) == 2)
        assert alive() == before + 4, "a listener and a stream each"
        for stream in streams:
            stream.close()
        wait_for(lambda: not channels.listened(game_id))
        wait_for(lambda: alive() == before)
        assert wiring.hub.open_streams == 0
        assert client.get("/health").status_code == 200


def listeners_of(channels: Channels, game_id: UUID) -> list[Listener]:
    return [
        listener
        for channel in channels._by_game.get(game_id, [])  # what the hub holds
        for listener in channel.listeners
    ]
