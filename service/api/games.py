"""The games resource: create, join, view, act, events, replay.

Each handler reads its schema, calls the application, and answers with a view
(service/api/convert.py converts between them); store work runs as the
threading policy of service/api/deps.py says.
"""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import Controller, Response, get, post
from litestar.di import NamedDependency
from litestar.openapi.spec import Example
from litestar.params import FromPath, HeaderParameter, JSONBody, QueryParameter

from service.api import convert
from service.api import schemas as s
from service.api.auth import require_admin_or_nobody, require_player, viewer_for
from service.api.deps import (
    BEARER,
    ETAG,
    NO_TOKEN,
    OPTIONAL_BEARER,
    Authorization,
    Services,
    etag,
)
from service.api.docs import problems
from service.config import MAX_EVENTS_PAGE
from service.projections.views import GameView, Viewer, game_view

IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        required=False,
        min_length=1,
        max_length=255,
        description=(
            "Repeating a key returns the first outcome (the view it led to, or "
            "the same refusal) and applies nothing again."
        ),
    ),
]
IfMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-Match",
        required=False,
        description='Act only if the game is still at this version (`"12"`); else 412.',
    ),
]


class GamesController(Controller):
    path = "/games"
    tags = ["games"]  # noqa: RUF012 - litestar reads it as a class attribute

    @post(
        "/",
        operation_id="createGame",
        summary="Create a game",
        status_code=201,
        responses=problems(401, 403, 409, 413, 422, 429),
        response_headers=[ETAG],
        description=(
            "Anyone may create a game, without a token. Its deals come from a seed the "
            "server commits to (`deal: commit_reveal`), unless the creator chooses them with "
            "`seed` or `decks` (`deal: explicit`): that only with every seat filled now (named "
            "players and bots), or with the admin token (else 403 `explicit_deal_forbidden`). "
            "A `client_seed` with `decks` is refused (409 `client_seed_not_used`): the decks "
            "would deal as given. Any token but the admin's is refused (401). The rules "
            "that span fields (how many seats, the dealer, the hand size) are in the "
            "`CreateGame` schema's description; breaking one is 422 `invalid_seating` or "
            "`invalid_rules`."
        ),
        throttle="create",
        security=OPTIONAL_BEARER,
        request_body_examples=[
            Example(
                summary="Two named players, classic rules",
                value={"players": [{"name": "Ann"}, {"name": "Bob"}]},
            ),
            Example(
                summary="Four open seats, house rules",
                value={"seats": 4, "rules": {"aces": "high_or_low", "target": 150}},
            ),
            Example(
                summary="Every seat named, a chosen seed (duplicate play)",
                value={"players": [{"name": "Ann"}, {"name": "Bob"}], "seed": "round-3-table-1"},
            ),
        ],
    )
    async def create_game(
        self,
        services: NamedDependency[Services],
        data: JSONBody[s.CreateGame],
        authorization: Authorization = None,
    ) -> Response[s.CreatedGame]:
        def work() -> Response[s.CreatedGame]:
            by_admin = require_admin_or_nobody(authorization, services.admin_token)
            new = convert.new_game(data, by_admin=by_admin, caps=services.caps)
            created = services.games.create_game(new)
            return Response(convert.created_game(created, data), headers=etag(created.version))

        return await services.run(work)

    @post(
        "/{game_id:uuid}/players",
        operation_id="joinGame",
        summary="Join an open seat",
        status_code=201,
        responses=problems(404, 409, 413, 422, 429),
        response_headers=[ETAG],
        throttle="join",
        security=NO_TOKEN,
        description=(
            "Take the first open seat. A `client_seed` is mixed into every deal from the "
            "first on; a game dealt from decks chosen at creation (its view says `deal: "
            "explicit` and its creation event names the decks) refuses one with 409 "
            "`client_seed_not_used` rather than ignore it."
        ),
        request_body_examples=[
            Example(summary="Join", value={"name": "Cleo"}),
            Example(
                summary="Join with your own entropy",
                value={"name": "Cleo", "client_seed": "cleo-entropy-9b21"},
            ),
        ],
    )
    async def join_game(
        self,
        services: NamedDependency[Services],
        game_id: FromPath[UUID],
        data: JSONBody[s.JoinGame],
    ) -> Response[s.JoinedSeat]:
        def work() -> Response[s.JoinedSeat]:
            joined = services.games.join_game(game_id, convert.new_seat(data))
            return Response(convert.joined_seat(game_id, joined), headers=etag(joined.version))

        return await services.run(work, heavy=services.rebuilds(game_id))

    @get(
        "/{game_id:uuid}",
        operation_id="getGame",
        summary="The game as the caller may see it",
        description=(
            "Without a token, the public view: every face-up card and the count of every "
            "hidden one. With a player's token, that player's view adds `my_seat`, `my_hand` "
            "and `legal` (what the player may do now: play one of these and the move is "
            "legal). With the admin token, `hidden` adds every face-down card."
        ),
        responses=problems(401, 403, 404),
        response_headers=[ETAG],
        security=OPTIONAL_BEARER,
    )
    async def get_game(
        self,
        services: NamedDependency[Services],
        game_id: FromPath[UUID],
        authorization: Authorization = None,
    ) -> Response[GameView]:
        def work() -> Response[GameView]:
            state = services.games.state(game_id)
            viewer = viewer_for(state, authorization, services.admin_token)
            return Response(game_view(state, viewer), headers=etag(state.version))

        return await services.run(work, heavy=services.rebuilds(game_id))

    @post(
        "/{game_id:uuid}/actions",
        operation_id="playActions",
        summary="Play one action, or a list applied all or nothing",
        description=(
            "A player's token plays for its seat: draw (`stock` or `discard`), meld, lay off, "
            "discard. A list is applied all or nothing, in order. The answer is the player's "
            "view after the last action (and any computer players' turns after it). A move "
            "the rules forbid now is 409 with the rule's `code`, and changes nothing. Send an "
            "`Idempotency-Key` to retry safely, `If-Match` to act only on the version you saw."
        ),
        status_code=200,
        responses=problems(401, 403, 404, 409, 412, 413, 422, 429),
        response_headers=[ETAG],
        throttle="action",
        security=BEARER,
        request_body_examples=[
            Example(summary="Draw from the stock", value={"type": "draw", "source": "stock"}),
            Example(summary="Lay a meld", value={"type": "meld", "cards": ["7H", "8H", "9H"]}),
            Example(
                summary="Lay off, then discard",
                value=[
                    {"type": "lay_off", "card": "10H", "meld_id": "h1-m1"},
                    {"type": "discard", "card": "KD"},
                ],
            ),
        ],
    )
    async def play_actions(
        self,
        services: NamedDependency[Services],
        game_id: FromPath[UUID],
        data: JSONBody[s.ActionBody],
        authorization: Authorization = None,
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> Response[GameView]:
        def work() -> Response[GameView]:
            played = services.games.play(
                game_id,
                lambda game: require_player(game, authorization, services.admin_token),
                convert.actions(data),
                idempotency=convert.idempotency(idempotency_key, data),
                expected_version=convert.expected_version(if_match),
            )
            view = game_view(played.state, Viewer(seat=played.seat))
            return Response(view, headers=etag(played.state.version))

        return await services.run(work, heavy=services.rebuilds(game_id))

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
        responses=problems(401, 403, 404, 422),
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
    ) -> Response[s.EventsPage]:
        size = services.caps.events_page if limit is None else limit

        def work() -> Response[s.EventsPage]:
            # Events first: the state read after them is at least as new, so the
            # page's version is never older than an event on it.
            events = services.games.events_after(game_id, after, size)
            state = services.games.state(game_id)
            viewer = viewer_for(state, authorization, services.admin_token)
            page = convert.events_page(game_id, events, state, viewer)
            return Response(page, headers=etag(state.version))

        return await services.run(work, heavy=services.reads_many(game_id, after, size))

    @get(
        "/{game_id:uuid}/replay",
        operation_id="replayGame",
        summary="The caller's view as it was at a version",
        description=(
            "The view `getGame` gave this caller when the game was at `version`, rebuilt "
            "from the events (404 `version_not_found` past the game's version)."
        ),
        responses=problems(401, 403, 404, 422),
        response_headers=[ETAG],
        security=OPTIONAL_BEARER,
    )
    async def replay_game(
        self,
        services: NamedDependency[Services],
        game_id: FromPath[UUID],
        version: Annotated[int, QueryParameter(ge=1, le=2**31)],
        authorization: Authorization = None,
    ) -> Response[GameView]:
        def work() -> Response[GameView]:
            now = services.games.state(game_id)
            viewer = viewer_for(now, authorization, services.admin_token)
            then = services.games.state(game_id, version=version)
            return Response(game_view(then, viewer), headers=etag(then.version))

        # A past version is rebuilt from the store, event by event.
        return await services.run(work, heavy=True)
