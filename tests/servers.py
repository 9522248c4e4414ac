"""Servers for the tests and the benches, on 127.0.0.1.

`Replica`: a `rummy serve` process, started, killed and restarted like an
orchestrator would; `rummy_serve` one ready for a block. The one place that
starts a server process and waits for it: tests/scale, tests/deploy,
tests/faults, tests/api and the benches (bench/load, bench/faults, bench/abuse)
all use it and `free_port`. Tests never import bench; the benches import
this module.

`serve(app)`: an app of this process served by uvicorn in a thread, on a
port the system picks (the stream tests).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
import uvicorn
from litestar import Litestar

from tests.rates import NO_RATE_LIMITS_ENV

STARTUP_SECONDS = 30.0
STOP_SECONDS = 10.0
"""How long a stopped server may take to go before its process group is killed."""
KEPT_LINES = 400
"""Output lines kept in memory for a server that writes no log file."""


def free_ports(count: int) -> list[int]:
    """`count` different ports of 127.0.0.1 the system has free now (all bound at
    once, so none is handed out twice)."""
    probes: list[socket.socket] = []
    try:
        for _ in range(count):
            probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            probes.append(probe)
            probe.bind(("127.0.0.1", 0))
        return [probe.getsockname()[1] for probe in probes]
    finally:
        for probe in probes:
            probe.close()


def free_port() -> int:
    return free_ports(1)[0]


def port_is_free(port: int) -> bool:
    """Whether `port` of 127.0.0.1 can be bound now (for a port a person chose)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


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
    """One `rummy serve` process, bound where `env` says (RUMMY_HOST must be
    127.0.0.1, RUMMY_PORT its port). Its output goes to `log`, or, without one,
    to memory (its last lines): a server whose file sizes a test limits
    (`RLIMIT_FSIZE`) could not write a log file."""

    name: str
    env: Mapping[str, str]
    log: Path | None = None
    command: list[str] = field(default_factory=lambda: [*rummy_command(), "serve"])
    cwd: Path | None = None
    """Where to run it (with `python -m`, the checkout whose code it runs)."""
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0
    lines: deque[str] = field(default_factory=lambda: deque(maxlen=KEPT_LINES))

    @property
    def port(self) -> int:
        return int(self.env["RUMMY_PORT"])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert self.env.get("RUMMY_HOST") == "127.0.0.1", "test servers bind 127.0.0.1 only"
        self.starts += 1
        if self.log is None:
            self.process = self._popen(subprocess.PIPE)
            threading.Thread(target=self._drain, args=(self.process,), daemon=True).start()
            return
        with self.log.open("ab") as out:
            out.write(f"--- start {self.starts} ---\n".encode())
            out.flush()
            self.process = self._popen(out)

    def _popen(self, out: int | IO[bytes]) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            self.command,
            env=dict(self.env),
            cwd=self.cwd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: its workers stop with it
        )

    def _drain(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            self.lines.append(line.decode(errors="replace").rstrip())

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
        stop_all([self])

    @property
    def pid(self) -> int:
        assert self.process is not None, "started"
        return self.process.pid

    def output(self, last: int | None = 4000) -> str:
        """The end of what it wrote (its `last` characters; None: all of it)."""
        if self.log is None:
            text = "\n".join(self.lines)
        else:
            text = self.log.read_text(encoding="utf-8", errors="replace")
        return text if last is None else text[-last:]


def stop_all(replicas: Sequence[Replica]) -> None:
    """Stop every replica at once: SIGTERM to each, then SIGKILL to the process
    group of any still there after `STOP_SECONDS`."""
    running = [r.process for r in replicas if r.process is not None and r.process.poll() is None]
    for process in running:
        process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    for process in running:
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


@contextmanager
def running_replicas(
    env: Mapping[str, str], count: int, logs: Path | None = None
) -> Iterator[list[Replica]]:
    """`count` replicas with `env` (each on a free port of its own; its output in
    `logs`/r<n>.log, or in memory), started all at once as pods of a Deployment are
    and ready; all stopped afterwards."""
    started = [
        Replica(
            f"replica-{n}",
            {**env, "RUMMY_PORT": str(free_port())},
            None if logs is None else logs / f"r{n}.log",
        )
        for n in range(count)
    ]
    try:
        for replica in started:
            replica.start()
        for replica in started:
            replica.wait_ready()
        yield started
    finally:
        stop_all(started)


@contextmanager
def rummy_serve(env: Mapping[str, str], code: Path | None = None) -> Iterator[Replica]:
    """A ready `rummy serve` on a free port of 127.0.0.1 with `env` (and no rate
    limits: one client makes the load of many), its output in memory; stopped
    afterwards. With `code`, the service's code from that checkout (to compare
    with older code)."""
    command = [*rummy_command(), "serve"]
    extra: dict[str, str] = {}
    if code is not None:
        command = [sys.executable, "-m", "service.cli", "serve"]
        extra["PYTHONPATH"] = str(code)
    served = Replica(
        "rummy serve",
        {
            **clean_environment(),
            **NO_RATE_LIMITS_ENV,
            **env,
            **extra,
            "RUMMY_HOST": "127.0.0.1",
            "RUMMY_PORT": str(free_port()),
        },
        command=command,
        cwd=code,  # `-m` looks in the working directory first
    )
    with ready(served):
        yield served


@contextmanager
def ready(replica: Replica) -> Iterator[Replica]:
    """`replica` started and ready for the block, stopped afterwards."""
    replica.start()
    try:
        replica.wait_ready()
        yield replica
    finally:
        replica.stop()


@contextmanager
def serve(app: Litestar, **options: Any) -> Iterator[str]:
    """The base URL of `app` served by uvicorn in a thread, until the block ends;
    `options` are uvicorn's (`service.api.transport.timeouts.server_options`)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app,
        **{
            "log_config": None,
            "lifespan": "on",
            "timeout_graceful_shutdown": 3,
            "loop": "uvloop",
            "http": "httptools",
            "ws": "none",
            **options,
        },
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
