"""The module servers import (`service.asgi:app`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.servers import clean_environment

PROBE = """
import gc
before = gc.get_freeze_count()
import service.asgi
print(before, gc.get_freeze_count(), type(service.asgi.app).__name__)
"""


def test_the_served_app_is_built_and_what_lives_for_ever_is_kept_out_of_collections(
    tmp_path: Path,
):
    env = {**clean_environment(), "RUMMY_STORE": "memory"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    before, after, app = done.stdout.split()
    assert app == "Litestar"
    assert int(before) == 0
    # The app and every module behind it: tens of thousands of objects.
    assert int(after) > 10_000
