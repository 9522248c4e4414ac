"""Where the machine's CPU went during a phase: the bench client, the servers
(and their workers), PostgreSQL, other processes; read from /proc."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _stat_fields(pid: int) -> list[str] | None:
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name is in parentheses and may hold spaces: split after it.
    return raw[raw.rindex(")") + 2 :].split()


def _all_pids() -> Iterator[int]:
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            yield int(entry.name)


def _cpu_of(pid: int) -> float:
    fields = _stat_fields(pid)
    if fields is None:
        return 0.0
    # After the name: state(0) ppid(1) ... utime(11) stime(12).
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def tree_cpu(roots: Sequence[int]) -> float:
    """CPU seconds used so far by `roots` and their descendants (uvicorn workers)."""
    parents: dict[int, int] = {}
    for pid in _all_pids():
        fields = _stat_fields(pid)
        if fields is not None:
            parents[pid] = int(fields[1])
    wanted = set(roots)
    grew = True
    while grew:
        found = {pid for pid, parent in parents.items() if parent in wanted} - wanted
        grew = bool(found)
        wanted |= found
    return sum(_cpu_of(pid) for pid in wanted)


def postgres_cpu() -> dict[int, float]:
    """CPU seconds used so far by each process named `postgres` on the machine."""
    found = {}
    for pid in _all_pids():
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
        except OSError:
            continue
        if name == "postgres":
            found[pid] = _cpu_of(pid)
    return found


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, from /proc/stat."""
    first = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    ticks = [int(value) for value in first[:8]]
    idle = ticks[3] + ticks[4]
    return (sum(ticks) - idle) / CLOCK_TICKS, sum(ticks) / CLOCK_TICKS


@dataclass(frozen=True)
class CpuUse:
    """CPU seconds each party used over `seconds` of wall time."""

    seconds: float
    client: float
    servers: float
    postgres: float
    others: float
    machine_busy: float
    """The fraction of all the machine's cores that were busy."""

    def line(self) -> str:
        def share(used: float) -> str:
            return f"{100 * used / self.seconds:.0f}%"

        return (
            f"CPU (100% = one core): bench client {share(self.client)}, servers "
            f"{share(self.servers)}, postgres {share(self.postgres)}, other processes "
            f"{share(self.others)}; machine {100 * self.machine_busy:.0f}% busy "
            f"({os.cpu_count()} cores)"
        )


@dataclass(frozen=True)
class CpuSample:
    taken: float
    client: float
    servers: float
    postgres: dict[int, float]
    busy: float
    total: float

    @classmethod
    def now(cls, servers: Sequence[int]) -> CpuSample:
        busy, total = machine_busy()
        return cls(
            time.perf_counter(), time.process_time(), tree_cpu(servers), postgres_cpu(), busy, total
        )

    def until(self, later: CpuSample) -> CpuUse:
        client = later.client - self.client
        servers = later.servers - self.servers
        # Backends come and go (other sessions' too): count each one's growth.
        postgres = sum(
            max(0.0, used - self.postgres.get(pid, 0.0)) for pid, used in later.postgres.items()
        )
        busy = later.busy - self.busy
        return CpuUse(
            seconds=later.taken - self.taken,
            client=client,
            servers=servers,
            postgres=postgres,
            others=max(0.0, busy - client - servers - postgres),
            machine_busy=busy / max(1e-9, later.total - self.total),
        )
