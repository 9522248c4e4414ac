"""Each environment variable's value, read and checked.

One reader per kind of value (a switch, a whole number in a range, seconds, a
rate limit, a Redis URL, a choice of an enum, a secret or its file, a bearer
token, CORS origins). Each raises `SettingsError` naming the variable and what
is wrong with it; an unset or empty variable takes its default.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

import limits

MIN_TOKEN_LENGTH = 16
OFF = "off"


class SettingsError(ValueError):
    """A setting that cannot work: the service refuses to start, saying which."""


def switch(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("on", OFF):
        return raw == "on"
    raise SettingsError(f"{name} must be on or {OFF}, not {raw!r}.")


def text(env: Mapping[str, str], name: str, default: str) -> str:
    raw = env.get(name)
    if raw is None:
        return default
    value = raw.strip()
    if not value:
        raise SettingsError(f"{name} is set but empty: unset it to use {default!r}.")
    return value


def whole(
    env: Mapping[str, str], name: str, default: int, *, low: int = 0, high: int | None = None
) -> int:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {raw!r}.") from None
    if value < low or (high is not None and value > high):
        allowed = f"at least {low}" if high is None else f"from {low} to {high}"
        raise SettingsError(f"{name} must be {allowed}, not {value}.")
    return value


def seconds(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw.strip())
    except ValueError:
        raise SettingsError(f"{name} must be a number of seconds, not {raw!r}.") from None
    if not 0.1 <= value <= 3600:
        raise SettingsError(f"{name} must be from 0.1 to 3600 seconds, not {raw.strip()}.")
    return value


def rate(env: Mapping[str, str], name: str, default: str | None) -> str | None:
    """A rate limit in the `limits` package's notation (`30/minute`, `20/second;600/minute`),
    or None for `off`."""
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip()
    if value.lower() == OFF:
        return None
    try:
        items = limits.parse_many(value)
    except ValueError:
        items = []
    if not items or any(item.amount < 1 for item in items):
        raise SettingsError(
            f"{name} must be a rate such as 30/minute or 20/second;600/minute "
            f"(or {OFF}), not {raw!r}."
        )
    return value


def redis_server(env: Mapping[str, str]) -> str | None:
    raw = env.get("RUMMY_REDIS_URL", "").strip()
    if not raw:
        return None
    parts = urlsplit(raw)
    if parts.scheme not in ("redis", "rediss", "unix") or not (parts.hostname or parts.path):
        raise SettingsError(
            "RUMMY_REDIS_URL must be a Redis URL such as redis://127.0.0.1:6379/0 "
            "(rediss:// for TLS), not the value given."
        )
    return raw


_E = TypeVar("_E", bound=StrEnum)


def choice(env: Mapping[str, str], name: str, kind: type[_E], default: _E) -> _E:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return kind(raw.strip().lower())
    except ValueError:
        raise SettingsError(
            f"{name} must be one of {', '.join(member.value for member in kind)}, not {raw!r}."
        ) from None


def secret(env: Mapping[str, str], name: str) -> str | None:
    """`name`, or the contents of the file `name_FILE` names (Docker and Kubernetes
    secrets); both set is an error. A file's trailing newline is dropped."""
    file_name = f"{name}_FILE"
    inline = env.get(name)
    path = env.get(file_name)
    if inline and path:
        raise SettingsError(f"Set {name} or {file_name}, not both.")
    if path:
        try:
            return Path(path).read_text(encoding="utf-8").rstrip("\r\n") or None
        except OSError as error:
            raise SettingsError(f"{file_name}: cannot read {path!r}: {error.strerror}.") from None
    return inline or None


def token(env: Mapping[str, str], name: str, unset: str) -> str | None:
    """A bearer token setting (`name` or `name_FILE`); `unset` says what leaving it out does."""
    token = secret(env, name)
    if token is None:
        return None
    if len(token) < MIN_TOKEN_LENGTH or any(char.isspace() for char in token):
        raise SettingsError(
            f"{name} must be at least {MIN_TOKEN_LENGTH} characters with no "
            f"spaces (it has {len(token)}); make one with "
            "`python -c 'import secrets; print(secrets.token_urlsafe(32))'`, "
            f"or unset it {unset}."
        )
    return token


def origins(raw: str) -> tuple[str, ...]:
    """`RUMMY_CORS_ORIGINS`: `*`, or comma-separated `scheme://host[:port]` origins."""
    origins = [part.strip() for part in raw.split(",") if part.strip()]
    if origins == ["*"]:
        return ("*",)
    for origin in origins:
        if origin == "*":
            raise SettingsError("RUMMY_CORS_ORIGINS: `*` allows every origin; give it alone.")
        parts = urlsplit(origin)
        if (
            parts.scheme not in ("http", "https")
            or not parts.hostname
            or parts.path
            or parts.query
            or parts.fragment
            or parts.username
        ):
            raise SettingsError(
                f"RUMMY_CORS_ORIGINS: {origin!r} is not an origin such as "
                "'https://play.example.com' or 'http://localhost:5173' "
                "(scheme and host, optional port, no path or trailing slash)."
            )
        try:
            parts.port  # noqa: B018 - raises for a bad port
        except ValueError:
            raise SettingsError(f"RUMMY_CORS_ORIGINS: {origin!r} has a bad port.") from None
    return tuple(dict.fromkeys(origins))
