"""One live server for the generated clients' games: `rummy serve` on the
in-memory store, as a client author would run it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.api.test_readme import readme_game
from tests.servers import rummy_serve

ADMIN_TOKEN = "admin-token-for-the-generated-clients"


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    env = {"RUMMY_STORE": "memory", "RUMMY_ADMIN_TOKEN": ADMIN_TOKEN}
    with rummy_serve(env) as server:
        yield server.url


def new_game_body() -> Any:
    """The README's game: two named players and a fixed deck, so it ends quickly."""
    return readme_game()[0].body
