"""A SQLite store that cannot write: actions get 503, `/ready` says so, then recovers.

Issue 16: with the disk full, writes failed with a generic 500 while `/ready`
stayed 200. Here the server process may not make its files any larger
(`RLIMIT_FSIZE` set on it from outside, as a full disk refuses to let them
grow; SQLite reports `disk I/O error` for it where a full disk gives
`database or disk is full`, both the driver's OperationalError). Reads go on
working; writes fail; then the limit is lifted, as when space is freed.
"""

from __future__ import annotations

import resource
from pathlib import Path

import httpx
import pytest

from tests.servers import rummy_serve

DRAW = {"type": "draw", "source": "stock"}

pytestmark = pytest.mark.skipif(
    not hasattr(resource, "prlimit"), reason="needs Linux's prlimit on another process"
)


def test_writes_answer_503_and_ready_says_not_ready_until_the_store_can_write(
    tmp_path: Path,
) -> None:
    database = tmp_path / "rummy.sqlite"
    env = {"RUMMY_STORE": "sqlite", "RUMMY_SQLITE_PATH": str(database)}
    with rummy_serve(env) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        # Seat 0 deals, so seat 1 moves first.
        two = {"players": [{"name": "a"}, {"name": "b"}], "dealer": 0}
        game = client.post("/games", json=two).json()
        path = f"/games/{game['game_id']}"
        seat_1 = {"Authorization": f"Bearer {game['players'][1]['token']}"}
        drawn = client.post(f"{path}/actions", json=DRAW, headers=seat_1)
        assert drawn.status_code == 200
        discard = {"type": "discard", "card": drawn.json()["legal"]["discard"][0]}

        _, hard = resource.prlimit(server.pid, resource.RLIMIT_FSIZE)
        # No file of the store may grow past its size now (the write-ahead log is
        # the one every write appends to).
        full = Path(f"{database}-wal").stat().st_size
        resource.prlimit(server.pid, resource.RLIMIT_FSIZE, (full, hard))
        try:
            refused = client.post(f"{path}/actions", json=discard, headers=seat_1)
            viewed = client.get(path, headers=seat_1)
            not_ready = client.get("/ready")
            health = client.get("/health")
        finally:
            resource.prlimit(server.pid, resource.RLIMIT_FSIZE, (hard, hard))
        ready = client.get("/ready")
        played = client.post(f"{path}/actions", json=discard, headers=seat_1)

    assert refused.status_code == 503, refused.text
    assert refused.json()["code"] == "store_unavailable"
    assert int(refused.headers["retry-after"]) >= 1
    assert viewed.status_code == 200, "reads still work"
    assert viewed.json()["version"] == drawn.json()["version"], "nothing was applied"
    assert not_ready.status_code == 503
    assert not_ready.json()["code"] == "not_ready"
    assert "cannot write" in not_ready.json()["detail"]
    assert health.status_code == 200
    assert ready.status_code == 200, ready.text
    assert played.status_code == 200, played.text
