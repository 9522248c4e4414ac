"""The image itself: built from the Dockerfile and run, without a Docker engine
(`scripts/image`: a debootstrap base with Python, buildah with chroot isolation
and vfs storage, the image's root file system run with chroot as its user).

Its entry command, as the image's user (uid 10001) inside the image's file
system, with the image's environment only, answers /health and /ready and
plays a whole game (a person against a bot) over HTTP; SIGTERM stops it with
exit code 0 and its working container is removed.

Needs root, buildah and debootstrap (`scripts/image build` installs the two);
skipped without them, unless RUMMY_REQUIRE_IMAGE is set (.ci/run sets it):
then it fails. The `image` suite (tests/suites.py): `scripts/test` leaves it
out, `scripts/test --all` runs it.

Budget: under 5 minutes with a warm cache (the base image kept in
/var/cache/rummy-image). Measured on the shared 2-core machine (2026-12-02)
at a load of 8: the build 134 s (the dependencies come from the package
index each time), ready 28 s after the start (vfs storage copies the image
for the working container), the game 2 s, the stop 4 s: 183 s; at a load of
12: 208, 43, 2 and 21 s: 297 s. The first build on a machine makes the base
first (debootstrap: 2 to 4 min more).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
import tomllib
from pathlib import Path
from random import Random

import httpx
import pytest

from tests.deploy.dockerfile import ROOT
from tests.offered import offered_actions
from tests.rates import NO_RATE_LIMITS_ENV
from tests.servers import Replica, clean_environment, free_port

pytestmark = [pytest.mark.image, pytest.mark.xdist_group("image")]
"""In one pytest-xdist group: the module builds the image once, for all its tests."""

SCRIPT = ROOT / "scripts" / "image"
BUILD_SECONDS = 900
START_SECONDS = 180
IMAGE_USER = "10001"
HUMAN, BOT = 0, 1


def _required() -> bool:
    return os.environ.get("RUMMY_REQUIRE_IMAGE", "") not in ("", "0")


def _missing() -> str | None:
    """Why the image cannot be built here, or None."""
    if os.geteuid() != 0:
        return "building and running the image needs root"
    for tool in ("buildah", "debootstrap"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (`scripts/image build` installs it)"
    return None


def _script_environment() -> dict[str, str]:
    env = clean_environment()
    if "RUMMY_IMAGE_CACHE" in os.environ:
        env["RUMMY_IMAGE_CACHE"] = os.environ["RUMMY_IMAGE_CACHE"]
    return env


@pytest.fixture(scope="module")
def image() -> str:
    """The image's tag, built now."""
    missing = _missing()
    if missing is not None and not _required():
        pytest.skip(missing)
    began = time.monotonic()
    built = subprocess.run(
        [str(SCRIPT), "build"],
        env=_script_environment(),
        capture_output=True,
        text=True,
        timeout=BUILD_SECONDS,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    took = re.search(r"built \S+ in (\d+) s", built.stderr)
    assert took is not None, built.stderr
    print(f"image built in {took.group(1)} s ({time.monotonic() - began:.0f} s in all)")
    tag = built.stdout.strip()
    with (ROOT / "pyproject.toml").open("rb") as file:
        version = tomllib.load(file)["project"]["version"]
    assert tag == f"localhost/straight-rummy:{version}", "tagged with the package's version"
    return tag


def _server_process(script_pid: int) -> int:
    """The process `scripts/image run` started (chroot execs the entry command)."""
    children = Path(f"/proc/{script_pid}/task/{script_pid}/children").read_text().split()
    assert len(children) == 1, children
    return int(children[0])


def _identity(pid: int) -> tuple[str, str, str]:
    """The process's real uid, real gid and supplementary groups."""
    status = Path(f"/proc/{pid}/status").read_text()
    fields = dict(re.findall(r"^(Uid|Gid|Groups):[ \t]*(.*)$", status, flags=re.MULTILINE))
    return fields["Uid"].split()[0], fields["Gid"].split()[0], fields["Groups"].strip()


def _plays_a_whole_game(url: str) -> int:
    """A person against a `basic` bot, to the end; the number of the person's actions."""
    with httpx.Client(base_url=url, timeout=10) as client:
        created = client.post(
            "/games",
            json={"players": [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}], "seed": "image"},
        )
        assert created.status_code == 201, created.text
        body = created.json()
        game = f"/games/{body['game_id']}"
        auth = {"Authorization": f"Bearer {body['players'][0]['token']}"}
        rng = Random(27)
        view = client.get(game, headers=auth).json()
        actions = 0
        while view["status"] == "playing":
            assert view["turn"] == HUMAN, "the bot has replied by the time an action ends"
            action = rng.choice(offered_actions(view))
            answer = client.post(f"{game}/actions", json=action, headers=auth)
            assert answer.status_code == 200, answer.text
            view = answer.json()
            actions += 1
            assert actions < 5000, "the game ends"
        assert view["status"] == "finished"
        assert view["winner"] in (HUMAN, BOT)
        events = client.get(f"{game}/events", headers=auth)
        assert events.status_code == 200, events.text
    return actions


def test_the_built_image_serves_a_whole_game_as_its_own_user(image: str, tmp_path: Path) -> None:
    port = free_port()
    settings = {**NO_RATE_LIMITS_ENV, "RUMMY_HOST": "127.0.0.1", "RUMMY_PORT": str(port)}
    command = [str(SCRIPT), "run"]
    for name, value in settings.items():
        command += ["-e", f"{name}={value}"]
    replica = Replica(
        "image",
        {**_script_environment(), **settings},
        tmp_path / "image.log",
        command=[*command, image],
    )
    began = time.monotonic()
    replica.start()
    try:
        replica.wait_ready(timeout=START_SECONDS)
        print(f"ready {time.monotonic() - began:.0f} s after `scripts/image run`")
        server = _server_process(replica.pid)
        uid, gid, groups = _identity(server)
        assert (uid, gid) == (IMAGE_USER, IMAGE_USER), "the image's USER, not root"
        assert set(groups.split()) <= {IMAGE_USER}, f"no other group: {groups}"
        file_system = os.readlink(f"/proc/{server}/root")
        assert file_system != "/", "inside the image's root file system"
        assert Path(file_system, "app/.venv/bin/rummy").exists()

        for path in ("/health", "/ready"):
            response = httpx.get(f"{replica.url}{path}", timeout=5)
            assert response.status_code == 200, (path, response.text)
        actions = _plays_a_whole_game(replica.url)
        print(f"a whole game played, {actions} actions by the person")
        assert Path(file_system, "data/rummy.sqlite").exists(), "the events in the image's /data"

        stopping = time.monotonic()
        code = replica.terminate(timeout=60)
        assert code == 0, replica.output()
        print(f"stopped in {time.monotonic() - stopping:.1f} s")
    finally:
        replica.stop()
    assert not Path(file_system).exists(), "the working container is removed"
    assert "Finished server process" in replica.output()
