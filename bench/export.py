"""Audit exports of a long finished game, four at once, against a real server: the
server's peak resident memory (RSS) while they are sent, over a floor measured in
the same run.

Run it as a module from the project root:

    uv run python -m bench.export                        # 138 deals, about 270,000 events
    uv run python -m bench.export --deals 20             # a quicker, smaller game
    uv run python -m bench.export --db /tmp/long.sqlite  # keep the game for the next run

The game: two players who only draw from the stock and discard, `recycles` 30,
`exhausted: score` and `deals` N, so each hand recycles the stock 30 times and
ends exhausted (about 1,950 events a hand) and the game finishes after N deals.
It is built in memory and saved in one go to a SQLite file (a minute for 138
deals; `--db` keeps it). `max_turns` 1000 and `recycles` 30 are inside the
default caps (1000, 100): a game any client could make.

Then `rummy serve` (one process) on that file, and in order:

1. the floors: `--clients` clients asking `GET /health` in a loop for
   `--floor-seconds`, then `--clients` exports at once of a short finished
   game (one hand, saved beside the long one): the server's peak RSS over its
   RSS before; the second is what an export costs whatever its length (worker
   threads, their store connections, the code's first run);
2. the first exports: `--clients` clients at once ask `GET /games/{id}/audit` of
   the game (none kept yet: each is written from the store); peak RSS over the
   RSS before, the time, the bytes (every client must receive the same);
3. the kept exports: the same again, now sent from the file the first wrote.

RSS is sampled from /proc every 5 ms in a thread of the bench. The growth of
each phase is printed with the floor's and their ratio.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from uuid import UUID, uuid4

import httpx

from bench.stream import rss_mb
from service.bootstrap import open_games
from service.config import Settings, Store
from service.domain.actions import Discard, Draw
from service.domain.rules import RuleSet
from service.domain.state import Source, Status
from service.domain.turns import legal_moves
from service.game.aggregate import Game, SeatEntry
from service.game.event_feed import Feed
from service.game.tokens import new_command_id
from tests.servers import rummy_serve


def build_game(path: Path, deals: int) -> tuple[UUID, int]:
    """A finished game of `deals` exhausted hands saved to the SQLite file `path`;
    its id and number of events. The long game is the file's first: `stored_game`
    finds it there."""
    rules = RuleSet.from_dict(
        {"max_turns": 1000, "recycles": 30, "deals": deals, "exhausted": "score", "target": None}
    )
    seats = [SeatEntry(name=name, token_hash=name, client_seed="") for name in ("Ann", "Bob")]
    game = Game.create(
        game_id=uuid4(),
        rules=rules,
        seats=seats,
        seed="bench-export",
        seed_chosen=True,
        command_id=new_command_id(),
        dealer=0,
    )
    while game.table.status is not Status.FINISHED:
        hand = game.table.hand
        assert hand is not None, "a hand is in play until the game is finished"
        moves = legal_moves(game.table, hand.turn)
        game.act(hand.turn, [Draw(Source.STOCK)] if moves.draw else [Discard(moves.discard[0])])
    events = len(game.pending_events)
    games = open_games(Settings(store=Store.SQLITE, sqlite_path=str(path)))
    games.save(game)
    games.close()
    return game.id, events


def stored_game(path: Path) -> tuple[UUID, int] | None:
    """The game of a file this bench made before (the only one in it)."""
    if not path.exists():
        return None
    games = open_games(Settings(store=Store.SQLITE, sqlite_path=str(path)))
    try:
        entries = Feed.of(games).page(0, 1)
        if not entries:
            return None
        game_id = UUID(str(entries[0].game_id))
        return game_id, games.newest_event(game_id).originator_version
    finally:
        games.close()


class PeakRss:
    """The peak RSS of `pid` while the block runs, sampled in a thread."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.before = rss_mb(pid)
        self.peak = self.before
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> PeakRss:
        self.before = self.peak = rss_mb(self.pid)
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss_mb(self.pid))

    def _sample(self) -> None:
        while not self._stop.wait(0.005):
            self.peak = max(self.peak, rss_mb(self.pid))

    @property
    def growth(self) -> float:
        return self.peak - self.before


def at_once(
    clients: int, work: Callable[[int], tuple[int, str, int]]
) -> list[tuple[int, str, int]]:
    with ThreadPoolExecutor(clients) as pool:
        return list(pool.map(work, range(clients)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.export", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--deals", type=int, default=138, help="hands of the game (138)")
    parser.add_argument("--clients", type=int, default=4, help="exports at once (4)")
    parser.add_argument("--floor-seconds", type=float, default=3.0)
    parser.add_argument("--db", type=Path, help="the SQLite file (kept; reused if it has a game)")
    options = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="bench-export-"))
    try:
        return run(options, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)  # the kept exports (and the game, without --db)


def run(options: argparse.Namespace, workdir: Path) -> int:
    path = options.db if options.db is not None else workdir / "long.sqlite"
    found = stored_game(path)
    if found is None:
        started = time.monotonic()
        found = build_game(path, options.deals)
        print(f"built the game: {found[1]:,} events in {time.monotonic() - started:.0f} s")
    game_id, events = found
    print(f"game {game_id}: {events:,} events, finished")
    short_id, short_events = build_game(path, 1)

    env = {
        "RUMMY_STORE": "sqlite",
        "RUMMY_SQLITE_PATH": str(path),
        "RUMMY_LOG_LEVEL": "warning",
        "RUMMY_CLOCKS": "off",
        "RUMMY_WEBHOOK_SENDERS": "0",
        "RUMMY_MAX_EXPORTS": str(options.clients),
        "RUMMY_EXPORT_CACHE_DIR": str(workdir),
    }
    with rummy_serve(env) as server, httpx.Client(base_url=server.url, timeout=300) as http:
        pid = server.pid

        def health(_: int) -> tuple[int, str, int]:
            deadline = time.monotonic() + options.floor_seconds
            answered = 0
            while time.monotonic() < deadline:
                answered += http.get("/health").status_code == 200
            return 200, "", answered

        def export(_: int, game: UUID = game_id) -> tuple[int, str, int]:
            digest, size = hashlib.sha256(), 0
            with http.stream("GET", f"/games/{game}/audit") as response:
                for chunk in response.iter_raw():
                    digest.update(chunk)
                    size += len(chunk)
            return response.status_code, digest.hexdigest(), size

        http.get("/health")
        rest = rss_mb(pid)
        print(f"server RSS at rest: {rest:.1f} MB")
        with PeakRss(pid) as floor:
            answered = sum(count for _, _, count in at_once(options.clients, health))
        print(
            f"floor, {options.clients} clients asking /health for {options.floor_seconds:g} s "
            f"({answered:,} answers): peak RSS {floor.peak:.1f} MB, +{floor.growth:.1f} MB"
        )
        with PeakRss(pid) as short:
            results = at_once(options.clients, lambda n: export(n, short_id))
        assert {status for status, _, _ in results} == {200}
        print(
            f"floor, {options.clients} exports at once of a game of {short_events:,} events "
            f"({results[0][2] / 1e3:.0f} KB each): peak RSS {short.peak:.1f} MB, "
            f"+{short.growth:.1f} MB"
        )
        for phase in ("first exports (from the store)", "kept exports (from the file)"):
            started = time.monotonic()
            with PeakRss(pid) as sent:
                results = at_once(options.clients, export)
            seconds = time.monotonic() - started
            statuses = {status for status, _, _ in results}
            digests = {digest for _, digest, _ in results}
            size = results[0][2]
            if statuses != {200} or len(digests) != 1:
                print(f"{phase}: statuses {statuses}, {len(digests)} different bodies")
                return 1
            print(
                f"{phase}: {options.clients} at once, {size / 1e6:.1f} MB each in "
                f"{seconds:.1f} s: peak RSS {sent.peak:.1f} MB, +{sent.growth:.1f} MB; "
                f"over RSS at rest +{sent.peak - rest:.1f} MB (floors: /health "
                f"+{floor.growth:.1f} MB, short exports +{short.growth:.1f} MB; over the "
                f"short exports' peak +{sent.peak - short.peak:.1f} MB)"
            )
        kept = [name for name in os.listdir(workdir) if name.endswith(".json")]
        print(f"kept: {kept}")
        print(f"server RSS after: {rss_mb(pid):.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
