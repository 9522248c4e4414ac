"""`rummy verify EXPORT.json` and `rummy replay GAME_ID --version N`, for auditors."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any
from uuid import UUID

from service.store_flags import STORE_FLAGS, add_store_flags, flag_environment


def add_parsers(commands: Any) -> None:
    """Register `verify` and `replay` on the `rummy` command's subparsers."""
    verify = commands.add_parser(
        "verify",
        help="check an audit export independently",
        description=(
            "Check an audit export (GET /games/{id}/audit; docs/audit.md): the hash chain, "
            "the seed against its commitment, every deck against docs/fairness.md, every "
            "move against the rules, every score and the winner, and every header field "
            "against the log. With --heads, also the live chain heads a client kept while "
            "the game ran (docs/fairness.md): the first event whose head differs is named. "
            "Exit status: 0 verified, "
            "1 failed (the first bad event or header field is named), 2 not an export (or "
            "an unreadable heads file), 3 not finished yet (the heads' salt is secret too)."
        ),
    )
    verify.add_argument(
        "--heads",
        metavar="FILE",
        help='the heads kept, JSON Lines of {"version": n, "chain": "<hex>"}',
    )
    verify.add_argument("export", help="the export's JSON file, or - for standard input")
    verify.set_defaults(run=run_verify)

    dump = commands.add_parser(
        "rng-dump",
        help="print the shuffle generator's raw words or final decks, for test labs",
        description=(
            "For test labs (docs/fairness.md, 'For test labs'): --words N prints the "
            "generator's first N raw 32-bit words (the stream of deck/1), one unsigned "
            "decimal a line; --decks N prints the decks of hands 1 to N, one a line, card "
            "codes separated by single spaces. Both for the seed given, or a fresh one "
            "(printed to standard error), and two seats without client seeds."
        ),
    )
    what = dump.add_mutually_exclusive_group(required=True)
    what.add_argument("--words", type=_count, metavar="N", help="raw 32-bit words")
    what.add_argument("--decks", type=_count, metavar="N", help="final deck orders")
    dump.add_argument("--seed", help="the seed (default: a fresh one, printed to stderr)")
    dump.add_argument(
        "--variant", help="the variant whose pack --decks shuffles (default: the default one)"
    )
    dump.set_defaults(run=run_rng_dump)

    replay = commands.add_parser(
        "replay",
        help="print a game as it was at a version, from the event store",
        description=(
            "Rebuild a game from the event store `rummy serve` would use with the same "
            "flags and environment (--store, --sqlite-path; RUMMY_STORE, RUMMY_SQLITE_PATH, "
            "POSTGRES_*) and print its full view, every card shown, as JSON."
        ),
    )
    replay.add_argument("game_id", type=UUID, help="the game's id")
    replay.add_argument("--version", type=int, help="the version (default: the latest)")
    add_store_flags(replay)
    replay.set_defaults(run=run_replay)


def run_verify(args: argparse.Namespace) -> int:
    from service.audit.verify import Outcome, verify_export

    try:
        text = sys.stdin.read() if args.export == "-" else Path(args.export).read_text("utf-8")
        export = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        print(f"UNREADABLE: {args.export}: {error}", file=sys.stderr)
        return int(Outcome.UNREADABLE)
    verdict = verify_export(export)
    kept = 0
    if args.heads is not None:
        from service.audit.heads import HeadsUnreadable, check_heads, read_heads

        try:
            heads = read_heads(Path(args.heads).read_text("utf-8"))
        except (OSError, UnicodeDecodeError, HeadsUnreadable) as error:
            print(f"UNREADABLE: {args.heads}: {error}", file=sys.stderr)
            return int(Outcome.UNREADABLE)
        verdict, kept = check_heads(export, verdict, heads), len(heads)
    report = verdict.report()
    if kept and verdict.ok:
        report += f" The {kept} kept heads agree with the log (salted with its chain_salt)."
    elif kept and verdict.outcome is Outcome.UNFINISHED:
        report += " The kept heads can be checked once the game is over (their salt is secret)."
    print(report, file=sys.stdout if verdict.ok else sys.stderr)
    return int(verdict.outcome)


def _count(text: str) -> int:
    number = int(text)
    if number < 0:
        raise argparse.ArgumentTypeError(f"a count is 0 or more, not {number}")
    return number


def run_rng_dump(args: argparse.Namespace) -> int:
    import secrets

    from service.audit.rng_dump import deck_lines, word_lines
    from service.domain.errors import InvalidRules
    from service.domain.rules import RuleSet

    try:
        pack = RuleSet.from_dict({} if args.variant is None else {"variant": args.variant}).pack
    except InvalidRules as error:
        print(f"rummy rng-dump: {error}", file=sys.stderr)
        return 2
    seed = args.seed
    if seed is None:
        # As the server draws a game's seed (service/game/tokens.py's `new_seed`).
        seed = secrets.token_hex(32)
        print(f"seed: {seed}", file=sys.stderr)
    if args.words is not None:
        lines = word_lines(seed, args.words)
    else:
        lines = deck_lines(seed, args.decks, pack)
    try:
        sys.stdout.writelines(f"{line}\n" for line in lines)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader (a test battery, `head`) had enough: not an error. Python's own
        # flush at exit would fail on the closed pipe too: point it at nothing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def run_replay(args: argparse.Namespace) -> int:
    import msgspec

    from service.bootstrap import open_store
    from service.config import Settings, Store
    from service.game.errors import GameServiceError, StoreUnavailable
    from service.projections.views import ADMIN, game_view

    settings = Settings.from_env({**os.environ, **flag_environment(args, STORE_FLAGS)})
    # Opening a SQLite file that is not there would create an empty one.
    if settings.store is Store.SQLITE and not Path(settings.sqlite_path).is_file():
        print(
            f"rummy replay: no SQLite file {settings.sqlite_path!r}: name the store "
            "with --sqlite-path (or RUMMY_SQLITE_PATH), or --store postgres",
            file=sys.stderr,
        )
        return 1
    try:
        games = open_store(settings)
    except StoreUnavailable as error:
        print(f"rummy replay: {error}", file=sys.stderr)
        return 1
    try:
        state = games.state(args.game_id, args.version)
    except GameServiceError as error:
        print(f"rummy replay: {error.message}", file=sys.stderr)
        return 1
    finally:
        games.close()
    sys.stdout.write(msgspec.json.format(msgspec.json.encode(game_view(state, ADMIN))).decode())
    sys.stdout.write("\n")
    return 0
