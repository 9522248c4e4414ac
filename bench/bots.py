"""Games left to bots alone: what they cost the requests of everyone else.

Run it as a module from the project root:

    uv run python -m bench.bots                        # 5 games, pace 0, 10 s a phase
    uv run python -m bench.bots --games 20 --pace-ms 300 --seconds 20

It starts one `rummy serve` on a fresh SQLite file (the bots' pace
`--pace-ms`, the keeper's poll 100 ms) and measures, in one run:

1. the floor: `/health` (one client, back to back) and the action POSTs of a
   game of two people (another client, a draw and a discard a turn), with no
   game of bots: p50, p99, the worst;
2. the same while `--games` games of one person and five `basic` bots
   (the highest `target`, 1000: they do not end during the bench) play on after their
   person left, the keeper moving them in the background; and how many
   events the bots stored a second.

The ratio of each p99 to its floor is printed beside it. Before issue 26
the leave itself took the whole game (104.5 s with `target` 100,000), and
nothing else was answered meanwhile.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from bench.load.stats import percentile
from service.domain.presets import VARIANTS
from service.domain.rule_values import Variant
from tests.servers import rummy_serve

BOTS = 5
HIGHEST_TARGET = VARIANTS[Variant.CLASSIC].caps["target"][1]


@dataclass(frozen=True)
class Phase:
    health: list[float]
    actions: list[float]
    bot_events: int
    seconds: float


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games of bots alone")
    parser.add_argument("--pace-ms", type=int, default=0, help="RUMMY_BOT_PACE_MS")
    parser.add_argument("--seconds", type=float, default=10.0, help="each phase's length")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="rummy-bots-") as directory:
        env = {
            "RUMMY_STORE": "sqlite",
            "RUMMY_SQLITE_PATH": str(Path(directory) / "rummy.sqlite"),
            "RUMMY_LOG_LEVEL": "warning",
            "RUMMY_BOT_PACE_MS": str(options.pace_ms),
            "RUMMY_CLOCKS_POLL_MS": "100",
        }
        with rummy_serve(env) as server, httpx.Client(base_url=server.url, timeout=60) as client:
            floor = measure(server.url, [], options.seconds)
            games = [leave_to_bots(client) for _ in range(options.games)]
            loaded = measure(server.url, games, options.seconds)
    report(options, floor, loaded)


def leave_to_bots(client: httpx.Client) -> str:
    """A game of one person and five bots, the highest `target` a new game may have
    (the caps, docs/rules.md), after the person left."""
    players = [{"name": "Ann"}, *({"name": f"Bot {n}", "bot": "basic"} for n in range(BOTS))]
    created = client.post("/games", json={"players": players, "rules": {"target": HIGHEST_TARGET}})
    created.raise_for_status()
    game: str = created.json()["game_id"]
    token = created.json()["players"][0]["token"]
    left = client.post(
        f"/games/{game}/leave", json={"resign": False}, headers={"Authorization": f"Bearer {token}"}
    )
    left.raise_for_status()
    return game


def versions(client: httpx.Client, games: list[str]) -> int:
    return sum(client.get(f"/games/{game}").json()["version"] for game in games)


def measure(url: str, games: list[str], seconds: float) -> Phase:
    """`/health` and another game's actions for `seconds`, side by side; the events
    the games of bots stored meanwhile."""
    with httpx.Client(base_url=url, timeout=60) as client:
        if games:
            start = versions(client, games)
            while versions(client, games) == start:  # the keeper has found them
                time.sleep(0.05)
        before = versions(client, games)
        began = time.monotonic()
        until = began + seconds
        health: list[float] = []
        actions: list[float] = []
        prober = threading.Thread(target=probe_health, args=(url, until, health))
        prober.start()
        play(url, until, actions)
        prober.join()
        elapsed = time.monotonic() - began
        after = versions(client, games)
    return Phase(sorted(health), sorted(actions), after - before, elapsed)


def probe_health(url: str, until: float, latencies: list[float]) -> None:
    with httpx.Client(base_url=url, timeout=60) as client:
        while time.monotonic() < until:
            started = time.perf_counter()
            client.get("/health").raise_for_status()
            latencies.append(time.perf_counter() - started)


def play(url: str, until: float, latencies: list[float]) -> None:
    """Two people play games back to back: a draw and a discard each turn, timed."""
    with httpx.Client(base_url=url, timeout=60) as client:
        while time.monotonic() < until:
            created = client.post("/games", json={"players": [{"name": "Cy"}, {"name": "Di"}]})
            created.raise_for_status()
            game = created.json()["game_id"]
            tokens = [seat["token"] for seat in created.json()["players"]]
            view = client.get(f"/games/{game}").json()
            while time.monotonic() < until and view["status"] == "playing":
                bearer = {"Authorization": f"Bearer {tokens[view['turn']]}"}
                view = timed(client, game, {"type": "draw", "source": "stock"}, bearer, latencies)
                if view["status"] != "playing" or view.get("phase") != "play":
                    continue
                card = view["my_hand"][-1]
                view = timed(client, game, {"type": "discard", "card": card}, bearer, latencies)


def timed(
    client: httpx.Client,
    game: str,
    action: dict[str, Any],
    headers: dict[str, str],
    latencies: list[float],
) -> dict[str, Any]:
    started = time.perf_counter()
    answer = client.post(f"/games/{game}/actions", json=action, headers=headers)
    latencies.append(time.perf_counter() - started)
    answer.raise_for_status()
    view: dict[str, Any] = answer.json()
    return view


def report(options: argparse.Namespace, floor: Phase, loaded: Phase) -> None:
    print(
        f"bench.bots: {options.games} games of one person and {BOTS} basic bots left to the "
        f"bots, pace {options.pace_ms} ms, {options.seconds:g} s a phase, one rummy serve on SQLite"
    )
    print(
        f"  bots' events stored: {loaded.bot_events} in {loaded.seconds:.1f} s "
        f"({loaded.bot_events / loaded.seconds:,.0f}/s)"
    )
    print(f"  {'':18} {'floor p50/p99/max ms':>24} {'with bot games':>24} {'p99 ratio':>10}")
    for name, base, under in (
        ("/health", floor.health, loaded.health),
        ("another game's POST", floor.actions, loaded.actions),
    ):
        ratio = percentile(under, 0.99) / percentile(base, 0.99)
        print(f"  {name:18} {figures(base):>24} {figures(under):>24} {ratio:>9.2f}x")
        print(f"  {'':18} {f'n={len(base)}':>24} {f'n={len(under)}':>24}")


def figures(values: list[float]) -> str:
    return (
        "/".join(
            f"{1000 * value:.1f}" for value in (percentile(values, 0.5), percentile(values, 0.99))
        )
        + f"/{1000 * values[-1]:.1f}"
    )


if __name__ == "__main__":
    main()
