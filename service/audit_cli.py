"""`rummy verify EXPORT.json` and `rummy replay GAME_ID --version N`, for auditors."""

from __future__ import annotations

import argparse
import json
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
            "against the log. Exit status: 0 verified, "
            "1 failed (the first bad event or header field is named), 2 not an export, 3 not "
            "finished yet."
        ),
    )
    verify.add_argument("export", help="the export's JSON file, or - for standard input")
    verify.set_defaults(run=run_verify)

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
    print(verdict.report(), file=sys.stdout if verdict.ok else sys.stderr)
    return int(verdict.outcome)


def run_replay(args: argparse.Namespace) -> int:
    import os

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
