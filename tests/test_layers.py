"""The rooms of shared/STYLE.md: dependencies point one way, down toward the domain.

    domain        imports none of the others
    audit         the domain only (an independent verifier)
    projections   the domain, and the audit's hash chain (the export links it)
    bots          the domain and the projections (they play from a seat's view)
    store         the domain, config, and of the game only its own records
                  (`GAME_RECORDS`: its stored events, errors, tokens, the
                  aggregate), which import nothing of the store
    game          the domain, the store and config
    clocks        the game, the store, the domain and config
    webhooks      the store, the projections (the feed's items) and config
    players       the store (its side tables) and config: identity a platform
                  vouches for, pseudonyms, erasure; nothing of the game
    api           the game, the store, the clocks, the projections, the domain,
                  config, the webhooks, the players, matchmaking and the web client;
                  not bootstrap
    webclient     nothing of the service (a client of the API like any other)
    config        nothing of the service
    ratings       nothing of the service (Glicko-2 and tables: pure arithmetic)
    standings     the domain, the game's stored events, the store and the ratings:
                  players' recall, statistics and ratings, a projection of the feed
    matchmaking   the game (it creates the matches' games), the store (its tickets),
                  the domain and config: tickets seated by rating

The entry points wire the rooms together and may import every one of them:
`service/bootstrap.py` (the composition root, whether it exists yet or not),
`service/cli.py`, `service/audit_cli.py`, `service/store_flags.py` and
`service/asgi.py` (the module uvicorn's workers import). No room imports
an entry point. Every module of the service is in a room or is an entry
point, so a new room or module has to be placed here before it can land.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVICE = ROOT / "service"

ALLOWED: dict[str, frozenset[str]] = {
    "domain": frozenset(),
    "audit": frozenset({"domain"}),
    "projections": frozenset({"domain", "audit"}),
    "bots": frozenset({"domain", "projections"}),
    "store": frozenset({"domain", "config", "game"}),
    "game": frozenset({"domain", "store", "config"}),
    "clocks": frozenset({"game", "store", "domain", "config"}),
    "webhooks": frozenset({"store", "projections", "config"}),
    "players": frozenset({"store", "config"}),
    "api": frozenset(
        {
            "domain",
            "game",
            "store",
            "clocks",
            "projections",
            "config",
            "webhooks",
            "players",
            "standings",
            "webclient",
            "matchmaking",
        }
    ),
    "webclient": frozenset(),
    "config": frozenset(),
    "ratings": frozenset(),
    "standings": frozenset({"domain", "game", "store", "ratings"}),
    "matchmaking": frozenset({"domain", "game", "store", "config"}),
}
"""Each room, and the other rooms it may import."""

GAME_RECORDS = frozenset(
    {"game/aggregate.py", "game/errors.py", "game/event_records.py", "game/tokens.py"}
)
"""The only modules of game/ the store may import: what the game records and is
refused with. The application and its unit of work, above the store, are not."""

ENTRY_POINTS = frozenset(
    {"bootstrap.py", "cli.py", "audit_cli.py", "store_flags.py", "asgi.py", "__init__.py"}
)
"""Paths under service/ that may import every room (`__init__.py`: the package itself)."""

NOT_IN_THE_DOMAIN = frozenset(
    {
        "asyncio",
        "datetime",
        "io",
        "logging",
        "os",
        "pathlib",
        "random",
        "secrets",
        "socket",
        "sqlite3",
        "subprocess",
        "sys",
        "threading",
        "time",
        "uuid",
    }
)
"""Standard modules of I/O, clock or randomness: the domain decides from its
inputs alone (its one shuffle is seeded and written out in domain/shuffle.py)."""

HTTP_FRAMEWORKS = ("litestar", "uvicorn")


def imported_modules(path: Path) -> set[str]:
    """Every module `path` imports, anywhere in it (functions and TYPE_CHECKING too);
    `from service import x` counts as `service.x`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            found.add(node.module)
            if node.module == "service":
                found.update(f"service.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            raise AssertionError(f"{path}: relative import (write it absolute)")
    return found


def place(relative: str) -> str:
    """`entry point` or the room of a path under service/ (`game/aggregate.py`)."""
    if relative in ENTRY_POINTS:
        return "entry point"
    first = relative.split("/")[0]
    return first.removesuffix(".py")


def module_path(module: str) -> str | None:
    """The path under service/ of a service module (`service.game.aggregate`), or
    None for a module outside the service."""
    parts = module.split(".")
    if parts[0] != "service" or len(parts) == 1:
        return None
    stem = "/".join(parts[1:])
    return f"{stem}/__init__.py" if (SERVICE / stem).is_dir() else f"{stem}.py"


def service_files() -> list[Path]:
    return sorted(SERVICE.rglob("*.py"))


def relative(path: Path) -> str:
    return path.relative_to(SERVICE).as_posix()


def test_every_module_of_the_service_is_in_a_room_or_an_entry_point() -> None:
    unplaced = [
        relative(path)
        for path in service_files()
        if place(relative(path)) not in {*ALLOWED, "entry point"}
    ]
    assert not unplaced, f"place these in tests/test_layers.py: {unplaced}"


@pytest.mark.parametrize("room", sorted(ALLOWED))
def test_a_room_imports_only_the_rooms_below_it(room: str) -> None:
    offending = []
    for path in service_files():
        if place(relative(path)) != room:
            continue
        for module in sorted(imported_modules(path)):
            target = module_path(module)
            if target is None:
                continue
            if place(target) not in {room, *ALLOWED[room]}:
                offending.append(f"service/{relative(path)} imports {module}")
            elif room == "store" and place(target) == "game" and target not in GAME_RECORDS:
                offending.append(f"service/{relative(path)} imports {module} (not a record)")
    assert not offending, "\n".join(offending)


def test_the_games_records_import_nothing_of_the_store() -> None:
    """The store may read `GAME_RECORDS`, so they stay below it: they import the
    domain and each other only."""
    offending = [
        f"service/{record} imports {module}"
        for record in sorted(GAME_RECORDS)
        for module in sorted(imported_modules(SERVICE / record))
        if (target := module_path(module)) is not None
        and place(target) != "domain"
        and target not in GAME_RECORDS
    ]
    assert not offending, "\n".join(offending)


def test_the_domain_has_no_io_clock_randomness_or_library() -> None:
    offending = [
        f"service/{relative(path)} imports {module}"
        for path in service_files()
        if place(relative(path)) == "domain"
        for module in sorted(imported_modules(path))
        if module.split(".")[0] in NOT_IN_THE_DOMAIN
        or not (module == "__future__" or module.startswith("service.") or _standard(module))
    ]
    assert not offending, "\n".join(offending)


def _standard(module: str) -> bool:
    return module.split(".")[0] in sys.stdlib_module_names


def test_only_the_api_the_web_client_and_the_entry_points_use_the_http_framework() -> None:
    offending = [
        f"service/{relative(path)} imports {module}"
        for path in service_files()
        if place(relative(path)) not in {"api", "webclient", "entry point"}
        for module in sorted(imported_modules(path))
        if module.split(".")[0] in HTTP_FRAMEWORKS
    ]
    assert not offending, "\n".join(offending)


@pytest.mark.parametrize(
    ("folder", "forbidden"),
    [("service", ("tests", "bench")), ("tests", ("bench",))],
)
def test_the_service_imports_no_test_and_the_tests_no_bench(
    folder: str, forbidden: tuple[str, ...]
) -> None:
    offending = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in sorted((ROOT / folder).rglob("*.py"))
        for module in sorted(imported_modules(path))
        if module.split(".")[0] in forbidden
    ]
    assert not offending, "\n".join(offending)
