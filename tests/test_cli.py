"""The `rummy` command as a newcomer meets it: `serve` says where it listens and
where the docs are, a port in use is one line, a slow store is never silent, and
`openapi` prints the document unless given a file."""

from __future__ import annotations

import errno
import io
import json
import os
import signal
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from service import bootstrap, cli
from service.api.docs.docs_page import DOCS_PATH
from service.config import Settings, Store
from service.webclient.served import PLAY_PATH
from tests.servers import free_port, rummy_serve


@pytest.fixture
def handed(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """What `rummy serve` hands uvicorn, which serves nothing here; the settings'
    environment cleared, and the test process's SIGTERM handler left alone."""
    for name in list(os.environ):
        if name.startswith(("RUMMY_", "POSTGRES_")):
            monkeypatch.delenv(name)
    handed: dict[str, Any] = {}

    def run(app: str, **options: Any) -> None:
        handed.update(options, app=app)
        # The socket it is given, as uvicorn takes it: bound, and already listening.
        with socket.socket(fileno=os.dup(options["fd"])) as given:
            handed["port"] = given.getsockname()[1]
            with socket.create_connection(("127.0.0.1", handed["port"]), timeout=5):
                pass

    monkeypatch.setattr(uvicorn, "run", run)
    monkeypatch.setattr(signal, "signal", lambda *args: None)
    # `rummy serve` passes its flags on to its workers as environment variables
    # (service/cli.py): put the environment back, or a later test serves on this
    # test's --host.
    before = dict(os.environ)
    yield handed
    os.environ.clear()
    os.environ.update(before)


def test_serve_says_in_one_line_where_it_listens_and_where_the_client_and_the_docs_are(
    handed: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    port = free_port()
    assert cli.main(["serve", "--port", str(port), "--store", "memory"]) == 0
    url = f"http://127.0.0.1:{port}"
    store = Settings(store=Store.MEMORY).describe_store()
    # On standard output: standard error is for the logs, JSON lines.
    said = capsys.readouterr()
    assert said.out.splitlines() == [
        f"rummy: serving on {url} (play: {url}{PLAY_PATH}, docs: {url}{DOCS_PATH}, store: {store})"
    ]
    assert said.err == ""
    assert handed["app"] == "service.asgi:app"
    assert handed["port"] == port, "uvicorn serves the socket the line speaks of"


def test_a_port_in_use_is_one_line_saying_how_to_choose_another(
    handed: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert cli.main(["serve", "--port", str(port), "--store", "memory"]) == 1
    assert capsys.readouterr().err == (
        f"rummy: port {port} is in use; choose another with --port or RUMMY_PORT\n"
    )
    assert handed == {}, "nothing was started"


def test_an_address_it_cannot_listen_on_is_one_line(
    handed: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    # TEST-NET-1 (RFC 5737): no interface of this machine has it.
    assert cli.main(["serve", "--host", "192.0.2.1", "--store", "memory"]) == 1
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("rummy: cannot listen on 192.0.2.1: ")
    assert line.endswith("choose another address with --host or RUMMY_HOST")
    assert handed == {}


def test_a_store_slow_to_open_is_said_while_it_is_awaited(
    handed: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    said = threading.Event()

    class Stdout(io.StringIO):
        def write(self, text: str) -> int:
            if "opening the event store" in text:
                said.set()
            return super().write(text)

    stdout = Stdout()
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(cli, "SLOW_STORE_SECONDS", 0.0)
    # A store that answers only once the service has said it is waiting for it.
    monkeypatch.setattr(bootstrap, "prepare_store", lambda settings: said.wait(timeout=30))
    assert cli.main(["serve", "--port", str(free_port()), "--store", "memory"]) == 0
    first, second = stdout.getvalue().splitlines()
    store = Settings(store=Store.MEMORY).describe_store()
    assert first == f"rummy: opening the event store ({store})..."
    assert second.startswith("rummy: serving on ")


def test_the_readme_shows_the_lines_a_default_start_and_a_port_in_use_print() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    defaults = Settings.from_env({})
    assert f"rummy: {cli._serving(defaults, defaults.port)}" in readme
    in_use = cli._cannot_listen(defaults, OSError(errno.EADDRINUSE, "Address already in use"))
    assert f"rummy: {in_use}" in " ".join(readme.split())


def test_a_real_start_prints_the_line_first_and_its_links_lead_to_the_client_and_the_docs() -> None:
    with rummy_serve({"RUMMY_STORE": "memory"}) as server:
        lines = server.output(last=None).splitlines()
        first = lines[0]
        url = server.url
        assert first == (
            f"rummy: serving on {url} (play: {url}{PLAY_PATH}, docs: {url}{DOCS_PATH}, "
            f"store: {Settings(store=Store.MEMORY).describe_store()})"
        )
        for name in ("play", "docs"):
            link = first.split(f"{name}: ", 1)[1].split(",", 1)[0]
            answer = httpx.get(link)
            assert answer.status_code == 200, name
            assert answer.headers["content-type"].startswith("text/html"), name
        home = httpx.get(f"{url}/")
        assert home.status_code == 302
        assert home.headers["location"] == DOCS_PATH


# --- rummy openapi ---------------------------------------------------------------------------


def test_openapi_prints_the_document_and_writes_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(["openapi"]) == 0
    assert capsys.readouterr().out == cli.openapi_document()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("form", [["{path}"], ["--output", "{path}"], ["-o", "{path}"]])
def test_openapi_writes_the_file_it_is_given(
    form: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "openapi" / "openapi.json"
    assert cli.main(["openapi", *(part.format(path=path) for part in form)]) == 0
    assert path.read_text(encoding="utf-8") == cli.openapi_document()
    assert json.loads(path.read_text(encoding="utf-8"))["openapi"]
    assert capsys.readouterr().out == ""
