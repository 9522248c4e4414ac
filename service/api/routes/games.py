"""The games resource: create, join, view, act, leave.

Each handler reads its schema, calls the application, and answers with a view
(service/api/convert.py converts between them); store work runs as the
threading policy of service/api/deps.py says. The game's history (its events,
its replay) is read through routes/history.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Annotated
from uuid import UUID

from litestar import Controller, Response, get, post
from litestar.datastructures import ResponseHeader
from litestar.di import NamedDependency
from litestar.openapi.spec import Example
from litestar.params import FromPath, HeaderParameter, JSONBody

from service.api import convert
from service.api import responses as out
from service.api import schemas as s
from service.api.auth import require_admin_or_nobody, require_player, viewer_for
from service.api.deps import BEARER, NO_TOKEN, OPTIONAL_BEARER, Authorization, Services
from service.api.docs.responses import problems
from service.api.players import vouched_joiner, vouched_players
from service.api.transport.conditional import (
    ETAG,
    NOT_MODIFIED,
    IfNoneMatch,
    etag,
    not_modified,
    view_tag,
)
from service.api.transport.encoded_response import EncodedView
from service.game.results import GameState, PlayResult
from service.projections.shared import costly
from service.projections.views import PUBLIC, GameView, Viewer

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
CreationKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        required=False,
        min_length=16,
        max_length=255,
        description=(
            "Repeating a key with the same body returns the first outcome (the same game "
            "or seat, and the same tokens) and creates or joins nothing again, on any "
            "replica, after restarts; another body with it is 422 "
            "`idempotency_key_reused`. Whoever repeats the key gets the tokens: make it "
            "a fresh random value (a UUID) and keep it as secret as they are."
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


LOCATION = ResponseHeader(
    name="Location",
    description=(
        "The game: `/games/{game_id}` (relative to the service). A joined player reads "
        "its own view there with the token it was given."
    ),
    documentation_only=True,
)


def game_location(game_id: UUID) -> dict[str, str]:
    return {"Location": f"/games/{game_id}"}


@dataclass(frozen=True, slots=True)
class _Costly:
    """A view still to be made, in a worker thread (`projections.shared.costly`)."""

    state: GameState
    viewer: Viewer
    tag: str


def _view(
    services: Services, state: GameState, viewer: Viewer, tag: str, *, threaded: bool
) -> Response[GameView] | _Costly:
    """`viewer`'s view of `state`, shared with every caller of the kind at this version;
    left for a worker thread if it may take long and this runs on the event loop."""
    shown = services.views.shown(state)  # one look-up of its players, if it has any
    made = services.views.find(state, state.version, viewer, shown)
    if made is None and not threaded and costly(state.table, viewer):
        return _Costly(state, viewer, tag)
    return _json(made if made is not None else services.views.view(state, viewer, shown), tag)


async def _seat_request(
    services: Services,
    game_id: UUID,
    request: Callable[[], PlayResult],
    *,
    leaving: bool = False,
) -> Response[GameView]:
    """A seat's request (an action, a leave) run by the threading policy, answered with
    that seat's view of the game it made. Heavy where a bot may reply (`leaving`: the
    server's bot may take the seat and move at once): a bot never decides on the event
    loop."""
    heavy = services.games.moves_bots(game_id, leaving=leaving)

    def work() -> Response[GameView] | _Costly:
        done = request()
        viewer = Viewer(seat=done.seat)
        tag = view_tag(done.state.version, viewer)
        return _view(services, done.state, viewer, tag, threaded=services.threaded(heavy=heavy))

    return await _answer(services, await services.run(work, heavy=heavy))


async def _answer(services: Services, found: Response[GameView] | _Costly) -> Response[GameView]:
    """`found`, or the view it leaves to make, made in a worker thread."""
    if not isinstance(found, _Costly):
        return found
    view = await services.run(partial(services.views.view, found.state, found.viewer), heavy=True)
    return _json(view, found.tag)


def _json(view: bytes, tag: str) -> Response[GameView]:
    """A view already encoded, sent as it is with its tag."""
    return EncodedView(view, tag)


class GamesController(Controller):
    path = "/games"
    tags = ["games"]  # noqa: RUF012 - litestar reads it as a class attribute

    @post(
        "/",
        operation_id="createGame",
        summary="Create a game",
        status_code=201,
        responses=problems(401, 403, 409, 413, 422, 429),
        response_headers=[ETAG, LOCATION],
        description=(
            "Anyone may create a game, without a token. Its deals come from a seed the "
            "server commits to (`deal: commit_reveal`), unless the creator chooses them with "
            "`seed` or `decks` (`deal: explicit`): that only with every seat filled now (named "
            "players and bots), or with the admin token (else 403 `explicit_deal_forbidden`). "
            "A `client_seed` with `decks` is refused (409 `client_seed_not_used`): the decks "
            "would deal as given. Any token but the admin's is refused (401). The rules "
            "that span fields (how many seats, the dealer, the hand size) are in the "
            "`CreateGame` schema's description; breaking one is 422 `invalid_seating` or "
            "`invalid_rules`. The `ETag` is the public view's; with an `Idempotency-Key`, the "
            "key's first outcome is kept (see the header)."
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
            Example(
                summary="Wild: two jokers and deuces wild, swaps that must be melded at once",
                value={
                    "seats": 3,
                    "rules": {
                        "variant": "wild",
                        "jokers": 2,
                        "wild_rank": "2",
                        "swapped_wild": "meld_now",
                    },
                },
            ),
            Example(
                summary="Boathouse Rum, for two",
                value={
                    "players": [{"name": "Ann"}, {"name": "Bob"}],
                    "rules": {"variant": "boathouse"},
                },
            ),
            Example(
                summary="Knock Rummy, a bigger bonus for knocking with nothing left",
                value={"seats": 4, "rules": {"variant": "knock", "knock_bonus": 50}},
            ),
            Example(
                summary="Wrotham Rummy, six deals, swaps off",
                value={"seats": 3, "rules": {"variant": "wrotham", "swap": False}},
            ),
            Example(
                summary="Indian Rummy, Pool 101: one person against two bots",
                value={
                    "players": [
                        {"name": "Ann"},
                        {"name": "Bot B", "bot": "basic"},
                        {"name": "Bot C", "bot": "basic"},
                    ],
                    "rules": {"variant": "indian", "format": "pool_101"},
                },
            ),
            Example(
                summary="Gin Rummy, Oklahoma, to 150, against the basic bot",
                value={
                    "players": [{"name": "Ann"}, {"name": "Bot", "bot": "basic"}],
                    "rules": {"variant": "gin", "oklahoma": True, "target": 150},
                },
            ),
            Example(
                summary="500 Rum for five (two packs, 7 cards each), played to 300",
                value={"seats": 5, "rules": {"variant": "rummy500", "target": 300}},
            ),
        ],
    )
    async def create_game(
        self,
        services: NamedDependency[Services],
        data: JSONBody[s.CreateGame],
        authorization: Authorization = None,
        idempotency_key: CreationKey = None,
    ) -> Response[out.CreatedGame]:
        def work() -> Response[out.CreatedGame]:
            by_admin = require_admin_or_nobody(authorization, services.admin_token)
            vouched = vouched_players(services.players, data.players or [])
            new = convert.new_game(data, by_admin=by_admin, caps=services.caps, vouched=vouched)
            created = services.games.create_game(
                new, convert.creation_idempotency(idempotency_key, data)
            )
            headers = {
                **etag(view_tag(created.version, PUBLIC)),
                **game_location(created.game_id),
            }
            return Response(convert.created_game(created, data, vouched), headers=headers)

        # Heavy with a bot seated: the deal may be a bot's to play first.
        return await services.run(work, heavy=any(p.bot for p in data.players or ()))

    @post(
        "/{game_id:uuid}/players",
        operation_id="joinGame",
        summary="Join an open seat",
        status_code=201,
        responses=problems(401, 404, 409, 413, 422, 429),
        response_headers=[ETAG, LOCATION],
        throttle="join",
        security=NO_TOKEN,
        description=(
            "Take the first open seat. A `client_seed` is mixed into every deal from the "
            "first on; a game dealt from decks chosen at creation (its view says `deal: "
            "explicit` and its creation event names the decks) refuses one with 409 "
            "`client_seed_not_used` rather than ignore it. The `ETag` is the new "
            "player's view's; with an `Idempotency-Key`, the key's first outcome is kept "
            "(see the header)."
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
        idempotency_key: CreationKey = None,
    ) -> Response[out.JoinedSeat]:
        def work() -> Response[out.JoinedSeat]:
            wanted = convert.new_seat(data, vouched_joiner(services.players, data))
            joined = services.games.join_game(
                game_id, wanted, convert.creation_idempotency(idempotency_key, data)
            )
            headers = {
                **etag(view_tag(joined.version, Viewer(seat=joined.seat))),
                **game_location(game_id),
            }
            return Response(convert.joined_seat(game_id, joined), headers=headers)

        # Heavy where a bot may move (the last seat taken deals, and a bot may be first).
        return await services.run(work, heavy=services.games.moves_bots(game_id))

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
        responses={304: NOT_MODIFIED, **problems(401, 403, 404, 422)},
        response_headers=[ETAG],
        security=OPTIONAL_BEARER,
    )
    async def get_game(
        self,
        services: NamedDependency[Services],
        game_id: FromPath[UUID],
        authorization: Authorization = None,
        if_none_match: IfNoneMatch = None,
    ) -> Response[GameView]:
        heavy = services.rebuilds(game_id)

        def work() -> Response[GameView] | _Costly:
            state = services.games.state(game_id)
            viewer = viewer_for(state, authorization, services.admin_token)
            tag = view_tag(state.version, viewer)
            unchanged = not_modified(if_none_match, tag)
            if unchanged is not None:
                return unchanged
            return _view(services, state, viewer, tag, threaded=services.threaded(heavy=heavy))

        return await _answer(services, await services.run(work, heavy=heavy))

    @post(
        "/{game_id:uuid}/actions",
        operation_id="playActions",
        summary="Play one action, or a list applied all or nothing",
        description=(
            "A player's token plays for its seat: draw (`stock` or `discard`), meld, lay off, "
            "discard; in the variants also swap (a natural card for a wild in a meld), "
            "knock, and Indian Rummy's declare, submit_groups and drop; a type the game's "
            "variant lacks is 409 `not_in_variant`. In games with "
            "wild cards a meld or lay-off may say what each card stands for (`as`). A list "
            "is applied all or nothing, in order. The answer is the player's "
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
            Example(
                summary="Wild cards: a meld with a joker, saying what it stands for",
                value={"type": "meld", "cards": ["5H", "6H", "JK"], "as": ["5H", "6H", "7H"]},
            ),
            Example(
                summary="Wild cards: swap the natural card for the joker, then meld it",
                value=[
                    {"type": "swap", "meld_id": "h1-m1", "card": "7H"},
                    {"type": "meld", "cards": ["JK", "9S", "10S"], "as": ["8S", "9S", "10S"]},
                ],
            ),
            Example(summary="Knock Rummy: knock", value={"type": "knock", "card": "KD"}),
            Example(
                summary="Indian Rummy: declare, finishing with KD",
                value={
                    "type": "declare",
                    "card": "KD",
                    "groups": [
                        ["5S", "6S", "7S"],
                        ["9H", "10H", "JK"],
                        ["QC", "QD", "QS"],
                        ["2C", "2D", "2H", "3C"],
                    ],
                },
            ),
            Example(
                summary="Indian Rummy: show your groups after another player's declaration",
                value={"type": "submit_groups", "groups": [["3D", "4D", "5D"], ["8C", "8H", "JK"]]},
            ),
            Example(summary="Indian Rummy: drop the deal before drawing", value={"type": "drop"}),
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
        return await _seat_request(
            services,
            game_id,
            lambda: services.games.play(
                game_id,
                lambda game: require_player(game, authorization, services.admin_token),
                convert.actions(data),
                idempotency=convert.idempotency(idempotency_key, data),
                expected_version=convert.expected_version(if_match),
            ),
        )

    @post(
        "/{game_id:uuid}/leave",
        operation_id="leaveGame",
        summary="Leave the game, or resign it",
        description=(
            'A player\'s token leaves its seat for good. `{"resign": true}` concedes: a '
            "forfeit (the seat plays no more and cannot win). A plain leave follows the "
            "game's rule `abandon`: `bot` (the default), the server's bot plays the seat "
            "on; `forfeit`, as a resignation. "
            "The answer is the player's view, which its token can still read; the seat "
            "acts no more (409 `seat_left`, also for a second leave). docs/rules.md "
            '"Leaving and turn clocks" says what a forfeit does in each variant. '
            "`Idempotency-Key` and `If-Match` work as for actions. A leave that leaves no "
            "person to play answers at once, the game still `playing`: the server plays "
            "the bots out in the background, a move at a time (follow the game's stream)."
        ),
        status_code=200,
        responses=problems(401, 403, 404, 409, 412, 413, 422, 429),
        response_headers=[ETAG],
        throttle="action",
        security=BEARER,
        request_body_examples=[
            Example(summary="Leave (the rule `abandon` applies)", value={"resign": False}),
            Example(summary="Resign: concede the game", value={"resign": True}),
        ],
    )
    async def leave_game(
        self,
        services: NamedDependency[Services],
        game_id: FromPath[UUID],
        data: JSONBody[s.Leave],
        authorization: Authorization = None,
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> Response[GameView]:
        return await _seat_request(
            services,
            game_id,
            lambda: services.games.leave(
                game_id,
                lambda game: require_player(game, authorization, services.admin_token),
                resign=data.resign,
                idempotency=convert.leave_idempotency(idempotency_key, data),
                expected_version=convert.expected_version(if_match),
            ),
            leaving=not data.resign,
        )
