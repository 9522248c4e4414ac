"""The shipped deploy/nginx.conf run by a real nginx (Debian's package) on a free
port of 127.0.0.1, in front of a service of the test; it needs no privilege (no
low port, no system file), so it runs as any user.

Only what ties the file to Docker is changed (tests/deploy/test_forwarded.py):
the replicas' names become the test's upstream, the listening port a free one,
Docker's resolver goes, the pid file and temporary files move to the test's
directory, one worker runs.
Every header and limit of the file is served as written. Without /usr/sbin/nginx
a test is skipped, unless RUMMY_REQUIRE_NGINX is set (.ci/run sets it and
installs the package): then it fails.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.servers import free_port, wait_ready

SHIPPED = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
APPENDED = "$proxy_add_x_forwarded_for"
"""The client's own `X-Forwarded-For`, then the address nginx saw."""


def nginx_binary() -> str:
    """nginx's path; skips the test without it, or fails it where it is required."""
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if found is None:
        message = "nginx is missing (apt-get install -y nginx)"
        if os.environ.get("RUMMY_REQUIRE_NGINX", "") not in ("", "0"):
            pytest.fail(f"RUMMY_REQUIRE_NGINX is set but {message}")
        pytest.skip(message)
    return found


def local_conf(shipped: str, upstream: str, port: int, work: Path) -> str:
    """`shipped` made to run here: its upstream servers all `upstream` (host:port), its
    server listening on 127.0.0.1:`port`, its files in `work`."""

    def replaced(pattern: str, replacement: str, text: str, count: int = 0) -> str:
        changed, found = re.subn(pattern, replacement, text, count=count, flags=re.M)
        assert found, f"deploy/nginx.conf no longer has {pattern!r}"
        return changed

    conf = replaced(r"^worker_processes .*;$", "worker_processes 1;", shipped)
    conf = replaced(r"^pid .*;$", f"pid {work / 'nginx.pid'};", conf)
    conf = replaced(r"^\s*resolver .*;$", "", conf)
    # Docker's names, re-resolved (`resolve`, nginx 1.27.3+), become the test's address.
    conf = replaced(r"server rummy-\d+:\d+ resolve", f"server {upstream}", conf)
    conf = replaced(r"^(\s*)listen \d+;$", rf"\1listen 127.0.0.1:{port};", conf)
    temporary = "".join(
        f"    {kind}_temp_path {work / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return replaced(r"^http \{\n", "http {\n" + temporary, conf, count=1)


@contextmanager
def shipped_nginx(upstream: str, work: Path, appending: bool = False) -> Iterator[str]:
    """The base URL of nginx running deploy/nginx.conf in front of `upstream`
    (host:port), until the block ends; its files in `work`. `appending`: its
    `X-Forwarded-For` appended to the client's, as ingress controllers may do."""
    binary = nginx_binary()
    port = free_port()
    shipped = SHIPPED.read_text(encoding="utf-8")
    if appending:
        header = "proxy_set_header X-Forwarded-For $remote_addr;"
        assert header in shipped
        shipped = shipped.replace(header, header.replace("$remote_addr", APPENDED))
    conf = work / "nginx.conf"
    conf.write_text(local_conf(shipped, upstream, port, work))
    log = work / "nginx.log"
    command = [binary, "-p", str(work), "-e", "stderr", "-c", str(conf), "-g", "daemon off;"]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{port}"
    try:
        # Ready when the service's /ready answers through it.
        wait_ready("nginx", url, process, log.read_text)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
