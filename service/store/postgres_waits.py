"""Bounded waits on PostgreSQL's connections.

The library retries every statement up to ten times, 0.2 s
apart, on any operational error, and each try may wait its whole pool
timeout: with the database down, one request waited 100 s and then failed.
Here a statement is tried again only if its connection was lost (a database
restart leaves every pooled connection dead: the pool is checked, its dead
connections dropped, and the statement runs on a fresh one), at most `TRIES`
times in all; a wait that timed out is not tried again. A write tried again
may meet its own commit, whose reply was lost: the application recognises it
by its command id (`service.game.unit`). New connections give up after
the connect timeout, statements after the statement timeout (lock waits
included), and a lost connection is reopened for `RECONNECT_SECONDS`.

A server that stops answering while its connections stay open (frozen by
SIGSTOP, or packets dropped silently) enforces no statement timeout, and TCP
keeps such a connection for minutes (on one host, for ever: the kernel still
acknowledges). So the client bounds every wait for the server's reply itself:
the pool's connections are `silent_after(reply timeout)`, and a statement not
answered within it closes its connection (its protocol state is unknown) and
raises `ServerSilent`, which is not tried again (the next try would wait as
long) and is answered 503 like any operational error.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar, cast

import psycopg
from eventsourcing.persistence import InterfaceError, OperationalError
from eventsourcing.postgres import PostgresAggregateRecorder
from psycopg.abc import PQGen
from psycopg.errors import _WaitTimeout
from psycopg_pool import PoolTimeout, TooManyRequests

_F = TypeVar("_F", bound=Callable[..., Any])
_R = TypeVar("_R")

TRIES = 3
"""How often a statement is tried while its connection is lost. Each new try
follows a failure that took no waiting (a broken connection fails at once), and
none follows a wait that timed out, so the bound of a request stays the pool's
wait; three ride out a connection lost again on its retry (a flaky network)."""

DEFAULT_REPLY_SECONDS = 6.0
"""The reply timeout of a store environment that names none (`Settings` names one)."""

RECONNECT_SECONDS = 5.0
"""How long the pool keeps trying to reopen one lost connection (its waits double:
1, 2, 4 s, ...) before it gives that up and opens one afresh when a request needs
it. The library leaves psycopg's 5 minutes, so after an outage of a minute the
pool could wait half a minute more before it tried again."""

_CONNECTION_GONE = ("08", "57P01", "57P02", "57P03")
"""SQLSTATEs of a lost connection: connection exceptions (class 08), and the
server shutting down or starting up (admin/crash shutdown, cannot connect now)."""


WAKE_UP_SECONDS = 0.1
"""How often psycopg's wait for a reply wakes to look at interrupts (its own)."""


class ServerSilent(psycopg.OperationalError):
    """The server sent no reply within the reply timeout, its connection still open
    (frozen, or a network that drops packets silently): the connection is closed."""


def silent_after(seconds: float) -> type[psycopg.Connection[Any]]:
    """A connection class whose every wait for the server gives up after `seconds`
    (unless the caller gives a timeout of its own, as `notifies` does), closing the
    connection and raising `ServerSilent`: psycopg waits for a reply without end."""

    class ReplyBoundConnection(psycopg.Connection[Any]):
        def wait(
            self, gen: PQGen[_R], interval: float = WAKE_UP_SECONDS, timeout: float | None = None
        ) -> _R:
            if timeout is not None:
                return super().wait(gen, interval, timeout)
            try:
                return super().wait(gen, interval, seconds)
            except _WaitTimeout:
                # Half a statement's exchange is lost in the middle: nothing more can
                # be read on this connection, and the pool discards it once closed.
                self.close()
                raise ServerSilent(
                    f"the database sent no reply within {seconds:g} s (frozen or unreachable)"
                ) from None

    return ReplyBoundConnection


def connection_lost(error: Exception) -> bool:
    """True if `error` (the library's, from a driver's) says the connection broke,
    not that a wait ran out or the server refused the statement."""
    cause = error.__cause__
    if isinstance(cause, PoolTimeout | TooManyRequests | ServerSilent):
        return False
    if isinstance(cause, psycopg.Error) and cause.sqlstate is not None:
        return cause.sqlstate.startswith(_CONNECTION_GONE)
    return True  # the driver's own: "server closed the connection unexpectedly", ...


def reconnecting(method: _F) -> _F:
    """The library's `method` without its retries, tried again on a fresh
    connection (up to `TRIES` in all) while its connection is lost."""
    bare = inspect.unwrap(method)

    @functools.wraps(bare)
    def call(self: PostgresAggregateRecorder, *args: Any, **kwargs: Any) -> Any:
        for _ in range(TRIES - 1):
            try:
                return bare(self, *args, **kwargs)
            except (InterfaceError, OperationalError) as error:
                if not connection_lost(error):
                    raise
            # Drop every dead connection at once (after a restart they all are),
            # rather than meeting them one request at a time.
            self.datastore.pool.check()
        return bare(self, *args, **kwargs)

    return cast(_F, call)
