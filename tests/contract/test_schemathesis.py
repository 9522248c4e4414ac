"""Schemathesis against the committed contract (openapi/openapi.json), in process.

The document under test is the committed file, not what the app would
generate now (test_openapi_drift.py keeps the two equal): clients are
written against the file. Requests go straight to the ASGI app, on the
in-memory store, with schemathesis' default checks.

- Stateless: every operation, with the examples, coverage and fuzzing
  phases (positive and negative data).
- Stateful: `as_state_machine()` follows the document's OpenAPI links, so
  a game created by `createGame` is read, played, listed, replayed and
  joined with its real id and a real player token (the links carry the
  `Authorization` header). Positive data only: a malformed body is
  refused before any game is looked at, so the stateless run covers it.

Server-Sent Events routes are left out: a stream answers until its
heartbeat times out, for every case.
"""

from __future__ import annotations

import itertools
import json
import uuid
from pathlib import Path
from typing import Any
from unittest.mock import patch

import schemathesis
from hypothesis import HealthCheck, settings
from litestar import Litestar
from schemathesis import Case
from schemathesis.config import SchemathesisConfig
from schemathesis.core.failures import Failure
from schemathesis.core.transport import Response
from schemathesis.hooks import HookContext
from schemathesis.openapi.checks import RejectedPositiveData
from schemathesis.schemas import BaseSchema

from service.api.printable import name_problem
from service.domain.errors import InvalidRules, InvalidSeating
from service.domain.rules import RuleSet
from service.game import application
from tests.apps import bootstrap_test_app

OPENAPI_PATH = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
ADMIN_TOKEN = "schemathesis-admin-token"


def _app() -> Litestar:
    return bootstrap_test_app(admin_token=ADMIN_TOKEN).app


def _streaming_operations(document: dict[str, Any]) -> list[str]:
    return [
        operation["operationId"]
        for item in document["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict)
        and any(
            "text/event-stream" in (response.get("content") or {})
            for response in operation.get("responses", {}).values()
        )
    ]


def _load() -> BaseSchema:
    config = SchemathesisConfig.from_dict(
        {"phases": {"stateful": {"generation": {"mode": "positive"}}}}
    )
    loaded: BaseSchema = schemathesis.openapi.from_path(OPENAPI_PATH, config=config)
    streaming = _streaming_operations(json.loads(OPENAPI_PATH.read_text(encoding="utf-8")))
    if streaming:
        loaded = loaded.exclude(operation_id=streaming)
    loaded.app = _app()
    return loaded


schema = _load()

# Requests the schema cannot tell from good ones, because what decides is the
# history: an `If-Match` naming a version the game has left (412
# version_conflict), and an `Idempotency-Key` already used for another body
# (422 idempotency_key_reused, as the IETF Idempotency-Key draft says: by this
# seat for an action, by anyone for a creation or a join). Only these answers,
# to a schema-valid request, are let through, each where it can happen.
STATEFUL_REJECTIONS = {
    "POST /games/{game_id}/actions": {(412, "version_conflict"), (422, "idempotency_key_reused")},
    "POST /games/{game_id}/leave": {(412, "version_conflict"), (422, "idempotency_key_reused")},
    "POST /games": {(422, "idempotency_key_reused")},
    "POST /games/{game_id}/players": {(422, "idempotency_key_reused")},
}


def _breaks_a_cross_field_rule(case: Case[Any], response: Response) -> bool:
    """A new game the service refuses for a rule the `CreateGame` schema states only
    in words (service/api/docs/new_game_schema.py: schemas that state them branch by
    seat count, which client generators cannot parse): how the players, `seats` and
    `dealer` seat people (422 invalid_seating), a hand size that leaves no stock for that
    many seats or a player count the variant does not seat (422 invalid_rules), and
    deck orders that are not the pack of the game's rules (422 invalid_deck). Every
    other rule of a new game is in the schema."""
    code = _problem_code(response)
    body: Any = case.body
    if response.status_code != 422 or not isinstance(body, dict):
        return False
    if code == "invalid_seating":
        return True
    if code == "invalid_deck":
        return bool(body.get("decks"))
    seats = body.get("seats") or len(body.get("players") or [])
    return code == "invalid_rules" and not _seats(body.get("rules") or {}, seats)


def _asks_a_table_no_game_seats(case: Case[Any], response: Response) -> bool:
    """A matchmaking ticket refused for what a new game of its rules and `seats` would
    be (the same cross-field rules, docs/players.md): a table size its variant does not
    seat (422 invalid_seating or invalid_rules), or `rules.variant` another variant than
    the ticket's `variant` (422 invalid_rules)."""
    body: Any = case.body
    code = _problem_code(response)
    if response.status_code != 422 or not isinstance(body, dict):
        return False
    if code == "invalid_seating":
        return True
    rules = {**(body.get("rules") or {})}
    if rules.get("variant") not in (None, body.get("variant")):
        return code == "invalid_rules"
    rules["variant"] = body.get("variant")
    return code == "invalid_rules" and not _seats(rules, body.get("seats") or 0)


def _seats(rules: dict[str, Any], seats: int) -> bool:
    """Whether rules the schema allows deal to `seats` players."""
    try:
        ruleset = RuleSet.from_dict(
            {key: value for key, value in rules.items() if value is not None}
        )
        ruleset.check_players(seats)
        ruleset.hand_size_for(seats)
    except (InvalidRules, InvalidSeating):
        return False
    return True


IN_WORDS = {
    "POST /games": {(422, "rated_needs_players")},
    "POST /games/{game_id}/players": {(422, "rated_needs_players")},
    "POST /platforms": {(422, "invalid_key")},
    "POST /platforms/{platform_id}/keys": {(422, "invalid_key"), (409, "key_exists")},
}
"""Rules of players across games that the schema states in words (docs/players.md): a
rated game's human seats need an assertion, a key must be one the service can verify
with (its PEM's kind, the secret's length), a `kid` is never replaced."""


@schema.hook
def filter_failure(
    context: HookContext, failure: Failure, case: Case[Any], response: Response
) -> bool:
    if not isinstance(failure, RejectedPositiveData):
        return True
    allowed = STATEFUL_REJECTIONS.get(case.operation.label, set())
    allowed = allowed | IN_WORDS.get(case.operation.label, set())
    if (response.status_code, _problem_code(response)) in allowed:
        return False
    if _names_a_code_point_refused_in_words(case, response):
        return False
    if case.operation.label == "POST /games":
        return not _breaks_a_cross_field_rule(case, response)
    if case.operation.label == "POST /matchmaking":
        return not _asks_a_table_no_game_seats(case, response)
    if case.operation.label == "POST /games/{game_id}/actions":
        return not _reads_cards_it_does_not_name(case, response)
    if case.operation.label == "GET /games/{game_id}/replay":
        return not _asks_a_seat_the_game_lacks(response)
    return True


def _asks_a_seat_the_game_lacks(response: Response) -> bool:
    """A replay's `seat` past the game's last seat (422: the schema allows every
    seat a game may have, 0 to 5; how many this one has, only the game knows)."""
    body = _json(response)
    return (
        (response.status_code, _problem_code(response)) == (422, "invalid_request")
        and isinstance(body, dict)
        and "this game has seats" in str(body.get("detail"))
    )


def _names_a_code_point_refused_in_words(case: Case[Any], response: Response) -> bool:
    """A player's name the service refuses for a code point above U+FFFF (422, stated
    in the name's description: its pattern holds the rule up to U+FFFF only, so that
    engines without Unicode mode can read it; service/api/printable.py)."""
    if (response.status_code, _problem_code(response)) != (422, "invalid_body"):
        return False
    body: Any = case.body
    if not isinstance(body, dict):
        return False
    players: Any = body.get("players")
    if not isinstance(players, list):
        players = []
    names = [body.get("name"), *(p.get("name") for p in players if isinstance(p, dict))]
    return any(
        isinstance(name, str)
        and any(ord(char) > 0xFFFF for char in name)
        and name_problem(name) is not None
        for name in names
    )


def _reads_cards_it_does_not_name(case: Case[Any], response: Response) -> bool:
    """A meld whose `as` is not one code per card (422, stated in words: JSON Schema
    cannot say two lists have the same length)."""
    if (response.status_code, _problem_code(response)) != (422, "invalid_body"):
        return False
    body: Any = case.body
    listed = body if isinstance(body, list) else [body]
    return any(
        isinstance(action, dict)
        and isinstance(action.get("as"), list)
        and isinstance(action.get("cards"), list)
        and len(action["as"]) != len(action["cards"])
        for action in listed
    )


def _json(response: Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def _problem_code(response: Response) -> str | None:
    body = _json(response)
    return body.get("code") if isinstance(body, dict) else None


def _takes_a_token(case: Case[Any]) -> bool:
    security = case.operation.definition.raw.get("security", [])
    return any("bearer" in requirement for requirement in security)


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_keeps_the_contract(case: Case[Any]) -> None:
    case.call_and_validate()


class LinkedCalls(schema.as_state_machine()):  # type: ignore[misc]
    """Chains of calls along the document's links, from a new game on.

    A link carries the game, not the token (tokens are the `bearer` security
    scheme, not parameters): each call on a game goes with the token of the seat
    to move, as its links' descriptions say a client would send it."""

    def setup(self) -> None:
        # Hypothesis replays a failing chain to shrink it, so the chain must go
        # the same way again: the secret seed of a game created without one
        # (its deal, its dealer) is the server's only randomness that matters.
        seeds = itertools.count()
        self._seeds = patch.object(application, "new_seed", lambda: f"stateful-{next(seeds)}")
        self._seeds.start()
        self._tokens: dict[str, dict[int, str]] = {}
        self._turns: dict[str, int] = {}
        # The service remembers every Idempotency-Key for good, and one app serves
        # every chain: a replayed chain would find its keys' earlier outcomes (the
        # game it created then, since joined and played) and go another way. Each
        # chain's keys are its own: the same keys within it, new ones in a replay.
        self._chain = uuid.uuid4().hex[:12]

    def before_call(self, case: Case[Any]) -> None:
        key = case.headers.get("Idempotency-Key") if case.headers else None
        if isinstance(key, str) and len(key) > len(self._chain):
            # Same length and characters (hex is in every key's alphabet).
            case.headers["Idempotency-Key"] = self._chain + key[len(self._chain) :]
        game_id = str((case.path_parameters or {}).get("game_id"))
        tokens = self._tokens.get(game_id)
        if not tokens or not _takes_a_token(case):
            return
        token = tokens.get(self._turns.get(game_id, 0), next(iter(tokens.values())))
        case.headers["Authorization"] = f"Bearer {token}"

    def after_call(self, response: Response, case: Case[Any]) -> None:
        super().after_call(response, case)
        body = _json(response)
        if response.status_code >= 300 or not isinstance(body, dict):
            return
        game_id = str(body.get("game_id"))
        if isinstance(body.get("players"), list) and "token" in str(body["players"]):
            self._tokens[game_id] = {p["seat"]: p["token"] for p in body["players"]}
        elif isinstance(body.get("token"), str):
            self._tokens.setdefault(game_id, {})[body["seat"]] = body["token"]
        if isinstance(body.get("turn"), int):
            self._turns[game_id] = body["turn"]

    def teardown(self) -> None:
        self._seeds.stop()


TestLinkedCallsKeepTheContract = LinkedCalls.TestCase
TestLinkedCallsKeepTheContract.settings = settings(
    max_examples=100,
    stateful_step_count=10,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
