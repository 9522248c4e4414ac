"""On PostgreSQL: who works, who waits for which lock, and how long the events
table's lock is held, sampled every 10 ms during the measured window.

Only the bench's own servers are sampled: they connect with the application
name the bench gives them (PGAPPNAME), so other sessions on the same server
(the test suite, another bench) do not count.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass, field

import psycopg

from bench.load.stats import Stats


@dataclass
class LockSample:
    """Sums over samples of pg_stat_activity and pg_locks for the servers' connections."""

    samples: int = 0
    active: int = 0
    idle_in_transaction: int = 0
    lock_waits: Counter[str] = field(default_factory=Counter)
    """Backends waiting for a heavyweight lock, by wait_event: `relation` is the
    events table's lock, `object` NOTIFY's commit lock (held until after commit)."""
    table_locked: int = 0
    """Samples in which some transaction held an EXCLUSIVE lock on a table: only
    the event store's `LOCK TABLE ... IN EXCLUSIVE MODE` takes that mode here."""
    holder: Counter[str] = field(default_factory=Counter)
    """What the lock's holder was doing: working in PostgreSQL (and on what it
    waited, e.g. `WALSync` for the commit's flush) or idle in its transaction,
    waiting for its Python process to send the next statement."""

    def summary(self, writes: int, seconds: float) -> str:
        if not self.samples:
            return "postgres: no samples"
        n = self.samples
        held = self.table_locked / n
        first = f"postgres: events table locked (EXCLUSIVE) {100 * held:.0f}% of the time"
        if writes and held:
            hold = held * seconds / writes
            first += (
                f", {1000 * hold:.2f} ms per write transaction ({writes / seconds:.0f} writes/s):"
                f" a ceiling of ~{1 / hold:.0f} writes/s at this hold time"
            )
        if self.table_locked:
            doing = ", ".join(
                f"{100 * count / self.table_locked:.0f}% {what}"
                for what, count in self.holder.most_common(4)
            )
            first += f"\npostgres: the lock holder was {doing}"
        waits = ", ".join(
            f"{count / n:.2f} on {WAIT_NAMES.get(event, event)}"
            for event, count in self.lock_waits.most_common()
        )
        return (
            f"{first}\npostgres backends on average: {self.active / n:.2f} active, "
            f"{self.idle_in_transaction / n:.2f} idle in a transaction; "
            f"waiting for a lock: {waits or 'none'}"
        )


WAIT_NAMES = {"relation": "the table lock", "object": "NOTIFY's commit lock"}
ACTIVITY_QUERY = """
SELECT state, wait_event_type, wait_event, count(*)
  FROM pg_stat_activity
 WHERE application_name = %s AND pid <> pg_backend_pid()
 GROUP BY 1, 2, 3
"""
TABLE_LOCK_QUERY = """
SELECT a.state, a.wait_event
  FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
 WHERE l.locktype = 'relation' AND l.mode = 'ExclusiveLock' AND l.granted
   AND a.application_name = %s
"""


async def sample_locks(conninfo: str, servers: str, stats: Stats, found: LockSample) -> None:
    """Poll every 10 ms during the window: who works, who waits for which lock, and
    whether the events table is locked for an insert. `servers` is the application
    name the servers' connections carry."""
    async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
        await asyncio.sleep(max(0.0, stats.start - time.perf_counter()))
        while time.perf_counter() < stats.end:
            activity = await (await conn.execute(ACTIVITY_QUERY, (servers,))).fetchall()
            holders = await (await conn.execute(TABLE_LOCK_QUERY, (servers,))).fetchall()
            found.samples += 1
            for state, wait_type, wait_event, count in activity:
                if state == "active":
                    found.active += count
                elif state is not None and state.startswith("idle in transaction"):
                    found.idle_in_transaction += count
                if wait_type == "Lock":
                    found.lock_waits[wait_event] += count
            for state, wait_event in holders[:1]:
                found.table_locked += 1
                working = "active in PostgreSQL" + (f" ({wait_event})" if wait_event else "")
                found.holder[working if state == "active" else str(state)] += 1
            await asyncio.sleep(0.01)
