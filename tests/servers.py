"""Service processes for the tests: `rummy serve` on 127.0.0.1, started,
killed and restarted like an orchestrator would."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import httpx

STARTUP_SECONDS = 30.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def clean_environment() -> dict[str, str]:
    """This process's environment without any service setting."""
    return {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("RUMMY_", "POSTGRES_", "PG", "FORWARDED_ALLOW_IPS"))
    }


def rummy_command() -> list[str]:
    """`rummy`, the project's console script, from this interpreter's environment."""
    script = Path(sys.executable).with_name("rummy")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "service.cli"]


def wait_ready(
    name: str,
    url: str,
    process: subprocess.Popen[bytes],
    output: Callable[[], str],
    timeout: float = STARTUP_SECONDS,
) -> None:
    """Until `url` answers `/ready` 200; fails with `output()` if `process` exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"{name} exited at start:\n{output()}")
        try:
            if httpx.get(f"{url}/ready", timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{name} not ready in {timeout} s:\n{output()}")


@dataclass
class Replica:
    """One `rummy serve` process; its output goes to `log`."""

    name: str
    env: Mapping[str, str]
    log: Path
    command: list[str] = field(default_factory=lambda: [*rummy_command(), "serve"])
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0

    @property
    def port(self) -> int:
        return int(self.env["RUMMY_PORT"])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert self.env.get("RUMMY_HOST") == "127.0.0.1", "test servers bind 127.0.0.1 only"
        self.starts += 1
        with self.log.open("ab") as out:
            out.write(f"--- start {self.starts} ---\n".encode())
            out.flush()
            self.process = subprocess.Popen(
                self.command,
                env=dict(self.env),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_ready(self, timeout: float = STARTUP_SECONDS) -> None:
        assert self.process is not None
        wait_ready(self.name, self.url, self.process, self.output, timeout)

    def kill(self) -> None:
        """SIGKILL: no shutdown, connections and transactions cut mid-way."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=10)

    def terminate(self, timeout: float = 30.0) -> int:
        """SIGTERM, as an orchestrator stops a container; the exit code."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=timeout)

    def stop(self) -> None:
        """Whatever state it is in: gone afterwards (its whole process group)."""
        if self.process is None or self.process.poll() is not None:
            return
        try:
            self.terminate(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-4000:]
