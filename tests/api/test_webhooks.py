"""The webhooks' admin API: admin only, URLs checked, the secret shown once, changes,
the delivery log, redelivery, removal. (Delivery itself: tests/webhooks.)"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.client import ADMIN_TOKEN
from tests.contract.test_openapi_drift import committed

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
NOWHERE = "http://127.0.0.1:9/hook"
"""A URL nothing listens on (the discard port): the sender's tries fail at once."""


@pytest.fixture
def webhook(client: TestClient[Litestar]) -> Iterator[dict[str, object]]:
    response = client.post("/webhooks", json={"url": NOWHERE}, headers=ADMIN)
    assert response.status_code == 201, response.text
    created = response.json()
    yield created
    client.delete(f"/webhooks/{created['id']}", headers=ADMIN)


def test_only_the_admin_token_reaches_the_webhooks(client: TestClient[Litestar]) -> None:
    created = client.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]})
    player = {"Authorization": f"Bearer {created.json()['players'][0]['token']}"}
    for method, path in [("GET", "/webhooks"), ("POST", "/webhooks"), ("GET", "/webhooks/x")]:
        body = {"url": NOWHERE} if method == "POST" else None
        anonymous = client.request(method, path, json=body)
        assert anonymous.status_code == 401
        assert anonymous.json()["code"] == "unauthorized"
        as_player = client.request(method, path, json=body, headers=player)
        assert as_player.status_code == 403
        assert "webhooks" in as_player.json()["detail"]
        wrong = client.request(method, path, json=body, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401


def test_the_secret_is_shown_once_at_registration(
    client: TestClient[Litestar], webhook: dict[str, object]
) -> None:
    secret = webhook["secret"]
    assert isinstance(secret, str)
    assert secret.startswith("whsec_")
    assert webhook["enabled"] is True
    assert webhook["events"] == []
    shown = client.get(f"/webhooks/{webhook['id']}", headers=ADMIN)
    assert shown.status_code == 200
    assert "secret" not in shown.json()
    assert secret not in shown.text
    listed = client.get("/webhooks", headers=ADMIN).json()["webhooks"]
    assert webhook["id"] in [item["id"] for item in listed]
    assert all("secret" not in item for item in listed)


def test_registration_answers_with_its_location_and_no_cache(
    client: TestClient[Litestar],
) -> None:
    response = client.post(
        "/webhooks",
        json={"url": NOWHERE, "events": ["game_finished"], "description": "board", "after": 0},
        headers=ADMIN,
    )
    assert response.status_code == 201
    body = response.json()
    assert response.headers["location"] == f"/webhooks/{body['id']}"
    assert response.headers["cache-control"] == "no-store"
    assert (body["events"], body["description"], body["position"]) == (
        ["game_finished"],
        "board",
        0,
    )
    assert client.delete(f"/webhooks/{body['id']}", headers=ADMIN).status_code == 204


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.com/x",
        "example.com/hook",
        "https:///no-host",
        "https://user:pw@example.com/hook",
        "https://example.com/hook#part",
        "https://example.com:99999/hook",
    ],
)
def test_a_url_that_cannot_be_delivered_to_is_refused(
    client: TestClient[Litestar], url: str
) -> None:
    response = client.post("/webhooks", json={"url": url}, headers=ADMIN)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "invalid_webhook_url"


def test_every_event_type_of_the_documents_event_union_is_a_filter(
    client: TestClient[Litestar],
) -> None:
    """Each `type` of the document's event union (what listEvents, the feed and the
    stream show), `game_created` among them, may be named in `events`, and besides
    them only the webhooks' own item, `match_found` (matchmaking's, not a feed event)."""
    schemas = committed()["components"]["schemas"]
    events = sorted(schemas["KnownEvent"]["discriminator"]["mapping"])
    assert "game_created" in events
    assert "match_found" not in events
    shown = sorted([*events, "match_found"])
    assert sorted(schemas["EventType"]["enum"]) == shown
    for event_type in shown:
        response = client.post(
            "/webhooks", json={"url": NOWHERE, "events": [event_type]}, headers=ADMIN
        )
        assert response.status_code == 201, (event_type, response.text)
        assert response.json()["events"] == [event_type]
        client.delete(f"/webhooks/{response.json()['id']}", headers=ADMIN)
    every = client.post("/webhooks", json={"url": NOWHERE, "events": shown}, headers=ADMIN)
    assert every.status_code == 201, every.text
    client.delete(f"/webhooks/{every.json()['id']}", headers=ADMIN)


def test_an_unknown_event_type_or_field_is_refused(client: TestClient[Litestar]) -> None:
    for body in (
        {"url": NOWHERE, "events": ["game_won"]},
        {"url": NOWHERE, "secret": "whsec_mine"},
        {"url": NOWHERE, "max_failures": 0},
    ):
        response = client.post("/webhooks", json=body, headers=ADMIN)
        assert response.status_code == 422, body
        assert response.json()["code"] == "invalid_body"


def test_a_change_sets_only_what_it_names_and_enabling_clears_the_failures(
    client: TestClient[Litestar], webhook: dict[str, object]
) -> None:
    path = f"/webhooks/{webhook['id']}"
    changed = client.patch(
        path, json={"events": ["hand_ended", "game_finished"], "enabled": False}, headers=ADMIN
    )
    assert changed.status_code == 200, changed.text
    body = changed.json()
    assert body["events"] == ["hand_ended", "game_finished"]
    assert body["enabled"] is False
    assert body["disabled_at"] is not None
    assert body["url"] == NOWHERE
    enabled = client.patch(path, json={"enabled": True, "max_failures": 7}, headers=ADMIN).json()
    assert (enabled["enabled"], enabled["failures"], enabled["max_failures"]) == (True, 0, 7)
    assert enabled["events"] == ["hand_ended", "game_finished"]
    every = client.patch(path, json={"events": [], "max_failures": None}, headers=ADMIN).json()
    assert (every["events"], every["max_failures"]) == ([], None)
    bad = client.patch(path, json={"url": "mailto:ops@example.com"}, headers=ADMIN)
    assert bad.json()["code"] == "invalid_webhook_url"


def test_redelivery_moves_the_position_back(
    client: TestClient[Litestar], webhook: dict[str, object]
) -> None:
    path = f"/webhooks/{webhook['id']}"
    client.patch(path, json={"enabled": False}, headers=ADMIN)
    nothing = client.post(f"{path}/redeliver", json={}, headers=ADMIN)
    assert nothing.status_code == 409
    assert nothing.json()["code"] == "nothing_to_redeliver"
    moved = client.post(f"{path}/redeliver", json={"after": 0}, headers=ADMIN)
    assert moved.status_code == 200
    assert moved.json()["position"] == 0
    assert moved.json()["enabled"] is False, "a redelivery does not enable"
    log = client.get(f"{path}/deliveries", headers=ADMIN)
    assert log.status_code == 200
    assert log.json() == {"deliveries": []}


def test_an_unknown_webhook_is_404_and_a_removed_one_is_gone(
    client: TestClient[Litestar], webhook: dict[str, object]
) -> None:
    for method, suffix, body in [
        ("GET", "", None),
        ("PATCH", "", {"description": "x"}),
        ("DELETE", "", None),
        ("GET", "/deliveries", None),
        ("POST", "/redeliver", {"after": 0}),
    ]:
        response = client.request(method, f"/webhooks/nope{suffix}", json=body, headers=ADMIN)
        assert response.status_code == 404, (method, suffix)
        assert response.json()["code"] == "not_found"
    path = f"/webhooks/{webhook['id']}"
    assert client.delete(path, headers=ADMIN).status_code == 204
    assert client.get(path, headers=ADMIN).status_code == 404


def test_options_and_405_name_every_method_of_a_path(
    client: TestClient[Litestar], webhook: dict[str, object]
) -> None:
    # litestar answers OPTIONS from a path's first handler only; ours list them all
    # (service/api/routes/webhooks.py), and a wrong method's 405 names the same ones.
    for path, methods in (
        ("/webhooks", {"GET", "OPTIONS", "POST"}),
        (f"/webhooks/{webhook['id']}", {"DELETE", "GET", "OPTIONS", "PATCH"}),
    ):
        answer = client.options(path)
        assert answer.status_code == 204, answer.text
        assert {m.strip() for m in answer.headers["allow"].split(",")} == methods, path
        wrong = client.put(path, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
        assert wrong.status_code == 405, wrong.text
        assert methods - {"OPTIONS"} <= {m.strip() for m in wrong.headers["allow"].split(",")}
