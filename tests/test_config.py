"""The settings object: every variable read, every bad value refused by name,
and the settings wired into the app (CORS, log level, body limit) and `rummy serve`."""

from __future__ import annotations

import logging
import os
import signal
import socket
from pathlib import Path

import pytest
from litestar.testing import TestClient

from service.bootstrap import bootstrap
from service.cli import main
from service.config import (
    CONNECT_TIMEOUT_KEY,
    REPLY_TIMEOUT_KEY,
    STATEMENT_TIMEOUT_KEY,
    LogLevel,
    Settings,
    Store,
)
from service.config.variables import SettingsError
from service.store.schema_lock import lock_key

TOKEN = "admin-token-for-tests-0123456789"
METRICS_TOKEN = "metrics-token-for-tests-0123456789"


def test_defaults_with_an_empty_environment() -> None:
    settings = Settings.from_env({})
    assert settings == Settings()
    assert settings.store is Store.SQLITE
    assert settings.admin_token is None
    assert settings.cors_origins == ()
    assert settings.log_level is LogLevel.INFO
    assert (settings.host, settings.port, settings.workers) == ("127.0.0.1", 8000, 1)


def test_every_variable_is_read(tmp_path: Path) -> None:
    env = {
        "RUMMY_STORE": "postgres",
        "RUMMY_SQLITE_PATH": str(tmp_path / "games.sqlite"),
        "POSTGRES_HOST": "db.internal",
        "POSTGRES_PORT": "6543",
        "POSTGRES_USER": "rummy",
        "POSTGRES_PASSWORD": " pass word ",
        "POSTGRES_DBNAME": "games",
        "POSTGRES_SCHEMA": "rummy_live",
        "POSTGRES_POOL_SIZE": "7",
        "POSTGRES_MAX_OVERFLOW": "3",
        "POSTGRES_CONNECT_TIMEOUT": "4",
        "POSTGRES_POOL_TIMEOUT": "6",
        "POSTGRES_STATEMENT_TIMEOUT": "0",
        "POSTGRES_REPLY_TIMEOUT": "9",
        "RUMMY_READY_TIMEOUT": "7",
        "RUMMY_AGGREGATE_CACHE_SIZE": "50",
        "RUMMY_ADMIN_TOKEN": TOKEN,
        "RUMMY_METRICS_TOKEN": METRICS_TOKEN,
        "RUMMY_LOG_LEVEL": "WARNING",
        "RUMMY_CORS_ORIGINS": "https://play.example.com, http://localhost:5173",
        "RUMMY_MAX_BODY_BYTES": "65536",
        "RUMMY_MAX_HEADER_BYTES": "8192",
        "RUMMY_HOST": "0.0.0.0",
        "RUMMY_PORT": "8080",
        "RUMMY_WORKERS": "3",
        "RUMMY_SHUTDOWN_TIMEOUT": "5",
        "RUMMY_MAX_STREAMS": "50",
        "RUMMY_STREAM_TICKET_TTL": "30",
        "RUMMY_REDIS_URL": "redis://cache.internal:6379/2",
        "RUMMY_CREATE_RATE": "5/minute",
        "RUMMY_JOIN_RATE": "10 per 2 minutes",
        "RUMMY_ACTION_RATE": "OFF",
        "RUMMY_DECKS_CAP": "3",
        "RUMMY_MAX_TURNS_CAP": "800",
        "RUMMY_RECYCLES_CAP": "0",
        "RUMMY_WILD_HAND_CAP": "9",
        "RUMMY_EVENTS_PAGE": "200",
        "RUMMY_KEEPALIVE_TIMEOUT": "30",
        "RUMMY_HEADER_TIMEOUT": "2.5",
        "RUMMY_BODY_TIMEOUT": "20",
        "RUMMY_CLOCKS": "Off",
        "RUMMY_CLOCKS_POLL_MS": "250",
    }
    settings = Settings.from_env(env)
    assert settings == Settings(
        store=Store.POSTGRES,
        sqlite_path=str(tmp_path / "games.sqlite"),
        postgres_host="db.internal",
        postgres_port=6543,
        postgres_user="rummy",
        postgres_password=" pass word ",
        postgres_dbname="games",
        postgres_schema="rummy_live",
        postgres_pool_size=7,
        postgres_max_overflow=3,
        postgres_connect_timeout=4,
        postgres_pool_timeout=6,
        postgres_statement_timeout=0,
        postgres_reply_timeout=9,
        ready_timeout=7,
        aggregate_cache_size=50,
        admin_token=TOKEN,
        metrics_token=METRICS_TOKEN,
        log_level=LogLevel.WARNING,
        cors_origins=("https://play.example.com", "http://localhost:5173"),
        max_body_bytes=65536,
        max_header_bytes=8192,
        host="0.0.0.0",
        port=8080,
        workers=3,
        shutdown_timeout=5,
        max_streams=50,
        stream_ticket_ttl=30,
        redis_url="redis://cache.internal:6379/2",
        create_rate="5/minute",
        join_rate="10 per 2 minutes",
        action_rate=None,
        decks_cap=3,
        max_turns_cap=800,
        recycles_cap=0,
        wild_hand_cap=9,
        events_page=200,
        keepalive_timeout=30,
        header_timeout=2.5,
        body_timeout=20.0,
        clocks=False,
        clocks_poll_ms=250,
    )
    store_env = settings.event_store_env()
    assert store_env["PERSISTENCE_MODULE"] == "service.store.postgres:Factory"
    assert store_env["POSTGRES_HOST"] == "db.internal"
    assert store_env["POSTGRES_PORT"] == "6543"
    assert store_env["POSTGRES_PASSWORD"] == " pass word "
    assert store_env["POSTGRES_SCHEMA"] == "rummy_live"
    assert store_env["POSTGRES_POOL_SIZE"] == "7"
    assert store_env["POSTGRES_MAX_OVERFLOW"] == "3"
    # The library's POSTGRES_CONNECT_TIMEOUT is how long its pool is waited for.
    assert store_env["POSTGRES_CONNECT_TIMEOUT"] == "6"
    assert store_env[CONNECT_TIMEOUT_KEY] == "4"
    assert store_env[STATEMENT_TIMEOUT_KEY] == "0"
    assert store_env[REPLY_TIMEOUT_KEY] == "9"
    assert store_env["AGGREGATE_CACHE_MAXSIZE"] == "50"
    assert "pass word" not in settings.describe_store()


def test_sqlite_store_environment(tmp_path: Path) -> None:
    path = str(tmp_path / "games.sqlite")
    store_env = Settings.from_env({"RUMMY_SQLITE_PATH": path}).event_store_env()
    assert store_env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite"
    assert store_env["SQLITE_DBNAME"] == path
    assert not any(name.startswith("POSTGRES_") for name in store_env)


def test_no_schema_leaves_the_library_default() -> None:
    settings = Settings.from_env({"RUMMY_STORE": "postgres"})
    assert "POSTGRES_SCHEMA" not in settings.event_store_env()
    assert "schema public" in settings.describe_store()


@pytest.mark.parametrize(
    ("env", "names"),
    [
        ({"RUMMY_STORE": "mongodb"}, ["RUMMY_STORE", "memory, sqlite, postgres"]),
        ({"POSTGRES_PORT": "fivefour"}, ["POSTGRES_PORT", "whole number"]),
        ({"POSTGRES_PORT": "70000"}, ["POSTGRES_PORT", "from 1 to 65535"]),
        ({"POSTGRES_POOL_SIZE": "0"}, ["POSTGRES_POOL_SIZE", "from 1"]),
        ({"POSTGRES_MAX_OVERFLOW": "-1"}, ["POSTGRES_MAX_OVERFLOW"]),
        ({"POSTGRES_CONNECT_TIMEOUT": "0"}, ["POSTGRES_CONNECT_TIMEOUT"]),
        ({"POSTGRES_POOL_TIMEOUT": "0"}, ["POSTGRES_POOL_TIMEOUT", "from 1"]),
        ({"POSTGRES_STATEMENT_TIMEOUT": "-1"}, ["POSTGRES_STATEMENT_TIMEOUT", "from 0"]),
        ({"POSTGRES_REPLY_TIMEOUT": "0"}, ["POSTGRES_REPLY_TIMEOUT", "from 1"]),
        (
            {"POSTGRES_STATEMENT_TIMEOUT": "6", "POSTGRES_REPLY_TIMEOUT": "6"},
            ["POSTGRES_REPLY_TIMEOUT", "more than", "POSTGRES_STATEMENT_TIMEOUT"],
        ),
        ({"RUMMY_READY_TIMEOUT": "61"}, ["RUMMY_READY_TIMEOUT", "from 1 to 60"]),
        ({"POSTGRES_HOST": "  "}, ["POSTGRES_HOST", "empty"]),
        ({"RUMMY_AGGREGATE_CACHE_SIZE": "-5"}, ["RUMMY_AGGREGATE_CACHE_SIZE", "at least 0"]),
        ({"RUMMY_ADMIN_TOKEN": "short"}, ["RUMMY_ADMIN_TOKEN", "at least 16"]),
        ({"RUMMY_ADMIN_TOKEN": "has a space in the token"}, ["RUMMY_ADMIN_TOKEN", "no spaces"]),
        ({"RUMMY_METRICS_TOKEN": "short"}, ["RUMMY_METRICS_TOKEN", "at least 16", "public"]),
        ({"RUMMY_METRICS_TOKEN": "has a space in the token"}, ["RUMMY_METRICS_TOKEN", "no spaces"]),
        ({"RUMMY_LOG_LEVEL": "verbose"}, ["RUMMY_LOG_LEVEL", "debug"]),
        ({"RUMMY_MAX_BODY_BYTES": "10"}, ["RUMMY_MAX_BODY_BYTES", "from 1024"]),
        ({"RUMMY_MAX_BODY_BYTES": "1e6"}, ["RUMMY_MAX_BODY_BYTES", "whole number"]),
        ({"RUMMY_MAX_HEADER_BYTES": "100"}, ["RUMMY_MAX_HEADER_BYTES", "from 1024 to 1048576"]),
        ({"RUMMY_PORT": "0"}, ["RUMMY_PORT"]),
        ({"RUMMY_WORKERS": "0"}, ["RUMMY_WORKERS", "from 1 to 64"]),
        ({"RUMMY_SHUTDOWN_TIMEOUT": "soon"}, ["RUMMY_SHUTDOWN_TIMEOUT"]),
        ({"RUMMY_STORE": "memory", "RUMMY_WORKERS": "2"}, ["RUMMY_STORE=memory", "sqlite"]),
        ({"RUMMY_SQLITE_PATH": "/no/such/dir/rummy.sqlite"}, ["RUMMY_SQLITE_PATH", "/no/such/dir"]),
        ({"RUMMY_STORE": "postgres", "POSTGRES_SCHEMA": "drop table;"}, ["POSTGRES_SCHEMA"]),
        ({"RUMMY_CORS_ORIGINS": "https://play.example.com/"}, ["RUMMY_CORS_ORIGINS", "trailing"]),
        ({"RUMMY_CORS_ORIGINS": "play.example.com"}, ["RUMMY_CORS_ORIGINS"]),
        ({"RUMMY_CORS_ORIGINS": "ftp://play.example.com"}, ["RUMMY_CORS_ORIGINS"]),
        ({"RUMMY_CORS_ORIGINS": "https://a.example, *"}, ["RUMMY_CORS_ORIGINS", "alone"]),
        ({"RUMMY_CORS_ORIGINS": "https://a.example:99999"}, ["RUMMY_CORS_ORIGINS", "port"]),
        ({"RUMMY_CREATE_RATE": "30"}, ["RUMMY_CREATE_RATE", "30/minute"]),
        ({"RUMMY_JOIN_RATE": "5/fortnight"}, ["RUMMY_JOIN_RATE"]),
        ({"RUMMY_ACTION_RATE": "0/second"}, ["RUMMY_ACTION_RATE"]),
        ({"RUMMY_REDIS_URL": "http://cache:6379"}, ["RUMMY_REDIS_URL", "redis://"]),
        ({"RUMMY_DECKS_CAP": "1001"}, ["RUMMY_DECKS_CAP", "from 1 to 1000"]),
        ({"RUMMY_MAX_TURNS_CAP": "0"}, ["RUMMY_MAX_TURNS_CAP"]),
        ({"RUMMY_EVENTS_PAGE": "5000"}, ["RUMMY_EVENTS_PAGE", "from 1 to 1000"]),
        ({"RUMMY_HEADER_TIMEOUT": "soon"}, ["RUMMY_HEADER_TIMEOUT", "seconds"]),
        ({"RUMMY_BODY_TIMEOUT": "0"}, ["RUMMY_BODY_TIMEOUT", "0.1"]),
        ({"RUMMY_KEEPALIVE_TIMEOUT": "0"}, ["RUMMY_KEEPALIVE_TIMEOUT"]),
        ({"RUMMY_STREAM_TICKET_TTL": "0"}, ["RUMMY_STREAM_TICKET_TTL", "from 1 to 3600"]),
        ({"RUMMY_CLOCKS": "yes"}, ["RUMMY_CLOCKS", "on or off"]),
        ({"RUMMY_CLOCKS_POLL_MS": "5"}, ["RUMMY_CLOCKS_POLL_MS", "from 10 to 2000"]),
    ],
)
def test_a_bad_setting_is_refused_by_name(env: dict[str, str], names: list[str]) -> None:
    with pytest.raises(SettingsError) as refused:
        Settings.from_env(env)
    for name in names:
        assert name in str(refused.value)


def test_a_bad_admin_token_is_not_echoed() -> None:
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"RUMMY_ADMIN_TOKEN": "secret-ish"})
    assert "secret-ish" not in str(refused.value)


def test_empty_optional_values_take_the_defaults() -> None:
    settings = Settings.from_env(
        {"RUMMY_ADMIN_TOKEN": "", "RUMMY_CORS_ORIGINS": " ", "RUMMY_WORKERS": "", "RUMMY_STORE": ""}
    )
    assert settings == Settings()


def test_log_level_and_store_ignore_case() -> None:
    settings = Settings.from_env({"RUMMY_LOG_LEVEL": "Debug", "RUMMY_STORE": "MEMORY"})
    assert settings.log_level is LogLevel.DEBUG
    assert settings.store is Store.MEMORY
    assert LogLevel.TRACE.python_name == "DEBUG"


def test_cors_any_origin_and_duplicates() -> None:
    assert Settings.from_env({"RUMMY_CORS_ORIGINS": "*"}).cors_origins == ("*",)
    origins = "http://localhost:5173,http://localhost:5173,https://x.example:8443"
    assert Settings.from_env({"RUMMY_CORS_ORIGINS": origins}).cors_origins == (
        "http://localhost:5173",
        "https://x.example:8443",
    )


def test_secrets_from_files(tmp_path: Path) -> None:
    (tmp_path / "token").write_text(TOKEN + "\n", encoding="utf-8")
    (tmp_path / "metrics").write_text(METRICS_TOKEN + "\n", encoding="utf-8")
    (tmp_path / "password").write_text("s3cret pass\n", encoding="utf-8")
    settings = Settings.from_env(
        {
            "RUMMY_ADMIN_TOKEN_FILE": str(tmp_path / "token"),
            "RUMMY_METRICS_TOKEN_FILE": str(tmp_path / "metrics"),
            "POSTGRES_PASSWORD_FILE": str(tmp_path / "password"),
        }
    )
    assert settings.admin_token == TOKEN
    assert settings.metrics_token == METRICS_TOKEN
    assert settings.postgres_password == "s3cret pass"


def test_a_secret_given_twice_or_unreadable_is_refused(tmp_path: Path) -> None:
    (tmp_path / "token").write_text(TOKEN, encoding="utf-8")
    with pytest.raises(SettingsError, match="not both"):
        Settings.from_env(
            {"RUMMY_ADMIN_TOKEN": TOKEN, "RUMMY_ADMIN_TOKEN_FILE": str(tmp_path / "token")}
        )
    with pytest.raises(SettingsError, match="POSTGRES_PASSWORD_FILE: cannot read"):
        Settings.from_env({"POSTGRES_PASSWORD_FILE": str(tmp_path / "missing")})


def test_the_lock_key_depends_on_the_schema_only() -> None:
    one = lock_key(Settings(store=Store.POSTGRES, postgres_schema="a"))
    assert one == lock_key(Settings(store=Store.POSTGRES, postgres_schema="a", postgres_port=1))
    assert one != lock_key(Settings(store=Store.POSTGRES, postgres_schema="b"))
    assert lock_key(Settings()) == lock_key(Settings(postgres_schema="public"))
    assert -(2**63) <= one < 2**63


# --- wired into the app ----------------------------------------------------------


def _client(settings: Settings) -> TestClient:  # type: ignore[type-arg]
    return TestClient(bootstrap(settings).app)


def test_cors_headers_for_an_allowed_origin() -> None:
    settings = Settings(store=Store.MEMORY, cors_origins=("https://play.example.com",))
    with _client(settings) as client:
        preflight = client.options(
            "/games",
            headers={
                "Origin": "https://play.example.com",
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization, idempotency-key, if-match",
            },
        )
        assert preflight.status_code in (200, 204)
        assert preflight.headers["access-control-allow-origin"] == "https://play.example.com"
        allowed = preflight.headers["access-control-allow-headers"].lower()
        for header in ("authorization", "idempotency-key", "if-match"):
            assert header in allowed
        simple = client.get("/health", headers={"Origin": "https://play.example.com"})
        assert simple.headers["access-control-allow-origin"] == "https://play.example.com"
        assert "etag" in simple.headers["access-control-expose-headers"].lower()
        other = client.get("/health", headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in other.headers


def test_no_cors_headers_when_no_origin_is_configured() -> None:
    with _client(Settings(store=Store.MEMORY)) as client:
        response = client.get("/health", headers={"Origin": "https://play.example.com"})
        assert response.status_code == 200
        assert "access-control-allow-origin" not in response.headers


def test_body_size_limit() -> None:
    with _client(Settings(store=Store.MEMORY, max_body_bytes=2048)) as client:
        big = {"players": [{"name": "Ann"}, {"name": "Bob"}], "seed": "x" * 4000}
        response = client.post("/games", json=big)
        assert response.status_code == 413
        small = client.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]})
        assert small.status_code == 201


def _app_logging_at(level: LogLevel) -> None:
    bootstrap(Settings(store=Store.MEMORY, log_level=level))


def test_log_level_reaches_the_app() -> None:
    try:
        _app_logging_at(LogLevel.WARNING)
        assert logging.getLogger("litestar").getEffectiveLevel() == logging.WARNING
        assert logging.getLogger().getEffectiveLevel() == logging.WARNING
        _app_logging_at(LogLevel.DEBUG)
        assert logging.getLogger("litestar").getEffectiveLevel() == logging.DEBUG
    finally:
        # Logging is configured for the whole process: leave it as the other tests have it.
        _app_logging_at(Settings().log_level)


# --- `rummy serve` refuses to start -----------------------------------------------


def _clear_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(("RUMMY_", "POSTGRES_")):
            monkeypatch.delenv(name)


def test_serve_stops_at_a_bad_setting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _clear_settings(monkeypatch)
    monkeypatch.setenv("RUMMY_WORKERS", "many")
    assert main(["serve"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("rummy: RUMMY_WORKERS must be a whole number")


def test_serve_stops_when_postgres_cannot_be_reached(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    _clear_settings(monkeypatch)
    monkeypatch.setenv("RUMMY_STORE", "postgres")
    monkeypatch.setenv("POSTGRES_HOST", "127.0.0.1")
    monkeypatch.setenv("POSTGRES_PORT", str(port))
    monkeypatch.setenv("POSTGRES_PASSWORD", "do-not-print-me")
    monkeypatch.setenv("POSTGRES_CONNECT_TIMEOUT", "2")
    handler = signal.getsignal(signal.SIGTERM)
    assert main(["serve"]) == 1
    assert signal.getsignal(signal.SIGTERM) is handler, "nothing changed before serving"
    error = capsys.readouterr().err
    assert error.startswith(f"rummy: cannot connect to PostgreSQL postgres@127.0.0.1:{port}/rummy")
    assert "do-not-print-me" not in error


def test_serve_stops_when_the_sqlite_file_cannot_be_opened(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "taken").mkdir()  # a directory where the file should be
    _clear_settings(monkeypatch)
    monkeypatch.setenv("RUMMY_SQLITE_PATH", str(tmp_path / "taken"))
    assert main(["serve"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("rummy: cannot open the event store (SQLite file")


def test_a_bad_redis_url_is_refused_without_repeating_its_password() -> None:
    with pytest.raises(SettingsError, match="RUMMY_REDIS_URL") as refused:
        Settings.from_env({"RUMMY_REDIS_URL": "http://rummy:hunter2@cache:6379"})
    assert "hunter2" not in str(refused.value)
