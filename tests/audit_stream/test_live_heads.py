"""Live chain heads (docs/fairness.md, "Live chain heads"): every event served carries
`chain`, the salted head of the stored event; `rummy verify --heads` holds an export
to heads a client kept, and catches an operator who rewrote a running game's
stored events in a way that still replays legally.

The oracle is written here from the doc, with `hmac` and `hashlib` alone: the salt
is HMAC-SHA-256 keyed by the seed over `straight-rummy/chain-salt/v1`, the head
HMAC-SHA-256 keyed by the salt's bytes over the export's hex `hash` of the event.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service import bootstrap, cli
from service.audit.chain import chain_salt, salted_head
from service.audit.heads import HeadsUnreadable, KeptHead, check_heads, read_heads
from service.audit.verify import Outcome, verify_export
from service.bootstrap import open_games
from service.config import Settings, Store
from service.projections import chain_heads
from service.projections.audit_export import audit_export
from service.projections.chain_heads import ChainHeads
from tests.audit_stream.games import new_game, play
from tests.game.stored_events import SEED, V1, V2, load, read
from tests.rates import NO_RATE_LIMITS

ADMIN = "admin-token-for-heads"
MARK = 16
"""Marks every 16 versions here, so a short game spans several."""
ADMIN_HEADERS = {"Authorization": f"Bearer {ADMIN}"}


def salt_of(seed: str) -> str:
    return hmac.new(seed.encode(), b"straight-rummy/chain-salt/v1", hashlib.sha256).hexdigest()


def head_of(salt: str, event_hash: str) -> str:
    return hmac.new(bytes.fromhex(salt), event_hash.encode(), hashlib.sha256).hexdigest()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[bootstrap.Wiring, TestClient[Litestar], Path]]:
    """The service on a SQLite file, as `rummy serve --store sqlite` runs it."""
    path = tmp_path / "rummy.sqlite"
    wiring = bootstrap.bootstrap(
        Settings(
            store=Store.SQLITE,
            sqlite_path=str(path),
            admin_token=ADMIN,
            **{**NO_RATE_LIMITS, "webhook_senders": 0, "bot_pace_ms": 0},
        )
    )
    with TestClient(wiring.app) as client:
        yield wiring, client, path
    wiring.games.close()


def events_of(
    client: TestClient[Litestar], game_id: UUID, headers: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        page = client.get(
            f"/games/{game_id}/events", params={"after": len(events)}, headers=headers or {}
        ).json()
        if not page["events"]:
            return events
        events.extend(page["events"])


def export_of(client: TestClient[Litestar], game_id: UUID) -> dict[str, Any]:
    answer = client.get(f"/games/{game_id}/audit")
    assert answer.status_code == 200, answer.text
    exported: dict[str, Any] = answer.json()
    return exported


def kept(events: list[dict[str, Any]]) -> list[KeptHead]:
    return [KeptHead(event["version"], event["chain"]) for event in events]


def test_every_event_served_carries_the_salted_head_of_the_export_s_event(served: Any) -> None:
    wiring, client, _ = served
    games = wiring.games
    game_id, tokens = new_game(games)
    play(games, game_id)
    public = events_of(client, game_id)
    player = events_of(client, game_id, {"Authorization": f"Bearer {tokens[0]}"})
    admin = events_of(client, game_id, ADMIN_HEADERS)
    # Redacted differently, the same heads: the head is the stored event's.
    assert any(a != b for a, b in zip(public, admin, strict=True))
    assert (
        [e["chain"] for e in public] == [e["chain"] for e in player] == [e["chain"] for e in admin]
    )
    export = export_of(client, game_id)
    assert export["chain_salt"] == salt_of(export["seed"])
    assert [e["chain"] for e in public] == [
        head_of(export["chain_salt"], event["hash"]) for event in export["events"]
    ]
    assert len({e["chain"] for e in public}) == len(public)
    # The feed (and so every webhook, which sends its items) carries the same heads.
    feed = client.get("/feed", params={"limit": 1000}, headers=ADMIN_HEADERS).json()
    heads = {item["event"]["version"]: item["event"]["chain"] for item in feed["events"]}
    assert heads == {e["version"]: e["chain"] for e in public}


def test_a_page_anywhere_gives_the_heads_of_a_whole_read_whatever_the_cache_holds(
    served: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chain_heads, "MARK_EVERY", MARK)
    wiring, _, _ = served
    games = wiring.games
    game_id, _ = new_game(games)
    play(games, game_id)
    events = games.events_after(game_id)
    assert len(events) > MARK + 10, "the game spans a mark"
    whole = ChainHeads().after(games, game_id, events)
    warm = ChainHeads()
    warm.after(games, game_id, events)
    for start in (0, 1, MARK - 1, MARK, MARK + 3, len(events) - 2):
        page = events[start : start + 5]
        assert ChainHeads().after(games, game_id, page) == whole[start : start + 5], start
        assert warm.after(games, game_id, page) == whole[start : start + 5], start
    # Without the store, only what follows a head it holds.
    assert ChainHeads().known_after(game_id, events[5:7]) is None
    assert ChainHeads().known_after(game_id, events[:2]) == whole[:2]
    assert warm.known_after(game_id, events[MARK : MARK + 2]) == whole[MARK : MARK + 2]


def test_the_heads_say_nothing_without_the_salt_and_the_salt_is_secret_until_the_end(
    served: Any,
) -> None:
    wiring, client, _ = served
    game_id, _ = new_game(wiring.games)
    play(wiring.games, game_id, moves=4)
    events = events_of(client, game_id, ADMIN_HEADERS)
    export = export_of_admin(client, game_id)
    assert export["seed"] is None
    assert export["chain_salt"] is None
    # A served head is not the plain chain's hash.
    assert [e["chain"] for e in events] != [e["hash"] for e in export["events"]]
    verdict = check_heads(export, verify_export(export), kept(events))
    assert verdict.outcome is Outcome.UNFINISHED


def export_of_admin(client: TestClient[Litestar], game_id: UUID) -> dict[str, Any]:
    exported: dict[str, Any] = client.get(f"/games/{game_id}/audit", headers=ADMIN_HEADERS).json()
    return exported


def rewrite(path: Path, game_id: UUID, version: int, change: Any) -> None:
    """What an operator with the database could do: rewrite one stored event in place."""
    with sqlite3.connect(path) as database:
        (state,) = database.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
            (game_id.hex, version),
        ).fetchone()
        stored = json.loads(state)
        change(stored)
        database.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (json.dumps(stored).encode(), game_id.hex, version),
        )


def backdate(stored: dict[str, Any]) -> None:
    stored["timestamp"]["_data_"] = "2026-01-01T00:00:00+00:00"


def test_a_running_game_rewritten_in_the_store_is_caught_by_the_heads_a_client_kept(
    served: Any, tmp_path: Path
) -> None:
    wiring, client, path = served
    games = wiring.games
    game_id, tokens = new_game(games)
    play(games, game_id, moves=10)
    # A player keeps the heads of what it was served while the game runs.
    seen = events_of(client, game_id, {"Authorization": f"Bearer {tokens[1]}"})
    changed = seen[7]["version"]
    # The operator backdates a move: nothing the rules check, so the game plays on
    # and its log still replays legally.
    rewrite(path, game_id, changed, backdate)
    play(games, game_id)
    export = export_of(client, game_id)
    assert export["events"][changed - 1]["at"] == "2026-01-01T00:00:00Z"
    assert verify_export(export).outcome is Outcome.VERIFIED  # the log alone shows nothing
    found = check_heads(export, verify_export(export), kept(seen))
    assert found.outcome is Outcome.FAILED
    assert found.finding is not None
    assert found.finding.version == changed
    assert "at this event" in found.finding.message
    # Heads kept before it agree; sparse heads name the stretch the change lies in.
    assert check_heads(export, verify_export(export), kept(seen[:7])).ok
    found = check_heads(export, verify_export(export), kept(seen[2:3] + seen[9:10]))
    assert found.finding is not None
    assert found.finding.version == seen[9]["version"]
    assert f"in versions {seen[2]['version'] + 1} to {seen[9]['version']}" in found.finding.message
    # Through the command line, as an auditor runs it.
    export_file, heads_file = tmp_path / "export.json", tmp_path / "heads.jsonl"
    export_file.write_text(json.dumps(export))
    heads_file.write_text(
        "".join(json.dumps({"version": e["version"], "chain": e["chain"]}) + "\n" for e in seen[1:])
    )
    assert cli.main(["verify", "--heads", str(heads_file), str(export_file)]) == 1
    assert cli.main(["verify", str(export_file)]) == 0


def test_heads_that_agree_verify_and_heads_past_the_log_are_a_cut(
    served: Any, tmp_path: Path
) -> None:
    wiring, client, _ = served
    game_id, _ = new_game(wiring.games)
    play(wiring.games, game_id)
    seen = events_of(client, game_id)
    export = export_of(client, game_id)
    assert check_heads(export, verify_export(export), kept(seen)).outcome is Outcome.VERIFIED
    heads_file, export_file = tmp_path / "heads.jsonl", tmp_path / "export.json"
    heads_file.write_text(
        "\n".join(json.dumps({"version": e["version"], "chain": e["chain"]}) for e in seen)
    )
    export_file.write_text(json.dumps(export))
    assert cli.main(["verify", "--heads", str(heads_file), str(export_file)]) == 0
    # The export cut before its last events (the chain rewritten to match) is caught.
    past = [KeptHead(len(seen) + 1, seen[-1]["chain"])]
    found = check_heads(export, verify_export(export), past)
    assert found.outcome is Outcome.FAILED
    assert found.finding is not None
    assert "cut off" in found.finding.message
    # A heads file that is not JSON Lines of heads is unreadable (exit 2).
    heads_file.write_text('{"version": "1", "chain": "ab"}\n')
    assert cli.main(["verify", "--heads", str(heads_file), str(export_file)]) == 2
    with pytest.raises(HeadsUnreadable, match="no head"):
        read_heads("")


def test_the_worked_example_of_the_doc_is_what_the_code_computes() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "fairness.md").read_text("utf-8")
    block = text.split("<!-- worked-heads:", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    values = dict(line.split(":", 1) for line in block.splitlines())
    values = {name: value.strip() for name, value in values.items()}
    assert chain_salt(values["seed"]) == values["chain_salt"] == salt_of(values["seed"])
    for place in (1, 2, 3):
        made = salted_head(values["chain_salt"], values[f"hash {place}"])
        assert (
            made
            == values[f"chain {place}"]
            == head_of(values["chain_salt"], values[f"hash {place}"])
        )
    # The hashes are docs/audit.md's worked chain.
    audit = (Path(__file__).resolve().parents[2] / "docs" / "audit.md").read_text("utf-8")
    for place in (1, 2, 3):
        assert f"hash {place}: {values[f'hash {place}']}" in audit


@pytest.mark.parametrize("path", [V1, V2], ids=["v1", "v2"])
def test_a_game_stored_before_heads_existed_gets_them_the_same_way(path: Path) -> None:
    games = open_games(Settings(store=Store.MEMORY))
    try:
        game_id = load(games, read(path))
        export = json.loads(
            msgspec.json.encode(audit_export(str(game_id), games.events_after(game_id)))
        )
        assert verify_export(export).outcome is Outcome.VERIFIED
        assert export["chain_salt"] == salt_of(SEED)
        heads = ChainHeads().after(games, game_id, games.events_after(game_id, 3))
        assert heads == [head_of(salt_of(SEED), event["hash"]) for event in export["events"][3:]]
    finally:
        games.close()


def test_a_delivery_is_headed_from_memory_after_a_page_hashed_past_it(served: Any) -> None:
    wiring, _, _ = served
    games = wiring.games
    game_id, _ = new_game(games)
    play(games, game_id, moves=20)
    events = games.events_after(game_id)
    heads = ChainHeads()
    whole = heads.after(games, game_id, events)
    # A page has hashed to the end; a stream's delivery of the last three still heads.
    assert heads.known_after(game_id, events[-3:]) == whole[-3:]
