"""The web client listens for every event type the document names, and tells each
in its log: a type it had no listener for was silently skipped (the `game_aborted`
that ends a capped game, once)."""

from __future__ import annotations

import json
import re

from service.webclient.served import FILES
from tests.clients.tools import OPENAPI_PATH


def _document_event_types() -> set[str]:
    """The types of the document's event union (a game's events: the stream's), not the
    webhooks' filters, which also name matchmaking's `match_found`."""
    document = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))
    return set(document["components"]["schemas"]["KnownEvent"]["discriminator"]["mapping"])


def test_the_stream_listens_for_every_event_type_of_the_document() -> None:
    source = (FILES / "stream.js").read_text(encoding="utf-8")
    listed = re.search(r"export const EVENT_TYPES = \[(.*?)\];", source, re.S)
    assert listed is not None, "stream.js lists the types it listens for"
    assert set(re.findall(r'"(\w+)"', listed.group(1))) == _document_event_types()


def test_the_log_tells_every_event_type_but_the_creation_in_words() -> None:
    source = (FILES / "log.js").read_text(encoding="utf-8")
    told = set(re.findall(r'case "(\w+)":', source))
    assert _document_event_types() - told <= {"game_created"}
