"""A webhook receiver for the tests and the bench: a threaded HTTP server on
127.0.0.1 that verifies every request with standardwebhooks (the receiver's own
library) and answers as each path's `Behaviour` says (fail, time out, answer
slowly, hold a request until told)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


@dataclass(frozen=True, slots=True)
class Received:
    path: str
    webhook_id: str
    payload: Any
    """The verified JSON body (None: the signature did not verify)."""
    answered: int
    """The status the receiver answered (0: it held the request or answered too late)."""
    at: float
    """`time.time()` when the request arrived."""


Answer = Callable[[int], tuple[int, float]]
"""For the n-th request to a path (from 1): the status and how long to wait first."""


@dataclass
class Receiver:
    secrets: dict[str, str] = field(default_factory=dict)
    """Each path's signing secret."""
    answers: dict[str, Answer] = field(default_factory=dict)
    hold: tuple[str, int] | None = None
    """(path, n): the n-th request to that path waits until `release` (a kill mid-delivery)."""
    stall: frozenset[str] = frozenset()
    """Paths whose every request waits until `release`: a receiver that accepts the
    connection and never answers."""
    held: threading.Event = field(default_factory=threading.Event)
    released: threading.Event = field(default_factory=threading.Event)
    got: list[Received] = field(default_factory=list)
    bad_signatures: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    counts: dict[str, int] = field(default_factory=dict)
    url: str = ""
    late: float = float("inf")
    """A request answered after this many seconds counts as unanswered (the sender's
    timeout)."""

    def of(self, path: str) -> list[Received]:
        with self.lock:
            return [r for r in self.got if r.path == path]

    def handle(self, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, float, bool]:
        arrived = time.time()
        with self.lock:
            n = self.counts[path] = self.counts.get(path, 0) + 1
        try:
            payload = Webhook(self.secrets[path]).verify(body, headers)
        except (WebhookVerificationError, KeyError, ValueError):
            with self.lock:
                self.bad_signatures += 1
            payload = None
        status, delay = self.answers.get(path, lambda _: (204, 0.0))(n)
        holding = self.hold == (path, n) or path in self.stall
        with self.lock:
            self.got.append(
                Received(
                    path,
                    headers.get("webhook-id", ""),
                    payload,
                    0 if holding or delay >= self.late else status,
                    arrived,
                )
            )
        if holding:
            self.held.set()
            self.released.wait(60)
        return status, delay, holding


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    receiver: Receiver

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length", "0"))
        body = self.rfile.read(length)
        headers = {name.lower(): value for name, value in self.headers.items()}
        status, delay, _ = self.receiver.handle(self.path, body, headers)
        if delay:
            time.sleep(delay)
        try:
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()
        except OSError:
            pass  # the sender gave up (timed out) or was killed

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def receiving(receiver: Receiver) -> Iterator[Receiver]:
    """`receiver` served on a free port of 127.0.0.1 (its `url`) until the block ends."""
    handler = type("Handler", (_Handler,), {"receiver": receiver})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        receiver.released.set()
        server.shutdown()
        server.server_close()
