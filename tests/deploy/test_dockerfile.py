"""The Dockerfile, checked without a Docker engine (none runs here): hadolint,
then what the image promises: multi-stage from uv.lock, a pinned base, a
non-root user, a health check on /health, an entry command that exists."""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.deploy.dockerfile import (
    DOCKERFILE,
    DOCKERIGNORE,
    ROOT,
    build_args,
    exec_form,
    expand,
    final_stage,
    image_env,
    instructions,
    one,
)

FOUND = instructions()


def _hadolint() -> str:
    found = shutil.which("hadolint") or str(Path(sys.executable).with_name("hadolint"))
    if not Path(found).exists():
        pytest.fail("hadolint is missing: it comes with the dev group (`uv sync`).")
    return found


def test_hadolint_finds_nothing() -> None:
    result = subprocess.run(
        [_hadolint(), "--failure-threshold", "info", "--no-color", str(DOCKERFILE)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_hadolint_would_catch_a_bad_dockerfile(tmp_path: Path) -> None:
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python:latest\nRUN pip install uv\nCMD rummy serve\n", encoding="utf-8")
    result = subprocess.run(
        [_hadolint(), "--no-color", str(bad)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0
    assert "DL3007" in result.stdout  # latest
    assert "DL3013" in result.stdout  # unpinned pip install


def test_multi_stage_on_one_pinned_base() -> None:
    args = build_args(FOUND)
    stages = [instruction for instruction in FOUND if instruction.keyword == "FROM"]
    assert len(stages) >= 2, "a build stage and a runtime stage"
    assert all(" AS " in stage.arguments.upper() for stage in stages), "stages are named"
    for stage in stages:
        image = expand(stage.arguments.split()[0], args)
        name, _, tag = image.partition("@")[0].partition(":")
        assert name == "python", image
        # A full version (3.11.14), never a moving tag (latest, 3, 3.11).
        assert re.fullmatch(r"\d+\.\d+\.\d+-slim-\w+", tag), f"base image pinned: {image}"


def test_dependencies_come_from_the_lock_without_dev_tools() -> None:
    build = [instruction.arguments for instruction in FOUND if instruction.keyword == "RUN"]
    syncs = [command for command in build if "uv sync" in command]
    assert syncs, "the build runs uv sync"
    for command in syncs:
        assert "--frozen" in command, command
        assert "--no-dev" in command, command
    assert any("uv==" in command for command in build), "uv itself is pinned"
    copies = [instruction.arguments for instruction in FOUND if instruction.keyword == "COPY"]
    assert any("uv.lock" in copy for copy in copies)
    runtime_copies = [
        instruction.arguments for instruction in final_stage(FOUND) if instruction.keyword == "COPY"
    ]
    assert runtime_copies == ["--from=build /app/.venv /app/.venv"], "only the venv ships"


def test_runs_as_a_non_root_user() -> None:
    user = one(FOUND, "USER").arguments
    uid = user.split(":")[0]
    assert uid.isdigit(), f"a numeric uid: {user}"
    assert int(uid) >= 1000, f"a non-root uid: {user}"
    useradd = " ".join(
        instruction.arguments for instruction in final_stage(FOUND) if instruction.keyword == "RUN"
    )
    assert f"--uid {uid}" in useradd, "the user is created with that uid"
    # The Kubernetes manifests run the pod as the same uid.
    deployment = (ROOT / "deploy/k8s/deployment.yaml").read_text(encoding="utf-8")
    assert f"runAsUser: {uid}" in deployment


def test_health_check_asks_health() -> None:
    command = exec_form(one(FOUND, "HEALTHCHECK"))
    assert command[0] == "python"
    assert "/health" in " ".join(command)
    assert "--timeout=" in one(FOUND, "HEALTHCHECK").arguments


def test_entry_command_is_the_projects_own() -> None:
    command = exec_form(one(FOUND, "CMD"))
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "scripts"
    ]
    assert command[0] in scripts, f"{command[0]} is a console script of the project"
    assert command[1:] == ["serve"]
    assert one(FOUND, "STOPSIGNAL").arguments == "SIGTERM"


def test_image_environment_serves_on_its_port_with_a_shutdown_timeout() -> None:
    env = image_env(FOUND, {"PATH": "/usr/bin"})
    assert env["PATH"].startswith("/app/.venv/bin:")
    assert env["RUMMY_HOST"] == "0.0.0.0"
    assert one(FOUND, "EXPOSE").arguments == env["RUMMY_PORT"]
    # Below `docker stop`'s default 10 s, so in-flight requests finish before a kill.
    assert 0 < int(env["RUMMY_SHUTDOWN_TIMEOUT"]) < 10
    assert env["RUMMY_SQLITE_PATH"].startswith("/data/")
    assert '["/data"]' in one(FOUND, "VOLUME").arguments
    assert int(env["RUMMY_WORKERS"]) >= 1


def _ignored(path: str, patterns: list[str]) -> bool:
    """Docker's rule: the last matching pattern wins; `!` re-includes."""
    ignored = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        bare = pattern.lstrip("!").rstrip("/")
        parts = path.split("/")
        prefixes = ["/".join(parts[: index + 1]) for index in range(len(parts))]
        if any(fnmatch.fnmatch(prefix, bare) for prefix in prefixes) or fnmatch.fnmatch(
            path, bare.replace("**/", "*")
        ):
            ignored = not negated
    return ignored


def test_build_context_holds_what_the_build_copies_and_nothing_else() -> None:
    patterns = [
        line.strip()
        for line in DOCKERIGNORE.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    copied = [
        source
        for instruction in FOUND
        if instruction.keyword == "COPY" and "--from=" not in instruction.arguments
        for source in instruction.arguments.split()[:-1]
    ]
    assert copied
    for source in copied:
        assert (ROOT / source).exists(), source
        assert not _ignored(source, patterns), f"{source} is in the build context"
    assert not _ignored("service/api/app.py", patterns)
    for kept_out in (".venv/bin/python", ".git/HEAD", "rummy.sqlite", "tests/test_config.py"):
        assert _ignored(kept_out, patterns), f"{kept_out} stays out of the build context"
    assert _ignored("service/__pycache__/x.pyc", patterns)
