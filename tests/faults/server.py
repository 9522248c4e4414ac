"""`rummy serve` as a process of its own, its output kept in memory.

The SQLite fault test limits the size of the files the server may write
(`RLIMIT_FSIZE`): its output goes to a pipe, which no such limit touches,
rather than to a log file as tests/servers.py's `Replica` writes it.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections import deque
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.rates import NO_RATE_LIMITS_ENV
from tests.servers import clean_environment, free_port, rummy_command, wait_ready


@dataclass
class Served:
    url: str
    process: subprocess.Popen[bytes]
    output: deque[str]

    def log(self) -> str:
        return "\n".join(self.output)


@contextmanager
def rummy_serve(env: Mapping[str, str], code: Path | None = None) -> Iterator[Served]:
    """A ready `rummy serve` on 127.0.0.1 with `env`, stopped afterwards; the
    service's code from the checkout `code` if given (to compare with older code)."""
    port = free_port()
    command = [*rummy_command(), "serve"]
    extra: dict[str, str] = {}
    if code is not None:
        command = [sys.executable, "-m", "service.cli", "serve"]
        extra["PYTHONPATH"] = str(code)
    process = subprocess.Popen(
        command,
        env={
            **clean_environment(),
            # The fault tests drive the load of many clients from one address.
            **NO_RATE_LIMITS_ENV,
            **env,
            **extra,
            "RUMMY_HOST": "127.0.0.1",
            "RUMMY_PORT": str(port),
        },
        cwd=code,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    assert process.stdout is not None
    output: deque[str] = deque(maxlen=400)
    stdout = process.stdout

    def drain() -> None:
        for line in stdout:
            output.append(line.decode(errors="replace").rstrip())

    threading.Thread(target=drain, daemon=True).start()
    served = Served(url=f"http://127.0.0.1:{port}", process=process, output=output)
    try:
        wait_ready("rummy serve", served.url, process, served.log)
        yield served
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
