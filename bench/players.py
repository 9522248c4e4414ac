"""A view of a game with seats a platform vouched for, against one of anonymous seats.

Run it as a module from the project root:

    uv run python -m bench.players 2>/dev/null            # SQLite, 2,000 GETs of each
    uv run python -m bench.players --store memory --repeat 5000 2>/dev/null

It builds the service as `rummy serve` does (service/bootstrap.py) on a fresh
temporary SQLite file (or in memory), registers a platform, creates two
two-seat games through the API, one with both seats vouched for
(`player_assertion`, docs/players.md) and one anonymous, and times, `--repeat`
times each and interleaved, through litestar's test client: `GET /health` (the
floor), the public view of the anonymous game and of the vouched-for one. Both
views are the same version every time, so each is made once and then served
from the shared views (service/projections/shared.py); the vouched-for game's
also looks its seats' pseudonyms up in `rummy_players` on every GET (the cost
measured here). It prints the median and p99 of each and each median over the
floor's, and the vouched view's median over the anonymous one's.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from litestar.testing import TestClient

from service.bootstrap import bootstrap
from service.config import Settings, Store
from tests.players.signing import assertion, hmac_key
from tests.rates import NO_RATE_LIMITS

ADMIN = "bench-admin-token"


def timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", choices=("sqlite", "memory"), default="sqlite")
    parser.add_argument("--repeat", type=int, default=2000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as place:
        settings = Settings(
            store=Store(options.store),
            sqlite_path=str(Path(place) / "bench.sqlite"),
            admin_token=ADMIN,
            webhook_senders=0,
            clocks=False,
            **NO_RATE_LIMITS,
        )
        wiring = bootstrap(settings)
        with TestClient(wiring.app) as client:
            key = hmac_key()
            registered = client.post(
                "/platforms",
                json={"name": "Bench", "key": key.body},
                headers={"Authorization": f"Bearer {ADMIN}"},
            ).json()
            platform = registered["platform_id"]
            vouched = client.post(
                "/games",
                json={
                    "players": [
                        {"name": "a", "player_assertion": assertion(key, platform, "a1", "Ann")},
                        {"name": "b", "player_assertion": assertion(key, platform, "b2", "Bob")},
                    ]
                },
            ).json()["game_id"]
            anonymous = client.post(
                "/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]}
            ).json()["game_id"]
            calls: dict[str, Callable[[], object]] = {
                "GET /health (floor)": lambda: client.get("/health"),
                "GET anonymous view": lambda: client.get(f"/games/{anonymous}"),
                "GET vouched view": lambda: client.get(f"/games/{vouched}"),
            }
            for call in calls.values():  # warm: the views made once
                call()
            times: dict[str, list[float]] = {name: [] for name in calls}
            for _ in range(options.repeat):
                for name, call in calls.items():
                    times[name].append(timed(call))
        wiring.games.close()
    floor = statistics.median(times["GET /health (floor)"])
    print(f"store {options.store}, {options.repeat} GETs of each, interleaved")
    for name, measured in times.items():
        median = statistics.median(measured)
        p99 = statistics.quantiles(measured, n=100)[98]
        print(
            f"{name:22} median {median * 1e6:8.1f} us  p99 {p99 * 1e6:8.1f} us  "
            f"x{median / floor:.2f} of the floor"
        )
    ratio = statistics.median(times["GET vouched view"]) / statistics.median(
        times["GET anonymous view"]
    )
    print(f"vouched view / anonymous view: x{ratio:.2f}")


if __name__ == "__main__":
    main()
