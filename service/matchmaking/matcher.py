"""The matcher: groups waiting tickets (bands.py), claims each group, creates its game
once, and hands each ticket its sealed seat token.

One pass (`run_once`, also what the background thread does every poll):

1. **Expire** the waiting tickets past their `max_wait_seconds`.
2. **Finish** the matches left in flight longer than `LEASE_SECONDS` (a
   matcher killed between its claim and its finish): taken over by one
   conditional write, then finished as below.
3. **Group** the waiting tickets of each pool: full tables first, then, among
   the tickets whose `bots_after_seconds` passed (by bot level), smaller
   tables that bots complete.
4. **Claim** the groups, `CLAIM_BATCH` in one short transaction (service/store/match_tickets.py:
   `FOR UPDATE SKIP LOCKED` on PostgreSQL, so of two matchers that formed the
   same group one claims it; the other's claim skips it). The claim writes
   the match's id, its creation key, the game's id and each ticket's seat:
   seats are drawn at random (`secrets`), so no seat goes to the oldest ticket
   by rule.
5. **Create** the game with the key as an idempotency key (`match/<id>/<key>`):
   its id and seat tokens derive from the key (service/game/tokens.py), so
   creating it again after a crash answers the game made the first time with
   the same tokens: exactly one game per match.
6. **Finish**: each ticket `matched`, its seat token sealed to it, the key
   forgotten, in one transaction.

No transaction is held while a game is created (a claim's transaction would
hold back every feed reader's horizon on PostgreSQL, as the clocks' claims do).

On SQLite one process matches: the one that holds an exclusive `flock` on
`<database>.matchmaking` (others try again every poll); its claims are
conditional writes anyway, so a second matcher would find nothing to claim.
"""

from __future__ import annotations

import fcntl
import json
import logging
import secrets
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import IO, Any

from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.commands import Idempotency, NewGame, NewSeat
from service.game.tokens import keyed_game_id
from service.matchmaking.bands import Waiting, bot_groups, groups
from service.matchmaking.sealing import seal
from service.store.match_tickets import Claim, TicketRow, TicketTable

log = logging.getLogger("service.matchmaking")

LEASE_SECONDS = 30.0
"""A match claimed this long ago and not finished is taken over by another matcher."""
CLAIM_BATCH = 16
"""Tables claimed in one transaction, then seated, before the next are claimed: the
first tickets are seated soon, and replicas seat different batches at once."""
_DRAW = secrets.SystemRandom()


@dataclass(frozen=True, slots=True)
class Pass:
    """What one pass did."""

    expired: int
    matches: int
    recovered: int


class Matcher:
    """Matches the tickets of `table` into games of `games`."""

    def __init__(
        self,
        table: TicketTable,
        games: RummyApplication,
        *,
        poll_seconds: float = 0.5,
        now: Callable[[], float] = time.time,
        lock_path: str | None = None,
        told: Callable[[], None] = lambda: None,
    ) -> None:
        self.table = table
        self.games = games
        self.poll_seconds = poll_seconds
        self.now = now
        self.lock_path = lock_path
        """SQLite: the file whose `flock` names the one process that matches."""
        self.told = told
        """Called after each match finished (the webhooks' doorbell)."""
        self._lock_file: IO[bytes] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- the background thread ---------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._loop, name="rummy-matcher", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        if self._lock_file is not None:  # another process of the file matches now
            self._lock_file.close()
            self._lock_file = None

    def _loop(self) -> None:
        failing = False
        while not self._stop.is_set():
            try:
                if self.matches_here():
                    self.run_once()
                failing = False
            except Exception as error:  # the store failed: log once per outage
                if not failing:
                    log.warning("the matcher could not match: %r; trying again", error)
                failing = True
            self._stop.wait(self.poll_seconds)

    def matches_here(self) -> bool:
        """Whether this process matches (SQLite: the holder of the lock file)."""
        if self._lock_file is not None or self.lock_path is None:
            return True
        handle = open(self.lock_path, "ab")  # noqa: SIM115 - held open while matching
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        self._lock_file = handle
        return True

    # --- one pass -----------------------------------------------------------------------

    def run_once(self) -> Pass:
        now = self.now()
        expired = self.table.expire(now)
        recovered = 0
        for rows in self.table.in_flight(now - LEASE_SECONDS):
            first = rows[0]
            assert first.match_id is not None
            assert first.claimed is not None
            if self.table.retake(first.match_id, first.claimed, now):
                recovered += self._finished(rows)
        claims, rows_of = self._claims(self.table.waiting(), now)
        batches = [claims[at : at + CLAIM_BATCH] for at in range(0, len(claims), CLAIM_BATCH)]
        # Other replicas formed the same tables from the same tickets: each takes the
        # batches in an order of its own, so they seat different ones at once.
        _DRAW.shuffle(batches)
        matches = 0
        for batch in batches:
            if self._stop.is_set():
                break
            for claim in self.table.claim(batch, now):
                claimed = [
                    replace(rows_of[ticket_id], **_as_claimed(claim, seat))
                    for ticket_id, seat in claim.seats.items()
                ]
                matches += self._finished(claimed)
        return Pass(expired=expired, matches=matches, recovered=recovered)

    def _finished(self, rows: Sequence[TicketRow]) -> int:
        """`_finish`, 1; or 0, logged, if it failed: the match stays in flight and the
        next matcher finishes it after the lease."""
        try:
            self._finish(rows)
        except Exception as error:
            log.warning("match %s not finished: %r", rows[0].match_id, error)
            return 0
        return 1

    def _claims(
        self, waiting: Sequence[TicketRow], now: float
    ) -> tuple[list[Claim], dict[str, TicketRow]]:
        rows_of = {row.ticket_id: row for row in waiting if row.expires > now}
        pools: dict[str, list[TicketRow]] = defaultdict(list)
        for row in rows_of.values():
            pools[row.pool].append(row)
        claims: list[Claim] = []
        for rows in pools.values():
            size = rows[0].seats
            waiting_here = [_waiting(row) for row in rows]
            full = groups(waiting_here, size, now)
            claims += [_claim(group, size, None) for group in full]
            taken = {ticket.ticket_id for group in full for ticket in group}
            by_bot: dict[str, list[Waiting]] = defaultdict(list)
            for ticket in waiting_here:
                if ticket.ticket_id not in taken:
                    by_bot[ticket.bot].append(ticket)
            for level, left in by_bot.items():
                claims += [_claim(group, size, level) for group in bot_groups(left, size, now)]
        return claims, rows_of

    def _finish(self, rows: Sequence[TicketRow]) -> None:
        """Create the match's game (again, after a crash: the same game) and seal each
        ticket's seat token to it."""
        first = rows[0]
        assert first.match_id is not None
        assert first.match_key is not None
        seats: list[NewSeat | None] = [
            NewSeat(f"Bot {seat + 1}", bot=first.match_bot) for seat in range(first.seats)
        ]
        for row in rows:
            assert row.seat is not None
            seats[row.seat] = NewSeat("", player=row.pseudonym)
        rules = RuleSet.from_dict(json.loads(first.rules), players=first.seats)
        created = self.games.create_game(
            NewGame(seats=seats, rules=rules, rated=first.rated),
            Idempotency(key=_creation_key(first.match_id, first.match_key), digest=first.match_id),
        )
        sealed = {
            row.ticket_id: seal(row.seal_key, created.tokens[row.seat])
            for row in rows
            if row.seat is not None
        }
        self.table.finish(first.match_id, sealed)
        self.told()


def _creation_key(match_id: str, match_key: str) -> str:
    return f"match/{match_id}/{match_key}"


def _waiting(row: TicketRow) -> Waiting:
    return Waiting(row.ticket_id, row.rating, row.created, row.bots_at, row.bot)


def _claim(group: Sequence[Waiting], size: int, bot: str | None) -> Claim:
    match_id, key = uuid.uuid4().hex, secrets.token_urlsafe(32)
    drawn = _DRAW.sample(range(size), len(group))
    return Claim(
        match_id=match_id,
        match_key=key,
        game_id=str(keyed_game_id(_creation_key(match_id, key), by_admin=False)),
        seats={ticket.ticket_id: seat for ticket, seat in zip(group, drawn, strict=True)},
        bot=bot,
    )


def _as_claimed(claim: Claim, seat: int) -> dict[str, Any]:
    return {
        "status": "matching",
        "match_id": claim.match_id,
        "match_key": claim.match_key,
        "game_id": claim.game_id,
        "seat": seat,
        "match_bot": claim.bot,
    }
