"""`GET /problems` and `GET /problems/{code}`: the pages problem `type` URIs name.

Each page is a small HTML document written from the code's row of the table
(service/api/docs/problem_types.py): its title, status, meaning and what to do.
Links between the pages are relative, so they work under any path the
service is served at (an address with a trailing slash is redirected to the
one without, where they resolve); the pages load nothing and run no script.
"""

from __future__ import annotations

import html
import re
from http import HTTPStatus
from typing import Any

from litestar import Controller, MediaType, Request, Response, get
from litestar.params import FromPath

from service.api.deps import NO_TOKEN
from service.api.docs.problem_types import PROBLEM_TYPES, ProblemType
from service.api.docs.responses import problem_spec
from service.api.errors import problem

_HEADERS = {"Content-Security-Policy": "default-src 'none'"}
"""The pages are text: nothing to load, nothing to run."""
_CODE_SPAN = re.compile(r"`([^`]+)`")


class ProblemPagesController(Controller):
    path = "/problems"
    tags = ["problems"]  # noqa: RUF012 - litestar reads it as a class attribute

    @get(
        "/",
        operation_id="listProblemTypes",
        summary="Every error code, with links to their pages",
        description=(
            "An HTML index of every `code` a problem+json body may carry, each linking to "
            "its page (the problem's `type`)."
        ),
        media_type=MediaType.HTML,
        response_description="The index, in HTML.",
        security=NO_TOKEN,
        sync_to_thread=False,
    )
    def list_problem_types(self, request: Request[Any, Any, Any]) -> Response[str]:
        slashless = _slashless(request)
        if slashless is not None:
            return slashless
        rows = "\n".join(
            f'<tr><td><a href="problems/{code}"><code>{code}</code></a></td>'
            f"<td>{row.status_line}</td><td>{_text(row.title)}</td></tr>"
            for code, row in sorted(PROBLEM_TYPES.items(), key=lambda item: item[1].status)
        )
        body = (
            "<p>Every error is <code>application/problem+json</code> with a stable "
            "<code>code</code>; its <code>type</code> is the page of that code.</p>\n"
            "<table>\n<tr><th>code</th><th>status</th><th>title</th></tr>\n"
            f"{rows}\n</table>"
        )
        return _page("Problem types", body)

    @get(
        "/{code:str}",
        operation_id="getProblemType",
        summary="What an error code means and what to do about it",
        description=(
            "The page a problem's `type` (`/problems/<code>`) names: the code's status, "
            "title, meaning and what a client does about it. 404 for a code the service "
            "never answers with."
        ),
        media_type=MediaType.HTML,
        response_description="The code's page, in HTML.",
        responses={404: problem_spec(404, "No such code (`not_found`).")},
        security=NO_TOKEN,
        sync_to_thread=False,
    )
    def get_problem_type(
        self, request: Request[Any, Any, Any], code: FromPath[str]
    ) -> Response[str]:
        slashless = _slashless(request)
        if slashless is not None:
            return slashless
        row = PROBLEM_TYPES.get(code)
        if row is None:
            raise problem(404, "not_found", f"There is no problem type {code!r}.")
        return _page(row.title, _described(code, row))


def _slashless(request: Request[Any, Any, Any]) -> Response[str] | None:
    """A redirect (308) to the page's address without the slash(es) it ends in, if it
    does: the pages' relative links are written for that address, and from
    `/problems/` the index's `problems/<code>` would be `/problems/problems/<code>`.
    Relative, as the links are, so it holds under any path the service is served at."""
    # As sent: litestar's routing has taken the trailing slash off `path`.
    raw: bytes | None = request.scope.get("raw_path")
    if raw is None:
        return None
    path = raw.decode("latin-1")
    trimmed = path.rstrip("/")
    if trimmed == path:
        return None
    slashes = len(path) - len(trimmed)
    target = "../" * slashes + trimmed.rsplit("/", 1)[-1]
    return Response("", status_code=HTTPStatus.PERMANENT_REDIRECT, headers={"Location": target})


def _described(code: str, row: ProblemType) -> str:
    return (
        "<dl>\n"
        f"<dt>code</dt><dd><code>{code}</code></dd>\n"
        f"<dt>status</dt><dd>{row.status_line}</dd>\n"
        f"<dt>meaning</dt><dd>{_text(row.meaning)}</dd>\n"
        f"<dt>what to do</dt><dd>{_text(row.todo)}</dd>\n"
        "</dl>\n"
        '<p><a href="../problems">Every problem type</a></p>'
    )


def _page(title: str, body: str) -> Response[str]:
    document = (
        '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title></head>\n"
        f"<body>\n<h1>{html.escape(title)}</h1>\n{body}\n</body>\n</html>\n"
    )
    return Response(document, media_type=MediaType.HTML, headers=_HEADERS)


def _text(text: str) -> str:
    """The table's text as HTML: escaped, with `code` spans."""
    return _CODE_SPAN.sub(r"<code>\1</code>", html.escape(text, quote=False))
