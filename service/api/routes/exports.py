"""Sending audit exports: written as they are read, a few at once, and a finished
game's made once (docs/audit.md, "Fetching an export"; docs/performance.md, "Audit
exports").

An export is as long as its game (77 MB for a game of 270,000 events), so it is
never held whole: `projections.audit_export.export_chunks` reads the store a page at a
time in a worker thread (the event loop never waits on the store) and each piece
is sent before the next is read; the server's flow control holds the reading back
while a slow client drains. A process sends at most `max_exports` at once
(`RUMMY_MAX_EXPORTS`): beyond, 503 `too_many_exports` with `Retry-After`, as live
streams are refused. A place is given back when the export ends, however it ends
(the client gone mid-way included), or when its response is collected unsent.

A finished game's export never changes, so the first one sent is also written to
a file of the cache directory (`RUMMY_EXPORT_CACHE_DIR`, by default a temporary
directory of the process's own), named by the game, its version and the format,
written whole under a temporary name and then renamed, so a reader finds it
whole or not at all, in one process or several sharing the directory. Later
requests send that file as it is. The files fill at most `RUMMY_EXPORT_CACHE_MB`:
after each one kept, the least lately sent go first.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import threading
import weakref
from collections.abc import AsyncGenerator, Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import anyio.to_thread
from litestar.background_tasks import BackgroundTask
from litestar.response import Stream

from service.api.errors import LimitExceeded
from service.config import Settings

EXPORTS_RETRY_AFTER = 5
"""Seconds a refused export is told to wait: a kept export of the longest game is
sent in about a second, one written from the store takes tens of seconds."""

_log = logging.getLogger(__name__)

_READ = 256 * 1024
"""Bytes read from a kept file at a time."""


class ExportCache:
    """The finished games' exports kept as files, at most `limit` bytes of them."""

    def __init__(self, directory: Path | None, limit: int) -> None:
        self.directory = directory
        """None: a temporary directory, made when the first export is kept."""
        self.limit = limit
        self._own: Path | None = None
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings) -> ExportCache:
        directory = None if settings.export_cache_dir is None else Path(settings.export_cache_dir)
        return cls(directory=directory, limit=settings.export_cache_mb * 1024 * 1024)

    def find(self, name: str) -> Path | None:
        """The kept export `name`, marked as sent now; None if it is not kept."""
        place = self._place()
        if place is None:
            return None
        path = place / f"{name}.json"
        try:
            os.utime(path)
        except OSError:  # not kept, or the directory is unusable
            return None
        return path

    def start(self, name: str) -> Kept | None:
        """A file to write export `name` into, kept once complete; None: nothing kept
        (none are, or the directory cannot be written: the export is sent all the same)."""
        try:
            place = self._place(make=True)
            if place is None:
                return None
            place.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=place, prefix=f".{name}.", suffix=".part")
        except OSError:
            _log.warning("cannot keep the audit export %s", name, exc_info=True)
            return None
        return Kept(self, os.fdopen(handle, "wb"), Path(temporary), place / f"{name}.json")

    def close(self) -> None:
        """Remove the temporary directory, if one was made (the app's shutdown)."""
        own, self._own = self._own, None
        if own is not None:
            shutil.rmtree(own, ignore_errors=True)

    def _place(self, *, make: bool = False) -> Path | None:
        if self.limit == 0:
            return None
        if self.directory is not None:
            return self.directory
        with self._lock:
            if self._own is None and make:
                self._own = Path(tempfile.mkdtemp(prefix="rummy-exports-"))
                weakref.finalize(self, shutil.rmtree, self._own, True)
        return self._own

    def _keep(self, temporary: Path, path: Path) -> None:
        size = temporary.stat().st_size
        if size > self.limit:
            temporary.unlink(missing_ok=True)
            return
        temporary.replace(path)
        self._trim(path.parent)

    def _trim(self, place: Path) -> None:
        """Remove the least lately sent files until the rest fit in `limit`."""
        files: list[tuple[float, int, Path]] = []
        for entry in os.scandir(place):
            if entry.name.endswith(".json") and entry.is_file():
                with suppress(FileNotFoundError):
                    info = entry.stat()
                    files.append((info.st_mtime, info.st_size, Path(entry.path)))
        total = sum(size for _, size, _ in files)
        for _, size, path in sorted(files):
            if total <= self.limit:
                break
            path.unlink(missing_ok=True)
            total -= size


@dataclass(slots=True)
class Kept:
    """An export being written to the cache: kept by `keep`, else removed by `drop`.
    A write that fails (a full disk) drops it; the export is sent all the same."""

    cache: ExportCache
    file: IO[bytes]
    temporary: Path
    path: Path
    failed: bool = False

    def write(self, chunk: bytes) -> None:
        if self.failed:
            return
        try:
            self.file.write(chunk)
        except OSError:
            _log.warning("cannot keep the audit export %s", self.path.name, exc_info=True)
            self.failed = True
            self.drop()

    def keep(self) -> None:
        if self.failed:
            return
        try:
            self.file.close()
            self.cache._keep(self.temporary, self.path)
        except OSError:
            _log.warning("cannot keep the audit export %s", self.path.name, exc_info=True)
            self.drop()

    def drop(self) -> None:
        with suppress(OSError):
            self.file.close()
        self.temporary.unlink(missing_ok=True)


class Exports:
    """The exports this process sends: their places and the kept files."""

    def __init__(self, limit: int = 4, cache: ExportCache | None = None) -> None:
        self.limit = limit
        self.cache = cache if cache is not None else ExportCache(directory=None, limit=0)
        self._lock = threading.Lock()
        self._sending = 0

    @classmethod
    def from_settings(cls, settings: Settings) -> Exports:
        return cls(settings.max_exports, ExportCache.from_settings(settings))

    @property
    def sending(self) -> int:
        """Exports holding a place now."""
        return self._sending

    def take_place(self) -> ExportPlace:
        """A place for one more export; `LimitExceeded` (503) when all are taken."""
        with self._lock:
            if self._sending >= self.limit:
                raise LimitExceeded(
                    503,
                    "too_many_exports",
                    f"This server is sending {self.limit} audit exports, as many as it sends "
                    f"at once: try again in {EXPORTS_RETRY_AFTER} s.",
                    {"Retry-After": str(EXPORTS_RETRY_AFTER)},
                )
            self._sending += 1
        return ExportPlace(self)

    def _give_back(self) -> None:
        with self._lock:
            self._sending -= 1

    def send(
        self,
        place: ExportPlace,
        chunks: Iterator[bytes],
        *,
        keep_as: str | None,
        tag: str,
        keep_if: Callable[[], bool] = lambda: True,
    ) -> Stream:
        """The response that sends `chunks` (kept as `keep_as`, if named, and if `keep_if`
        says so once they are all sent) in `place`."""
        kept = None if keep_as is None else self.cache.start(keep_as)
        return _response(_sent(place, chunks, kept, keep_if), tag)

    def send_kept(self, place: ExportPlace, path: Path, tag: str) -> Stream | None:
        """The response that sends the kept export at `path`; None if it is gone."""
        try:
            file = path.open("rb")
        except OSError:  # removed meanwhile (another process trimmed it), or unreadable
            return None
        size = os.fstat(file.fileno()).st_size
        return _response(_sent(place, _read(file), None, lambda: False), tag, size)


class ExportPlace:
    """One export's place among the `max_exports`: given back once, by whoever is first
    (the export's end, or the collector when its response never started)."""

    __slots__ = ("_exports",)

    def __init__(self, exports: Exports) -> None:
        self._exports: Exports | None = exports

    def give_back(self) -> None:
        exports, self._exports = self._exports, None
        if exports is not None:
            exports._give_back()

    __del__ = give_back


def _response(body: AsyncGenerator[bytes], tag: str, size: int | None = None) -> Stream:
    headers = {"ETag": tag}
    if size is not None:
        headers["Content-Length"] = str(size)
    # litestar stops iterating when the client goes (it cancels the sending) but leaves
    # the generator suspended until it is collected, its place still taken: closed
    # after the response, the generator's `finally` gives the place back at once.
    return Stream(
        body,
        media_type="application/json",
        headers=headers,
        background=BackgroundTask(_close, body),
    )


async def _close(body: AsyncGenerator[bytes]) -> None:
    # A coroutine function: litestar runs any other callable in a worker thread.
    await body.aclose()


async def _sent(
    place: ExportPlace, chunks: Iterator[bytes], kept: Kept | None, keep_if: Callable[[], bool]
) -> AsyncGenerator[bytes]:
    """Each chunk, made in a worker thread (it reads the store or a file), then sent;
    the place is given back however the sending ends."""
    complete = False
    try:
        while (chunk := await anyio.to_thread.run_sync(_next, chunks, kept)) is not None:
            yield chunk
        complete = True
    finally:
        place.give_back()
        # The generator's own `finally` (a file to close) runs before the kept one ends.
        close = getattr(chunks, "close", None)
        if close is not None:
            close()
        if kept is not None and complete and keep_if():
            await anyio.to_thread.run_sync(kept.keep)
        elif kept is not None:
            kept.drop()  # on the loop: a cancelled or closed generator awaits nothing


def _next(chunks: Iterator[bytes], kept: Kept | None) -> bytes | None:
    chunk = next(chunks, None)
    if chunk is not None and kept is not None:
        kept.write(chunk)
    return chunk


def _read(file: IO[bytes]) -> Iterator[bytes]:
    with file:
        while chunk := file.read(_READ):
            yield chunk
