"""The limits a client meets (docs/api.md "Limits"): rate limits per client address
and per token, in-process and shared through Redis, and the caps of a new game."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import httpx
import jsonschema_rs
import limits
import pytest
from limits.aio.storage import RedisStorage
from litestar import Litestar
from litestar.testing import TestClient

from service.api.transport.access_log import JsonFormatter
from service.api.transport.throttle import KEY_PREFIX
from service.config import Settings
from service.domain.presets import VARIANTS
from service.domain.rule_values import Variant
from tests.api.client import ADMIN_TOKEN, deck
from tests.apps import bootstrap_test_app

TWO_PLAYERS = [{"name": "Ann"}, {"name": "Bob"}]
CLASSIC_CAPS = VARIANTS[Variant.CLASSIC].caps
"""The bounds of the options on a classic game's length (docs/rules.md "Caps")."""
REDIS = "redis://127.0.0.1:6379/15"
"""A database of its own on the machine's Redis, so other users' keys are left alone."""


def _app(**settings: Any) -> Litestar:
    """The test app with the limits `settings` turn on (all off otherwise)."""
    return bootstrap_test_app(admin_token=ADMIN_TOKEN, **settings).app


def _create(client: TestClient[Litestar], **headers: str) -> httpx.Response:
    return client.post("/games", json={"players": TWO_PLAYERS}, headers=headers)


def _refused_alike(response: httpx.Response, rate: str) -> None:
    """429 `rate_limited` with a Retry-After in seconds that the window can reach."""
    assert response.status_code == 429, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "rate_limited"
    seconds = int(response.headers["retry-after"])
    assert 1 <= seconds <= max(item.get_expiry() for item in limits.parse_many(rate))


SHARES_REDIS = pytest.mark.xdist_group("redis-db-15")
"""On one pytest-xdist worker, one after the other: each clears the rate-limit keys
of `REDIS` that the other counts on."""


@pytest.fixture
def redis_url() -> Iterator[str]:
    """The test Redis, this test's rate-limit keys cleared before and after (a test
    that takes it is marked `SHARES_REDIS`)."""
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError:
        if os.environ.get("RUMMY_REQUIRE_REDIS", "") not in ("", "0"):
            raise
        pytest.skip("no Redis at 127.0.0.1:6379")
    _clear_rate_keys()
    yield REDIS
    _clear_rate_keys()


def _clear_rate_keys() -> None:
    async def clear() -> None:
        storage = RedisStorage(f"async+{REDIS}", implementation="redispy", key_prefix=KEY_PREFIX)
        await storage.reset()

    asyncio.run(clear())


# --- per client address -------------------------------------------------------------


def test_games_created_from_one_address_are_refused_beyond_the_rate() -> None:
    rate = "3/minute"
    with TestClient(_app(create_rate=rate)) as client:
        created = [_create(client).status_code for _ in range(limits.parse(rate).amount)]
        refused = _create(client)
        by_admin = _create(client, Authorization=f"Bearer {ADMIN_TOKEN}")

    assert created == [201] * limits.parse(rate).amount
    _refused_alike(refused, rate)
    assert by_admin.status_code == 201, "the admin token is not rate limited"


def test_seats_joined_from_one_address_are_refused_beyond_the_rate() -> None:
    rate = "2/minute"
    with TestClient(_app(join_rate=rate)) as client:
        games = [client.post("/games", json={"seats": 2}).json()["game_id"] for _ in range(3)]
        answers = [client.post(f"/games/{game}/players", json={"name": "Cleo"}) for game in games]

    assert [answer.status_code for answer in answers[:2]] == [201, 201]
    _refused_alike(answers[2], rate)


@SHARES_REDIS
def test_two_app_instances_on_one_redis_share_the_count(redis_url: str) -> None:
    rate = "4/minute"
    one, two = (
        _app(create_rate=rate, redis_url=redis_url),
        _app(create_rate=rate, redis_url=redis_url),
    )
    with TestClient(one) as first, TestClient(two) as second:
        answers = [_create(client).status_code for client in (first, second, first, second)]
        refused = [_create(first), _create(second)]

    assert answers == [201] * limits.parse(rate).amount
    for response in refused:
        _refused_alike(response, rate)


def test_without_an_answer_from_redis_each_process_counts_alone() -> None:
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    rate = "2/minute"
    with TestClient(_app(create_rate=rate, redis_url=f"redis://127.0.0.1:{port}/0")) as client:
        answers = [_create(client) for _ in range(3)]

    assert [answer.status_code for answer in answers[:2]] == [201, 201]
    _refused_alike(answers[2], rate)


# --- per token ------------------------------------------------------------------------


def test_actions_are_limited_per_token_not_per_address() -> None:
    rate = "2/minute"
    with TestClient(_app(action_rate=rate)) as client:
        created = _create(client).json()
        tokens = {player["seat"]: player["token"] for player in created["players"]}
        game = created["game_id"]

        def act(seat: int) -> httpx.Response:
            return client.post(
                f"/games/{game}/actions",
                json={"type": "draw", "source": "stock"},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )

        first_seat = [act(0) for _ in range(3)]
        other_seat = act(1)

    # Every request counts, refused or not (whose turn it is does not matter here).
    assert all(answer.status_code != 429 for answer in first_seat[:2])
    _refused_alike(first_seat[2], rate)
    assert other_seat.status_code != 429, other_seat.text


# --- failed admin-token attempts per client address -------------------------------------

METRICS_TOKEN = "metrics-token-for-the-limit-tests"


class _Lines(logging.Handler):
    """The log records of `service.api.transport.throttle`, as the service writes them."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonFormatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name == "service.api.transport.throttle":
            self.lines.append(self.format(record))


@contextmanager
def _throttle_log() -> Iterator[list[str]]:
    lines = _Lines()
    # After the app set up its logging, which replaces the root's handlers.
    logging.getLogger().addHandler(lines)
    try:
        yield lines.lines
    finally:
        logging.getLogger().removeHandler(lines)


def _as(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_wrong_admin_tokens_from_one_address_are_refused_beyond_the_default_rate() -> None:
    rate = str(Settings().admin_failure_rate)
    allowed = min(item.amount for item in limits.parse_many(rate))
    with TestClient(_app(admin_failure_rate=rate)) as client, _throttle_log() as logged:
        guesses = [
            client.get("/feed", headers=_as(f"guess-{n:04d}-of-the-admin-token"))
            for n in range(allowed + 3)
        ]
        # Refused now whatever the token: a guess that hit must not tell by its answer.
        right = client.get("/feed", headers=_as(ADMIN_TOKEN))
        elsewhere = client.get("/webhooks", headers=_as(ADMIN_TOKEN))
        # What sends no token, or a player's, is not an admin-token attempt.
        created = _create(client)

    assert [g.status_code for g in guesses[:allowed]] == [401] * allowed
    for refused in [*guesses[allowed:], right, elsewhere]:
        _refused_alike(refused, rate)
        assert "admin-token" in refused.json()["detail"]
    assert created.status_code == 201
    assert len(logged) == len(guesses) - allowed + 2, logged
    assert all("failed admin-token attempts from testclient" in line for line in logged)


@SHARES_REDIS
def test_two_app_instances_on_one_redis_share_the_admin_failures(redis_url: str) -> None:
    rate = "2/minute"
    one, two = (_app(admin_failure_rate=rate, redis_url=redis_url) for _ in range(2))
    with TestClient(one) as first, TestClient(two) as second:
        failed = [c.get("/feed", headers=_as("not-the-admin-token")) for c in (first, second)]
        refused = [c.get("/feed", headers=_as(ADMIN_TOKEN)) for c in (first, second)]

    assert [answer.status_code for answer in failed] == [401, 401]
    for response in refused:
        _refused_alike(response, rate)


def test_the_right_tokens_and_players_tokens_are_no_failed_admin_attempts() -> None:
    rate = "2/minute"
    app = _app(admin_failure_rate=rate, metrics_token=METRICS_TOKEN)
    with TestClient(app) as client:
        created = _create(client).json()
        game_id = created["game_id"]
        other = _create(client).json()["players"][0]["token"]
        answers = [client.get("/feed", headers=_as(ADMIN_TOKEN)) for _ in range(4)]
        answers += [client.get("/metrics", headers=_as(METRICS_TOKEN)) for _ in range(4)]
        # Wrong players' tokens are judged by their game (401, 403), not counted here.
        players = [
            client.get(f"/games/{game_id}", headers=_as(f"{UUID(game_id).hex}.not-the-secret")),
            client.get(f"/games/{game_id}", headers=_as(other)),
        ] * 3
        # Two failures are allowed; the third attempt is refused.
        failures = [client.get("/feed", headers=_as("not-the-admin-token")) for _ in range(3)]

    assert [answer.status_code for answer in answers] == [200] * 8
    assert [answer.status_code for answer in players] == [401, 403] * 3
    assert [failure.status_code for failure in failures] == [401, 401, 429]


def test_every_operation_that_reads_a_token_documents_the_429() -> None:
    app = _app()
    operations = {
        operation["operationId"]: operation
        for item in app.openapi_schema.to_schema()["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict)
    }
    reading = [
        handler.operation_id
        for route in app.routes
        for handler in getattr(route, "route_handlers", [])
        if "authorization" in handler.parsed_fn_signature.parameters
    ]
    assert {"getFeed", "listWebhooks"} <= set(reading)
    for operation_id in reading:
        assert "429" in operations[operation_id]["responses"], operation_id


def test_a_token_sent_to_the_public_metrics_is_no_attempt() -> None:
    with TestClient(_app(admin_failure_rate="2/minute")) as client:
        scrapes = [client.get("/metrics", headers=_as("some-scraper-token")) for _ in range(5)]
    assert [scrape.status_code for scrape in scrapes] == [200] * 5


def test_failed_admin_attempts_are_not_limited_when_off() -> None:
    with TestClient(_app(admin_failure_rate=None)) as client:
        answers = [client.get("/feed", headers=_as("not-the-admin-token")) for _ in range(30)]
    assert {answer.status_code for answer in answers} == {401}


# --- caps of a new game -----------------------------------------------------------------


def _schema(client: TestClient[Litestar]) -> tuple[Any, dict[str, Any]]:
    document = client.get("/schema/openapi.json").json()
    schema = document["paths"]["/games"]["post"]["requestBody"]["content"]["application/json"]
    validator = jsonschema_rs.validator_for(
        {**schema["schema"], "components": document["components"]}
    )
    return validator, document


def test_more_decks_than_the_cap_are_refused_and_the_served_schema_says_so() -> None:
    cap = 2
    order = deck(["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H"], "KD")
    with TestClient(_app(decks_cap=cap)) as client:
        validator, _ = _schema(client)
        answers = {
            count: client.post("/games", json={"players": TWO_PLAYERS, "decks": [order] * count})
            for count in (cap, cap + 1)
        }

    assert answers[cap].status_code == 201, answers[cap].text
    assert answers[cap + 1].status_code == 422
    assert answers[cap + 1].json()["code"] == "too_many_decks"
    for count in (cap, cap + 1):
        body = {"players": TWO_PLAYERS, "decks": [order] * count}
        assert validator.is_valid(body) == (count <= cap)


@pytest.mark.parametrize("rule", ["max_turns", "recycles"])
def test_rule_values_beyond_the_cap_are_invalid_rules_and_the_served_schema_says_so(
    rule: str,
) -> None:
    cap = 7
    with TestClient(_app(max_turns_cap=cap, recycles_cap=cap)) as client:
        validator, _ = _schema(client)
        answers = {
            value: client.post("/games", json={"players": TWO_PLAYERS, "rules": {rule: value}})
            for value in (cap, cap + 1)
        }

    assert answers[cap].status_code == 201, answers[cap].text
    refused = answers[cap + 1]
    assert refused.status_code == 422
    assert refused.json()["code"] == "invalid_rules"
    assert rule in refused.json()["detail"]
    for value in (cap, cap + 1):
        assert validator.is_valid({"players": TWO_PLAYERS, "rules": {rule: value}}) == (
            value <= cap
        )


def test_a_wild_hand_beyond_the_cap_is_invalid_rules_and_the_served_schema_says_so() -> None:
    """`legal` lists every reading of every meld; their number grows steeply with the
    hand, so a game with wild cards deals at most the cap (other variants are not
    held to it)."""
    cap = 9
    with TestClient(_app(wild_hand_cap=cap)) as client:
        validator, _ = _schema(client)
        answers = {
            (variant, size): client.post(
                "/games",
                json={"players": TWO_PLAYERS, "rules": {"variant": variant, "hand_size": size}},
            )
            for variant in ("wild", "classic")
            for size in (cap, cap + 1)
        }

    assert answers["wild", cap].status_code == 201, answers["wild", cap].text
    refused = answers["wild", cap + 1]
    assert refused.status_code == 422
    assert refused.json()["code"] == "invalid_rules"
    assert "hand_size" in refused.json()["detail"]
    assert "wild" in refused.json()["detail"]
    assert answers["classic", cap + 1].status_code == 201
    for variant, size in answers:
        body = {"players": TWO_PLAYERS, "rules": {"variant": variant, "hand_size": size}}
        assert validator.is_valid(body) == (variant == "classic" or size <= cap)


@pytest.mark.parametrize("with_decks", [True, False], ids=["decks", "client-seeds"])
def test_the_largest_valid_new_game_fits_the_default_body_limit(with_decks: bool) -> None:
    """The default body limit leaves room for every valid request: a new game with
    every field at its longest (names, seeds, and as many decks as the cap allows),
    its strings of characters JSON escapes at the longest (a surrogate pair, 12 bytes).
    Client seeds and decks do not go together (409 client_seed_not_used): each of
    the two longest bodies must fit."""
    defaults = Settings()
    longest_text = "\N{PLAYING CARD ACE OF SPADES}" * 256
    order = deck(["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H"], "KD")
    client_seed = "" if with_decks else longest_text
    body = {
        "players": [{"name": longest_text[:64], "client_seed": client_seed} for _ in range(6)],
        "seats": 6,
        "seed": longest_text,
        "decks": [order] * defaults.decks_cap if with_decks else [],
        "dealer": 5,
        "rules": {
            "aces": "high_or_low",
            "hand_size": 6,
            "melds_per_turn": "unlimited",
            "lay_off": "anytime",
            "going_out": "discard",
            "rummy_bonus": "plus_10",
            "recycles": defaults.recycles_cap,
            "recycle_shuffle": False,
            "exhausted": "score",
            "max_turns": defaults.max_turns_cap,
            "scoring": "winner",
            "deals": CLASSIC_CAPS["deals"][1],
            "max_hands": CLASSIC_CAPS["max_hands"][1],
            "max_events": CLASSIC_CAPS["max_events"][1],
        },
    }
    encoded = json.dumps(body, ensure_ascii=True, indent=2).encode()
    assert len(encoded) <= defaults.max_body_bytes
    with TestClient(_app()) as client:
        response = client.post(
            "/games", content=encoded, headers={"Content-Type": "application/json"}
        )
    assert response.status_code == 201, response.text
