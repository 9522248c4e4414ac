"""Turn clocks: the keeper that finds every turn's deadline and fires it once.

A game with `turn_seconds` has a deadline whenever a seat must act: the time
of the event that made it that seat's turn, plus `turn_seconds`
(`turn_deadline`, computed from the game's stored state). When it passes, the
application's `time_out(game_id, version)` records the timeout and the bot's
move for the seat, if the game is still at that version and the time is up by
its clock; otherwise it records nothing. So a late or duplicate firing is
harmless by the game's own version check: exactly once is the aggregate's
promise, and the keeper only has to fire every deadline at least once, soon
after it passes, and rarely twice.

**Bots with nobody to make them move.** The same rows, fired the same way,
play the games in which only bots are left to move (every person left,
resigned or was taken over): a row is then the waiting bot's next request,
due `RUMMY_BOT_PACE_MS` after the game's last event (at once in a game that
still has a person, whose round a command cut short), and a firing
(`RummyApplication.fire`) plays that ONE request at that version; the row it
writes back is the next one. So such games advance a request per firing, in
due order across games (fairly interleaved), off every request and the
event loop, exactly once by the version, and are found again from the feed
after a restart, as deadlines are (docs/bots.md).

**Where deadlines are kept**: service/clocks/deadlines.py (a table beside the
events, complete up to a stored feed position).

**Firing.** A loop claims a due row, calls `time_out`, asks the game's
deadline again and writes it in the row (the next seat's turn) or deletes
it. On PostgreSQL the claim is `SELECT ... WHERE due_at <= now ... FOR UPDATE
SKIP LOCKED LIMIT 1`, and the row is changed in the transaction that claimed
it: two replicas never fire one row at once, and a replica killed mid-fire
holds the row only until its connection dies (at once for a killed process:
the kernel closes its socket). A firing whose `time_out` did record (a save
the claim's commit never followed) is met again by the next claimer, whose
`time_out` finds the version moved and records nothing. One claim per
transaction: a claim takes a transaction id, which holds back the feed's
horizon (every reader's, the live streams' included) until it commits, so
it is kept as short as one firing; where the firing's bots search, their
answers are made before the claim (`DecidesAhead`: the row due first read
without a lock, its firing played on a copy never saved) and given back in it,
so the claim lasts a save.

The follower on PostgreSQL runs in one replica at a time: it takes
`pg_try_advisory_xact_lock` (no transaction id: it holds back nothing) and a
replica that does not get it leaves the following to the one that did. Every
replica fires.

**SQLite and the memory store.** One process keeps the clocks
(service/clocks/deadlines.py says which).

**Threads and waiting.** The follower and the firer run in a thread each (a
slow page never holds up a due firing; a page waits, up to a poll, while the
firer is busy with rows due: a burst of firings goes first). The follower reads the feed once a
`poll` (at most 2 s, so a clock of 5 s, the shortest, is in the table well
before it runs out; a page of a second's saves costs one deadline read per
game however many events it moved); on PostgreSQL below the horizon without
waiting for what is held back (the next poll reads it). The firer sleeps
until the next row is due, at most a `poll`, woken when the follower wrote
rows. Idle, a process reads the position, one page of the feed and the
earliest due time once a poll.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Recorder

from service.clocks.deadlines import Due, Page, table_for
from service.game.clock import Fired
from service.store.postgres import read_now

log = logging.getLogger(__name__)

PAGE = 500
"""Events of the feed read at once by the follower."""
PAGES_PER_ROUND = 20
"""Pages the follower reads in one round (a long backlog: then a poll's rest)."""
FIRES_PER_ROUND = 1000
"""Rows the firer fires in one round before it looks at the next due time again."""
RETRY_SECONDS = 0.25
"""When `time_out` found a row not yet due that this process's clock calls due
(clocks that disagree), the row is tried again this much later."""
SKIP_AFTER_FAILURES = 3
"""Reads of a game's deadline that may fail in a row before the follower passes
over it (its clock then starts again with its next event)."""
BACKOFF_SECONDS = 5.0
"""A row whose firing raised is tried again this much later."""


DeadlineOf = Callable[[UUID], tuple[int, Due | None]]
"""A game's version now and its deadline at that version (None: no clock running)."""
TimeOut = Callable[[UUID, int], int]
"""The application's `fire(game_id, version)`: what it recorded (`Fired`: nothing, a
timeout, a bot's move), or `time_out`'s bool (True: a timeout)."""


class DecidesAhead(Protocol):
    """The application, where a claim holds a transaction across its firing: the
    answers of a firing's searching bots made before the claim, and the firing
    that gives them back (`RummyApplication.decide_ahead`, `fire`)."""

    def decide_ahead(self, game_id: UUID, version: int) -> Sequence[Any]: ...

    def fire(self, game_id: UUID, version: int, ahead: Sequence[Any] = ()) -> int: ...


Ahead = tuple[tuple[UUID, int], Sequence[Any]] | None
"""The row a firing was decided ahead for (its game and version), and the answers."""


class ClockObserver(Protocol):
    """Told of each timeout and each bot request this process's keeper recorded (the
    metrics)."""

    def timed_out(self, lag_seconds: float) -> None: ...

    def bot_moved(self) -> None: ...


class ClockKeeper:
    """Keeps the turn clocks of one application (see the module docstring).

    `start()` runs the follower and the firer in a thread each and `stop()` ends
    them; tests and benches call `follow()`, `fire_due()` or `run_once()` (both)
    in the calling thread.
    """

    def __init__(
        self,
        recorder: Recorder,
        deadline_of: DeadlineOf,
        time_out: TimeOut,
        *,
        poll_seconds: float = 1.0,
        observer: ClockObserver | None = None,
        now: Callable[[], float] = time.time,
        lock_path: str | None = None,
        deciding: DecidesAhead | None = None,
    ) -> None:
        if not isinstance(recorder, ApplicationRecorder):
            raise TypeError("the clocks follow an application recorder's feed")
        self.recorder = recorder
        self.table = table_for(recorder, lock_path)
        self.deadline_of = deadline_of
        self.time_out = time_out
        self.deciding = deciding
        self.poll_seconds = poll_seconds
        self.observer = observer
        self.now = now
        self._stopped = threading.Event()
        self._rows_changed = threading.Event()
        self._firer_resting = threading.Event()
        self._firer_resting.set()
        self._threads: list[threading.Thread] = []
        self._failures: Counter[UUID] = Counter()

    # --- running ------------------------------------------------------------------

    def start(self) -> None:
        """Run the follower and the firer, each in a thread of its own (a slow page of
        the feed never holds up a due firing)."""
        if not self._threads:
            self._stopped.clear()
            self._threads = [
                threading.Thread(target=loop, name=f"rummy-clocks-{name}", daemon=True)
                for name, loop in (("follow", self._following), ("fire", self._firing))
            ]
            for thread in self._threads:
                thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """End the loops; waits up to `timeout` for a firing in progress (a bounded
        store call), never longer."""
        self._stopped.set()
        self._rows_changed.set()
        threads, self._threads = self._threads, []
        until = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, until - time.monotonic()))
        self.table.close()

    @property
    def running(self) -> bool:
        return any(thread.is_alive() for thread in self._threads)

    def run_once(self) -> tuple[int, int]:
        """Follow the feed to its end, then fire every row due: (events read, rows
        fired); nothing if another process keeps the clocks."""
        read = self.follow()
        return read, self.fire_due()

    def rows(self) -> list[Due]:
        """The deadlines kept now, earliest first (tests, benches)."""
        return sorted(self.table.rows(), key=lambda due: due.at)

    def _following(self) -> None:
        """Follow the feed once a poll; tell the firer when rows changed (one may be
        due sooner than it sleeps)."""
        failing = False
        while not self._stopped.is_set():
            try:
                if self.follow():
                    self._rows_changed.set()
            except Exception as error:  # the store is down: try again after a poll
                if not failing:
                    log.warning("the turn clocks could not read the feed: %r", error)
                failing = True
            else:
                failing = False
            self._stopped.wait(self.poll_seconds)

    def _firing(self) -> None:
        """Fire what is due, then sleep until the next row is due (at most a poll)."""
        failing = False
        while not self._stopped.is_set():
            self._rows_changed.clear()
            wait = self.poll_seconds
            self._firer_resting.clear()
            try:
                self.fire_due()
                if self.table.keeps():
                    due = self.table.next_due()
                    if due is not None:
                        wait = min(wait, max(0.0, due - self.now()))
            except Exception as error:  # the store is down: try again after a poll
                if not failing:
                    log.warning("the turn clocks could not fire: %r", error)
                failing = True
            else:
                failing = False
            self._firer_resting.set()
            if wait > 0:
                self._rows_changed.wait(wait)

    # --- following and firing -----------------------------------------------------

    def follow(self) -> int:
        """Read the feed on from the stored position (a few pages at most) and store
        the deadlines of the games it touched: the events read (none if another
        process keeps the clocks)."""
        total = 0
        if not self.table.keeps():
            return 0
        for _ in range(PAGES_PER_ROUND):
            # Firing goes first: a page waits while rows due are being fired (at most
            # a poll, so a firer that is never done cannot starve the follower).
            self._firer_resting.wait(self.poll_seconds)
            read = self.table.follow(self._read)
            total += read
            if read < PAGE or self._stopped.is_set():
                break
        return total

    def _read(self, position: int) -> Page:
        # What is held back behind PostgreSQL's horizon now, the next poll reads.
        notifications = read_now(self.recorder, position, PAGE)
        if not notifications:
            return Page(position, 0, [])
        games = dict.fromkeys(UUID(str(n.originator_id)) for n in notifications)
        found = []
        for game_id in games:
            try:
                found.append((game_id, *self.deadline_of(game_id)))
            except Exception as error:
                # The page is read again next time (a store gone for a moment); a game
                # that fails every time is passed over, not left to stop every clock.
                self._failures[game_id] += 1
                if self._failures[game_id] < SKIP_AFTER_FAILURES:
                    raise
                log.error("turn clock of game %s passed over: %r", game_id, error)
            else:
                self._failures.pop(game_id, None)
        return Page(notifications[-1].id, len(notifications), found)

    def fire_due(self) -> int:
        """Fire the rows due now, one claim at a time: how many were fired."""
        fired = 0
        if not self.table.keeps():
            return 0
        while fired < FIRES_PER_ROUND and not self._stopped.is_set():
            ahead = self._decided_ahead()
            first = ahead[0] if ahead else None
            if not self.table.claim(self.now(), partial(self._fire, ahead=ahead), first):
                break
            fired += 1
        return fired

    def _decided_ahead(self) -> Ahead:
        """The searching bots' answers for the row due first, decided before it is
        claimed (where a claim holds a transaction: docs/bots.md), or None."""
        if self.deciding is None:
            return None
        due = self.table.peek(self.now())
        if due is None:
            return None
        try:
            answers = self.deciding.decide_ahead(due.game_id, due.version)
        except Exception as error:
            # The firing decides for itself, as without a decision ahead.
            log.warning("bots of game %s could not decide ahead: %r", due.game_id, error)
            return None
        return ((due.game_id, due.version), answers) if answers else None

    def _fire(self, due: Due, ahead: Ahead = None) -> tuple[int, Due | None]:
        try:
            return self._time_out(due, ahead)
        except Exception as error:
            # One game that cannot be timed out (or a store gone for a moment) must
            # not hold up the rows behind it: its row is tried again later.
            log.warning("turn clock of game %s (version %s): %r", due.game_id, due.version, error)
            return due.version, replace(due, at=self.now() + BACKOFF_SECONDS)

    def _time_out(self, due: Due, ahead: Ahead = None) -> tuple[int, Due | None]:
        if (
            ahead is not None
            and self.deciding is not None
            and ahead[0] == (due.game_id, due.version)
        ):
            recorded = self.deciding.fire(due.game_id, due.version, ahead[1])
        else:
            recorded = self.time_out(due.game_id, due.version)
        version, following = self.deadline_of(due.game_id)
        now = self.now()
        if not recorded and _still_due(due, following, now):
            # This process's copy of the game was older than the row (the row came
            # from another replica's save): asking the deadline read it fresh.
            recorded = self.time_out(due.game_id, due.version)
            version, following = self.deadline_of(due.game_id)
            now = self.now()
        if recorded == Fired.TIMED_OUT and self.observer is not None:
            self.observer.timed_out(max(0.0, now - due.at))
        elif recorded == Fired.BOT_MOVED and self.observer is not None:
            self.observer.bot_moved()
        if not recorded and following is not None and _still_due(due, following, now):
            # Due by this clock, not by the application's: try again a little later.
            following = replace(following, at=now + RETRY_SECONDS)
        return version, following


def _still_due(due: Due, following: Due | None, now: float) -> bool:
    return following is not None and following.version == due.version and following.at <= now
