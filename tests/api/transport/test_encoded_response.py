"""The fence of `EncodedView` (service/api/transport/encoded_response.py): a view sent
by its own ASGI callable reaches the client as litestar's own `Response` for the same
view sends it (the same status, headers in the same order, body), through real
requests of the app, on every route that answers with a view. Should a litestar
upgrade change what its `Response` sends, this fails.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from unittest import mock

import httpx
import pytest
from litestar import Response
from litestar.enums import MediaType

from service.api.transport.conditional import etag
from service.api.transport.encoded_response import EncodedView, SendEncodedView
from tests.api.client import ADMIN, PUBLIC, Api, Game, Who

PER_REQUEST = b"x-request-id"
"""The one header that differs between two requests for the same thing."""

Exchange = tuple[int, list[tuple[bytes, bytes]], bytes]


def _litestars_own(self: EncodedView, app: Any, request: Any, **given: Any) -> Any:
    """What litestar's own `Response` for the view sends (its general path)."""
    own = Response(self.content, media_type=MediaType.JSON, headers=etag(self.tag))
    return own.to_asgi_response(app, request, **given)


def _exchange(response: httpx.Response) -> Exchange:
    headers = response.headers.raw
    assert sum(name == PER_REQUEST for name, _ in headers) == 1
    return (
        response.status_code,
        [(name, value) for name, value in headers if name != PER_REQUEST],
        response.content,
    )


def _both(ask: Callable[[], httpx.Response]) -> tuple[Exchange, Exchange]:
    """(ours, litestar's) for the same request, asked twice: first sent by litestar's
    `Response`, then by ours, refusing litestar's path (so ours is the one measured)."""
    with mock.patch.object(EncodedView, "to_asgi_response", _litestars_own):
        litestars = _exchange(ask())
    general = AssertionError("the view went litestar's general way")
    with mock.patch.object(Response, "to_asgi_response", side_effect=general):
        ours = _exchange(ask())
    return ours, litestars


@pytest.fixture
def game(api: Api) -> Game:
    """A game in play, a move made."""
    game = api.create(players=[{"name": "ann"}, {"name": "bob"}])
    seat = game.view(PUBLIC)["turn"]
    game.play(seat, {"type": "draw", "source": "stock"})
    return game


@pytest.mark.parametrize("who", [PUBLIC, 0, 1, ADMIN])
def test_a_game_view_is_sent_as_litestars_response_sends_it(game: Game, who: Who) -> None:
    ours, litestars = _both(lambda: game.get("", who))
    assert ours == litestars
    assert ours[0] == 200
    assert [name for name, _ in ours[1]] == [b"etag", b"content-type", b"content-length"]


def test_a_replay_is_sent_as_litestars_response_sends_it(game: Game) -> None:
    ours, litestars = _both(lambda: game.get("/replay", 0, version=2))
    assert ours == litestars
    assert ours[0] == 200


def test_an_actions_answer_is_sent_as_litestars_response_sends_it(game: Game) -> None:
    # The same key again answers with the view the first request led to.
    seat = game.view(PUBLIC)["turn"]
    view = game.view(seat)
    discard = {"type": "discard", "card": view["legal"]["discard"][0]}
    key = {"Idempotency-Key": "fence-of-the-encoded-view"}
    ours, litestars = _both(lambda: game.act(seat, discard, headers=key))
    assert ours == litestars
    assert ours[0] == 200


def test_the_view_is_made_as_litestars_response_makes_it() -> None:
    # Every field litestar's `Response.__init__` sets, set alike: what the general
    # path (a route that adds a header, a cookie, a task) reads of it.
    view, tag = b'{"version":3}', '"3.seat1"'
    ours = EncodedView(view, tag)
    litestars = Response(view, media_type=MediaType.JSON, headers=etag(tag))
    fields = {name for cls in type(litestars).__mro__ for name in getattr(cls, "__slots__", ())}
    assert fields, "litestar's Response keeps its fields in slots"
    for name in sorted(fields):
        assert getattr(ours, name) == getattr(litestars, name), name


def test_what_a_route_adds_goes_litestars_way() -> None:
    ours = EncodedView(b"{}", '"1"')
    request: Any = object()
    assert isinstance(ours.to_asgi_response(None, request), SendEncodedView)
    sent_generally: Any = object()
    with mock.patch.object(Response, "to_asgi_response", return_value=sent_generally) as general:
        for added in (
            {"headers": {"X-A": "1"}},
            {"cookies": [object()]},
            {"background": object()},
            {"encoded_headers": [(b"x-a", b"1")]},
            {"is_head_response": True},
            {"status_code": 201},
        ):
            assert ours.to_asgi_response(None, request, **added) is sent_generally, added
    assert general.call_count == 6
