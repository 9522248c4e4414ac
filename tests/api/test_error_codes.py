"""`ERROR_CODES` (service/api/errors.py) is the one table of problem codes: every
code the service can answer with is in it, and nothing else is. The OpenAPI
document's `Problem.code` enum and its error descriptions are made from it, so
a code missing here would be missing for every client."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TypeVar

from service.api.errors import _HTTP_CODES, ERROR_CODES, AuthError
from service.api.protocol import HEADERS_TOO_LARGE
from service.domain.errors import RummyError, all_error_classes
from service.game.errors import GameServiceError

T = TypeVar("T")
API = Path(__file__).resolve().parents[2] / "service" / "api"
RAISES_A_CODE = {"problem": 1, "LimitExceeded": 1}
"""Calls that make a problem, and the position of their `code` argument."""


def _leaves(base: type[T]) -> list[type[T]]:
    found: list[type[T]] = []
    pending = [base]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if not cls.__subclasses__():
            found.append(cls)
    return found


def _constants(node: ast.AST) -> set[str]:
    """The strings an expression may evaluate to: a literal, either branch of a
    conditional, or the default of a `.get(key, default)`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _constants(node.body) | _constants(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return {value for arg in node.args[1:] for value in _constants(arg)}
    return set()


def _codes_in_the_api() -> set[str]:
    """Each literal code the HTTP layer gives a problem: the `code` argument of every
    `problem(...)` and `LimitExceeded(...)`, and every value assigned to a `code`."""
    codes: set[str] = set()
    for path in API.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                position = RAISES_A_CODE.get(node.func.id)
                if position is not None and len(node.args) > position:
                    codes |= _constants(node.args[position])
            elif isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "code" for target in node.targets
            ):
                codes |= _constants(node.value)
    return codes


def test_every_code_the_service_raises_is_in_the_table() -> None:
    raised = (
        {cls.code for cls in all_error_classes() if cls in _leaves(RummyError)}
        | {cls.code for cls in _leaves(GameServiceError)}
        | {cls.code for cls in _leaves(AuthError)}
        | set(_HTTP_CODES.values())
        | {HEADERS_TOO_LARGE}
        | _codes_in_the_api()
    )
    assert raised - set(ERROR_CODES) == set()
    # And the table names nothing the service never says.
    assert set(ERROR_CODES) - raised == set()


def test_each_code_has_a_meaning_and_an_error_status() -> None:
    for code, error in ERROR_CODES.items():
        assert error.meaning.endswith("."), code
        assert 400 <= error.status < 600, code
