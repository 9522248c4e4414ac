"""One frozen settings object, read from the environment.

Every knob an operator turns is here, with its environment variable
(defaults in brackets):

- `RUMMY_STORE` [sqlite]: the event store, `memory`, `sqlite` or `postgres`.
- `RUMMY_SQLITE_PATH` [rummy.sqlite]: the SQLite file; its directory must exist.
- `POSTGRES_HOST` [127.0.0.1], `POSTGRES_PORT` [5432], `POSTGRES_USER` [postgres],
  `POSTGRES_DBNAME` [rummy], `POSTGRES_PASSWORD` or `POSTGRES_PASSWORD_FILE` [empty],
  `POSTGRES_SCHEMA` [public]: the PostgreSQL server and where the events live.
  libpq's own variables (`PGSSLMODE`, `PGSSLROOTCERT`, ...) apply as well.
- `POSTGRES_POOL_SIZE` [5], `POSTGRES_MAX_OVERFLOW` [10]: connections per process,
  kept open and extra.
- `POSTGRES_CONNECT_TIMEOUT` [3]: seconds to open a connection to the server (libpq
  counts less than 2 as 2). `POSTGRES_POOL_TIMEOUT` [3]: seconds a request waits for
  a pooled connection before it is answered 503. `POSTGRES_STATEMENT_TIMEOUT` [5]:
  seconds a statement may run, lock waits included (0: no limit, for poolers that
  refuse the `options` startup parameter). `POSTGRES_REPLY_TIMEOUT` [6]: seconds the
  service waits for the server's reply to a statement before it closes the
  connection and answers 503 (a frozen server enforces no statement timeout).
- `RUMMY_READY_TIMEOUT` [2]: seconds `/ready` waits for the store before it answers
  503 (keep it below the readiness probe's timeout).
- `RUMMY_AGGREGATE_CACHE_SIZE` [1000]: games cached per process.
- `RUMMY_ADMIN_TOKEN` or `RUMMY_ADMIN_TOKEN_FILE` [none: admin features off]: the
  admin bearer token, at least 16 characters.
- `RUMMY_METRICS_TOKEN` or `RUMMY_METRICS_TOKEN_FILE` [none: `/metrics` is public]: the
  bearer token `/metrics` then asks for (the admin token is taken too), 16+ characters.
- `RUMMY_LOG_LEVEL` [info]: `critical`, `error`, `warning`, `info`, `debug`, `trace`.
- `RUMMY_CORS_ORIGINS` [none: no CORS headers]: comma-separated browser origins
  (`https://play.example.com`), or `*` for any.
- `RUMMY_MAX_BODY_BYTES` [65536]: the largest request body accepted (413 above).
- `RUMMY_MAX_HEADER_BYTES` [16384]: the largest request head (request line and headers)
  `rummy serve` accepts (431 above).
- `RUMMY_HOST` [127.0.0.1], `RUMMY_PORT` [8000], `RUMMY_WORKERS` [1]: where and with
  how many worker processes `rummy serve` listens.
- `RUMMY_SHUTDOWN_TIMEOUT` [20]: seconds in-flight requests get after SIGTERM.
- `RUMMY_STREAM_HEARTBEAT_MS` [15000]: silence before a live stream sends a heartbeat.
- `RUMMY_STREAM_POLL_MS` [500]: how often one shared poller looks for new events where
  the store cannot push them (SQLite; PostgreSQL uses LISTEN/NOTIFY).
- `RUMMY_MAX_STREAMS` [1000]: live streams open at once per process (503 beyond).
- `RUMMY_MAX_EXPORTS` [4]: audit exports sent at once per process (503 beyond).
- `RUMMY_EXPORT_CACHE_DIR` [none: a temporary directory of the process's own, removed
  when it stops]: where finished games' exports are kept, to be sent again as they are
  (made if missing; where it cannot be written, nothing is kept).
  `RUMMY_EXPORT_CACHE_MB` [512]: the most they fill (the least lately sent go first);
  0 keeps none.
- `RUMMY_STREAM_TICKET_TTL` [60]: seconds a stream ticket (`POST
  /games/{id}/stream-tickets`) may be used in, once, to open a live stream.
- `RUMMY_REDIS_URL` [none: each process counts alone]: `redis://host:6379/0` (or
  `rediss://`), where the rate limits are counted, shared by every replica.
- `RUMMY_CREATE_RATE` [30/minute], `RUMMY_JOIN_RATE` [60/minute]: games one client
  address may create, seats it may join; `RUMMY_ACTION_RATE` [20/second;600/minute]:
  action requests per player token. `limits` notation (`N/second|minute|hour|day`,
  several joined by `;`), or `off` (429 beyond).
- `RUMMY_ADMIN_FAILURE_RATE` [10/minute]: failed admin-token attempts one client
  address may make (a bearer token that is no player's and not the admin's, nor the
  metrics token); beyond, every such request from it is 429, the right token too.
- `RUMMY_DECKS_CAP` [20]: explicit deck orders a new game may give; `RUMMY_MAX_TURNS_CAP`
  [1000], `RUMMY_RECYCLES_CAP` [100]: the highest `max_turns` and `recycles` rules (422).
- `RUMMY_WILD_HAND_CAP` [13]: the largest `hand_size` of a game with wild cards (422):
  the readings `legal` lists grow steeply with the hand (docs/performance.md).
- `RUMMY_EVENTS_PAGE` [1000]: events in a page of `listEvents` without `limit`.
- `RUMMY_WEBHOOK_TIMEOUT` [10]: seconds a webhook receiver has to answer (each of
  connecting, sending, reading); slower is a failed attempt.
- `RUMMY_WEBHOOK_MAX_FAILURES` [50]: failed attempts in a row that disable an endpoint
  (an endpoint may set its own).
- `RUMMY_WEBHOOK_RETRY_MS` [1000], `RUMMY_WEBHOOK_RETRY_MAX` [900]: the first retry's
  ceiling in milliseconds, doubled after each failure up to this many seconds; each wait
  is drawn between 0 and its ceiling (full jitter).
- `RUMMY_WEBHOOK_LEASE` [60]: seconds a sender holds an endpoint without writing; a
  killed sender's endpoint is taken over after it. More than twice the timeout.
- `RUMMY_WEBHOOK_POLL_MS` [1000]: how often an idle sender looks for other replicas'
  events and for retries that came due. `RUMMY_WEBHOOK_SENDERS` [16]: endpoints one
  process delivers at once, a thread each while busy (0: this process delivers no
  webhook); up to one less silent receivers cannot delay another endpoint.
- `RUMMY_KEEPALIVE_TIMEOUT` [5], `RUMMY_HEADER_TIMEOUT` [10], `RUMMY_BODY_TIMEOUT` [10]:
  seconds a connection may stay idle between requests, take to send a request's
  headers (from connecting, or from its first byte), and its body (408 after).
- `RUMMY_CLOCKS` [on]: `on` or `off`, whether this process keeps the turn clocks
  (service/clocks/timekeeper.py; on SQLite one process of the file keeps them,
  whichever locks it first). `RUMMY_CLOCKS_POLL_MS` [1000]: how often the keeper
  reads the feed for new deadlines, and the most it sleeps between looks at the
  due ones (a deadline due sooner wakes it then); at most 2000, well inside the
  shortest clock (5 s).
- `RUMMY_MATCHMAKING_POLL_MS` [500]: how often the matcher (run where the clocks are
  kept, `RUMMY_CLOCKS`) looks for tickets to seat, expire or fill with bots
  (docs/players.md, "Matchmaking"); 10 to 10000.
- `RUMMY_BOT_PACE_MS` [300]: in a game with only bots left to move (every person
  left, resigned or was taken over), the keeper plays a bot request this long after
  the last move (0 to 60000; 0: as fast as the keeper fires). Takeovers in games with
  people are not paced. `RUMMY_BOT_PROCESSES` [0]: bots decide in the thread that asks
  (a worker thread, never the event loop); N: in a pool of N processes (0 to 64).

`Settings.from_env` checks every value (each read by `variables.py`) and raises
`SettingsError` naming the variable and what is wrong, so a bad setting stops
the service at start.
Settings built directly in code are taken as given.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from service.config.variables import (
    SettingsError,
    choice,
    origins,
    rate,
    redis_server,
    seconds,
    secret,
    switch,
    text,
    token,
    whole,
)


class Store(StrEnum):
    MEMORY = "memory"
    SQLITE = "sqlite"
    POSTGRES = "postgres"


class LogLevel(StrEnum):
    CRITICAL = "critical"
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    DEBUG = "debug"
    TRACE = "trace"
    """uvicorn's level below debug; the application logs it as debug."""

    @property
    def python_name(self) -> str:
        """The level's name for the `logging` module."""
        return "DEBUG" if self is LogLevel.TRACE else self.value.upper()


SERVICE_NAME = "Rummy game service"
"""What the service is called: the README's title, the OpenAPI document's `info.title`,
the command line's description."""

POSTGRES_FACTORY = "service.store.postgres:Factory"
"""The library's PostgreSQL store with this service's recorder (appends in one
statement, in commit order) and bounded waits (the module says why)."""
CONNECT_TIMEOUT_KEY = "STORE_CONNECT_TIMEOUT"
STATEMENT_TIMEOUT_KEY = "STORE_STATEMENT_TIMEOUT"
REPLY_TIMEOUT_KEY = "STORE_REPLY_TIMEOUT"
"""The factory's own settings in the store environment (the library's
`POSTGRES_CONNECT_TIMEOUT` is its pool's wait, not the connect timeout)."""

_PERSISTENCE_MODULES = {
    Store.MEMORY: "eventsourcing.popo",
    Store.SQLITE: "eventsourcing.sqlite",
    Store.POSTGRES: POSTGRES_FACTORY,
}

MAX_BODY_BYTES_LIMIT = 64 * 1024 * 1024
MAX_HEADER_BYTES_LIMIT = 1024 * 1024
DEFAULT_MAX_HEADER_BYTES = 16 * 1024
MAX_DECKS = 1000
"""The most deck orders the request schema takes (`RUMMY_DECKS_CAP` may lower it)."""
MAX_TURNS = 100_000
MAX_RECYCLES = 1000
"""The highest `max_turns` and `recycles` the request schema takes (the caps may lower them)."""
MAX_EVENTS_PAGE = 1000
"""The largest `limit` of an events page."""
MAX_CLOCKS_POLL_MS = 2000
"""A new deadline reaches the clocks' table within a poll: well inside 5 s, the
shortest `turn_seconds`."""
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")


@dataclass(frozen=True, slots=True)
class Settings:
    store: Store = Store.SQLITE
    sqlite_path: str = "rummy.sqlite"
    postgres_host: str = "127.0.0.1"
    postgres_port: int = 5432
    postgres_user: str = "postgres"
    postgres_password: str = ""
    postgres_dbname: str = "rummy"
    postgres_schema: str = ""
    postgres_pool_size: int = 5
    postgres_max_overflow: int = 10
    postgres_connect_timeout: int = 3
    postgres_pool_timeout: int = 3
    postgres_statement_timeout: int = 5
    """0: no limit."""
    postgres_reply_timeout: int = 6
    """Seconds the client waits for any reply of the server (enforced by the client:
    a frozen server enforces no statement timeout); above the statement timeout, so
    a slow statement ends with the server's own error first."""
    aggregate_cache_size: int = 1000
    admin_token: str | None = None
    """Admin features are off when no admin token is configured."""
    metrics_token: str | None = None
    """`/metrics` is public when no metrics token is configured."""
    log_level: LogLevel = LogLevel.INFO
    cors_origins: tuple[str, ...] = ()
    """Browser origins allowed to call the API (`*` for any); empty: CORS off."""
    max_body_bytes: int = 65_536
    """Sixteen times the largest valid body (a new game with every field at its
    longest and 20 decks, 15 KB), so pretty-printed JSON fits too."""
    max_header_bytes: int = DEFAULT_MAX_HEADER_BYTES
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    shutdown_timeout: int = 20
    """Seconds `rummy serve` lets in-flight requests run after SIGTERM."""
    stream_heartbeat_ms: int = 15_000
    stream_poll_ms: int = 500
    max_streams: int = 1000
    max_exports: int = 4
    """Audit exports sent at once per process: each holds a worker thread while it
    reads a page, and a page's memory."""
    export_cache_dir: str | None = None
    """Where finished games' exports are kept; None: a temporary directory of the
    process's own."""
    export_cache_mb: int = 512
    """The most the kept exports fill (the largest export of a game the caps allow is
    about 80 MB); 0 keeps none."""
    stream_ticket_ttl: int = 60
    """Seconds a stream ticket lives: long enough to open a stream with it, short
    enough that one seen in a log or a browser's history opens nothing."""
    redis_url: str | None = None
    """Where rate limits are counted, shared by every replica; None: in each process."""
    create_rate: str | None = "30/minute"
    """Games one client address may create (`limits` notation); None: no limit."""
    join_rate: str | None = "60/minute"
    """Seats one client address may join; None: no limit."""
    action_rate: str | None = "20/second;600/minute"
    """Action requests one player token may make; None: no limit."""
    admin_failure_rate: str | None = "10/minute"
    """Failed admin-token attempts one client address may make; None: no limit."""
    decks_cap: int = 20
    max_turns_cap: int = 1000
    recycles_cap: int = 100
    wild_hand_cap: int = 13
    """The largest `hand_size` a game with wild cards may ask for."""
    events_page: int = MAX_EVENTS_PAGE
    """Events in a page of `listEvents` when the caller gives no `limit`."""
    webhook_timeout: float = 10.0
    webhook_max_failures: int = 50
    webhook_retry_ms: int = 1000
    webhook_retry_max: int = 900
    webhook_lease: int = 60
    webhook_poll_ms: int = 1000
    webhook_senders: int = 16
    keepalive_timeout: int = 5
    header_timeout: float = 10.0
    body_timeout: float = 10.0
    ready_timeout: int = 2
    clocks: bool = True
    """Whether this process keeps the turn clocks (fires deadlines that passed)."""
    clocks_poll_ms: int = 1000
    matchmaking_poll_ms: int = 500
    """How often the matcher looks for tickets to seat (docs/players.md)."""
    bot_pace_ms: int = 300
    """A game of bots alone moves a request this long after its last event."""
    bot_processes: int = 0
    """0: bots decide in the asking thread; N: in a pool of N processes."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings the environment names; `SettingsError` for any bad value."""
        env = os.environ if environ is None else environ
        defaults = cls()
        store = choice(env, "RUMMY_STORE", Store, defaults.store)
        settings = cls(
            store=store,
            sqlite_path=text(env, "RUMMY_SQLITE_PATH", defaults.sqlite_path),
            postgres_host=text(env, "POSTGRES_HOST", defaults.postgres_host),
            postgres_port=whole(env, "POSTGRES_PORT", defaults.postgres_port, low=1, high=65535),
            postgres_user=text(env, "POSTGRES_USER", defaults.postgres_user),
            postgres_password=secret(env, "POSTGRES_PASSWORD") or "",
            postgres_dbname=text(env, "POSTGRES_DBNAME", defaults.postgres_dbname),
            postgres_schema=env.get("POSTGRES_SCHEMA", defaults.postgres_schema).strip(),
            postgres_pool_size=whole(
                env, "POSTGRES_POOL_SIZE", defaults.postgres_pool_size, low=1, high=1000
            ),
            postgres_max_overflow=whole(
                env, "POSTGRES_MAX_OVERFLOW", defaults.postgres_max_overflow, low=0, high=1000
            ),
            postgres_connect_timeout=whole(
                env, "POSTGRES_CONNECT_TIMEOUT", defaults.postgres_connect_timeout, low=1, high=600
            ),
            postgres_pool_timeout=whole(
                env, "POSTGRES_POOL_TIMEOUT", defaults.postgres_pool_timeout, low=1, high=600
            ),
            postgres_statement_timeout=whole(
                env,
                "POSTGRES_STATEMENT_TIMEOUT",
                defaults.postgres_statement_timeout,
                low=0,
                high=3600,
            ),
            postgres_reply_timeout=whole(
                env, "POSTGRES_REPLY_TIMEOUT", defaults.postgres_reply_timeout, low=1, high=3600
            ),
            aggregate_cache_size=whole(
                env, "RUMMY_AGGREGATE_CACHE_SIZE", defaults.aggregate_cache_size, low=0
            ),
            admin_token=token(env, "RUMMY_ADMIN_TOKEN", "to turn the admin features off"),
            metrics_token=token(env, "RUMMY_METRICS_TOKEN", "to leave /metrics public"),
            log_level=choice(env, "RUMMY_LOG_LEVEL", LogLevel, defaults.log_level),
            cors_origins=origins(env.get("RUMMY_CORS_ORIGINS", "")),
            max_body_bytes=whole(
                env,
                "RUMMY_MAX_BODY_BYTES",
                defaults.max_body_bytes,
                low=1024,
                high=MAX_BODY_BYTES_LIMIT,
            ),
            max_header_bytes=whole(
                env,
                "RUMMY_MAX_HEADER_BYTES",
                defaults.max_header_bytes,
                low=1024,
                high=MAX_HEADER_BYTES_LIMIT,
            ),
            host=text(env, "RUMMY_HOST", defaults.host),
            port=whole(env, "RUMMY_PORT", defaults.port, low=1, high=65535),
            workers=whole(env, "RUMMY_WORKERS", defaults.workers, low=1, high=64),
            shutdown_timeout=whole(
                env, "RUMMY_SHUTDOWN_TIMEOUT", defaults.shutdown_timeout, low=0, high=3600
            ),
            stream_heartbeat_ms=whole(
                env,
                "RUMMY_STREAM_HEARTBEAT_MS",
                defaults.stream_heartbeat_ms,
                low=10,
                high=3_600_000,
            ),
            stream_poll_ms=whole(
                env, "RUMMY_STREAM_POLL_MS", defaults.stream_poll_ms, low=10, high=60_000
            ),
            max_streams=whole(env, "RUMMY_MAX_STREAMS", defaults.max_streams, low=0),
            max_exports=whole(env, "RUMMY_MAX_EXPORTS", defaults.max_exports, low=1, high=1000),
            export_cache_dir=env.get("RUMMY_EXPORT_CACHE_DIR", "").strip() or None,
            export_cache_mb=whole(
                env, "RUMMY_EXPORT_CACHE_MB", defaults.export_cache_mb, low=0, high=1_000_000
            ),
            stream_ticket_ttl=whole(
                env, "RUMMY_STREAM_TICKET_TTL", defaults.stream_ticket_ttl, low=1, high=3600
            ),
            redis_url=redis_server(env),
            create_rate=rate(env, "RUMMY_CREATE_RATE", defaults.create_rate),
            join_rate=rate(env, "RUMMY_JOIN_RATE", defaults.join_rate),
            action_rate=rate(env, "RUMMY_ACTION_RATE", defaults.action_rate),
            admin_failure_rate=rate(env, "RUMMY_ADMIN_FAILURE_RATE", defaults.admin_failure_rate),
            decks_cap=whole(env, "RUMMY_DECKS_CAP", defaults.decks_cap, low=1, high=MAX_DECKS),
            max_turns_cap=whole(
                env, "RUMMY_MAX_TURNS_CAP", defaults.max_turns_cap, low=1, high=MAX_TURNS
            ),
            recycles_cap=whole(
                env, "RUMMY_RECYCLES_CAP", defaults.recycles_cap, low=0, high=MAX_RECYCLES
            ),
            wild_hand_cap=whole(env, "RUMMY_WILD_HAND_CAP", defaults.wild_hand_cap, low=1, high=25),
            events_page=whole(
                env, "RUMMY_EVENTS_PAGE", defaults.events_page, low=1, high=MAX_EVENTS_PAGE
            ),
            webhook_timeout=seconds(env, "RUMMY_WEBHOOK_TIMEOUT", defaults.webhook_timeout),
            webhook_max_failures=whole(
                env, "RUMMY_WEBHOOK_MAX_FAILURES", defaults.webhook_max_failures, low=1, high=10_000
            ),
            webhook_retry_ms=whole(
                env, "RUMMY_WEBHOOK_RETRY_MS", defaults.webhook_retry_ms, low=1, high=3_600_000
            ),
            webhook_retry_max=whole(
                env, "RUMMY_WEBHOOK_RETRY_MAX", defaults.webhook_retry_max, low=1, high=86_400
            ),
            webhook_lease=whole(
                env, "RUMMY_WEBHOOK_LEASE", defaults.webhook_lease, low=1, high=3600
            ),
            webhook_poll_ms=whole(
                env, "RUMMY_WEBHOOK_POLL_MS", defaults.webhook_poll_ms, low=10, high=60_000
            ),
            webhook_senders=whole(
                env, "RUMMY_WEBHOOK_SENDERS", defaults.webhook_senders, low=0, high=64
            ),
            keepalive_timeout=whole(
                env, "RUMMY_KEEPALIVE_TIMEOUT", defaults.keepalive_timeout, low=1, high=3600
            ),
            header_timeout=seconds(env, "RUMMY_HEADER_TIMEOUT", defaults.header_timeout),
            body_timeout=seconds(env, "RUMMY_BODY_TIMEOUT", defaults.body_timeout),
            ready_timeout=whole(env, "RUMMY_READY_TIMEOUT", defaults.ready_timeout, low=1, high=60),
            clocks=switch(env, "RUMMY_CLOCKS", defaults.clocks),
            clocks_poll_ms=whole(
                env,
                "RUMMY_CLOCKS_POLL_MS",
                defaults.clocks_poll_ms,
                low=10,
                high=MAX_CLOCKS_POLL_MS,
            ),
            matchmaking_poll_ms=whole(
                env,
                "RUMMY_MATCHMAKING_POLL_MS",
                defaults.matchmaking_poll_ms,
                low=10,
                high=10_000,
            ),
            bot_pace_ms=whole(env, "RUMMY_BOT_PACE_MS", defaults.bot_pace_ms, low=0, high=60_000),
            bot_processes=whole(env, "RUMMY_BOT_PROCESSES", defaults.bot_processes, low=0, high=64),
        )
        settings._check_store()
        return settings

    def _check_store(self) -> None:
        if 0 < self.postgres_reply_timeout <= self.postgres_statement_timeout:
            raise SettingsError(
                f"POSTGRES_REPLY_TIMEOUT ({self.postgres_reply_timeout} s) must be more than "
                f"POSTGRES_STATEMENT_TIMEOUT ({self.postgres_statement_timeout} s): the "
                "client would give up on a slow statement before the server ends it."
            )
        if self.webhook_lease <= 2 * self.webhook_timeout:
            raise SettingsError(
                f"RUMMY_WEBHOOK_LEASE ({self.webhook_lease} s) must be more than twice "
                f"RUMMY_WEBHOOK_TIMEOUT ({self.webhook_timeout:g} s): a sender still "
                "waiting for an answer would lose its endpoint to another."
            )
        if self.store is Store.SQLITE:
            directory = Path(self.sqlite_path).expanduser().parent
            if not directory.is_dir():
                raise SettingsError(
                    f"RUMMY_SQLITE_PATH {self.sqlite_path!r}: the directory {str(directory)!r} "
                    "does not exist (mount a volume there, or point it elsewhere)."
                )
        if self.store is Store.MEMORY and self.workers > 1:
            raise SettingsError(
                f"RUMMY_STORE=memory keeps games inside one process: with RUMMY_WORKERS="
                f"{self.workers} each worker would see different games. Use sqlite or postgres."
            )
        if self.postgres_schema and not _IDENTIFIER.fullmatch(self.postgres_schema):
            raise SettingsError(
                f"POSTGRES_SCHEMA must be a plain identifier (letters, digits, _; "
                f"at most 63), not {self.postgres_schema!r}."
            )

    def event_store_env(self) -> dict[str, str]:
        """The eventsourcing library's environment for the chosen store."""
        env = {
            "PERSISTENCE_MODULE": _PERSISTENCE_MODULES[self.store],
            # The library reads 0 as "cache without limit"; an empty value turns it off.
            "AGGREGATE_CACHE_MAXSIZE": str(self.aggregate_cache_size or ""),
        }
        if self.store is Store.SQLITE:
            env["SQLITE_DBNAME"] = self.sqlite_path
        elif self.store is Store.POSTGRES:
            env.update(
                POSTGRES_HOST=self.postgres_host,
                POSTGRES_PORT=str(self.postgres_port),
                POSTGRES_USER=self.postgres_user,
                POSTGRES_PASSWORD=self.postgres_password,
                POSTGRES_DBNAME=self.postgres_dbname,
                POSTGRES_POOL_SIZE=str(self.postgres_pool_size),
                POSTGRES_MAX_OVERFLOW=str(self.postgres_max_overflow),
                # The library's name for how long to wait for a pooled connection.
                POSTGRES_CONNECT_TIMEOUT=str(self.postgres_pool_timeout),
                **{
                    CONNECT_TIMEOUT_KEY: str(self.postgres_connect_timeout),
                    STATEMENT_TIMEOUT_KEY: str(self.postgres_statement_timeout),
                    REPLY_TIMEOUT_KEY: str(self.postgres_reply_timeout),
                },
            )
            if self.postgres_schema:
                env["POSTGRES_SCHEMA"] = self.postgres_schema
        return env

    def describe_store(self) -> str:
        """Where the events live, for messages (never the password)."""
        if self.store is Store.SQLITE:
            return f"SQLite file {self.sqlite_path!r}"
        if self.store is Store.POSTGRES:
            schema = self.postgres_schema or "public"
            return (
                f"PostgreSQL {self.postgres_user}@{self.postgres_host}:{self.postgres_port}"
                f"/{self.postgres_dbname} (schema {schema})"
            )
        return "memory (nothing is kept)"
