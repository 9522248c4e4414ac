"""The service with players, as the tests drive it over HTTP: a platform registered,
games created and joined with assertions, on the store under test."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from service.bootstrap import Wiring
from tests.game.stores import StoreUnderTest
from tests.players.signing import SigningKey, assertion, hmac_key
from tests.rates import NO_RATE_LIMITS

ADMIN_TOKEN = "admin-token-for-the-player-tests"
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def serve(store: StoreUnderTest) -> Wiring:
    settings = replace(
        store.settings,
        admin_token=ADMIN_TOKEN,
        webhook_senders=0,
        bot_pace_ms=0,
        clocks=False,
        **NO_RATE_LIMITS,
    )
    return store.bootstrap(settings)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Platform:
    """A registered platform: its id, its token and the key it signs with."""

    client: TestClient[Litestar]
    platform_id: str
    token: str
    key: SigningKey

    def asserts(self, player: str, name: str = "Ada", **options: Any) -> str:
        return assertion(self.key, self.platform_id, player, name, **options)

    def ref(self, player: str) -> str:
        return f"{self.platform_id}:{player}"


def register(
    client: TestClient[Litestar], name: str = "Parlour", key: SigningKey | None = None
) -> Platform:
    key = key if key is not None else hmac_key()
    answer = client.post("/platforms", json={"name": name, "key": key.body}, headers=ADMIN)
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert set(body) == {"platform_id", "token"}
    return Platform(client, body["platform_id"], body["token"], key)


def create(client: TestClient[Litestar], *players: dict[str, Any], **fields: Any) -> Any:
    """POST /games with `players`; the answer."""
    return client.post("/games", json={"players": list(players), **fields})
