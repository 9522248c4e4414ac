"""The `rummy` command: serve the API, write the OpenAPI document."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from service import audit_cli
from service.bots import simulate
from service.config import Settings, SettingsError, Store

DEFAULT_OPENAPI_PATH = Path("openapi/openapi.json")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rummy", description="Straight Rummy game service.")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the HTTP service")
    serve.add_argument("--host", help="address to bind (default: RUMMY_HOST, else 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default: RUMMY_PORT, else 8000)")
    serve.add_argument(
        "--store",
        choices=[store.value for store in Store],
        help="event store (default: RUMMY_STORE, else sqlite)",
    )
    serve.add_argument("--sqlite-path", help="SQLite file (default: RUMMY_SQLITE_PATH)")
    serve.add_argument(
        "--workers", type=int, help="worker processes (default: RUMMY_WORKERS, else 1)"
    )

    openapi = commands.add_parser("openapi", help="write the OpenAPI document")
    openapi.add_argument(
        "--output", type=Path, default=DEFAULT_OPENAPI_PATH, help="file, or - for stdout"
    )
    simulate.add_parser(commands)
    audit_cli.add_parsers(commands)

    args = parser.parse_args(argv)
    try:
        if args.command == "serve":
            return _serve(args)
        if args.command == "simulate":
            return simulate.run(args)
        if args.command in ("verify", "replay"):
            return int(args.run(args))
        return _openapi(args.output)
    except SettingsError as error:
        print(f"rummy: {error}", file=sys.stderr)
        return 2


def openapi_document() -> str:
    """The OpenAPI document of the app, as committed in openapi/openapi.json."""
    from service import bootstrap

    # The document does not depend on the store: the in-memory one opens at once.
    app = bootstrap.bootstrap(Settings(store=Store.MEMORY)).app
    schema = app.openapi_schema.to_schema()
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def _openapi(output: Path) -> int:
    document = openapi_document()
    if str(output) == "-":
        sys.stdout.write(document)
    else:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(document, encoding="utf-8")
    return 0


def _serve(args: argparse.Namespace) -> int:
    import os
    import signal

    import uvicorn

    from service import bootstrap
    from service.api.timeouts import HeaderTimeoutProtocol
    from service.game.errors import StoreUnavailable

    # Each worker builds the app from the environment (service/asgi.py), so the
    # flags are passed on that way; a bad setting fails here, before binding.
    flags = {
        "RUMMY_STORE": args.store,
        "RUMMY_SQLITE_PATH": args.sqlite_path,
        "RUMMY_HOST": args.host,
        "RUMMY_PORT": args.port,
        "RUMMY_WORKERS": args.workers,
    }
    os.environ.update({name: str(value) for name, value in flags.items() if value is not None})
    settings = Settings.from_env()
    try:
        # Creates the tables once and proves the store answers, before binding.
        bootstrap.prepare_store(settings)
    except StoreUnavailable as error:
        print(f"rummy: {error}", file=sys.stderr)
        return 1
    # uvicorn re-raises SIGTERM once its graceful shutdown is done, and so by
    # default the process would die of it (exit 143); a stop that was asked for
    # and went cleanly exits 0 instead. Before uvicorn listens, it stops at once.
    signal.signal(signal.SIGTERM, _stopped)
    uvicorn.run(
        "service.asgi:app",
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        loop="uvloop",
        # httptools, with a limit on request heads and a timeout for them (it reads
        # RUMMY_HEADER_TIMEOUT; the limit travels in uvicorn's own h11 option).
        http=HeaderTimeoutProtocol,
        h11_max_incomplete_event_size=settings.max_header_bytes,
        timeout_keep_alive=settings.keepalive_timeout,
        log_level=settings.log_level.value,
        timeout_graceful_shutdown=settings.shutdown_timeout,
    )
    return 0


def _stopped(signum: int, frame: object) -> None:
    raise SystemExit(0)


if __name__ == "__main__":
    raise SystemExit(main())
