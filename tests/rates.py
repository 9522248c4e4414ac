"""Tests that create many games from one client turn the rate limits off; the
limits themselves are tested in tests/api/transport/test_limits.py."""

from __future__ import annotations

from typing import Any

NO_RATE_LIMITS: dict[str, Any] = {
    "create_rate": None,
    "join_rate": None,
    "action_rate": None,
    "admin_failure_rate": None,
}
"""Keyword arguments of `Settings`."""
NO_RATE_LIMITS_ENV = {
    "RUMMY_CREATE_RATE": "off",
    "RUMMY_JOIN_RATE": "off",
    "RUMMY_ACTION_RATE": "off",
    "RUMMY_ADMIN_FAILURE_RATE": "off",
}
"""The same, for a server started with its settings in the environment."""
