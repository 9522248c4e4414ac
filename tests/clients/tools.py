"""What the client tests need from outside Python, and how they find it.

The npm tools (the two linters, openapi-typescript, openapi-fetch, TypeScript,
tsx; and axe-core, for the web client's accessibility test) are pinned in
package.json and package-lock.json beside this module and installed by `npm ci`
here (`.ci/run` does it). Without them, a developer's run skips these tests
and says how to install them; CI (`CI` set) fails instead, so a missing
install can never pass for green.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OPENAPI_PATH = ROOT / "openapi" / "openapi.json"
NODE_MODULES = HERE / "node_modules"
TOOL_SECONDS = 120.0
"""The most one generator, linter or compiler run may take (each takes seconds)."""


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


def unavailable(reason: str) -> None:
    """Skip the calling test with `reason`, or fail it in CI."""
    if in_ci():
        pytest.fail(f"{reason} (CI must have it: .ci/run installs it)", pytrace=False)
    pytest.skip(reason)


def npm_tool(name: str) -> Path:
    """The path of an installed npm tool of tests/clients/package.json."""
    if shutil.which("node") is None:
        unavailable("node is not installed")
    path = NODE_MODULES / ".bin" / name
    if not path.exists():
        unavailable(f"{name} is not installed: run `npm ci` in {HERE.relative_to(ROOT)}")
    return path


def quiet_environment() -> dict[str, str]:
    """This environment, with the tools' telemetry and update checks off (the
    machine reaches no network but the package registries)."""
    return {
        **os.environ,
        "REDOCLY_TELEMETRY": "off",
        "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true",
        "NO_UPDATE_NOTIFIER": "1",
        "NPM_CONFIG_UPDATE_NOTIFIER": "false",
    }


def run(command: Sequence[str | Path], cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run a tool to the end, its output captured."""
    return subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TOOL_SECONDS,
        env=quiet_environment(),
        check=False,
    )
