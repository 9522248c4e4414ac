"""The log handler every logger writes to: lines gathered, written by a thread of its own.

A record is formatted in the thread that logs it (so a request's line has
that request's id) and its line is put aside; a writer thread writes what
gathered every `interval` seconds in one `write`, at once for a warning or
worse, and at exit (`logging.shutdown` flushes every handler).

Why not litestar's queue handler: it hands every record to its listener
thread and wakes it, and that hand-over (a lock, a wake-up, the interpreter
lock passed back and forth, a `write` a line) cost a request more than
everything else the access log does. A request here appends a string.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections import deque
from typing import TextIO

INTERVAL = 0.05
"""Seconds between writes: how late a line may appear."""


class BatchedStreamHandler(logging.Handler):
    """Formats each record where it is logged; a writer thread writes the lines to
    `stream` (stderr by default) in batches."""

    def __init__(self, stream: TextIO | None = None, interval: float = INTERVAL) -> None:
        super().__init__()
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self._lines: deque[str] = deque()
        self._wake = threading.Event()
        self._closing = False
        self._writing = threading.Lock()
        self._writer = threading.Thread(target=self._write_until_closed, name="log-writer")
        self._writer.daemon = True
        self._writer.start()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self._lines.append(self.format(record))
        except Exception:
            self.handleError(record)
        if record.levelno >= logging.WARNING:
            self._wake.set()

    def flush(self) -> None:
        """Write every line gathered so far, now."""
        with self._writing:
            lines = [self._lines.popleft() for _ in range(len(self._lines))]
            if not lines:
                return
            try:
                self.stream.write("\n".join(lines) + "\n")
                self.stream.flush()
            except Exception:
                self.handleError(logging.makeLogRecord({"msg": f"{len(lines)} log lines lost"}))

    def close(self) -> None:
        if not self._closing:
            self._closing = True
            self._wake.set()
            self._writer.join()
            self.flush()
        super().close()

    def _write_until_closed(self) -> None:
        while not self._closing:
            self._wake.wait(self.interval)
            self._wake.clear()
            self.flush()


def flush_logs() -> None:
    """Write every line the root logger's handlers hold. For an app's shutdown: what
    it logged is out once it has stopped, not only when the process exits."""
    for handler in logging.getLogger().handlers:
        handler.flush()
