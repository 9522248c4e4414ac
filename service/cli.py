"""The `rummy` command: serve the API, print or write the OpenAPI document."""

from __future__ import annotations

import argparse
import errno
import json
import socket
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from service import audit_cli
from service.bots import simulate
from service.bots.arena import command as arena
from service.config import SERVICE_NAME, Settings
from service.config.variables import SettingsError
from service.store_flags import STORE_FLAGS, add_store_flags, flag_environment

SERVE_FLAGS = {
    **STORE_FLAGS,
    "host": "RUMMY_HOST",
    "port": "RUMMY_PORT",
    "workers": "RUMMY_WORKERS",
}
"""`rummy serve`'s flags and the environment variables they set."""
SLOW_STORE_SECONDS = 1.0
"""How long `rummy serve` opens the event store in silence before it says it is waiting."""
BACKLOG = 2048
"""Connections the system queues before the server accepts them (uvicorn's default)."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rummy", description=f"{SERVICE_NAME}.")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the HTTP service")
    serve.add_argument("--host", help="address to bind (default: RUMMY_HOST, else 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default: RUMMY_PORT, else 8000)")
    add_store_flags(serve)
    serve.add_argument(
        "--workers", type=int, help="worker processes (default: RUMMY_WORKERS, else 1)"
    )

    openapi = commands.add_parser(
        "openapi",
        help="print the OpenAPI document, or write it to a file",
        description=(
            "Print the OpenAPI document the code generates, or write it to PATH. "
            "`rummy openapi openapi/openapi.json` updates the committed one."
        ),
    )
    openapi.add_argument(
        "path", nargs="?", type=Path, help="the file to write (default: standard output)"
    )
    openapi.add_argument("--output", "-o", type=Path, help="the file to write, as PATH")
    simulate.add_parser(commands)
    arena.add_parser(commands)
    audit_cli.add_parsers(commands)

    args = parser.parse_args(argv)
    if args.command == "openapi" and args.path is not None and args.output is not None:
        parser.error("openapi: give the file once, as PATH or as --output")
    try:
        if args.command == "serve":
            return _serve(args)
        if args.command == "simulate":
            return simulate.run(args)
        if args.command == "arena":
            return arena.run_command(args)
        if args.command in ("verify", "replay", "rng-dump"):
            return int(args.run(args))
        return _openapi(args.path if args.path is not None else args.output)
    except SettingsError as error:
        print(f"rummy: {error}", file=sys.stderr)
        return 2


def openapi_document() -> str:
    """The OpenAPI document of the app, as committed in openapi/openapi.json."""
    from service import bootstrap
    from service.config import Store

    # The document does not depend on the store: the in-memory one opens at once.
    app = bootstrap.bootstrap(Settings(store=Store.MEMORY)).app
    schema = app.openapi_schema.to_schema()
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def _openapi(output: Path | None) -> int:
    document = openapi_document()
    if output is None or str(output) == "-":
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
    from service.api.transport.metrics import shared_by_workers
    from service.api.transport.timeouts import HeaderTimeoutProtocol
    from service.game.errors import StoreUnavailable

    # Each worker builds the app from the environment (service/asgi.py), so the
    # flags are passed on that way; a bad setting fails here, before binding.
    os.environ.update(flag_environment(args, SERVE_FLAGS))
    settings = Settings.from_env()
    try:
        listener = _bind(settings.host, settings.port)
    except OSError as error:
        print(f"rummy: {_cannot_listen(settings, error)}", file=sys.stderr)
        return 1
    with listener:
        try:
            # Creates the tables once and proves the store answers, before listening.
            with _said_if_slow(f"rummy: opening the event store ({settings.describe_store()})"):
                bootstrap.prepare_store(settings)
        except StoreUnavailable as error:
            print(f"rummy: {error}", file=sys.stderr)
            return 1
        # Connections from now on wait in the queue until the app has started.
        listener.listen(BACKLOG)
        # On standard output: standard error carries the logs, one JSON object a line.
        print(f"rummy: {_serving(settings, listener.getsockname()[1])}", flush=True)
        # uvicorn re-raises SIGTERM once its graceful shutdown is done, and so by
        # default the process would die of it (exit 143); a stop that was asked for
        # and went cleanly exits 0 instead. Before uvicorn listens, it stops at once.
        signal.signal(signal.SIGTERM, _stopped)
        # Several workers count into one directory, so /metrics answers every
        # worker's totals whichever worker a scrape reaches (service/api/transport/metrics.py).
        with shared_by_workers(settings.workers):
            uvicorn.run(
                "service.asgi:app",
                # The socket bound above (the workers inherit it): a port in use was
                # said in one line before anything started.
                fd=listener.fileno(),
                workers=settings.workers,
                backlog=BACKLOG,
                loop="uvloop",
                # httptools, with a limit on request heads and a timeout for them (it
                # reads RUMMY_HEADER_TIMEOUT; the limit travels in uvicorn's h11 option).
                http=HeaderTimeoutProtocol,
                h11_max_incomplete_event_size=settings.max_header_bytes,
                timeout_keep_alive=settings.keepalive_timeout,
                log_level=settings.log_level.value,
                timeout_graceful_shutdown=settings.shutdown_timeout,
            )
    return 0


def _bind(host: str, port: int) -> socket.socket:
    """A TCP socket bound to `host`:`port` as uvicorn would bind it, not yet listening."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        # A restarted server need not wait for the last one's connections to time out.
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
    except OSError:
        listener.close()
        raise
    listener.set_inheritable(True)  # uvicorn's worker processes serve it too
    return listener


def _cannot_listen(settings: Settings, error: OSError) -> str:
    """What to do about a socket that could not be bound, in one line."""
    if error.errno == errno.EADDRINUSE:
        return f"port {settings.port} is in use; choose another with --port or RUMMY_PORT"
    if error.errno == errno.EACCES:
        return (
            f"port {settings.port} needs privileges this user lacks; choose one from 1024 "
            "up with --port or RUMMY_PORT"
        )
    reason = error.strerror or str(error)
    return (
        f"cannot listen on {settings.host}: {reason}; choose another address with --host "
        "or RUMMY_HOST"
    )


def _serving(settings: Settings, port: int) -> str:
    """The line that tells a person where the service is, once it listens on `port`."""
    from service.api.docs.docs_page import DOCS_PATH
    from service.webclient.served import PLAY_PATH

    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    url = f"http://{host}:{port}"
    return (
        f"serving on {url} (play: {url}{PLAY_PATH}, docs: {url}{DOCS_PATH}, "
        f"store: {settings.describe_store()})"
    )


@contextmanager
def _said_if_slow(message: str) -> Iterator[None]:
    """Print `message` if the block takes longer than `SLOW_STORE_SECONDS`, so a
    slow start is never silent (a PostgreSQL server far away, or down)."""
    timer = threading.Timer(SLOW_STORE_SECONDS, lambda: print(f"{message}...", flush=True))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def _stopped(signum: int, frame: object) -> None:
    raise SystemExit(0)


if __name__ == "__main__":
    raise SystemExit(main())
