"""`rummy serve` as a real process: streams end at shutdown, and every log line is
JSON with its request id and without secrets."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.audit_stream.clients import ADMIN_TOKEN, Message, bearer, metric, sse, wait_for

ROOT = Path(__file__).resolve().parents[2]
CARD_CODE = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b")


@dataclass
class Run:
    """What one served process did and said, from its start to its exit."""

    lines: list[str] = field(default_factory=list)
    """Standard error: the logs."""
    said: list[str] = field(default_factory=list)
    """Standard output: what it says to a person."""
    responses: dict[str, httpx.Response] = field(default_factory=dict)
    tokens: list[str] = field(default_factory=list)
    streamed: list[Message] = field(default_factory=list)
    stream_ended_after: float | None = None
    exit_code: int | None = None
    exited_after: float | None = None


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    """Serve, play a little, hold a stream open, then SIGTERM the server."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **os.environ,
        "RUMMY_ADMIN_TOKEN": ADMIN_TOKEN,
        # Far longer than the test waits: the streams must end by themselves.
        "RUMMY_SHUTDOWN_TIMEOUT": "60",
        "RUMMY_STREAM_HEARTBEAT_MS": "60000",
        "RUMMY_LOG_LEVEL": "info",
    }
    database = tmp_path_factory.mktemp("served") / "rummy.sqlite"
    command = [sys.executable, "-m", "service.cli", "serve", "--port", str(port)]
    command += ["--store", "sqlite", "--sqlite-path", str(database)]
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    record = Run()
    readers = [
        threading.Thread(target=lambda: record.lines.extend(process.stderr or [])),
        threading.Thread(target=lambda: record.said.extend(process.stdout or [])),
    ]
    for reader in readers:
        reader.start()
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            wait_for(lambda: _healthy(client), timeout=30)
            _play_a_little(client, record)
            listener = threading.Thread(target=_listen, args=(client, record))
            listener.start()
            wait_for(lambda: metric(client, "rummy_stream_connections") == 1)
            process.send_signal(signal.SIGTERM)
            stopping = time.monotonic()
            listener.join(timeout=10)
            if not listener.is_alive():
                record.stream_ended_after = time.monotonic() - stopping
            record.exit_code = process.wait(timeout=10)
            record.exited_after = time.monotonic() - stopping
        for reader in readers:
            reader.join(timeout=5)
        yield record
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


def _healthy(client: httpx.Client) -> bool:
    try:
        return client.get("/health").status_code == 200
    except httpx.TransportError:
        return False


def _play_a_little(client: httpx.Client, record: Run) -> None:
    responses = record.responses
    responses["create"] = client.post(
        "/games",
        json={"players": [{"name": "Ann"}, {"name": "Bob"}]},
        headers={"X-Request-ID": "r-1"},
    )
    body = responses["create"].json()
    game_id = body["game_id"]
    record.tokens = tokens = [player["token"] for player in body["players"]]
    turn = client.get(f"/games/{game_id}").json()["turn"]
    mover = tokens[turn]
    view = client.get(f"/games/{game_id}", headers=bearer(mover)).json()
    responses["move"] = client.post(
        f"/games/{game_id}/actions",
        json=[{"type": "draw", "source": "stock"}, {"type": "discard", "card": view["my_hand"][0]}],
        headers={**bearer(mover), "X-Request-ID": "r-2"},
    )
    responses["refused"] = client.post(
        f"/games/{game_id}/actions",
        json={"type": "discard", "card": view["my_hand"][1]},
        headers={**bearer(mover), "X-Request-ID": "r-3"},
    )
    responses["unrouted"] = client.get("/no/such/route", headers=bearer(ADMIN_TOKEN))
    responses["audit"] = client.get(f"/games/{game_id}/audit", headers=bearer(ADMIN_TOKEN))
    responses["game"] = responses["create"]


def _listen(client: httpx.Client, record: Run) -> None:
    game_id = record.responses["game"].json()["game_id"]
    with client.stream(
        "GET", f"/games/{game_id}/stream", headers=bearer(record.tokens[0])
    ) as response:
        record.streamed.extend(sse(response))


def test_shutdown_ends_open_streams_at_once_and_the_server_exits(run: Run) -> None:
    assert run.stream_ended_after is not None, "the stream ended"
    assert run.stream_ended_after < 5, "nobody waited for the 60 s shutdown timeout"
    assert run.exit_code == 0
    assert run.exited_after is not None
    assert run.exited_after < 5
    assert [message.id for message in run.streamed if message.id] == [1, 2, 3, 4]


def test_every_log_line_is_json_with_its_request_id_and_no_token_or_card(run: Run) -> None:
    responses = run.responses
    assert responses["move"].status_code == 200, responses["move"].text
    assert responses["refused"].status_code == 409
    assert responses["audit"].status_code == 200
    assert responses["create"].headers["x-request-id"] == "r-1"
    assert responses["move"].headers["x-request-id"] == "r-2"
    lines = [line for line in run.lines if line.strip()]
    logged = [_json(line) for line in lines]
    assert all("request_id" in line for line in logged)
    access = {line["request_id"]: line for line in logged if line["logger"] == "service.access"}
    assert access["r-1"]["route"] == "/games"
    assert access["r-2"]["status"] == 200
    assert access["r-3"]["status"] == 409
    unrouted = access[responses["unrouted"].headers["x-request-id"]]
    assert (unrouted["route"], unrouted["status"]) == ("unmatched", 404)
    assert any(line["logger"].startswith("uvicorn") for line in logged), "uvicorn logs JSON too"
    text = "\n".join(lines)
    for secret in [*run.tokens, ADMIN_TOKEN]:
        assert secret not in text
    assert not CARD_CODE.search(text), CARD_CODE.search(text)


def test_it_says_where_it_serves_in_one_line_apart_from_the_logs(run: Run) -> None:
    [line] = run.said
    assert line.startswith("rummy: serving on http://127.0.0.1:")


def _json(line: str) -> dict[str, Any]:
    try:
        parsed: dict[str, Any] = json.loads(line)
    except json.JSONDecodeError:
        raise AssertionError(f"not a JSON log line: {line!r}") from None
    return parsed
