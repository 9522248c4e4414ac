"""A TCP proxy between the service and PostgreSQL that a test can break on purpose.

`FaultProxy(upstream)` listens on 127.0.0.1 (a port the system picks) and
forwards every connection to `upstream` until told otherwise:

- `cut()`: reset every open connection now (a database restart, a network
  blip); new connections pass.
- `down()`: cut, and refuse new connections (nothing listens: the database
  is stopped). `blackhole()`: cut, and accept new connections but never
  answer them (a host that is gone). `freeze()`: keep every open connection
  open and carry nothing more either way, and accept new connections but never
  answer them (a server stopped by SIGSTOP: its kernel still acknowledges, so
  the client's TCP never notices); `up()` carries what was held back, as the
  thawed server reads what its kernel buffered. `up()` ends any of them.
- `lose_replies(pattern, every)`: for every `every`-th request whose bytes
  contain `pattern`, forward the request, wait for the server's whole reply
  (up to its ReadyForQuery, so a statement in autocommit has committed), then
  drop that reply and reset the connection: the client never learns the
  outcome of a write that was stored.

The shared PostgreSQL server itself is never touched: other tests use it at
the same time. The proxy runs its own event loop in a thread; every method
is called from the test's thread and returns once the proxy has done it.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import threading
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

CHUNK = 65536
_READY_FOR_QUERY = ord("Z")


@dataclass(eq=False)
class _Link:
    """One client connection and its upstream twin."""

    client: asyncio.StreamWriter
    server: asyncio.StreamWriter | None = None
    losing: bool = False
    """The server's current reply is to be dropped, then the link reset."""
    reply: bytearray = field(default_factory=bytearray)

    def reset(self) -> None:
        for writer in (self.client, self.server):
            if writer is not None:
                _reset(writer)


def _reset(writer: asyncio.StreamWriter) -> None:
    """Close with a TCP reset (SO_LINGER 0), as a dying peer does."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


def _ends_with_ready(reply: bytes | bytearray) -> bool:
    """True once `reply` (starting at a message boundary) holds a whole
    ReadyForQuery message: the server has finished with the request."""
    offset = 0
    while offset + 5 <= len(reply):
        kind = reply[offset]
        (length,) = struct.unpack_from("!i", reply, offset + 1)
        end = offset + 1 + length
        if end > len(reply):
            return False
        if kind == _READY_FOR_QUERY:
            return True
        offset = end
    return False


class FaultProxy:
    """A controllable TCP proxy to `upstream` (host, port) on 127.0.0.1."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.port = 0
        self.connections = 0
        """Connections accepted so far."""
        self.lost_replies = 0
        """Replies dropped after their request was carried out."""
        self._links: set[_Link] = set()
        self._serving: set[asyncio.Task[None]] = set()
        self._held: set[asyncio.StreamWriter] = set()
        self._holding = False
        self._thawed: asyncio.Event | None = None
        """Set while links carry bytes; cleared by `freeze`."""
        self._cuts = 0
        """How many times every link was cut: a link still connecting upstream then
        was not among them, and must not forward once connected."""
        self._pattern: bytes | None = None
        self._every = 0
        self._matched = 0
        self._server: asyncio.Server | None = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def __enter__(self) -> FaultProxy:
        self._thread.start()
        self._call(self._listen())
        return self

    def __exit__(self, *_: object) -> None:
        self._call(self._stop())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        self._loop.close()

    def upstream_ports(self) -> list[int]:
        """The local ports of the proxy's connections to the server: what the
        server's `pg_stat_activity.client_port` shows for the service's sessions."""
        ports = []
        for link in list(self._links):
            if link.server is not None:
                name = link.server.get_extra_info("sockname")
                if name is not None:
                    ports.append(int(name[1]))
        return ports

    # --- faults --------------------------------------------------------------

    def cut(self) -> None:
        """Reset every open connection; new ones pass."""
        self._call(self._cut())

    def down(self) -> None:
        """Cut every connection and refuse new ones until `up()`."""
        self._call(self._down())

    def blackhole(self) -> None:
        """Cut every connection; accept new ones but never answer them, until `up()`."""
        self._holding = True
        self._call(self._cut())

    def freeze(self) -> None:
        """Carry nothing on open connections; accept new ones but never answer them,
        until `up()`."""
        self._holding = True
        self._call(self._freeze())

    def up(self) -> None:
        """Forward again: listen if down, drop the connections held by `blackhole`
        or `freeze`, carry what a freeze held back."""
        self._call(self._up())

    def lose_replies(self, pattern: bytes | None, every: int = 1) -> None:
        """Drop the reply to every `every`-th request containing `pattern` (None: stop)."""
        self._pattern = pattern
        self._every = every
        self._matched = 0

    # --- the loop side -------------------------------------------------------

    def _call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout=10)

    async def _listen(self) -> None:
        if self._thawed is None:
            self._thawed = asyncio.Event()
            self._thawed.set()
        self._server = await asyncio.start_server(
            self._serve, "127.0.0.1", self.port, reuse_address=True
        )
        self.port = self._server.sockets[0].getsockname()[1]

    async def _stop(self) -> None:
        await self._down()
        await self._up_held()
        # Every link is reset: their tasks end by themselves (cancelling them
        # instead makes asyncio's stream callback log the cancellation).
        if self._serving:
            await asyncio.wait(self._serving, timeout=5)

    async def _cut(self) -> None:
        self._cuts += 1
        for link in list(self._links):
            link.reset()
        self._links.clear()

    async def _down(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        await self._cut()

    async def _freeze(self) -> None:
        assert self._thawed is not None
        self._thawed.clear()

    async def _up(self) -> None:
        self._holding = False
        assert self._thawed is not None
        self._thawed.set()
        await self._up_held()
        if self._server is None:
            await self._listen()

    async def _up_held(self) -> None:
        for writer in list(self._held):
            _reset(writer)
        self._held.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        if self._holding:
            self._held.add(writer)
            return
        task = asyncio.current_task()
        assert task is not None
        self._serving.add(task)
        link = _Link(client=writer)
        cuts = self._cuts
        try:
            upstream_reader, link.server = await asyncio.open_connection(*self.upstream)
        except OSError:
            _reset(writer)
            self._serving.discard(task)
            return
        if self._cuts != cuts:
            # Cut (blackholed or down) while this link was connecting upstream: it
            # was not in `_links` then, and forwarding now would let a query through
            # (a flaky `/ready` 200 during a blackhole, seen in CI).
            _reset(link.server)
            if self._holding:
                self._held.add(writer)
            else:
                _reset(writer)
            self._serving.discard(task)
            return
        self._links.add(link)
        try:
            # Either side failing ends both: a reset link raises on the other side.
            await asyncio.gather(
                self._forward_requests(link, reader),
                self._forward_replies(link, upstream_reader),
                return_exceptions=True,
            )
        finally:
            link.reset()
            self._links.discard(link)
            self._serving.discard(task)

    async def _forward_requests(self, link: _Link, reader: asyncio.StreamReader) -> None:
        assert link.server is not None
        try:
            while chunk := await reader.read(CHUNK):
                if self._pattern is not None and self._pattern in chunk:
                    self._matched += 1
                    if self._matched % self._every == 0:
                        link.losing = True
                        link.reply.clear()
                await self._carrying()
                link.server.write(chunk)
                await link.server.drain()
        finally:
            # An end or a reset on one side ends the other (else it would wait on).
            link.reset()

    async def _carrying(self) -> None:
        """Return once bytes may pass (at once unless frozen)."""
        assert self._thawed is not None
        if not self._thawed.is_set():
            await self._thawed.wait()

    async def _forward_replies(self, link: _Link, reader: asyncio.StreamReader) -> None:
        try:
            while chunk := await reader.read(CHUNK):
                if link.losing:
                    link.reply += chunk
                    if _ends_with_ready(link.reply):
                        self.lost_replies += 1
                        break
                    continue
                await self._carrying()
                link.client.write(chunk)
                await link.client.drain()
        finally:
            link.reset()
