"""docs/api.md, the client guide, lists every error code the service can answer,
each with its status, and no code it cannot.

The codes are found in the code itself: each error class's `code` (the
trees of service/domain/errors.py, service/game/errors.py and
service/api/errors.py), the codes errors.py gives to the framework's own
statuses, and every code written where a problem is raised (`problem(status,
"code", …)`, `LimitExceeded(status, "code", …)`, `code = "…"`).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from service.api import errors
from service.domain.errors import IllegalMove, InvalidInput, all_error_classes
from service.game.errors import GameServiceError

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "api.md"
RAISERS = ("problem", "LimitExceeded")


def _strings(node: ast.expr) -> set[str]:
    """The string constants an expression can be: `"a"`, or `"a" if c else "b"`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _strings(node.body) | _strings(node.orelse)
    return set()


def _named(node: ast.expr, name: str) -> bool:
    return (isinstance(node, ast.Name) and node.id == name) or (
        isinstance(node, ast.Attribute) and node.attr == name
    )


def written_codes() -> set[str]:
    """Every code the service's source writes where an error is made."""
    codes = set(errors._HTTP_CODES.values())
    for path in sorted((ROOT / "service").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and any(_named(t, "code") for t in node.targets):
                codes |= _strings(node.value)
            elif (
                isinstance(node, ast.Call)
                and any(_named(node.func, raiser) for raiser in RAISERS)
                and len(node.args) >= 2
            ):
                codes |= _strings(node.args[1])
    return codes


def error_classes() -> list[type[Exception]]:
    found: list[type[Exception]] = [*all_error_classes()]
    pending: list[type[Exception]] = [GameServiceError, errors.AuthError]
    while pending:
        cls = pending.pop()
        found.append(cls)
        pending.extend(cls.__subclasses__())
    return found


def answered_codes() -> set[str]:
    """The codes a client can meet: the written ones, less those only the bases of
    the error trees carry (`illegal_move`, …), which nothing raises."""
    classes = error_classes()
    leaves = {cls.code for cls in classes if not cls.__subclasses__()}  # type: ignore[attr-defined]
    bases = {cls.code for cls in classes if cls.__subclasses__()}  # type: ignore[attr-defined]
    return written_codes() - (bases - leaves)


def documented() -> dict[str, int]:
    """The guide's table of error codes: code to status."""
    section = GUIDE.read_text(encoding="utf-8").split("## Error codes", 1)[1].split("\n## ")[0]
    rows = re.findall(r"^\| `(\w+)` \| (\d{3}) \|", section, flags=re.MULTILINE)
    assert len(rows) == len(dict(rows)), "a code is listed twice"
    return {code: int(status) for code, status in rows}


def test_the_code_finder_finds_codes_of_every_kind() -> None:
    codes = answered_codes()
    # A class's code, a framework status's, a raise site's, and a conditional one.
    assert {"not_your_turn", "version_conflict", "method_not_allowed", "rate_limited"} <= codes
    assert {"invalid_if_match", "invalid_request", "invalid_body"} <= codes
    assert "illegal_move" not in codes


def test_every_code_the_service_answers_is_in_the_guide_and_no_other() -> None:
    codes = answered_codes()
    listed = set(documented())
    assert not codes - listed, f"add to docs/api.md's error codes: {sorted(codes - listed)}"
    assert not listed - codes, f"docs/api.md lists codes nothing answers: {sorted(listed - codes)}"


def test_the_guide_gives_each_code_of_the_rules_and_the_games_its_status() -> None:
    table = documented()
    for cls in all_error_classes():
        if not cls.__subclasses__():
            status = 409 if issubclass(cls, IllegalMove) else 422
            assert issubclass(cls, IllegalMove | InvalidInput)
            assert table[cls.code] == status, cls.code
    for service_error, status in errors._SERVICE_STATUS.items():
        assert table[service_error.code] == status, service_error.code
    for status, code in errors._HTTP_CODES.items():
        assert table[code] == status, code
