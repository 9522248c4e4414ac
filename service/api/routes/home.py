"""`GET /`: where a person who opens the service's address in a browser lands.

It sends them on to the interactive docs (302, so the docs may move without a
browser remembering the old place). It is no part of the contract, so it is
left out of the OpenAPI document: a client starts from `/schema/openapi.json`.
"""

from __future__ import annotations

from litestar import get
from litestar.response import Redirect

from service.api.docs.docs_page import DOCS_PATH


@get("/", include_in_schema=False, sync_to_thread=False)
def home() -> Redirect:
    return Redirect(path=DOCS_PATH)
