"""The live stream carries the same live chain heads as the events pages, whether an
event reaches it in a delivery of this process's save (the heads made from the
head before, held in memory) or from the store (docs/fairness.md, "Live chain
heads")."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import httpx
import pytest

from service.domain.state import Status
from service.projections.chain_heads import ChainHeads
from tests.audit_stream.clients import Message, bearer
from tests.audit_stream.conftest import served
from tests.audit_stream.games import play
from tests.audit_stream.test_stream import CLASSIC_TWO_HANDS, events_of, stream_until_end
from tests.game.stores import StoreUnderTest


def test_a_stream_open_while_the_game_is_played_carries_the_pages_heads(
    sqlite_store: StoreUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    held: list[bool] = []
    known_after = ChainHeads.known_after

    def counted(self: ChainHeads, game_id: UUID, events: Sequence[Any]) -> list[str] | None:
        found = known_after(self, game_id, events)
        held.append(found is not None)
        return found

    monkeypatch.setattr(ChainHeads, "known_after", counted)
    with served(sqlite_store, stream_poll_ms=60_000) as (wiring, client):
        created = client.post("/games", json=CLASSIC_TWO_HANDS).json()
        game_id, token = UUID(created["game_id"]), created["players"][1]["token"]
        messages: list[Message] = []
        reader = threading.Thread(
            target=stream_until_end, args=(client, game_id, bearer(token), messages)
        )
        reader.start()
        time.sleep(0.3)  # opened: what follows is delivered, not read back
        while play(wiring.games, game_id, moves=1):
            time.sleep(0.002)
        reader.join(timeout=20)
        assert not reader.is_alive()
        assert wiring.games.state(game_id).table.status is Status.FINISHED
        streamed = {m.id: m.data["chain"] for m in messages if m.id is not None and m.data}
        with httpx.Client(base_url=str(client.base_url), timeout=10) as other:
            paged = {e["version"]: e["chain"] for e in events_of(other, game_id, {})}
        assert streamed == paged
    assert any(held), "deliveries were headed from memory"
