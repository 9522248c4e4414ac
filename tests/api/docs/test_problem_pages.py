"""Problem `type` URIs resolve to a page describing their code.

The table of problem types (service/api/docs/problem_types.py) is held to the code
both ways: every code the service can answer with has a row with the status
it is answered with, and every row is a code the service answers with. The
codes are found by reading the service: the `code` of every error class it
maps, and every code written at a place that makes a problem (`problem(...)`,
`LimitExceeded(...)`, `Problem(code=...)`, the codes errors.py picks).
"""

from __future__ import annotations

import ast
import html
from collections.abc import Iterator
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from litestar import Litestar
from litestar.testing import TestClient

import service
from service.api.docs.problem_types import PROBLEM_TYPES
from service.api.errors import AuthError, problem_details_config
from service.domain.errors import RummyError
from service.game.errors import GameServiceError
from service.matchmaking.errors import MatchmakingError
from service.players.errors import PlayerError
from service.webhooks.errors import WebhookError
from tests.api.client import Api

SERVICE = Path(service.__file__).parent
_MAKERS = {"problem": 1, "LimitExceeded": 1}
"""Calls that make a problem, and the position of their code argument."""


def _leaves(root: type[Exception]) -> Iterator[type[Exception]]:
    below = root.__subclasses__()
    if not below:
        yield root
    for cls in below:
        yield from _leaves(cls)


def _class_codes() -> dict[str, int]:
    """The code and status of every error class the service raises (the leaves of its
    trees), as errors.py converts an instance of it."""
    conversions = problem_details_config().exception_to_problem_detail_map
    found: dict[str, int] = {}
    for root in (
        RummyError,
        GameServiceError,
        AuthError,
        WebhookError,
        PlayerError,
        MatchmakingError,
    ):
        convert = conversions[root]
        for cls in _leaves(root):
            converted = convert(cls("a message"))
            found[converted.extra["code"]] = converted.status_code
    return found


def _status(node: ast.expr) -> int | None:
    """A status written as `409` or `HTTPStatus.CONFLICT`, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "HTTPStatus"
    ):
        return int(HTTPStatus[node.attr])
    return None


def _strings(node: ast.expr, constants: dict[str, str]) -> set[str]:
    """The codes an expression may give: a string, a module constant, either branch
    of a conditional, the default of a `.get`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.Name):
        return {constants[node.id]} if node.id in constants else set()
    if isinstance(node, ast.IfExp):
        return _strings(node.body, constants) | _strings(node.orelse, constants)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and len(node.args) > 1
    ):
        return _strings(node.args[1], constants)
    return set()


def _written_codes() -> dict[str, set[int | None]]:
    """Every code written where the service makes a problem, with its status if the
    same call names it."""
    found: dict[str, set[int | None]] = {}
    for path in SERVICE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        constants = {
            target.id: statement.value.value
            for statement in tree.body
            if isinstance(statement, ast.Assign)
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)
            for target in statement.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            for code, status in _codes_at(node, constants):
                found.setdefault(code, set()).add(status)
    return found


def _codes_at(node: ast.AST, constants: dict[str, str]) -> Iterator[tuple[str, int | None]]:
    if isinstance(node, ast.Call):
        name = node.func.attr if isinstance(node.func, ast.Attribute) else None
        name = node.func.id if isinstance(node.func, ast.Name) else name
        if name in _MAKERS and len(node.args) > _MAKERS[name]:
            status = _status(node.args[0])
            for code in _strings(node.args[_MAKERS[name]], constants):
                yield code, status
        if name == "Problem":
            for keyword in node.keywords:
                if keyword.arg == "code":
                    for code in _strings(keyword.value, constants):
                        yield code, None
    # errors.py picks some codes in a function before it makes the problem
    # (`code = ...`), and maps HTTP statuses to codes in a table.
    if isinstance(node, ast.FunctionDef):
        for inner in ast.walk(node):
            if isinstance(inner, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "code" for target in inner.targets
            ):
                for code in _strings(inner.value, constants):
                    yield code, None
    if (
        isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and node.target.id == "_HTTP_CODES"
        and isinstance(node.value, ast.Dict)
    ):
        for key, value in zip(node.value.keys, node.value.values, strict=True):
            assert isinstance(key, ast.Constant)
            assert isinstance(value, ast.Constant)
            yield str(value.value), int(key.value)  # type: ignore[arg-type]


def test_the_table_holds_exactly_the_codes_the_service_answers_with() -> None:
    answered = set(_class_codes()) | set(_written_codes())

    assert set(PROBLEM_TYPES) - answered == set(), "rows for codes never answered"
    assert answered - set(PROBLEM_TYPES) == set(), "codes without a row"


def test_each_code_has_a_meaning_and_an_error_status() -> None:
    for code, error in PROBLEM_TYPES.items():
        assert error.meaning.endswith("."), code
        assert 400 <= error.status < 600, code


def test_each_code_has_the_status_it_is_answered_with() -> None:
    for code, status in _class_codes().items():
        assert PROBLEM_TYPES[code].status == status, code
    for code, statuses in _written_codes().items():
        for written in statuses - {None}:
            assert PROBLEM_TYPES[code].status == written, code


@pytest.mark.parametrize("code", sorted(PROBLEM_TYPES))
def test_every_code_has_its_page(client: TestClient[Litestar], code: str) -> None:
    row = PROBLEM_TYPES[code]

    page = client.get(f"/problems/{code}")

    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert page.headers["content-security-policy"] == "default-src 'none'"
    text = _text_of(page.text)
    for said in (code, row.title, row.status_line, row.meaning, row.todo):
        assert said in text, said


def _text_of(page: str) -> str:
    """What a reader of the page sees: tags dropped, entities read, `code` spans as
    the table writes them."""
    with_ticks = page.replace("<code>", "`").replace("</code>", "`")
    no_tags = "".join(part.split(">", 1)[-1] for part in with_ticks.split("<"))
    return html.unescape(no_tags)


def test_a_problem_type_resolves_against_the_request_to_the_page_of_its_code(api: Api) -> None:
    game = api.create(players=[{"name": "Ann"}, {"name": "Bob"}], dealer=0)
    refused = game.act(1, {"type": "discard", "card": "KD"})  # seat 1 moves first: no draw yet
    problem = refused.json()

    page = api.client.get(urljoin(str(refused.url), problem["type"]))

    assert page.status_code == 200
    assert problem["code"] == "wrong_phase"
    assert f"<h1>{problem['title']}</h1>" in page.text
    assert problem["title"] == PROBLEM_TYPES["wrong_phase"].title


def test_the_index_links_to_the_page_of_every_code(client: TestClient[Litestar]) -> None:
    index = client.get("/problems")
    assert index.status_code == 200
    links = [part.split('"', 1)[0] for part in index.text.split('href="')[1:]]

    reached = {}
    for link in links:
        page = client.get(urljoin(str(index.url), link))
        assert page.status_code == 200, link
        reached[link.rsplit("/", 1)[-1]] = page

    assert set(reached) == set(PROBLEM_TYPES)


@pytest.mark.parametrize(
    ("path", "page"),
    [
        ("/problems/", "/problems"),
        ("/problems//", "/problems"),
        ("/problems/not_your_turn/", "/problems/not_your_turn"),
    ],
)
def test_a_page_asked_for_with_a_trailing_slash_redirects_to_where_its_links_resolve(
    client: TestClient[Litestar], path: str, page: str
) -> None:
    moved = client.get(path, follow_redirects=False)
    assert moved.status_code == 308
    # Relative, as the pages' links are: it holds under any path the service has.
    assert not moved.headers["location"].startswith("/")
    assert urljoin(str(moved.url), moved.headers["location"]).endswith(page)
    landed = client.get(path)
    assert str(landed.url).endswith(page)
    for link in [part.split('"', 1)[0] for part in landed.text.split('href="')[1:]]:
        assert client.get(urljoin(str(landed.url), link)).status_code == 200, link


def test_a_page_links_back_to_the_index(client: TestClient[Litestar]) -> None:
    page = client.get("/problems/not_your_turn")
    link = page.text.split('href="')[1].split('"', 1)[0]

    assert str(client.get(urljoin(str(page.url), link)).url).endswith("/problems")


@pytest.mark.parametrize("code", ["nope", "rummy_error", "illegal_move", "NOT_YOUR_TURN"])
def test_a_code_the_service_never_answers_with_has_no_page(
    client: TestClient[Litestar], code: str
) -> None:
    response = client.get(f"/problems/{code}")
    problem: dict[str, Any] = response.json()

    assert response.status_code == 404
    assert (problem["code"], problem["type"]) == ("not_found", "/problems/not_found")
    assert client.get(problem["type"]).status_code == 200, "the 404's own type resolves"
