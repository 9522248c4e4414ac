"""The interactive docs page, served whole by this server.

`/schema` and `/schema/swagger` show Swagger UI. Its script, style sheet and
icon are the files of the `swagger-ui-py` package that uv.lock pins, served
from `/schema/assets/`; the page's own start-up script is
`static/swagger-init.js` beside this module. Nothing comes from a CDN, so the
page works offline, air-gapped and under the strict Content-Security-Policy
that every page and file under `/schema` carries (`DOCS_CSP`: only this
origin's files, no inline script or style, no other host to fetch from).

litestar's own pages (Redoc, Stoplight Elements, RapiDoc, and its Swagger
template) load their scripts from public CDNs and its Swagger template inlines
the document in a `<script>`, which a strict policy refuses: they are not
served (no PyPI package ships Redoc's or the others' files); their addresses,
and `/docs`, redirect to Swagger UI (308). The document itself stays at
`/schema/openapi.json` (and `.yaml`, `.yml`).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from importlib.metadata import distribution
from pathlib import Path
from typing import Any

from litestar import Request, Router, get
from litestar.constants import OPENAPI_JSON_HANDLER_NAME
from litestar.datastructures import ResponseHeader
from litestar.exceptions import NotFoundException
from litestar.openapi.plugins import (
    JsonRenderPlugin,
    OpenAPIRenderPlugin,
    YamlRenderPlugin,
)
from litestar.params import FromPath
from litestar.response import File, Redirect

SCHEMA_PATH = "/schema"
"""Where the OpenAPI document and the docs page are served."""
DOCS_PATH = f"{SCHEMA_PATH}/swagger"
"""The interactive docs page ("Try it out"), where `GET /` and the start line lead."""
ASSET_ROUTE = "docs-asset"
"""The name of the route that serves the page's files (for `route_reverse`)."""

DOCS_CSP = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        # Swagger UI's style sheet draws its arrows and checkmarks as data: SVGs.
        "img-src 'self' data:",
        # "Try it out" and the document itself: this server only.
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)
"""The Content-Security-Policy of every page and file under `/schema`."""

SWAGGER_UI = distribution("swagger-ui-py")
"""The PyPI package that ships Swagger UI's built files (uv.lock pins its version;
each of its releases carries one Swagger UI release)."""


@dataclass(frozen=True)
class _Asset:
    path: Path
    media_type: str


def _assets() -> dict[str, _Asset]:
    vendor = Path(str(SWAGGER_UI.locate_file("swagger_ui/static")))
    own = Path(__file__).with_name("static")
    assets = {
        "swagger-ui-bundle.js": _Asset(vendor / "swagger-ui-bundle.js", "text/javascript"),
        "swagger-ui.css": _Asset(vendor / "swagger-ui.css", "text/css"),
        "index.css": _Asset(vendor / "index.css", "text/css"),
        "favicon-32x32.png": _Asset(vendor / "favicon-32x32.png", "image/png"),
        "swagger-init.js": _Asset(own / "swagger-init.js", "text/javascript"),
    }
    missing = [str(asset.path) for asset in assets.values() if not asset.path.is_file()]
    if missing:
        # At start, not on the first visit: an install without them is broken.
        raise RuntimeError(f"The docs page's files are missing: {', '.join(missing)}")
    return assets


_ASSETS = _assets()


@get(
    "/assets/{file:str}",
    name=ASSET_ROUTE,
    sync_to_thread=False,
    include_in_schema=False,
)
def docs_asset(file: FromPath[str]) -> File:
    """One of the page's files; only those the page names are served."""
    asset = _ASSETS.get(file)
    if asset is None:
        raise NotFoundException(f"No docs asset named {file!r}.")
    return File(
        path=asset.path,
        media_type=asset.media_type,
        content_disposition_type="inline",
        # The files change with the lock (an upgrade): always ask again.
        headers={"Cache-Control": "no-cache"},
    )


DOCS_ALIASES = (
    "/docs",
    *(f"{SCHEMA_PATH}/{page}" for page in ("redoc", "elements", "rapidoc", "scalar")),
)
"""Where people and tools look for API docs (FastAPI's `/docs`, litestar's other
pages): each leads to the page there is, for good (308, Permanent Redirect)."""


@get(list(DOCS_ALIASES), include_in_schema=False, sync_to_thread=False)
def docs_aliases() -> Redirect:
    return Redirect(path=DOCS_PATH, status_code=308)


class SwaggerPage(OpenAPIRenderPlugin):
    """Swagger UI from `/schema/assets/`, started by a script file, never inline."""

    def __init__(self) -> None:
        super().__init__(path=["/swagger", "/"])

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        def asset(name: str) -> str:
            return escape(request.app.route_reverse(ASSET_ROUTE, file=name))

        title = escape(f"{openapi_schema['info']['title']}: API docs")
        document = escape(request.app.route_reverse(OPENAPI_JSON_HANDLER_NAME))
        return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" type="image/png" href="{asset("favicon-32x32.png")}">
<link rel="stylesheet" href="{asset("swagger-ui.css")}">
<link rel="stylesheet" href="{asset("index.css")}">
</head>
<body>
<div id="swagger-ui" data-openapi="{document}"></div>
<script src="{asset("swagger-ui-bundle.js")}"></script>
<script src="{asset("swagger-init.js")}"></script>
</body>
</html>
""".encode()

    def receive_router(self, router: Router) -> None:
        router.register(docs_asset)


def docs_pages() -> list[OpenAPIRenderPlugin]:
    """What `/schema` serves: the page (also at `/schema` itself) and the document."""
    return [SwaggerPage(), JsonRenderPlugin(), YamlRenderPlugin()]


def docs_router() -> Router:
    """The router litestar fills with `docs_pages()`, each answer under `DOCS_CSP`."""
    return Router(
        SCHEMA_PATH,
        route_handlers=[],
        include_in_schema=False,
        response_headers=[ResponseHeader(name="Content-Security-Policy", value=DOCS_CSP)],
    )
