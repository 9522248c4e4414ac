"""Bot seats in a live game: whose turn is a bot's, and what it plays.

The application asks `next_bot_move` after every command and plays the
answer as that seat, in the same command, until a person must act (a bounded
round); where no person is left to play, the clocks' keeper asks it, a request
per firing (docs/bots.md). The bot
decides from the view its seat would get, with a generator seeded from the
game's secret seed and version, so a replay of the events (or a re-run of
the same commands) makes exactly the same moves.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from random import Random
from typing import Any, TypeVar

from service.bots.strategies import request_of, strategy
from service.bots.view import BotView
from service.domain.actions import Action
from service.domain.cards import Card
from service.domain.errors import IllegalMove, InvalidSeating
from service.domain.leaving import acting_seats
from service.domain.play import play
from service.domain.state import Table
from service.projections.views import GameSnapshot, Viewer, game_view

log = logging.getLogger("service.bots")

T = TypeVar("T")


def check_bot_seats(bots: Sequence[str | None]) -> None:
    """Refuse unknown strategies, and a table with no seat for a person: nobody
    would ever act there, so its bots would play the whole game in one request."""
    for name in bots:
        if name is not None:
            strategy(name)
    if bots and all(name is not None for name in bots):
        raise InvalidSeating(
            "Every seat is a bot: leave at least one seat for a person "
            "(`rummy simulate` plays bots against each other)."
        )


def bot_to_move(game: GameSnapshot) -> tuple[int, str] | None:
    """The seat to move and its strategy's name, if that seat is a bot's: the first
    bot among the seats the game waits for (`leaving.acting_seats`: the seat whose
    turn it is, or in Indian's show every seat still to show, in any order)."""
    for seat in acting_seats(game.table):
        info = game.seats[seat]
        if info is not None and info.bot is not None:
            return seat, info.bot
    return None


def next_bot_move(game: GameSnapshot, seed: str) -> tuple[int, Sequence[Action]] | None:
    """The bot seat to move and its next request (one action, or a list played all
    or nothing), or None when a person must act."""
    found = bot_to_move(game)
    if found is None:
        return None
    seat, name = found
    return seat, _request(game, seat, name, seed)


def clock_move(game: GameSnapshot, seat: int, name: str, seed: str) -> Sequence[Action]:
    """The request strategy `name` makes for `seat`, whoever sits there: what a
    timed-out seat plays (the application names the server's bot)."""
    return _request(game, seat, name, seed)


def _request(game: GameSnapshot, seat: int, name: str, seed: str) -> Sequence[Action]:
    view = game_view(game, Viewer(seat=seat))
    legal = BotView.read(view).actions()
    try:
        request = request_of(strategy(name)(view, bot_rng(seed, game.version)))
    except Exception:
        # A strategy bug must not fail the request of the person whose move led here.
        log.exception("bot %s in seat %d failed to choose; playing %r", name, seat, legal[0])
        return (legal[0],)
    if not _playable(game.table, seat, request, legal):
        # A strategy bug must not stall the game for the people at the table.
        log.error(
            "bot %s in seat %d chose an illegal %r; playing %r", name, seat, request, legal[0]
        )
        return (legal[0],)
    return request


def _playable(table: Table, seat: int, request: Sequence[Action], legal: list[Action]) -> bool:
    """Whether `request` may be played now: one legal action, or a list the rules
    accept as a whole (tried on a copy of the table, which is then thrown away)."""
    if len(request) == 1 and request[0] in legal:
        return True
    # A list, or a move `legal` names by a flag only (an Indian declaration).
    try:
        play(table.copy(), seat, request, _TrialDecks(table.rules.pack))
    except IllegalMove:
        return False
    return True


class _TrialDecks:
    """Decks for trying a request on a copy: the cards a later deal would hold do
    not change whether the request is legal."""

    def __init__(self, pack: Sequence[Card]) -> None:
        self.pack = list(pack)

    def first_dealer(self, players: int) -> int:
        return 0

    def deck(self, hand_number: int) -> list[Card]:
        return list(self.pack)

    def recycled_stock(
        self, hand_number: int, recycle_number: int, discards: Sequence[Card]
    ) -> list[Card]:
        return list(discards)


def bot_rng(seed: str, version: int) -> Random:
    """The generator for a bot's move at `version`: reproducible from the seed
    (revealed in the audit), and telling nothing about it."""
    return Random(hashlib.sha256(f"bot/{version}/{seed}".encode()).digest())


class BotSeats:
    """The computer players the application seats (its `BotPlayers`).

    With `processes` 0 a bot decides in the calling thread (never the event loop:
    the API runs every command that may move a bot in a worker thread, and the
    clocks' keeper has threads of its own); with N, in a pool of N processes
    (`RUMMY_BOT_PROCESSES`), for searches long enough to hold the interpreter
    from the requests of the process. The game's state travels pickled; the
    move is the same either way (the strategies are pure functions of the view
    and a seeded generator).
    """

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._starting = threading.Lock()

    def check(self, bots: Sequence[str | None]) -> None:
        check_bot_seats(bots)

    def next_move(self, game: GameSnapshot, seed: str) -> tuple[int, Sequence[Action]] | None:
        if bot_to_move(game) is None:
            return None  # asked after every command: no trip to a process for nothing
        return self._run(next_bot_move, game, seed)

    def move_for(self, game: GameSnapshot, seat: int, strategy: str, seed: str) -> Sequence[Action]:
        return self._run(clock_move, game, seat, strategy, seed)

    def close(self) -> None:
        """End the pool's processes (a pool is made again if asked after)."""
        with self._starting:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def _run(self, decide: Callable[..., T], *args: Any) -> T:
        if self.processes == 0:
            return decide(*args)
        return self._pool_made().submit(decide, *args).result()

    def _pool_made(self) -> ProcessPoolExecutor:
        with self._starting:
            if self._pool is None:
                # Not forked: the server's threads (its loop, the keeper, the
                # store's pools) would be copied mid-step into every child.
                self._pool = ProcessPoolExecutor(
                    self.processes, mp_context=multiprocessing.get_context("forkserver")
                )
            return self._pool
