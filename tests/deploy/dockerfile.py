"""Just enough of a Dockerfile reader for the tests: instructions, ENV, CMD, HEALTHCHECK."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"


@dataclass(frozen=True)
class Instruction:
    keyword: str
    arguments: str
    stage: int
    """0 before the first FROM, then 1, 2, ... for each stage."""


def instructions(path: Path = DOCKERFILE) -> list[Instruction]:
    """The instructions, continuation lines joined and comments dropped."""
    found: list[Instruction] = []
    stage = 0
    pending = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        keyword, _, arguments = line.partition(" ")
        keyword = keyword.upper()
        if keyword == "FROM":
            stage += 1
        found.append(Instruction(keyword, arguments.strip(), stage))
    return found


def final_stage(found: list[Instruction]) -> list[Instruction]:
    last = max(instruction.stage for instruction in found)
    return [instruction for instruction in found if instruction.stage == last]


def build_args(found: list[Instruction]) -> dict[str, str]:
    """The ARG defaults given before the first FROM."""
    args: dict[str, str] = {}
    for instruction in found:
        if instruction.keyword == "ARG" and instruction.stage == 0:
            name, _, default = instruction.arguments.partition("=")
            args[name] = default
    return args


def expand(value: str, variables: dict[str, str]) -> str:
    return re.sub(
        r"\$\{(\w+)\}|\$(\w+)",
        lambda match: variables.get(match.group(1) or match.group(2), ""),
        value,
    )


def image_env(found: list[Instruction], base: dict[str, str]) -> dict[str, str]:
    """The environment the final stage's ENV instructions set, over `base`."""
    env = dict(base)
    for instruction in final_stage(found):
        if instruction.keyword != "ENV":
            continue
        for pair in shlex.split(instruction.arguments):
            name, _, value = pair.partition("=")
            env[name] = expand(value, env)
    return env


def exec_form(instruction: Instruction) -> list[str]:
    """The JSON (exec) form of CMD / ENTRYPOINT / HEALTHCHECK CMD, as a list."""
    arguments = instruction.arguments
    if instruction.keyword == "HEALTHCHECK":
        arguments = arguments[arguments.index(" CMD ") + len(" CMD ") :]
    command = json.loads(arguments)
    assert isinstance(command, list)
    assert all(isinstance(part, str) for part in command)
    return command


def one(found: list[Instruction], keyword: str) -> Instruction:
    matching = [instruction for instruction in final_stage(found) if instruction.keyword == keyword]
    assert len(matching) == 1, f"one {keyword} in the final stage, found {len(matching)}"
    return matching[0]
