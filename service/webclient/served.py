"""`/play`: the reference web client, a page of this server's own files.

The client is plain JavaScript modules, a style sheet and one HTML page in
`static/` beside this module, served as they are: no build step, nothing
from another host. The page talks to this same server through the public API
(docs/api.md) as any client would: `fetch` with the player's token for views
and actions, a stream ticket and `EventSource` for live updates. Its types are
the OpenAPI document's, checked by `tsc` in the tests (tests/webclient).

Every answer under `/play` carries `PLAY_CSP`: this origin's scripts, styles,
images and connections only, no inline code, no frames, no form posts (the
page sends JSON with `fetch`). Like `/`, `/play` is no part of the contract:
it is left out of the OpenAPI document.
"""

from __future__ import annotations

from pathlib import Path

from litestar import Router, get
from litestar.datastructures import ResponseHeader
from litestar.exceptions import NotFoundException
from litestar.params import FromPath
from litestar.response import File

PLAY_PATH = "/play"
"""Where a person opens the client (the `rummy serve` start line names it)."""

PLAY_CSP = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        # The API and its streams: this server only.
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)
"""The Content-Security-Policy of the page and of every file under `/play`."""

FILES = Path(__file__).with_name("static")
"""The client's files."""

_MEDIA_TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
}
"""What is served from `FILES`, by suffix; the rest there (the type declarations,
the tsconfig the tests check the modules with) is not."""


def _assets() -> dict[str, tuple[Path, str]]:
    found = {
        path.name: (path, _MEDIA_TYPES[path.suffix])
        for path in sorted(FILES.iterdir())
        if path.suffix in _MEDIA_TYPES and path.is_file()
    }
    if "main.js" not in found or not (FILES / "index.html").is_file():
        # At start, not on the first visit: an install without them is broken.
        raise RuntimeError(f"The web client's files are missing from {FILES}")
    return found


_ASSETS = _assets()

_NO_CACHE = {"Cache-Control": "no-cache"}
"""The files change with the service: a browser asks again (a 304 when unchanged)."""


@get("/", sync_to_thread=False)
def play_page() -> File:
    """The client's one page: the lobby, or a game with `?game=<id>`."""
    return File(
        path=FILES / "index.html",
        media_type="text/html",
        content_disposition_type="inline",
        headers=_NO_CACHE,
    )


@get("/assets/{file:str}", sync_to_thread=False)
def play_asset(file: FromPath[str]) -> File:
    """One of the client's modules, its style sheet or its icon."""
    asset = _ASSETS.get(file)
    if asset is None:
        raise NotFoundException(f"No web client file named {file!r}.")
    path, media_type = asset
    return File(
        path=path, media_type=media_type, content_disposition_type="inline", headers=_NO_CACHE
    )


def play_router() -> Router:
    """`/play` and `/play/assets/*`, each answer under `PLAY_CSP`."""
    return Router(
        PLAY_PATH,
        route_handlers=[play_page, play_asset],
        include_in_schema=False,
        response_headers=[
            ResponseHeader(name="Content-Security-Policy", value=PLAY_CSP),
            ResponseHeader(name="X-Content-Type-Options", value="nosniff"),
            ResponseHeader(name="Referrer-Policy", value="no-referrer"),
        ],
    )
