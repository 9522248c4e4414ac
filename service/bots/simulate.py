"""`rummy simulate`: bots play whole games against each other, in process.

Each game is played by `service.bots.playout` (no event store, no HTTP: every
bot decides from the same player view the service would give its seat). Seats
rotate between the strategies from one game to the next, so each strategy sits
in each seat equally often. The
figures: wins by strategy and by seat, how long hands last, how they end,
and how fast it all runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from service.bots.playout import DEFAULT_MAX_HANDS, play_game
from service.bots.strategies import STRATEGIES, strategy
from service.domain.errors import InvalidInput
from service.domain.events import CardDrawn, Event, HandEnded, Knocked
from service.domain.rules import RuleSet
from service.domain.setup import check_new_game
from service.domain.state import HandEnding


@dataclass
class Report:
    """What a batch of simulated games showed."""

    games: int
    players: int
    bots: tuple[str, ...]
    rules: RuleSet
    seed: str
    seat_games: Counter[str] = field(default_factory=Counter)
    """Seats each strategy filled, over all games."""
    wins: Counter[str] = field(default_factory=Counter)
    """Games won by a seat of each strategy."""
    seat_wins: list[int] = field(default_factory=list)
    unfinished: int = 0
    hands: int = 0
    turns: int = 0
    """Turns played in all hands: each turn starts with a draw."""
    endings: Counter[HandEnding] = field(default_factory=Counter)
    outs: Counter[str] = field(default_factory=Counter)
    """Hands each strategy won by going out (rummy included)."""
    rummies: Counter[str] = field(default_factory=Counter)
    knocks: Counter[str] = field(default_factory=Counter)
    """Knock Rummy: hands each strategy ended by knocking."""
    seconds: float = 0.0

    def win_rate(self, name: str) -> float:
        return self.wins[name] / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        hands = self.hands or 1
        data: dict[str, Any] = {
            "games": self.games,
            "players": self.players,
            "bots": list(self.bots),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "strategies": {
                name: {
                    "seats": self.seat_games[name],
                    "wins": self.wins[name],
                    "win_rate": self.win_rate(name),
                    "hands_out": self.outs[name],
                    "rummies": self.rummies[name],
                }
                for name in self.names
            },
            "seat_win_rates": [wins / (self.games or 1) for wins in self.seat_wins],
            "unfinished": self.unfinished,
            "hands": self.hands,
            "hands_per_game": self.hands / (self.games or 1),
            "turns_per_hand": self.turns / hands,
            "endings": {how.value: self.endings[how] / hands for how in HandEnding},
            "seconds": self.seconds,
            "games_per_second": self.games / self.seconds if self.seconds else 0.0,
        }
        if self.rules.features.knocking:
            # A knock is how a Knock Rummy hand ends: nobody goes out there.
            for name, figures in data["strategies"].items():
                figures["knocks"] = self.knocks[name]
        return data

    @property
    def names(self) -> list[str]:
        """Each strategy once, in the order first named."""
        return list(dict.fromkeys(self.bots))

    def text(self) -> str:
        data = self.as_dict()
        lines = [
            f"{self.games} games, {self.players} players, bots {','.join(self.bots)}, "
            f"seed {self.seed!r}, rules {json.dumps(_changed_rules(self.rules, self.players))}",
            "",
            f"{'strategy':<10} {'seats':>6} {'wins':>6} {'win rate':>9} {'outs':>6} {'rummies':>8}",
        ]
        for name, figures in data["strategies"].items():
            lines.append(
                f"{name:<10} {figures['seats']:>6} {figures['wins']:>6} "
                f"{figures['win_rate']:>9.1%} {figures['hands_out']:>6} {figures['rummies']:>8}"
            )
        if self.rules.features.knocking:
            lines.append(
                "knocks: " + ", ".join(f"{name} {self.knocks[name]}" for name in self.names)
            )
        lines.append("")
        lines.append(
            "win rate by seat: "
            + ", ".join(f"{seat}: {rate:.1%}" for seat, rate in enumerate(data["seat_win_rates"]))
        )
        if self.unfinished:
            lines.append(f"unfinished games (hand limit reached): {self.unfinished}")
        lines.append(
            f"hands: {self.hands} ({data['hands_per_game']:.2f} per game), "
            f"{data['turns_per_hand']:.1f} turns per hand on average"
        )
        lines.append(
            "hands ended: "
            + ", ".join(f"{how} {share:.1%}" for how, share in data["endings"].items())
        )
        lines.append(
            f"{self.games} games in {self.seconds:.2f} s: {data['games_per_second']:.1f} games/s"
        )
        return "\n".join(lines)


def seating(bots: Sequence[str], players: int, game: int) -> tuple[str, ...]:
    """Who sits where in game number `game`: the strategies in turn, rotated by one
    seat each game."""
    return tuple(bots[(seat + game) % len(bots)] for seat in range(players))


def simulate(
    games: int,
    bots: Sequence[str],
    players: int = 2,
    rules: RuleSet | None = None,
    seed: str = "simulate",
    max_hands: int = DEFAULT_MAX_HANDS,
) -> Report:
    """Play `games` whole games between `bots` (strategy names) and report."""
    rules = rules if rules is not None else RuleSet()
    check_new_game(rules, players)
    if not bots:
        raise InvalidInput("Name at least one bot strategy.")
    for name in bots:
        strategy(name)
    report = Report(
        games=games,
        players=players,
        bots=tuple(bots),
        rules=rules,
        seed=seed,
        seat_wins=[0] * players,
    )
    began = time.perf_counter()
    for number in range(games):
        _play_game(report, number, seating(bots, players, number), max_hands)
    report.seconds = time.perf_counter() - began
    return report


class _Recorder:
    """Counts what the report needs from each event of a game."""

    def __init__(self, report: Report, names: tuple[str, ...]) -> None:
        self.report = report
        self.names = names

    def __call__(self, event: Event) -> None:
        report = self.report
        match event:
            case CardDrawn():
                report.turns += 1
            case HandEnded(how=how, out_seat=out_seat):
                report.hands += 1
                report.endings[how] += 1
                if out_seat is not None:
                    report.outs[self.names[out_seat]] += 1
                    if event.rummy:
                        report.rummies[self.names[out_seat]] += 1
            case Knocked(seat=seat):
                report.knocks[self.names[seat]] += 1
            case _:
                pass


def _play_game(report: Report, number: int, names: tuple[str, ...], max_hands: int) -> None:
    players = len(names)
    finish = play_game(
        report.rules,
        names,
        [strategy(name) for name in names],
        deal_seed=f"{report.seed}/{number}",
        bot_seeds=[f"{report.seed}/{number}/{seat}" for seat in range(players)],
        number=number,
        max_hands=max_hands,
        on_event=_Recorder(report, names),
    )
    for name in names:
        report.seat_games[name] += 1
    if finish.winner is None:
        report.unfinished += 1
        return
    report.wins[names[finish.winner]] += 1
    report.seat_wins[finish.winner] += 1


def _changed_rules(rules: RuleSet, players: int) -> dict[str, Any]:
    """The rules that differ from the defaults: the classic game's, or for a variant
    its own at this table (docs/rules.md "Variants"), named first; Indian's format
    too, whose defaults depend on it."""
    # A classic rule set names no variant in its stored form.
    classic = "variant" not in rules.to_dict()
    if classic:
        defaults = RuleSet().to_dict()
    else:
        named = {"variant": rules.variant.value}
        if rules.format is not None:
            named["format"] = rules.format.value
        defaults = RuleSet.from_dict(named, players=players).to_dict()
    changed = {
        name: value for name, value in rules.to_dict().items() if defaults.get(name) != value
    }
    if classic:
        return changed
    if rules.format is not None:
        changed = {"format": rules.format.value, **changed}
    return {"variant": rules.variant.value, **changed}


# --- the command ---------------------------------------------------------------


def add_parser(commands: Any) -> None:
    """Add `simulate` to the `rummy` command's subparsers."""
    parser = commands.add_parser(
        "simulate",
        help="play bots against each other in process and report",
        description="Play whole games between bot strategies, in process, and print "
        "win rates, hand lengths, how hands ended and games per second.",
    )
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--players", type=int, default=2, help="players per game (default 2)")
    parser.add_argument(
        "--bots",
        default="basic,random",
        help=f"strategies, comma-separated, seated in turn ({', '.join(STRATEGIES)}; "
        f"default basic,random)",
    )
    parser.add_argument(
        "--rules", default="{}", help='house rules as JSON: \'{"aces": "high_or_low"}\''
    )
    parser.add_argument("--seed", default="simulate", help="seed for the deals and the bots")
    parser.add_argument(
        "--max-hands",
        type=int,
        default=DEFAULT_MAX_HANDS,
        help=f"stop a game after this many hands (default {DEFAULT_MAX_HANDS})",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def run(args: argparse.Namespace) -> int:
    """Run `rummy simulate` with parsed arguments; 2 for arguments that cannot work."""
    try:
        if args.games < 1:
            raise InvalidInput(f"--games must be at least 1, not {args.games}.")
        rules_data = json.loads(args.rules)
        rules = RuleSet.from_dict(rules_data, players=args.players)
        bots = [name.strip() for name in args.bots.split(",") if name.strip()]
        report = simulate(
            args.games, bots, args.players, rules, seed=args.seed, max_hands=args.max_hands
        )
    except json.JSONDecodeError as error:
        print(f"rummy simulate: --rules is not JSON: {error}", file=sys.stderr)
        return 2
    except InvalidInput as error:
        print(f"rummy simulate: {error.message}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        print(report.text())
    return 0
