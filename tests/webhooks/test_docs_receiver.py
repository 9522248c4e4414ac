"""docs/webhooks.md's receiver, run as written against `rummy serve`: it verifies
every delivery of a game's events with standardwebhooks and refuses a forged one."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from service.webhooks.sender import new_secret, signed_headers
from tests.servers import free_port, rummy_serve

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
        receiver = subprocess.Popen(
            [sys.executable, str(script)],
            env={"WEBHOOK_SECRET": secret, "PORT": str(port), "PATH": "/usr/bin:/bin"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            wait_listening(port, receiver)
            forged = httpx.post(
                f"http://127.0.0.1:{port}/rummy",
                content=b'{"event": {}}',
                headers=signed_headers(new_secret(), "x:1", int(time.time()), b'{"event": {}}'),
            )
            assert forged.status_code == 400
            game = client.post(
                "/games", json={"players": [{"name": "Ann"}, {"name": "Bot", "bot": "basic"}]}
            ).json()
            events = client.get(f"/games/{game['game_id']}/events", headers=ADMIN).json()
            expected = [f"{game['game_id']}:{e['version']} {e['type']}" for e in events["events"]]
            deadline = time.monotonic() + 20
            state: dict[str, object] = {}
            while time.monotonic() < deadline:
                state = client.get(f"/webhooks/{created.json()['id']}", headers=ADMIN).json()
                if (
                    state["last_success_at"]
                    and state["position"]
                    == client.get("/feed", params={"limit": 1}, headers=ADMIN).json()[
                        "last_position"
                    ]
                ):
                    break
                time.sleep(0.05)
            else:
                raise AssertionError(f"not delivered: {state}")
        finally:
            receiver.terminate()
            out, err = receiver.communicate(timeout=10)
    printed = [" ".join(line.split()[:2]) for line in out.splitlines()]
    assert printed == expected, err
