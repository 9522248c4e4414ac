"""The README's two commands on a machine with nothing but python3.

`scripts/serve` and `scripts/test` find uv or install it into a virtual
environment of the project's own (.tools; Debian's system Python refuses
`pip install`, PEP 668), and each installs from uv.lock into an environment
of its own: the served one (.venv-runtime) holds the runtime dependencies,
the development one (.venv) the dev tools too, so serving never uninstalls
what testing installed, and the other way round.

The tests run the scripts in a copy of the project with a PATH of a few
commands only. The slow one (marked `slow`, about 10 s) installs for real:
uv from the package index, both environments from uv.lock (from uv's cache).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from service.api.docs.docs_page import DOCS_PATH
from service.webclient.served import PLAY_PATH
from tests.servers import Replica, free_port

ROOT = Path(__file__).resolve().parents[1]
SYSTEM_PYTHON = Path("/usr/bin/python3")
"""The distribution's Python: on Debian 12, externally managed, without uv."""
COMMANDS = ("bash", "dirname", "rm")
"""What the scripts run besides python3 and uv (the rest are bash builtins)."""


def project_copy(into: Path) -> Path:
    """The files the scripts and the package build read, copied into `into`."""
    copy = into / "project"
    copy.mkdir()
    for name in ("pyproject.toml", "uv.lock", "README.md"):
        shutil.copy2(ROOT / name, copy / name)
    for folder in ("scripts", "service"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def bare_path(into: Path, python3: Path | None) -> str:
    """A PATH of a folder holding only `COMMANDS` and, if given, `python3`: no uv."""
    folder = into / "bin"
    folder.mkdir()
    for command in COMMANDS:
        found = shutil.which(command)
        assert found is not None, command
        (folder / command).symlink_to(found)
    if python3 is not None:
        (folder / "python3").symlink_to(python3)
    return str(folder)


def environment(path: str) -> dict[str, str]:
    """This process's environment with `path` for PATH, and nothing that points uv
    or Python at this checkout's own environment."""
    kept = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("UV_", "VIRTUAL_ENV", "PYTHON", "RUMMY_", "POSTGRES_"))
    }
    return {**kept, "PATH": path}


def run(command: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def installed(venv: Path) -> set[str]:
    """The distributions installed in `venv` (from their metadata folders)."""
    [site] = venv.glob("lib/python3*/site-packages")
    return {
        re.split(r"-\d", entry.name, maxsplit=1)[0].lower().replace("_", "-")
        for entry in site.glob("*.dist-info")
    }


DEV_TOOLS = {"pytest", "mypy", "ruff", "hypothesis", "schemathesis"}


# --- cheap: what the scripts say when the machine lacks what they need ---------------------


def fake_python3(into: Path, script: str) -> Path:
    python3 = into / "fake-python3"
    python3.write_text(f"#!/bin/bash\n{script}\n", encoding="utf-8")
    python3.chmod(0o755)
    return python3


def test_without_python3_the_scripts_say_what_to_install(tmp_path: Path) -> None:
    copy = project_copy(tmp_path)
    env = environment(bare_path(tmp_path, None))
    for script in ("scripts/serve", "scripts/test"):
        ran = run([str(copy / script)], copy, env)
        assert ran.returncode == 1
        assert ran.stderr == (
            "rummy: python3 not found: install Python 3.11 or newer (Debian, Ubuntu: "
            "apt-get install python3 python3-venv), or uv\n"
        )
    assert not (copy / ".tools").exists()


def test_a_python3_without_venv_is_one_line_naming_the_package(tmp_path: Path) -> None:
    # Debian's python3 without the python3-venv package: `ensurepip` is missing.
    python3 = fake_python3(
        tmp_path,
        'if [ "$1" = -c ]; then echo "No module named ensurepip" >&2; exit 1; fi\n'
        'echo "python3 $*" >> "$(dirname "$0")/ran"; exit 1',
    )
    copy = project_copy(tmp_path)
    ran = run([str(copy / "scripts/serve")], copy, environment(bare_path(tmp_path, python3)))
    assert ran.returncode == 1
    assert ran.stderr == (
        "rummy: python3 cannot create a virtual environment: install python3-venv "
        "(apt-get install python3-venv), or uv\n"
    )
    assert not (tmp_path / "ran").exists(), "nothing was tried with pip or venv"


def test_the_pinned_uv_is_the_images(tmp_path: Path) -> None:
    script = (ROOT / "scripts" / "uv").read_text(encoding="utf-8")
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    [pinned] = re.findall(r"^UV_VERSION=(\S+)$", script, flags=re.MULTILINE)
    [image] = re.findall(r"^ARG UV_VERSION=(\S+)$", dockerfile, flags=re.MULTILINE)
    assert pinned == image


def test_ci_runs_the_readmes_test_command_with_every_suite() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    test_section = readme.split("## Test", 1)[1]
    block = test_section.split("```sh", 1)[1].split("```", 1)[0].strip()
    commands = [line.split("#", 1)[0].strip() for line in block.splitlines()]
    assert commands == ["scripts/test", "scripts/test --all"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().splitlines()[-1] == f"exec {commands[1]}"


# --- slow: the two commands for real, from nothing but python3 ------------------------------


@pytest.fixture
def fresh(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the project and an environment whose PATH has python3 (the
    distribution's) but no uv."""
    if not SYSTEM_PYTHON.exists():
        pytest.skip(f"no {SYSTEM_PYTHON}: not a Debian-like machine")
    copy = project_copy(tmp_path)
    return copy, environment(bare_path(tmp_path, SYSTEM_PYTHON))


@pytest.mark.slow
def test_serving_and_testing_install_from_python3_alone_and_never_undo_each_other(
    fresh: tuple[Path, dict[str, str]],
) -> None:
    copy, env = fresh
    # scripts/test's first step: uv installed into .tools, then .venv with the dev tools.
    tested = run([str(copy / "scripts/uv"), "sync", "--frozen", "--quiet"], copy, env)
    assert tested.returncode == 0, tested.stderr
    assert "installing uv" in tested.stderr
    assert (copy / ".tools" / "bin" / "uv").exists()
    dev = installed(copy / ".venv")
    assert dev >= DEV_TOOLS

    # scripts/serve while the development environment is there: its own environment.
    port = free_port()
    server = Replica(
        "scripts/serve",
        {**env, "RUMMY_HOST": "127.0.0.1", "RUMMY_PORT": str(port), "RUMMY_STORE": "memory"},
        command=[str(copy / "scripts/serve")],
        cwd=copy,
    )
    server.start()
    try:
        server.wait_ready(timeout=120)
        served = installed(copy / ".venv-runtime")
        assert "straight-rummy" in served
        assert not served & DEV_TOOLS, "the served environment holds no dev tools"
        assert installed(copy / ".venv") == dev, "serving changed the development environment"
        assert f"(play: {server.url}{PLAY_PATH}, docs: {server.url}{DOCS_PATH}" in (
            server.output(last=None)
        )

        # scripts/test's sync again, and a plain `uv run --frozen`, while it serves.
        again = run([str(copy / "scripts/uv"), "sync", "--frozen"], copy, env)
        assert again.returncode == 0, again.stderr
        used = run([str(copy / "scripts/uv"), "run", "--frozen", "rummy", "--help"], copy, env)
        assert used.returncode == 0, used.stderr
        for ran in (again, used):
            assert not re.search(r"(Uni|I)nstalled \d+ package", ran.stderr), ran.stderr
        assert installed(copy / ".venv-runtime") == served
        assert httpx.get(f"{server.url}/health").status_code == 200
    finally:
        stopped = server.terminate()  # SIGTERM, as an orchestrator stops it
        server.stop()
    assert stopped == 0
