"""Entity tags of the responses that show a game, and conditional GETs (RFC 9110 §8.8.3,
§13.1.2).

A strong entity tag must tell apart every representation of a resource, and
the same game at the same version is shown differently to each caller (a
player sees its own hand, the admin every hand) and, for an events page, by
`after` and the page size. So a tag names the version and the caller, and a
page's tag its query too; the version comes first, so each tag is also the
version to send in `If-Match` (convert.py reads it):

    "12"                         the public view at version 12
    "12.seat1"                   seat 1's view           ("12.admin": the admin's)
    "12.seat1.after0.limit1000"  seat 1's events page at version 12: after 0,
                                 at most 1000 events (the page size the server used)
    "12.audit-v1.<game id>"      the audit export at version 12, format v1 (every
                                 caller is shown the same; exports.py)

Under one caller and query, a version always shows the same: a view is a
function of the game at that version, and a page holds the events after
`after` up to that version (`HistoryController.list_events` reads them so), at
most the page size. A replay names the version it shows.

`If-None-Match` lists tags (any number of lines and commas) or is `*`; when
one matches the current tag (weak comparison: `W/` is ignored), the answer
is 304 with the tag and no body, decided from the version and the caller
before the view or the page is built.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from litestar import Response
from litestar.datastructures import ResponseHeader
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import HeaderParameter

from service.api.errors import problem
from service.projections.views import Viewer

TAG_SUFFIX = r"(\.(seat[0-9]{1,2}|admin|after[0-9]{1,12}|limit[0-9]{1,12}))*"
"""What follows the version in a tag this service gives (the If-Match pattern)."""
_TAG = r'(?:W/)?"([\x21\x23-\x7e\x80-\xff]*)"'
_TAGS = re.compile(_TAG)
_ITEM = r'((W/)?"[\x21\x23-\x7e\x80-\xff]*")?[ \t]*'
IF_NONE_MATCH_PATTERN = rf"^[ \t]*(\*|{_ITEM}(,[ \t]*{_ITEM})*)[ \t]*$"
"""`*`, or RFC 9110's `#entity-tag`: tags between commas, empty elements allowed
(several header lines arrive joined by commas). Anything else is refused (422
`invalid_request`); the OpenAPI document states the same pattern (openapi.py)."""

EXPORT_ETAG = ResponseHeader(
    name="ETag",
    description=(
        "The export's version, format and game: "
        '`"121.audit-v1.0b7e8f2c-5a1d-4c3e-9f60-2d8a7b1c4e95"` (the same for every caller). '
        "A finished game's never changes. Send it back in `If-None-Match` to get 304."
    ),
    documentation_only=True,
)
"""Documents the `ETag` of the audit export (exports.py names it)."""
ETAG = ResponseHeader(
    name="ETag",
    description='The game\'s version, quoted: `"12"` (the same for every caller).',
    documentation_only=True,
)
"""Documents the `ETag` of a response every caller is shown alike (the audit export)."""
ETAG = ResponseHeader(
    name="ETag",
    description=(
        'The version shown and who it is shown to: `"12"` (the public view), '
        '`"12.seat1"`, `"12.admin"`; an events page adds its query '
        '(`"12.seat1.after0.limit1000"`). Send it back in `If-None-Match` to get 304 '
        "while nothing changed, or in `If-Match` to act only on this version."
    ),
    documentation_only=True,
)
"""Documents the `ETag` of every response that shows a game."""

NOT_MODIFIED = ResponseSpec(
    data_container=None,
    description=(
        "Not Modified: `If-None-Match` names the current `ETag` (or is `*`); no body, "
        "the `ETag` again."
    ),
)
"""Documents the 304 of a conditional GET."""

IfNoneMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-None-Match",
        required=False,
        description=(
            "`ETag`s received before (a list), or `*`: if one is the current one, the "
            "answer is 304 with no body."
        ),
    ),
]


def view_tag(version: int, viewer: Viewer) -> str:
    """The tag of the view of a game at `version` as `viewer` sees it."""
    return f'"{version}{_caller(viewer)}"'


def page_tag(version: int, viewer: Viewer, after: int, size: int) -> str:
    """The tag of an events page: up to `size` events after `after`, of the game at
    `version`, as `viewer` sees them."""
    return f'"{version}{_caller(viewer)}.after{after}.limit{size}"'


def _caller(viewer: Viewer) -> str:
    if viewer.admin:
        return ".admin"
    return "" if viewer.seat is None else f".seat{viewer.seat}"


def etag(tag: str) -> dict[str, str]:
    """The headers of a response that carries `tag`."""
    return {"ETag": tag}


def not_modified(if_none_match: str | None, tag: str) -> Response[Any] | None:
    """304 if `If-None-Match` names `tag` (or is `*`: the game exists), else None."""
    if if_none_match is None or not _matches(if_none_match, tag):
        return None
    return Response(None, status_code=304, headers=etag(tag))


def _matches(if_none_match: str, tag: str) -> bool:
    if re.fullmatch(IF_NONE_MATCH_PATTERN, if_none_match) is None:
        raise problem(
            422,
            "invalid_request",
            f"If-None-Match must be `*` or a list of entity tags such as {tag}, "
            f"not {if_none_match!r}.",
        )
    if if_none_match.strip(" \t") == "*":
        return True
    # A quote only ever opens or closes a tag, so every quoted run is one.
    return tag.strip('"') in _TAGS.findall(if_none_match)
