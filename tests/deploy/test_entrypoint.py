"""The image's entry command, run directly (no Docker engine here): with the
environment the Dockerfile sets (bound to 127.0.0.1, its /data volume a
temporary directory), it answers /health and /ready, its HEALTHCHECK passes,
and SIGTERM stops it cleanly and promptly, letting an in-flight request finish."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.deploy.dockerfile import exec_form, image_env, instructions, one
from tests.postgres import fresh_schema, service_environment
from tests.servers import Replica, clean_environment, free_port, ready

SHUTDOWN_TIMEOUT = 3
"""RUMMY_SHUTDOWN_TIMEOUT for these runs (the image's is longer)."""


def _image_command(tmp_path: Path, **overrides: str) -> tuple[list[str], dict[str, str]]:
    """The Dockerfile's CMD and ENV, mapped onto this machine."""
    found = instructions()
    venv_bin = str(Path(sys.executable).parent)
    env = image_env(found, clean_environment())
    env["PATH"] = env["PATH"].replace("/app/.venv/bin", venv_bin)
    data = tmp_path / "data"  # the image's VOLUME
    data.mkdir(exist_ok=True)
    env["RUMMY_SQLITE_PATH"] = env["RUMMY_SQLITE_PATH"].replace("/data", str(data), 1)
    env.update(RUMMY_HOST="127.0.0.1", RUMMY_PORT=str(free_port()))
    env["RUMMY_SHUTDOWN_TIMEOUT"] = str(SHUTDOWN_TIMEOUT)
    env.update(overrides)
    command = exec_form(one(found, "CMD"))
    command[0] = str(Path(venv_bin) / command[0])
    assert Path(command[0]).exists(), f"{command[0]} is installed"
    return command, env


@pytest.fixture
def started(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Replica]:
    overrides: dict[str, str] = getattr(request, "param", {})
    command, env = _image_command(tmp_path, **overrides)
    with ready(Replica("image", env, tmp_path / "server.log", command=command)) as replica:
        yield replica


def _stops_cleanly(replica: Replica, limit: float) -> float:
    began = time.monotonic()
    code = replica.terminate(timeout=limit + 10)
    took = time.monotonic() - began
    assert code == 0, f"exit code {code}:\n{replica.output()}"
    assert took < limit, f"took {took:.1f} s to stop:\n{replica.output()}"
    return took


def _healthcheck(replica: Replica) -> int:
    command = exec_form(one(instructions(), "HEALTHCHECK"))
    command[0] = sys.executable
    return subprocess.run(
        command, env=dict(replica.env), capture_output=True, timeout=10, check=False
    ).returncode


def _plays_a_game(replica: Replica) -> None:
    with httpx.Client(base_url=replica.url, timeout=5) as client:
        created = client.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]})
        assert created.status_code == 201, created.text
        game = created.json()
        view = client.get(
            f"/games/{game['game_id']}",
            headers={"Authorization": f"Bearer {game['players'][0]['token']}"},
        )
        assert view.status_code == 200
        assert view.json()["status"] == "playing"


@pytest.mark.parametrize(
    "started",
    [pytest.param({}, id="sqlite-1-worker"), pytest.param({"RUMMY_WORKERS": "2"}, id="2-workers")],
    indirect=True,
)
def test_entry_command_serves_and_stops_on_sigterm(started: Replica, tmp_path: Path) -> None:
    for path in ("/health", "/ready"):
        response = httpx.get(f"{started.url}{path}", timeout=5)
        assert response.status_code == 200, path
    _plays_a_game(started)
    assert _healthcheck(started) == 0
    assert started.env["RUMMY_SQLITE_PATH"].startswith(str(tmp_path / "data"))
    assert Path(started.env["RUMMY_SQLITE_PATH"]).exists(), "the events live in the volume"
    # With nothing in flight, SIGTERM ends it at once.
    _stops_cleanly(started, limit=5)
    assert _healthcheck(started) != 0


@pytest.mark.postgres
def test_entry_command_on_postgres_by_environment(tmp_path: Path) -> None:
    with fresh_schema("rummy_image") as settings:
        command, env = _image_command(tmp_path, **service_environment(settings))
        replica = Replica("image-postgres", env, tmp_path / "server.log", command=command)
        replica.start()
        try:
            replica.wait_ready()
            _plays_a_game(replica)
            _stops_cleanly(replica, limit=5)
        finally:
            replica.stop()
        assert not Path(env["RUMMY_SQLITE_PATH"]).exists(), "nothing written to SQLite"


def _read_response(sock: socket.socket) -> bytes:
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(65536)
        if not chunk:
            break
        received += chunk
    return received


def test_sigterm_lets_an_in_flight_request_finish(started: Replica) -> None:
    body = b'{"players": [{"name": "Ann"}, {"name": "Bob"}]}'
    head = (
        f"POST /games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", started.port), timeout=10) as sock:
        sock.sendall(head + body[:10])  # the request has begun ...
        time.sleep(0.3)
        assert started.process is not None
        began = time.monotonic()
        started.process.send_signal(15)  # ... when the orchestrator stops the server
        time.sleep(0.5)
        assert started.process.poll() is None, "it waits for the request"
        sock.sendall(body[10:])
        response = _read_response(sock)
    assert response.startswith(b"HTTP/1.1 201"), response[:200]
    assert b"connection: close" in response.lower()
    code = started.process.wait(timeout=SHUTDOWN_TIMEOUT + 10)
    assert code == 0, started.output()
    assert time.monotonic() - began < SHUTDOWN_TIMEOUT + 2


def test_sigterm_gives_up_on_a_stuck_request_after_the_timeout(started: Replica) -> None:
    head = (
        b"POST /games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n{"
    )
    with socket.create_connection(("127.0.0.1", started.port), timeout=10) as sock:
        sock.sendall(head)  # and never the rest
        time.sleep(0.3)
        took = _stops_cleanly(started, limit=SHUTDOWN_TIMEOUT + 3)
    assert took >= SHUTDOWN_TIMEOUT - 0.5, "it waited for the request first"


def test_a_bad_setting_stops_the_entry_command_with_a_message(tmp_path: Path) -> None:
    command, env = _image_command(tmp_path, RUMMY_CORS_ORIGINS="https://x.example/path")
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith("rummy: RUMMY_CORS_ORIGINS:"), result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "started",
    [pytest.param({"RUMMY_MAX_HEADER_BYTES": "4096", "RUMMY_WORKERS": "2"})],
    indirect=True,
)
def test_a_request_head_over_the_limit_is_431_in_every_worker(started: Replica) -> None:
    # uvicorn's httptools protocol alone takes a head of any size (1 MB was served).
    def send(pad: int) -> bytes:
        head = f"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: {'a' * pad}\r\n\r\n"
        with socket.create_connection(("127.0.0.1", started.port), timeout=10) as sock:
            sock.sendall(head.encode())
            return _read_response(sock)

    for _ in range(4):  # new connections: either worker may take each
        assert send(4200).startswith(b"HTTP/1.1 431 "), started.output()
        assert send(3800).startswith(b"HTTP/1.1 200 ")
