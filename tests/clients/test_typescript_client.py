"""A TypeScript client generated from the committed document plays a whole game.

openapi-typescript generates the types into a temporary directory (generated
code is never committed), beside a copy of play.ts and tsconfig.json; the
program must pass `tsc --strict` against them, then runs with tsx (every tool
pinned in package.json) against a live `rummy serve`: it creates the README's
game, plays what `legal` offers with each player's token (openapi-fetch's
`headers`: the `bearer` scheme) until the game ends, reads the events and the
audit export, and prints what it saw.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import httpx
import pytest

from tests.clients.conftest import new_game_body
from tests.clients.tools import HERE, NODE_MODULES, OPENAPI_PATH, ROOT, npm_tool, run

pytestmark = pytest.mark.xdist_group("typescript-client")
"""On one pytest-xdist worker: the client is generated and compiled once (`program`), for both."""


def generator_complaints(printed: str) -> list[str]:
    """Every line openapi-typescript printed but its banner and its result line."""
    return [
        line
        for line in printed.splitlines()
        if line.strip() and not line.startswith(("✨ openapi-typescript", "🚀 "))
    ]


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory with play.ts, its tsconfig and the generated schema.ts, type-checked."""
    generator, tsc = npm_tool("openapi-typescript"), npm_tool("tsc")
    into = tmp_path_factory.mktemp("typescript-client")
    for name in ("play.ts", "tsconfig.json"):
        shutil.copy(HERE / name, into / name)
    (into / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    (into / "node_modules").symlink_to(NODE_MODULES, target_is_directory=True)

    generated = run([generator, OPENAPI_PATH, "--output", into / "schema.ts"])
    printed = (generated.stdout + generated.stderr).strip()
    assert generated.returncode == 0, printed
    complaints = generator_complaints(printed)
    assert not complaints, "openapi-typescript warned:\n" + "\n".join(complaints)

    checked = run([tsc, "--project", into, "--strict"])
    assert checked.returncode == 0, checked.stdout + checked.stderr
    return into


def test_the_typescript_client_plays_a_whole_game(program: Path, server_url: str) -> None:
    tsx = npm_tool("tsx")
    played = run([tsx, program / "play.ts", server_url, json.dumps(new_game_body())], cwd=program)
    assert played.returncode == 0, played.stdout + played.stderr
    seen = json.loads(played.stdout)

    assert seen["status"] == "finished"
    assert seen["event_versions"] == list(range(1, seen["version"] + 1))
    assert seen["event_types"][0] == "game_created"
    assert seen["event_types"][-1] == "game_finished"
    assert seen["audit_status"] == "finished"
    assert seen["audit_length"] == seen["version"]
    # The service agrees with what the program saw.
    public = httpx.get(f"{server_url}/games/{seen['game_id']}", timeout=10).json()
    assert (public["status"], public["winner"], public["version"]) == (
        "finished",
        seen["winner"],
        seen["version"],
    )


def test_the_documented_recipe_pins_what_the_tests_pin() -> None:
    """openapi-typescript 7.13 crashes with TypeScript 7: the recipe in docs/api.md
    names every package with the exact version package.json pins, TypeScript 5."""
    pinned = json.loads((HERE / "package.json").read_text(encoding="utf-8"))["devDependencies"]
    assert all(re.fullmatch(r"\d+\.\d+\.\d+", version) for version in pinned.values()), pinned
    assert pinned["typescript"].startswith("5.")
    guide = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    recipe = guide.partition("### A TypeScript client")[2].partition("\n### ")[0]
    named = dict(re.findall(r"(?<![\w@/-])((?:@[\w-]+/)?[\w-]+)@(\d[\w.-]*)", recipe))
    assert set(named) == {"typescript", "openapi-typescript", "openapi-fetch"}
    assert named == {name: pinned[name] for name in named}
    assert "npx -y -p typescript@" in recipe
