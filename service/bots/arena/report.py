"""What `rummy arena` prints: per table, each pairing's result and each level's
time per move beside the floor, then the run's throughput; or all of it as JSON."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from typing import Any

from service.bots.arena.runner import ArenaRun, Pairing, Plan
from service.bots.arena.stats import Decision, estimate

VERDICTS = {
    Decision.H1: "H1 accepted: stronger",
    Decision.H0: "H0 accepted: not stronger",
    Decision.ABOVE: "above {baseline:.1%} (99.9% interval)",
    Decision.BELOW: "below {baseline:.1%} (99.9% interval)",
    Decision.OPEN: "open at the game limit",
    Decision.STOPPED: "stopped by hand, open",
}


def percentile(samples: list[float], share: float) -> float:
    """The nearest-rank percentile (`share` of 1) of `samples`; NaN if none."""
    if not samples:
        return math.nan
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def pairing_figures(plan: Plan, pairing: Pairing) -> dict[str, Any]:
    players = plan.players
    games = [game for result in pairing.rounds for game in result.games]
    scores = pairing.scores(players)
    seed = f"{plan.seed}/{pairing.table.label}/{pairing.tester}/{pairing.other}/bootstrap"
    found = estimate(scores, players, len(games), seed)
    wins = sum(1 for game in games if game.winner == game.seat)
    draws = sum(1 for game in games if game.winner is None)
    return {
        "tester": pairing.tester,
        "other": pairing.other,
        "rounds": len(pairing.rounds),
        "games": len(games),
        "wins": wins,
        "draws": draws,
        "losses": len(games) - wins - draws,
        # JSON has neither infinity nor NaN: an unbounded end, or a figure of a
        # pairing stopped before its first batch, is null.
        "win_rate": _finite(found.score),
        "win_rate_ci": [_finite(found.low), _finite(found.high)],
        # What the interval stop compares with: H0's score, 1/N at `elo0` 0.
        "baseline": plan.sprt.baseline(players),
        "elo": _finite(found.elo),
        "elo_ci": [_finite(found.elo_low), _finite(found.elo_high)],
        "mean_place": sum(game.place for game in games) / len(games) if games else None,
        "verdict": pairing.verdict.value,
        "llr": pairing.llr,
        "hands_per_game": sum(game.hands for game in games) / len(games) if games else 0.0,
    }


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def level_times(pairings: list[Pairing]) -> dict[str, dict[str, float]]:
    """Each level's time per move at one table, in milliseconds, with the floor."""
    moves: dict[str, list[float]] = defaultdict(list)
    floors: dict[str, list[float]] = defaultdict(list)
    for pairing in pairings:
        for result in pairing.rounds:
            for name, seconds in result.moves.items():
                moves[name].extend(seconds)
            for name, seconds in result.floors.items():
                floors[name].extend(seconds)
    return {
        name: {
            "moves": len(moves[name]),
            "p50_ms": 1000 * percentile(moves[name], 0.50),
            "p99_ms": 1000 * percentile(moves[name], 0.99),
            "floor_p50_ms": 1000 * percentile(floors[name], 0.50),
            "floor_p99_ms": 1000 * percentile(floors[name], 0.99),
        }
        for name in moves
    }


def as_dict(outcome: ArenaRun) -> dict[str, Any]:
    plan = outcome.plan
    tables = []
    for table in plan.tables:
        pairings = [pairing for pairing in outcome.pairings if pairing.table == table]
        tables.append(
            {
                "table": table.label,
                "rules": table.rules,
                "pairings": [pairing_figures(plan, pairing) for pairing in pairings],
                "levels": level_times(pairings),
            }
        )
    rounds = [result for pairing in outcome.pairings for result in pairing.rounds]
    games = sum(len(result.games) for result in rounds)
    worker_seconds = sum(result.seconds for result in rounds)
    cpu_seconds = sum(result.cpu_seconds for result in rounds)
    return {
        "players": plan.players,
        "seed": plan.seed,
        "max_games": plan.max_games,
        "processes": plan.processes,
        "budget_scale": plan.budget_scale,
        "sprt": {
            "elo0": plan.sprt.elo0,
            "elo1": plan.sprt.elo1,
            "alpha": plan.sprt.alpha,
            "beta": plan.sprt.beta,
            "bounds": [plan.sprt.lower, plan.sprt.upper],
        },
        "tables": tables,
        "games": games,
        "seconds": outcome.seconds,
        "worker_seconds": worker_seconds,
        "cpu_seconds": cpu_seconds,
        "games_per_second": games / outcome.seconds if outcome.seconds else 0.0,
        # A core's throughput is games per processor second: wall time in a worker
        # also counts the time other processes held its core.
        "games_per_second_per_core": games / cpu_seconds if cpu_seconds else 0.0,
    }


def text(outcome: ArenaRun) -> str:
    data = as_dict(outcome)
    plan = outcome.plan
    sprt = data["sprt"]
    lines = [
        f"rummy arena: {plan.players} players, seed {plan.seed!r}, at most {plan.max_games} "
        f"games a pairing, SPRT elo0 {sprt['elo0']:g} elo1 {sprt['elo1']:g} "
        f"(alpha {sprt['alpha']:g}, beta {sprt['beta']:g}, LLR bounds "
        f"{sprt['bounds'][0]:.2f} {sprt['bounds'][1]:.2f}), budget scale {plan.budget_scale:g}",
    ]
    for table in data["tables"]:
        lines += ["", f"{table['table']}  rules {json.dumps(table['rules'])}"]
        lines += _pairing_lines(plan.players, table["pairings"])
        lines += ["", _LEVEL_HEAD]
        for name, times in table["levels"].items():
            lines.append(
                f"{name:<8} {times['moves']:>8} {times['p50_ms']:>8.2f} {times['p99_ms']:>8.2f} "
                f"{times['floor_p50_ms']:>10.2f} {times['floor_p99_ms']:>10.2f}"
            )
    lines += [
        "",
        f"{data['games']} games in {data['seconds']:.1f} s wall on {plan.processes} "
        f"process(es): {data['games_per_second']:.2f} games/s, "
        f"{data['games_per_second_per_core']:.2f} games/s per core "
        f"({data['cpu_seconds']:.1f} s of processor time)",
    ]
    return "\n".join(lines)


_LEVEL_HEAD = (
    f"{'level':<8} {'moves':>8} {'p50 ms':>8} {'p99 ms':>8} {'floor p50':>10} {'floor p99':>10}"
)


def _pairing_lines(players: int, pairings: list[dict[str, Any]]) -> list[str]:
    rate = "win rate" if players == 2 else f"win share vs {1 / players:.1%}"
    head = (
        f"{'pairing':<18} {'games':>6} {'W-D-L':>12} {rate + ' [95% CI]':>26} {'Elo [95% CI]':>20}"
    )
    if players > 2:
        head += f" {'place':>6}"
    lines = [head + "  SPRT"]
    for figures in pairings:
        record = f"{figures['wins']}-{figures['draws']}-{figures['losses']}"
        share, elo, place = "-", "-", "-"
        if figures["games"]:
            low, high = figures["win_rate_ci"]
            share = f"{figures['win_rate']:.1%} [{low:.1%}, {high:.1%}]"
            elo_low, elo_high = figures["elo_ci"]
            elo = f"{figures['elo']:+.0f} [{_elo(elo_low, '-')}, {_elo(elo_high, '+')}]"
            place = f"{figures['mean_place']:.2f}"
        line = (
            f"{figures['tester'] + ' v ' + figures['other']:<18} {figures['games']:>6} "
            f"{record:>12} {share:>26} {elo:>20}"
        )
        if players > 2:
            line += f" {place:>6}"
        verdict = VERDICTS[Decision(figures["verdict"])].format(baseline=figures["baseline"])
        lines.append(f"{line}  {verdict} (LLR {figures['llr']:.2f})")
    return lines


def _elo(value: float | None, unbounded: str) -> str:
    return f"{unbounded}inf" if value is None else f"{value:+.0f}"
