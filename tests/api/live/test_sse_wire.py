"""The fence of the live stream's own response (service/api/live/stream.py, `_Stream`): the
messages, comments and headers it writes by hand are what litestar's
`ServerSentEvent` and `ServerSentEventMessage`, which it replaces, write for the same
content. Should a litestar upgrade change the wire format, this fails.
"""

from __future__ import annotations

import msgspec
import pytest
from litestar.response.sse import ServerSentEvent, ServerSentEventMessage

from service.api.live.stream import HEADERS, HEARTBEAT, MEDIA_TYPE, UNAVAILABLE, message

EVENTS = [
    (1, "game_created", {"type": "game_created", "version": 1, "seats": ["Ann", "Zoë"]}),
    (5, "card_drawn", {"type": "card_drawn", "version": 5, "seat": 1, "source": "stock"}),
    (9, "view", {"version": 9, "my_hand": ["10H", "JK"], "name": 'two\nlines, ♠ and "quotes"'}),
]


@pytest.mark.parametrize(("version", "name", "data"), EVENTS)
def test_a_message_is_written_as_litestar_writes_it(version: int, name: str, data: object) -> None:
    encoded = msgspec.json.encode(data)
    assert b"\n" not in encoded, "msgspec escapes line breaks: the data is one line"
    litestars = ServerSentEventMessage(data=encoded.decode(), event=name, id=version).encode()
    assert message(version, name, encoded) == litestars


def test_comments_are_written_as_litestar_writes_them() -> None:
    heartbeat = ServerSentEventMessage(comment="heartbeat", data=None).encode()
    unavailable = ServerSentEventMessage(comment="store unavailable", data=None).encode()
    assert (heartbeat, unavailable) == (HEARTBEAT, UNAVAILABLE)


def test_the_headers_are_litestars() -> None:
    litestars = ServerSentEvent(content="")
    assert litestars.media_type == MEDIA_TYPE
    assert dict(litestars.headers) == HEADERS
