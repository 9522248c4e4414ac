"""docs/webhooks.md's receiver, run as written against `rummy serve`: it verifies
every delivery of a game's events with standardwebhooks and refuses a forged one."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from service.webhooks.sender import new_secret, signed_headers
from tests.servers import free_port, port_is_free, rummy_serve

ROOT = Path(__file__).resolve().parents[2]
ADMIN_TOKEN = "docs-receiver-admin-token"
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def example() -> str:
    text = (ROOT / "docs" / "webhooks.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert len(blocks) == 1, "docs/webhooks.md has one Python example: the receiver"
    return str(blocks[0])


def wait_listening(port: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()[1]
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("the example receiver never listened")


@dataclass
class ReceiverRun:
    """The documented receiver running as a process; what it printed once stopped."""

    process: subprocess.Popen[str]
    out: str = ""
    err: str = ""

    def printed(self) -> list[str]:
        """Each delivery it printed: `<webhook-id> <type>`."""
        return [" ".join(line.split()[:2]) for line in self.out.splitlines()]


@contextmanager
def receiver(script: Path, secret: str, port: int) -> Iterator[ReceiverRun]:
    """docs/webhooks.md's receiver, listening on `port` until the block ends."""
    run = ReceiverRun(
        subprocess.Popen(
            [sys.executable, str(script)],
            env={"WEBHOOK_SECRET": secret, "PORT": str(port), "PATH": "/usr/bin:/bin"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    )
    try:
        wait_listening(port, run.process)
        yield run
    finally:
        run.process.terminate()
        run.out, run.err = run.process.communicate(timeout=10)


def wait_delivered(client: httpx.Client, endpoint_id: str) -> None:
    """Until the endpoint has delivered up to the end of the feed."""
    deadline = time.monotonic() + 20
    state: dict[str, object] = {}
    while time.monotonic() < deadline:
        state = client.get(f"/webhooks/{endpoint_id}", headers=ADMIN).json()
        newest = client.get("/feed", params={"limit": 1}, headers=ADMIN).json()["last_position"]
        if state["last_success_at"] and state["position"] == newest:
            return
        time.sleep(0.05)
    raise AssertionError(f"not delivered: {state}")


def every_event(client: httpx.Client, game_id: str) -> list[dict[str, object]]:
    """All of a game's events, page after page: a long game has more than one page."""
    events: list[dict[str, object]] = []
    while True:
        page = client.get(
            f"/games/{game_id}/events", params={"after": len(events)}, headers=ADMIN
        ).json()
        events.extend(page["events"])
        if not page["more"]:
            return events


def test_the_documented_receiver_verifies_every_delivery(tmp_path: Path) -> None:
    script = tmp_path / "receiver_example.py"
    script.write_text(example(), encoding="utf-8")
    port = free_port()
    env = {
        "RUMMY_ADMIN_TOKEN": ADMIN_TOKEN,
        "RUMMY_SQLITE_PATH": str(tmp_path / "rummy.sqlite"),
        "RUMMY_WEBHOOK_POLL_MS": "50",
    }
    with rummy_serve(env) as served, httpx.Client(base_url=served.url, timeout=10) as client:
        created = client.post(
            "/webhooks", json={"url": f"http://127.0.0.1:{port}/rummy"}, headers=ADMIN
        )
        assert created.status_code == 201, created.text
        secret = created.json()["secret"]
        with receiver(script, secret, port) as run:
            forged = httpx.post(
                f"http://127.0.0.1:{port}/rummy",
                content=b'{"event": {}}',
                headers=signed_headers(new_secret(), "x:1", int(time.time()), b'{"event": {}}'),
            )
            assert forged.status_code == 400
            game = client.post(
                "/games", json={"players": [{"name": "Ann"}, {"name": "Bot", "bot": "basic"}]}
            ).json()
            events = every_event(client, game["game_id"])
            expected = [f"{game['game_id']}:{e['version']} {e['type']}" for e in events]
            wait_delivered(client, created.json()["id"])
    assert run.printed() == expected, run.err


def readme_registration() -> dict[str, object]:
    """The body the README registers its local receiver with."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("SECRET=$(curl -s -X POST $API/webhooks", 1)[1].split("```", 1)[0]
    body = re.search(r"-d '(.*?)'", block, flags=re.DOTALL)
    assert body is not None, block
    parsed: dict[str, object] = json.loads(body.group(1))
    return parsed


def test_the_readme_steps_deliver_a_game_to_a_receiver_started_afterwards(
    tmp_path: Path,
) -> None:
    # The README's order: register, then start the receiver, then play; here the
    # game is played before the receiver listens, so its first deliveries fail and
    # are retried until it answers, as the README says.
    registration = readme_registration()
    url = str(registration["url"])
    port = int(url.rsplit(":", 1)[1].strip("/"))
    if not port_is_free(port):
        port = free_port()
    registration["url"] = f"http://127.0.0.1:{port}/"
    script = tmp_path / "receiver.py"
    script.write_text(example(), encoding="utf-8")
    env = {
        "RUMMY_ADMIN_TOKEN": ADMIN_TOKEN,
        "RUMMY_SQLITE_PATH": str(tmp_path / "rummy.sqlite"),
        "RUMMY_WEBHOOK_POLL_MS": "50",
        "RUMMY_WEBHOOK_RETRY_MS": "200",
        "RUMMY_WEBHOOK_RETRY_MAX": "1",
        "RUMMY_BOT_PACE_MS": "0",
    }
    with rummy_serve(env) as served, httpx.Client(base_url=served.url, timeout=10) as client:
        created = client.post("/webhooks", json=registration, headers=ADMIN)
        assert created.status_code == 201, created.text
        secret = created.json()["secret"]
        # The README's clock game, left at once: the server's keeper plays the bot out.
        game = client.post(
            "/games",
            json={
                "players": [{"name": "Ann"}, {"name": "Bot", "bot": "basic"}],
                "rules": {"turn_seconds": 20},
            },
        ).json()
        ann = {"Authorization": f"Bearer {game['players'][0]['token']}"}
        left = client.post(f"/games/{game['game_id']}/leave", json={"resign": False}, headers=ann)
        assert left.status_code == 200, left.text
        until = time.monotonic() + 60
        while client.get(f"/games/{game['game_id']}").json()["status"] != "finished":
            assert time.monotonic() < until, "the bot did not finish the game"
            time.sleep(0.1)
        events = every_event(client, game["game_id"])
        wanted = {str(kind) for kind in registration["events"]}  # type: ignore[attr-defined]
        expected = [
            f"{game['game_id']}:{e['version']} {e['type']}" for e in events if e["type"] in wanted
        ]
        assert expected[-1].endswith("game_finished")
        time.sleep(0.5)  # a first delivery fails: nobody listens yet
        with receiver(script, secret, port) as run:
            wait_delivered(client, created.json()["id"])
            attempts = client.get(
                f"/webhooks/{created.json()['id']}/deliveries", headers=ADMIN
            ).json()
    assert run.printed() == expected, run.err
    assert any(attempt["status"] is None for attempt in attempts["deliveries"]), attempts
