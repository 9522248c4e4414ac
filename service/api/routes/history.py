"""The game's history: its events after a version, and its view as it was at one.

Reads only, each answered with its tag (a past version never changes, so a
replayed view shared with every caller of the kind is sent as it is). The
moves that make the history are the games resource's (routes/games.py); the
whole log as the referee reads it is the audit export's (routes/audit.py).
"""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter

from service.api import convert
from service.api import responses as out
from service.api.auth import replay_viewer, viewer_for
from service.api.deps import OPTIONAL_BEARER, Authorization, Services
from service.api.docs.responses import problems
from service.api.transport.conditional import (
    ETAG,
    NOT_MODIFIED,
    IfNoneMatch,
    etag,
    not_modified,
    page_tag,
    view_tag,
)
from service.api.transport.encoded_response import EncodedView
from service.config import MAX_EVENTS_PAGE
from service.domain.presets import MOST_PLAYERS
from service.projections.views import GameView


class HistoryController(Controller):
    path = "/games"
    tags = ["games"]  # noqa: RUF012 - litestar reads it as a class attribute

    @get(
        "/{game_id:uuid}/events",
        operation_id="listEvents",
        summary="The game's events after a version, redacted for the caller",
        description=(
            "Oldest first, each with its `version`; a player sees its own cards and every "
            "face-up card, the public no hidden card, the admin every card. Page with "
            "`after`: while `more` is true, ask again with `after` the last event's version. "
            "A newer service may add event types: skip an event whose `type` you do not know "
            "(the `UnknownEvent` schema)."
        ),
        responses={304: NOT_MODIFIED, **problems(401, 403, 404, 422)},
        response_headers=[ETAG],
        security=OPTIONAL_BEARER,
    )
    async def list_events(
        self,
        services: NamedDependency[Services],
        game_id: FromPath[UUID],
        after: Annotated[int, QueryParameter(ge=0, le=2**31)] = 0,
        limit: Annotated[
            int | None,
            QueryParameter(
                ge=1,
                le=MAX_EVENTS_PAGE,
                description=(
                    "At most this many (the first after `after`); without it, the "
                    "service's page size (1000 unless its operator set another). "
                    "`more` tells whether there are events after the page."
                ),
            ),
        ] = None,
        authorization: Authorization = None,
        if_none_match: IfNoneMatch = None,
    ) -> Response[out.EventsPage]:
        size = services.caps.events_page if limit is None else limit

        def work() -> Response[out.EventsPage]:
            state = services.games.state(game_id)
            viewer = viewer_for(state, authorization, services.admin_token)
            tag = page_tag(state.version, viewer, after, size)
            unchanged = not_modified(if_none_match, tag)
            if unchanged is not None:
                return unchanged
            # Only up to the version read: the page is what its tag says, even while
            # the game moves on.
            events = services.games.events_after(game_id, after, size, upto=state.version)
            chains = services.heads.after(services.games, game_id, events)
            page = convert.events_page(game_id, events, state, viewer, chains)
            return Response(page, headers=etag(tag))

        return await services.run(work, heavy=services.reads_many(game_id, after, size))

    @get(
        "/{game_id:uuid}/replay",
        operation_id="replayGame",
        summary="A view of the game as it was at a version",
        description=(
            "The view `getGame` gave this caller when the game was at `version`, rebuilt "
            "from the events (404 `version_not_found` past the game's version). With "
            "`seat`, that seat's view instead: anyone may ask any seat's once the game is "
            "finished (a viewer steps through it); before that only the seat's own player "
            "or the admin (else 401 without a token, 403 with another seat's)."
        ),
        responses={304: NOT_MODIFIED, **problems(401, 403, 404, 422)},
        response_headers=[ETAG],
        security=OPTIONAL_BEARER,
    )
    async def replay_game(
        self,
        services: NamedDependency[Services],
        game_id: FromPath[UUID],
        version: Annotated[int, QueryParameter(ge=1, le=2**31)],
        seat: Annotated[
            int | None,
            QueryParameter(
                ge=0,
                le=MOST_PLAYERS - 1,
                # litestar leaves a bound of 0 of an optional parameter out of the document.
                schema_extra={"minimum": 0},
                description=(
                    "Whose view (0 is the first seat; one the game does not have is 422): "
                    "without it, the caller's own (the public view without a token)."
                ),
            ),
        ] = None,
        authorization: Authorization = None,
        if_none_match: IfNoneMatch = None,
    ) -> Response[GameView]:
        def work() -> Response[GameView]:
            now = services.games.state(game_id)
            viewer = replay_viewer(now, authorization, services.admin_token, seat)
            tag = view_tag(version, viewer)
            # A version the game has reached never changes: no need to rebuild it to
            # know its tag (a later one is 404, below), nor to show a view made before.
            if version <= now.version:
                unchanged = not_modified(if_none_match, tag)
                if unchanged is not None:
                    return unchanged
                made = services.views.find(now, version, viewer)
                if made is not None:
                    return EncodedView(made, tag)
            then = services.games.state(game_id, version=version)
            return EncodedView(services.views.view(then, viewer), tag)

        # A past version is rebuilt from the store, event by event.
        return await services.run(work, heavy=True)
