"""The printed report of one run, and the summary line per replica count."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bench.load.cpu import CpuUse
from bench.load.locks import LockSample
from bench.load.options import Options
from bench.load.stats import Latency, Stats


@dataclass
class Result:
    replicas: int
    games: Stats
    health: Stats
    cpu: CpuUse
    health_cpu: CpuUse
    locks: LockSample | None


def report(result: Result, options: Options) -> None:
    games, health = result.games, result.health
    print(
        f"== {options.store}, {result.replicas} replica(s) x {options.workers} worker(s), "
        f"{options.games} concurrent games, {games.seconds:.1f} s after a "
        f"{options.warmup:.1f} s warm-up =="
    )
    mean = games.actions_in_finished / games.games_finished if games.games_finished else 0.0
    print(
        f"games: {games.games_finished} finished (mean {mean:.0f} actions each), "
        f"{games.games_unfinished} unfinished at the deadline or cap"
    )
    game_requests = sum(len(games.latencies[kind]) for kind in ("action", "view", "create"))
    print(f"actions/s:  {games.rate('action'):8.1f}   ({len(games.latencies['action'])} POSTs)")
    print(
        f"requests/s: {game_requests / games.seconds:8.1f}   "
        "(game traffic: action POSTs + view GETs + creates)"
    )
    print(f"/health:    {health.rate('health'):8.1f} requests/s over {health.seconds:.1f} s")
    print(f"  {'latency ms':<14}{'n':>8}{'p50':>8}{'p95':>8}{'p99':>8}{'max':>8}")
    for label, stats, kind in (
        ("action POST", games, "action"),
        ("view GET", games, "view"),
        ("create POST", games, "create"),
        ("/health GET", health, "health"),
    ):
        lat = Latency.of(stats.latencies[kind])
        print(
            f"  {label:<14}{lat.count:>8}{lat.p50:>8.1f}{lat.p95:>8.1f}{lat.p99:>8.1f}"
            f"{lat.worst:>8.1f}"
        )
    errors = games.errors + health.errors
    expected = ", ".join(f"{n}x {status}" for status, n in sorted(games.expected.items()))
    print(
        f"errors: {sum(errors.values())} {dict(errors) if errors else ''}"
        f"(expected 409/412: {expected or 'none'})"
    )
    for sample in games.error_samples + health.error_samples:
        print(f"  {sample}")
    noisy = result.cpu.others / result.cpu.seconds
    if noisy > 0.2:
        print(
            f"WARNING: other processes used {100 * noisy:.0f}% of a core during the run: "
            "this machine was shared, the figures are lower than it can do"
        )
    print(f"games phase:   {result.cpu.line()}")
    print(f"/health phase: {result.health_cpu.line()}")
    actions = len(games.latencies["action"])
    if actions:
        per_action = 1000 * result.cpu.servers / actions
        print(
            f"server CPU per action (with its view GET): {per_action:.2f} ms, so one fully "
            f"used core would carry ~{1000 / per_action:.0f} actions/s"
        )
    if result.locks is not None:
        writes = len(games.latencies["action"]) + len(games.latencies["create"])
        print(result.locks.summary(writes, games.seconds))
    if options.store == "sqlite" and result.replicas == 1 and options.workers == 1:
        action = Latency.of(games.latencies["action"])
        met = games.rate("action") >= 500 and action.p99 < 50
        print(
            f"target (one process on SQLite: >= 500 actions/s, action p99 < 50 ms): "
            f"{'met' if met else 'MISSED'}"
        )
    print()


def summary(results: Sequence[Result]) -> None:
    """One line per replica count; the CPU columns are % of one core."""
    print(
        f"{'replicas':>8} {'actions/s':>10} {'requests/s':>11} {'action p50':>11} "
        f"{'p95':>7} {'p99':>7} {'view p99':>9} {'health/s':>9} {'errors':>7} "
        f"{'servers':>8} {'others':>7} {'locked':>7}"
    )
    for result in results:
        games, cpu = result.games, result.cpu
        action = Latency.of(games.latencies["action"])
        view = Latency.of(games.latencies["view"])
        errors = sum(games.errors.values()) + sum(result.health.errors.values())
        locks = result.locks
        locked = (
            f"{100 * locks.table_locked / locks.samples:.0f}%" if locks and locks.samples else "-"
        )
        print(
            f"{result.replicas:>8} {games.rate('action'):>10.1f} "
            f"{games.requests / games.seconds:>11.1f} {action.p50:>11.1f} {action.p95:>7.1f} "
            f"{action.p99:>7.1f} {view.p99:>9.1f} {result.health.rate('health'):>9.1f} "
            f"{errors:>7} {100 * cpu.servers / cpu.seconds:>7.0f}% "
            f"{100 * cpu.others / cpu.seconds:>6.0f}% {locked:>7}"
        )
