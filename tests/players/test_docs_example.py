"""docs/players.md's Python example signs assertions the service accepts, with an HS256
secret and with an Ed25519 key, as the page says to call it."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ed25519
from litestar import Litestar
from litestar.testing import TestClient

from service.config import Store
from tests.game.stores import open_store
from tests.players.service import ADMIN, serve
from tests.players.signing import hmac_key, public_pem

PAGE = Path(__file__).resolve().parents[2] / "docs" / "players.md"


def documented_example() -> Callable[..., str]:
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) == 1, "the page shows one Python example"
    scope: dict[str, Any] = {}
    exec(blocks[0], scope)  # the page's own code, as a reader copies it
    made: Callable[..., str] = scope["player_assertion"]
    return made


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient[Litestar]]:
    with open_store(Store.MEMORY, tmp_path) as store, TestClient(serve(store).app) as test_client:
        yield test_client


def test_the_page_s_example_seats_players(client: TestClient[Litestar]) -> None:
    player_assertion = documented_example()
    secret = hmac_key("2026-12").body["secret"]
    registered = client.post(
        "/platforms",
        json={"name": "Parlour", "key": {"alg": "HS256", "kid": "2026-12", "secret": secret}},
        headers=ADMIN,
    ).json()
    platform_id = registered["platform_id"]
    private = ed25519.Ed25519PrivateKey.generate()
    added = client.post(
        f"/platforms/{platform_id}/keys",
        json={"alg": "EdDSA", "kid": "2027-01", "public_key": public_pem(private)},
        headers={"Authorization": f"Bearer {registered['token']}"},
    )
    assert added.status_code == 204
    hmac_bytes = base64.urlsafe_b64decode(secret + "==")
    ada = player_assertion(platform_id, "2026-12", hmac_bytes, "HS256", "u-1815", "Ada Lovelace")
    bob = player_assertion(platform_id, "2027-01", private, "EdDSA", "u-1912", "Alan Turing")
    created = client.post(
        "/games",
        json={
            "players": [
                {"name": "Ada", "player_assertion": ada},
                {"name": "Alan", "player_assertion": bob},
            ]
        },
    )
    assert created.status_code == 201, created.text
    seats = client.get(f"/games/{created.json()['game_id']}").json()["players"]
    assert [(seat["player"], seat["name"]) for seat in seats] == [
        (f"{platform_id}:u-1815", "Ada Lovelace"),
        (f"{platform_id}:u-1912", "Alan Turing"),
    ]
