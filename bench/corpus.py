"""A corpus of finished games of every variant and format, to show that a change of
the code changed nothing a client or an auditor can see.

Run it as a module from the project root, with the old code's checkout:

    git worktree add /tmp/before <commit>
    uv run python -m bench.corpus --before /tmp/before            # 2 games each
    uv run python -m bench.corpus --before /tmp/before --games 5

1. **Recorded** by the code of `--before` (its `rummy serve` on a SQLite file):
   games of every variant, and of each Indian format, with two to four seats
   (as the variant allows), which the person creating each leaves at once,
   played to their end by the bots and the clocks' keeper; then each game's
   audit export and its public view at its last version and at every tenth
   version (`GET /games/{id}/replay`) are read.
2. **Checked** by this checkout's code, serving a copy of the same file: each
   game's export and replays must come back byte for byte the same (the stored
   events load, replay and export as before), and `rummy verify` of this
   checkout must pass every export.

It prints the games per variant and each difference; it exits 1 on any.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from service.domain.presets import VARIANTS
from service.domain.rule_values import Variant
from tests.servers import rummy_command, rummy_serve

KINDS: dict[str, dict[str, Any]] = {
    "classic": {"variant": "classic"},
    "wild": {"variant": "wild"},
    "boathouse": {"variant": "boathouse"},
    "knock": {"variant": "knock"},
    "wrotham": {"variant": "wrotham"},
    "indian-points": {"variant": "indian", "format": "points"},
    "indian-deals": {"variant": "indian", "format": "deals"},
    "indian-pool_101": {"variant": "indian", "format": "pool_101"},
    "indian-pool_201": {"variant": "indian", "format": "pool_201"},
}
"""The rules of each kind of game in the corpus (each preset's defaults otherwise)."""

FINISH_SECONDS = 600.0
"""The longest the corpus waits for its games to end (a bound, not a measure)."""


@dataclass(frozen=True, slots=True)
class Seen:
    """What a client and an auditor read of one finished game."""

    kind: str
    game_id: str
    export: bytes
    replays: dict[int, bytes]


def serve_env(db: Path, cache: Path) -> dict[str, str]:
    return {
        "RUMMY_STORE": "sqlite",
        "RUMMY_SQLITE_PATH": str(db),
        "RUMMY_EXPORT_CACHE_DIR": str(cache),
        "RUMMY_LOG_LEVEL": "warning",
        "RUMMY_BOT_PACE_MS": "0",
        "RUMMY_CLOCKS_POLL_MS": "50",
    }


def create_games(client: httpx.Client, games: int) -> dict[str, str]:
    """Games of every kind, `games` of each, left to bots: game id → kind. (A game
    needs a person to be created: Ann leaves at once, and the server's bot plays her
    seat.)"""
    made: dict[str, str] = {}
    for kind, rules in KINDS.items():
        for number in range(games):
            low, high = VARIANTS[Variant(rules["variant"])].players
            seats = min(max(low, 2 + number % 3), high, 4)
            bots = [{"name": f"Bot {seat}", "bot": "basic"} for seat in range(1, seats)]
            body = {"players": [{"name": "Ann"}, *bots], "rules": rules}
            created = client.post("/games", json=body)
            if created.status_code != 201:
                raise SystemExit(f"{kind}: create answered {created.status_code}: {created.text}")
            game, token = created.json()["game_id"], created.json()["players"][0]["token"]
            left = client.post(
                f"/games/{game}/leave",
                json={"resign": False},
                headers={"Authorization": f"Bearer {token}"},
            )
            if left.status_code != 200:
                raise SystemExit(f"{kind}: leave answered {left.status_code}: {left.text}")
            made[game] = kind
    return made


def wait_until_over(client: httpx.Client, games: dict[str, str]) -> None:
    until = time.monotonic() + FINISH_SECONDS
    playing = set(games)
    while playing:
        if time.monotonic() > until:
            raise SystemExit(f"{len(playing)} games still playing after {FINISH_SECONDS:.0f} s")
        for game in sorted(playing):
            if client.get(f"/games/{game}").json()["status"] in ("finished", "aborted"):
                playing.discard(game)
        time.sleep(0.5)


def read_games(client: httpx.Client, games: dict[str, str]) -> list[Seen]:
    seen = []
    for game, kind in games.items():
        export = client.get(f"/games/{game}/audit")
        export.raise_for_status()
        last = client.get(f"/games/{game}").json()["version"]
        replays = {}
        for version in sorted({*range(1, last + 1, 10), last}):
            replay = client.get(f"/games/{game}/replay", params={"version": version})
            replay.raise_for_status()
            replays[version] = replay.content
        seen.append(Seen(kind, game, export.content, replays))
    return seen


@contextmanager
def served(db: Path, code: Path | None) -> Iterator[httpx.Client]:
    with (
        tempfile.TemporaryDirectory() as cache,
        rummy_serve(serve_env(db, Path(cache)), code) as server,
        httpx.Client(base_url=server.url, timeout=60) as client,
    ):
        yield client


def verify(export: bytes, where: Path) -> str | None:
    """`rummy verify` of this checkout on one export: None if it passes, else its output."""
    where.write_bytes(export)
    run = subprocess.run(
        [*rummy_command(), "verify", str(where)], capture_output=True, text=True, check=False
    )
    return None if run.returncode == 0 else (run.stdout + run.stderr).strip()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the old code's checkout")
    parser.add_argument("--games", type=int, default=2, help="games of each kind (default 2)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        recorded, copied = Path(tmp, "before.sqlite"), Path(tmp, "after.sqlite")
        with served(recorded, args.before.resolve()) as client:
            games = create_games(client, args.games)
            wait_until_over(client, games)
            before = read_games(client, games)
        for suffix in ("", "-wal", "-shm"):
            if Path(f"{recorded}{suffix}").exists():
                shutil.copy(f"{recorded}{suffix}", f"{copied}{suffix}")
        with served(copied, None) as client:
            after = {seen.game_id: seen for seen in read_games(client, games)}
        differences = 0
        counts: dict[str, int] = {}
        for old in before:
            new = after[old.game_id]
            counts[old.kind] = counts.get(old.kind, 0) + 1
            if new.export != old.export:
                differences += 1
                print(f"{old.kind} {old.game_id}: the export differs", file=sys.stderr)
            for version, body in old.replays.items():
                if new.replays.get(version) != body:
                    differences += 1
                    print(f"{old.kind} {old.game_id}: replay at {version} differs", file=sys.stderr)
            failed = verify(new.export, Path(tmp, "export.json"))
            if failed is not None:
                differences += 1
                print(f"{old.kind} {old.game_id}: rummy verify failed: {failed}", file=sys.stderr)
        events = sum(len(json.loads(seen.export)["events"]) for seen in before)
        replays = sum(len(seen.replays) for seen in before)
    print(
        f"corpus: {len(before)} games ({', '.join(f'{k} {n}' for k, n in counts.items())}), "
        f"{events} events, {replays} replays: {differences} differences"
    )
    return 1 if differences else 0


if __name__ == "__main__":
    raise SystemExit(main())
