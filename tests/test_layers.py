"""The rooms of STYLE.md: dependencies point one way.

`domain` imports none of the others; `game` imports neither the HTTP layer,
the projections nor the bots (it is handed its bot players).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVICE = Path(__file__).resolve().parent.parent / "service"

FORBIDDEN = {
    "domain": (
        "service.game",
        "service.api",
        "service.projections",
        "service.bots",
        "service.audit",
    ),
    "game": ("service.api", "service.projections", "service.bots", "service.audit"),
    "projections": ("service.api", "service.game", "service.bots"),
    "audit": ("service.api", "service.game", "service.projections", "service.bots"),
}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            found.add(node.module)
    return found


@pytest.mark.parametrize("room", sorted(FORBIDDEN))
def test_a_room_imports_nothing_from_the_rooms_that_depend_on_it(room: str) -> None:
    offending = [
        f"{path.relative_to(SERVICE.parent)} imports {module}"
        for path in sorted((SERVICE / room).rglob("*.py"))
        for module in sorted(imported_modules(path))
        if module.startswith(FORBIDDEN[room])
    ]
    assert not offending, "\n".join(offending)
