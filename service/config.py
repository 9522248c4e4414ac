"""One frozen settings object, read from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum


class Store(StrEnum):
    MEMORY = "memory"
    SQLITE = "sqlite"
    POSTGRES = "postgres"


_PERSISTENCE_MODULES = {
    Store.MEMORY: "eventsourcing.popo",
    Store.SQLITE: "eventsourcing.sqlite",
    Store.POSTGRES: "eventsourcing.postgres",
}


class SettingsError(ValueError):
    """A setting that cannot work: the service refuses to start, saying which."""


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
    aggregate_cache_size: int = 1000
    admin_token: str | None = None
    """Admin features are off when no admin token is configured."""
    max_body_bytes: int = 1_000_000

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        defaults = cls()
        try:
            store = Store(env.get("RUMMY_STORE", defaults.store.value))
        except ValueError:
            raise SettingsError(
                f"RUMMY_STORE must be one of {', '.join(s.value for s in Store)}, "
                f"not {env['RUMMY_STORE']!r}."
            ) from None
        return cls(
            store=store,
            sqlite_path=env.get("RUMMY_SQLITE_PATH", defaults.sqlite_path),
            postgres_host=env.get("POSTGRES_HOST", defaults.postgres_host),
            postgres_port=_int(env, "POSTGRES_PORT", defaults.postgres_port),
            postgres_user=env.get("POSTGRES_USER", defaults.postgres_user),
            postgres_password=env.get("POSTGRES_PASSWORD", defaults.postgres_password),
            postgres_dbname=env.get("POSTGRES_DBNAME", defaults.postgres_dbname),
            postgres_schema=env.get("POSTGRES_SCHEMA", defaults.postgres_schema),
            postgres_pool_size=_int(env, "POSTGRES_POOL_SIZE", defaults.postgres_pool_size),
            aggregate_cache_size=_int(
                env, "RUMMY_AGGREGATE_CACHE_SIZE", defaults.aggregate_cache_size
            ),
            admin_token=env.get("RUMMY_ADMIN_TOKEN") or None,
            max_body_bytes=_int(env, "RUMMY_MAX_BODY_BYTES", defaults.max_body_bytes),
        )

    def event_store_env(self) -> dict[str, str]:
        """The eventsourcing library's environment for the chosen store."""
        env = {
            "PERSISTENCE_MODULE": _PERSISTENCE_MODULES[self.store],
            "AGGREGATE_CACHE_MAXSIZE": str(self.aggregate_cache_size),
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
            )
            if self.postgres_schema:
                env["POSTGRES_SCHEMA"] = self.postgres_schema
        return env


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {raw!r}.") from None
    if value < 0:
        raise SettingsError(f"{name} must not be negative, not {value}.")
    return value
