"""The `rummy arena` command: its flags, and turning them into a `Plan`."""

from __future__ import annotations

import argparse
import json
import signal
import sys
from functools import partial
from types import FrameType
from typing import Any

from service.bots.arena import report
from service.bots.arena.runner import ArenaTable, Pairing, Plan, level_pairings, run_arena
from service.bots.arena.stats import Decision, Sprt
from service.bots.playout import DEFAULT_MAX_HANDS
from service.bots.strategies import STRATEGIES, strategy
from service.domain.errors import InvalidInput
from service.domain.rule_values import Variant
from service.domain.rules import RuleSet
from service.domain.setup import check_new_game

DEFAULT_GAMES = 400
"""Games a pairing may take at most, by default (200 mirrored deals at two players)."""
EVERY = "all"
"""`--variant all`: every variant the service plays."""
VARIANT_NAMES = tuple(member.value for member in Variant)
STOPPED_EXIT = 130
"""The exit status of a run stopped by hand (Ctrl-C or SIGTERM), after its figures
so far: a shell's for a command ended by SIGINT, so a script running the ladder
stops too."""


def add_parser(commands: Any) -> None:
    """Add `arena` to the `rummy` command's subparsers."""
    parser = commands.add_parser(
        "arena",
        help="play bot levels against each other until a sequential test settles it",
        description="Play pairings of bot levels on mirrored deals, in processes, stop each "
        "as soon as its SPRT (or a 99.9% interval) settles it, and print win rates and Elo "
        "with 95% intervals, the verdicts, each level's time per move beside the floor, "
        "and the throughput (docs/bots.md, 'The arena').",
    )
    parser.add_argument(
        "--variant",
        required=True,
        help=f"variant(s), comma-separated, or {EVERY!r} ({', '.join(VARIANT_NAMES)})",
    )
    parser.add_argument(
        "--levels",
        default="basic,random",
        help=f"levels, comma-separated: the first against the second (and so on down a "
        f"ladder) ({', '.join(STRATEGIES)}; default basic,random)",
    )
    parser.add_argument(
        "--players", type=int, default=2, help="seats; the others play the second level"
    )
    parser.add_argument(
        "--games",
        type=int,
        default=DEFAULT_GAMES,
        help=f"most games a pairing may take (default {DEFAULT_GAMES})",
    )
    parser.add_argument(
        "--rules",
        default="{}",
        help="house rules as JSON, for every variant named: '{\"target\": 50}', an Indian "
        'format \'{"format": "pool_101"}\'',
    )
    parser.add_argument(
        "--budget-scale", type=float, default=1.0, help="scale every search budget (default 1)"
    )
    parser.add_argument("--seed", default="arena", help="seed for the deals and the bots")
    parser.add_argument(
        "--processes", type=int, default=2, help="worker processes (default 2; 1 plays inline)"
    )
    parser.add_argument("--elo0", type=float, default=0.0, help="the SPRT's H0, in Elo (default 0)")
    parser.add_argument(
        "--elo1", type=float, default=50.0, help="the SPRT's H1, in Elo (default 50)"
    )
    parser.add_argument(
        "--max-hands",
        type=int,
        default=DEFAULT_MAX_HANDS,
        help=f"stop a game after this many hands, a draw (default {DEFAULT_MAX_HANDS})",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def plan_of(args: argparse.Namespace) -> Plan:
    """The plan the flags describe; `InvalidInput` for one that cannot work."""
    if args.games < 1:
        raise InvalidInput(f"--games must be at least 1, not {args.games}.")
    if args.processes < 1:
        raise InvalidInput(f"--processes must be at least 1, not {args.processes}.")
    if args.budget_scale <= 0:
        raise InvalidInput(f"--budget-scale must be above 0, not {args.budget_scale}.")
    if args.elo1 <= args.elo0:
        raise InvalidInput("--elo1 must be above --elo0.")
    levels = [name.strip() for name in args.levels.split(",") if name.strip()]
    if len(levels) < 2:
        raise InvalidInput("Name at least two levels: the one under test, then its opponent.")
    for name in levels:
        strategy(name)
    given = json.loads(args.rules)
    if not isinstance(given, dict):
        raise InvalidInput("--rules must be a JSON object.")
    return Plan(
        tables=tuple(_table(name, given, args.players) for name in _variants(args.variant)),
        pairings=level_pairings(levels),
        players=args.players,
        max_games=args.games,
        seed=args.seed,
        processes=args.processes,
        sprt=Sprt(elo0=args.elo0, elo1=args.elo1),
        max_hands=args.max_hands,
        budget_scale=args.budget_scale,
    )


def _variants(named: str) -> list[str]:
    names = [name.strip() for name in named.split(",") if name.strip()]
    if names == [EVERY]:
        return list(VARIANT_NAMES)
    for name in names:
        if name not in VARIANT_NAMES:
            raise InvalidInput(
                f"There is no variant {name!r}: choose among {', '.join(VARIANT_NAMES)}, "
                f"or {EVERY}."
            )
    if not names:
        raise InvalidInput("Name a variant.")
    return names


def _table(name: str, given: dict[str, Any], players: int) -> ArenaTable:
    data = {**given, "variant": name}
    rules = RuleSet.from_dict(data, players=players)
    check_new_game(rules, players)
    label = name if rules.format is None else f"{name}/{rules.format.value}"
    return ArenaTable(label=label, rules=data)


def run_command(args: argparse.Namespace) -> int:
    """Run `rummy arena` with parsed arguments; 2 for arguments that cannot work,
    `STOPPED_EXIT` for a run stopped by hand."""
    try:
        plan = plan_of(args)
    except json.JSONDecodeError as error:
        print(f"rummy arena: --rules is not JSON: {error}", file=sys.stderr)
        return 2
    except InvalidInput as error:
        print(f"rummy arena: {error.message}", file=sys.stderr)
        return 2
    # SIGTERM stops a run as Ctrl-C does: a shell starts a background job with
    # SIGINT ignored, so `kill` is how such a run is stopped with its figures.
    before = signal.signal(signal.SIGTERM, _interrupt)
    try:
        outcome = run_arena(plan, progress=partial(_said, plan))
    except KeyboardInterrupt:
        # A second stop, while the workers finish the rounds they hold.
        return STOPPED_EXIT
    finally:
        signal.signal(signal.SIGTERM, before)
    if args.json:
        print(json.dumps(report.as_dict(outcome), indent=2))
    else:
        print(report.text(outcome))
    if any(pairing.verdict is Decision.STOPPED for pairing in outcome.pairings):
        return STOPPED_EXIT
    return 0


def _interrupt(number: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _said(plan: Plan, pairing: Pairing, ended: bool) -> None:
    """A line on standard error after each batch of a pairing: a long ladder is
    never silent, and a run cut short still says how far it had got."""
    games = sum(len(result.games) for result in pairing.rounds)
    head = f"rummy arena: {pairing.table.label} {pairing.tester} v {pairing.other}: "
    if ended:
        line = f"{pairing.verdict.value} after {games} games"
    else:
        scores = pairing.scores(plan.players)
        share = 100 * sum(scores) / max(1, len(scores))
        line = (
            f"{games} games, {share:.1f}% so far, LLR {pairing.llr:+.2f}"
            f" (settles at {plan.sprt.lower:+.2f} or {plan.sprt.upper:+.2f})"
        )
    print(head + line, file=sys.stderr, flush=True)
