"""The README runs top to bottom in one shell, as it says.

Every `sh` block of the README is a step of one run-through, unless the line
above it says `<!-- not run by tests/api/test_readme.py: why -->` (starting
the server, the suite itself, a receiver that runs until stopped). The test
joins the steps in order into ONE bash script under `set -euo pipefail` and
runs it against a fresh `rummy serve` (SQLite, the clocks on, as
`scripts/serve` starts it), so a section that used a variable it did not set,
or acted on the wrong game, fails here. Every `# => ` line of a step is a line
the command above it prints: they must appear in the output, in order.

What the test changes, to run it here and quickly: `API` is the test server's
address; the clock game's `turn_seconds` is the least the rules allow, not 20;
the server plays games left to bots unpaced (`RUMMY_BOT_PACE_MS=0`, not
300 ms); and `scripts/rummy` is the `rummy` of this environment (not a fresh
`.venv-runtime`). The commands are otherwise the README's, byte for byte.

`readme_curls` reads a section's curl commands for the tests that reuse the
README's games (tests/clients).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import textwrap
from dataclasses import dataclass
from pathlib import Path

from service.domain.presets import TURN_SECONDS
from service.domain.rule_values import Variant
from tests.servers import rummy_command, rummy_serve

README = Path(__file__).resolve().parents[2] / "README.md"
NOT_RUN = "<!-- not run by tests/api/test_readme.py:"
SHOWN = "# => "
README_API = "API=http://127.0.0.1:8000"
README_CLOCK = '"turn_seconds": 20'
RUN_SECONDS = 240
"""The longest the whole run-through may take (a bound, not a measure: ~25 s here)."""


@dataclass(frozen=True)
class Block:
    heading: str
    """The `## ` heading the block is under."""
    script: str
    """Its text, unindented."""
    run: bool
    """Whether it is a step of the run-through."""


def readme_blocks() -> list[Block]:
    """Every `sh` block of the README, in order."""
    blocks: list[Block] = []
    heading = ""
    lines = README.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("## "):
            heading = line
        if line.strip() == "```sh":
            indent = line[: len(line) - len(line.lstrip())]
            end = lines.index(f"{indent}```", index + 1)
            above = lines[index - 1].strip()
            blocks.append(
                Block(
                    heading=heading,
                    script=textwrap.dedent("\n".join(lines[index + 1 : end])),
                    run=not above.startswith(NOT_RUN),
                )
            )
            index = end
        index += 1
    return blocks


@dataclass
class Curl:
    method: str
    path: str
    """With `$ID` still in it."""
    token: str | None
    """The shell variable holding the bearer token (`ANN`, `BOB`), if any."""
    body: object


def readme_curls(heading: str) -> list[Curl]:
    """The curl commands of the `sh` blocks under the README's `heading`, in order."""
    script = "\n".join(block.script for block in readme_blocks() if block.heading == heading)
    commands = []
    for chunk in script.split("curl ")[1:]:
        command = chunk.replace("\\\n", " ")
        path = re.search(r"\$API(/[^\s\"'|)]*)", command)
        if path is None:
            continue  # `curl` in a comment
        token = re.search(r"Bearer \$(\w+)", command)
        body = re.search(r"-d '(.*?)'", command, re.DOTALL)
        commands.append(
            Curl(
                method="POST" if "-X POST" in command else "GET",
                path=path.group(1),
                token=token.group(1) if token else None,
                body=json.loads(body.group(1)) if body else None,
            )
        )
    return commands


def readme_game() -> list[Curl]:
    return readme_curls("## A complete game with curl")


def run_through() -> str:
    """The README's steps joined in order, as one script."""
    return "\n".join(block.script for block in readme_blocks() if block.run)


def shown_lines(script: str) -> list[str]:
    return [
        line.strip()[len(SHOWN) :] for line in script.splitlines() if line.strip().startswith(SHOWN)
    ]


def test_the_readme_runs_top_to_bottom_in_one_shell(tmp_path: Path) -> None:
    script = run_through()
    assert script.count(README_API) == 1, "API is set once, by the curl game"
    assert script.count(README_CLOCK) == 1, "the clock game's clock"
    expected = shown_lines(script)
    assert len(expected) >= 5, expected
    # `scripts/rummy`, as the README calls it, from the directory the script runs in.
    (tmp_path / "scripts").mkdir()
    rummy = tmp_path / "scripts" / "rummy"
    rummy.write_text(f'#!/bin/sh\nexec {shlex.join(rummy_command())} "$@"\n', encoding="utf-8")
    rummy.chmod(0o755)
    env = {
        "RUMMY_SQLITE_PATH": str(tmp_path / "rummy.sqlite"),
        "RUMMY_LOG_LEVEL": "warning",
        "RUMMY_BOT_PACE_MS": "0",
    }
    with rummy_serve(env) as server:
        runnable = script.replace(README_API, f"API={server.url}").replace(
            README_CLOCK, f'"turn_seconds": {TURN_SECONDS[0]}'
        )
        ran = subprocess.run(
            ["bash", "-c", f"set -euo pipefail\n{runnable}"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=RUN_SECONDS,
            check=False,
        )
        logs = server.output()
    output = ran.stdout.splitlines()
    assert ran.returncode == 0, f"exit {ran.returncode}\n{ran.stdout}\n{ran.stderr}\n{logs}"
    at = 0
    for line in expected:
        assert line in output[at:], f"{line!r} not printed (in order):\n{ran.stdout}"
        at = output.index(line, at) + 1
    assert (tmp_path / "game.json").exists(), "the audit export was saved and verified"


def test_only_what_cannot_run_in_one_shell_is_left_out() -> None:
    left_out = [
        block.script.splitlines()[0].split("#")[0].strip()
        for block in readme_blocks()
        if not block.run
    ]
    assert left_out == [
        "scripts/serve",
        "scripts/test",
        'SECRET=$(curl -s -X POST $API/webhooks -H "Authorization: Bearer $ADMIN_TOKEN" \\',
    ]


def test_the_readme_creates_one_game_of_each_variant() -> None:
    created = [
        curl.body
        for curl in readme_curls("## Variants")
        if (curl.method, curl.path) == ("POST", "/games") and isinstance(curl.body, dict)
    ]
    assert [body["rules"]["variant"] for body in created] == [
        variant.value for variant in Variant if variant is not Variant.CLASSIC
    ]
    listed = README.read_text(encoding="utf-8").split("## Variants", 1)[1].split("```sh", 1)[0]
    for variant in Variant:
        if variant is not Variant.CLASSIC:
            assert f"- `{variant.value}`:" in listed
