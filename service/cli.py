"""The `rummy` command: serve the API, write the OpenAPI document."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from service.config import Settings, SettingsError, Store

DEFAULT_OPENAPI_PATH = Path("openapi/openapi.json")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rummy", description="Straight Rummy game service.")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the HTTP service")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--store",
        choices=[store.value for store in Store],
        help="event store (default: RUMMY_STORE, else sqlite)",
    )
    serve.add_argument("--sqlite-path", help="SQLite file (default: RUMMY_SQLITE_PATH)")
    serve.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")

    openapi = commands.add_parser("openapi", help="write the OpenAPI document")
    openapi.add_argument(
        "--output", type=Path, default=DEFAULT_OPENAPI_PATH, help="file, or - for stdout"
    )

    args = parser.parse_args(argv)
    try:
        if args.command == "serve":
            return _serve(args)
        return _openapi(args.output)
    except SettingsError as error:
        print(f"rummy: {error}", file=sys.stderr)
        return 2


def openapi_document() -> str:
    """The OpenAPI document of the app, as committed in openapi/openapi.json."""
    from service.api.app import create_app
    from service.game.application import RummyApplication

    settings = Settings(store=Store.MEMORY)
    app = create_app(RummyApplication(env=settings.event_store_env()), settings)
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

    import uvicorn

    # The app reads its settings from the environment in each worker, so the
    # flags are passed on that way; a bad setting fails here, before binding.
    if args.store:
        os.environ["RUMMY_STORE"] = args.store
    if args.sqlite_path:
        os.environ["RUMMY_SQLITE_PATH"] = args.sqlite_path
    Settings.from_env()
    uvicorn.run(
        "service.api.asgi:app",
        host=args.host,
        port=args.port,
        workers=args.workers,
        loop="uvloop",
        http="httptools",
        log_level="info",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
