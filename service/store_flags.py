"""The event store flags `rummy serve` and `rummy replay` share.

Each flag stands for an environment variable of service/config/ and is
passed on as that variable, so a flag and the environment are one setting,
checked in one place (`Settings.from_env`). PostgreSQL is configured by the
environment alone (`POSTGRES_*`), for `serve` and `replay` alike.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from service.config import Store

STORE_FLAGS: Mapping[str, str] = {"store": "RUMMY_STORE", "sqlite_path": "RUMMY_SQLITE_PATH"}
"""Each flag's destination and the environment variable it sets."""


def add_store_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        choices=[store.value for store in Store],
        help="event store (default: RUMMY_STORE, else sqlite; postgres reads POSTGRES_*)",
    )
    parser.add_argument(
        "--sqlite-path", help="SQLite file (default: RUMMY_SQLITE_PATH, else rummy.sqlite)"
    )


def flag_environment(args: argparse.Namespace, flags: Mapping[str, str]) -> dict[str, str]:
    """The environment variables the `flags` given on the command line set."""
    given = {variable: getattr(args, name) for name, variable in flags.items()}
    return {variable: str(value) for variable, value in given.items() if value is not None}
