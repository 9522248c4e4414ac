"""HTTP clients of the simulated players: one request at a time, each sent to a
replica chosen at random. The default speaks HTTP/1.1 on asyncio streams
(`Connection`): httpx costs the client 10-25 times more CPU a request, and on
a small machine the bench would then measure itself (`--client httpx`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import httpx

from bench.load.options import Options
from tests.servers import Replica


class TransportFailure(Exception):
    """No HTTP response: the connection failed, closed or timed out."""


class Client(Protocol):
    """What a simulated player needs: one request, sent to a randomly chosen replica."""

    async def request(
        self,
        method: str,
        path: str,
        body: object = None,
        token: str | None = None,
        key: str | None = None,
    ) -> tuple[int, bytes]: ...

    async def aclose(self) -> None: ...


class Connection:
    """One kept-alive HTTP/1.1 connection on asyncio streams, opened on first use.

    Measured on this machine it costs the client ~0.1 ms of CPU a request where
    httpx costs ~1-2.5 ms: with two cores shared by client and server, httpx
    would measure itself. It speaks just enough HTTP/1.1 for this server:
    Content-Length or chunked bodies, and `Connection: close`.
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: bytes | None, token: str | None, key: str | None
    ) -> tuple[int, bytes]:
        if self.reader is None or self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        if key is not None:
            head += f"Idempotency-Key: {key}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.writer.write(head.encode("latin-1") + b"\r\n" + (body or b""))
        try:
            return await self._response(self.reader)
        except BaseException:
            self.close()
            raise

    async def _response(self, reader: asyncio.StreamReader) -> tuple[int, bytes]:
        lines = (await reader.readuntil(b"\r\n\r\n")).split(b"\r\n")
        status = int(lines[0].split(b" ", 2)[1])
        length, chunked, close = 0, False, False
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value.lower()
            elif name == b"connection":
                close = b"close" in value.lower()
        if chunked:
            parts = []
            while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                parts.append((await reader.readexactly(size + 2))[:-2])
            await reader.readuntil(b"\r\n")  # no trailers from this server
            content = b"".join(parts)
        else:
            content = await reader.readexactly(length)
        if close:
            self.close()
        return status, content

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class StreamClient:
    """One simulated player's connections, one per replica (the default client)."""

    def __init__(self, ports: Sequence[int], rng: random.Random, timeout: float) -> None:
        self.connections = [Connection(port) for port in ports]
        self.rng = rng
        self.timeout = timeout

    async def request(
        self,
        method: str,
        path: str,
        body: object = None,
        token: str | None = None,
        key: str | None = None,
    ) -> tuple[int, bytes]:
        connection = self.rng.choice(self.connections)
        raw = None if body is None else json.dumps(body, separators=(",", ":")).encode()
        try:
            async with asyncio.timeout(self.timeout):
                return await connection.request(method, path, raw, token, key)
        except (OSError, EOFError, TimeoutError, ValueError, IndexError) as error:
            raise TransportFailure(f"{type(error).__name__}: {error}") from error

    async def aclose(self) -> None:
        for connection in self.connections:
            connection.close()


class HttpxClient:
    """The same over httpx clients shared by all players (`--client httpx`)."""

    def __init__(self, shared: Sequence[httpx.AsyncClient], rng: random.Random) -> None:
        self.shared = shared
        self.rng = rng

    async def request(
        self,
        method: str,
        path: str,
        body: object = None,
        token: str | None = None,
        key: str | None = None,
    ) -> tuple[int, bytes]:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        if key is not None:
            headers["Idempotency-Key"] = key
        try:
            response = await self.rng.choice(self.shared).request(
                method, path, json=body, headers=headers
            )
        except httpx.HTTPError as error:
            raise TransportFailure(f"{type(error).__name__}: {error}") from error
        return response.status_code, response.content

    async def aclose(self) -> None:
        pass


@dataclass
class Clients:
    """Makes one client per simulated player, of the kind `--client` names."""

    kind: str
    ports: list[int]
    timeout: float
    shared: list[httpx.AsyncClient]

    def new(self, rng: random.Random) -> Client:
        if self.kind == "httpx":
            return HttpxClient(self.shared, rng)
        return StreamClient(self.ports, rng, self.timeout)


@contextlib.asynccontextmanager
async def clients_for(servers: Sequence[Replica], options: Options) -> AsyncIterator[Clients]:
    async with contextlib.AsyncExitStack() as stack:
        shared = []
        if options.client == "httpx":
            # Enough kept-alive connections that no player waits for one or reconnects.
            size = options.games * 2
            limits = httpx.Limits(max_connections=size, max_keepalive_connections=size)
            for server in servers:
                client = httpx.AsyncClient(
                    base_url=server.url, limits=limits, timeout=options.timeout
                )
                shared.append(await stack.enter_async_context(client))
        yield Clients(options.client, [s.port for s in servers], options.timeout, shared)
