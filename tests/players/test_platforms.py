"""Platforms over HTTP: who registers one, who manages its keys and players, and key
rotation as a platform lives it (two keys at once, then the old one retired)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.config import Store
from tests.game.stores import open_store
from tests.players.service import ADMIN, bearer, create, register, serve
from tests.players.signing import ed25519_key, hmac_key


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient[Litestar]]:
    with open_store(Store.MEMORY, tmp_path) as store, TestClient(serve(store).app) as test_client:
        yield test_client


def code(answer: Any) -> str:
    return str(answer.json()["code"])


def test_only_the_admin_registers_a_platform(client: TestClient[Litestar]) -> None:
    key = hmac_key().body
    body = {"name": "Parlour", "key": key}
    assert code(client.post("/platforms", json=body)) == "unauthorized"
    assert client.post("/platforms", json=body, headers=bearer("nope")).status_code == 401
    platform = register(client)
    refused = client.post("/platforms", json=body, headers=bearer(platform.token))
    assert (refused.status_code, code(refused)) == (403, "forbidden")
    answer = client.post("/platforms", json=body, headers=ADMIN)
    assert answer.status_code == 201
    assert answer.headers["cache-control"] == "no-store", "the token is shown once"
    assert answer.json()["platform_id"] != platform.platform_id


def test_a_platform_manages_its_own_keys_and_players_and_no_other_s(
    client: TestClient[Litestar],
) -> None:
    mine, theirs = register(client, "Mine"), register(client, "Theirs")
    new_key = ed25519_key("k2").body
    path = f"/platforms/{mine.platform_id}"
    other = bearer(theirs.token)
    assert client.post(f"{path}/keys", json=new_key, headers=other).status_code == 403
    assert client.delete(f"{path}/keys/k1", headers=other).status_code == 403
    assert client.delete(f"{path}/players/alice", headers=other).status_code == 403
    assert client.post(f"{path}/keys", json=new_key).status_code == 401
    assert client.delete(f"{path}/players/alice", headers=bearer("pt_forged")).status_code == 401
    assert client.post(f"{path}/keys", json=new_key, headers=bearer(mine.token)).status_code == 204
    assert client.delete(f"{path}/keys/k2", headers=ADMIN).status_code == 204
    assert client.delete(f"{path}/players/alice", headers=bearer(mine.token)).status_code == 204
    assert client.delete("/platforms/0000000000000000/players/a", headers=ADMIN).status_code == 404


def test_bad_keys_are_refused_and_a_kid_is_never_replaced(client: TestClient[Litestar]) -> None:
    platform = register(client)
    path = f"/platforms/{platform.platform_id}/keys"
    short = {"alg": "HS256", "kid": "short", "secret": "c2hvcnQ"}
    pem_as_secret = {"alg": "HS256", "kid": "x", "public_key": ed25519_key().body["public_key"]}
    wrong_curve = {"alg": "ES256", "kid": "y", "public_key": ed25519_key().body["public_key"]}
    for body in (short, pem_as_secret, wrong_curve):
        answer = client.post(path, json=body, headers=ADMIN)
        assert (answer.status_code, code(answer)) == (422, "invalid_key"), body
    taken = client.post(path, json=hmac_key("k1").body, headers=ADMIN)
    assert (taken.status_code, code(taken)) == (409, "key_exists")
    assert client.delete(f"{path}/nokey", headers=ADMIN).status_code == 404


def test_key_rotation_two_keys_at_once_then_the_old_one_refused(
    client: TestClient[Litestar],
) -> None:
    platform = register(client, key=hmac_key("old"))
    old_assertion = platform.asserts("alice", "Alice")
    new_key = ed25519_key("new")
    path = f"/platforms/{platform.platform_id}/keys"
    assert client.post(path, json=new_key.body, headers=bearer(platform.token)).status_code == 204
    platform.key = new_key
    new_assertion = platform.asserts("bob", "Bob")
    both = create(
        client,
        {"name": "a", "player_assertion": old_assertion},
        {"name": "b", "player_assertion": new_assertion},
    )
    assert both.status_code == 201, both.text
    assert client.delete(f"{path}/old", headers=bearer(platform.token)).status_code == 204
    retired = create(client, {"name": "a", "player_assertion": old_assertion}, seats=2)
    assert (retired.status_code, code(retired)) == (401, "assertion_unknown_key")
    assert (
        create(client, {"name": "b", "player_assertion": new_assertion}, seats=2).status_code == 201
    )
