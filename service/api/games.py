"""The games resource: create, join, view, act, events, replay."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, TypeVar
from uuid import UUID

import anyio.to_thread
import msgspec
from litestar import Controller, Response, get, post
from litestar.datastructures import ResponseHeader
from litestar.di import NamedDependency
from litestar.openapi.spec import Example
from litestar.params import FromPath, HeaderParameter, JSONBody, QueryParameter

from service.api.auth import require_admin_or_nobody, require_player, viewer_for
from service.api.caps import Caps
from service.api.docs import problems
from service.api.errors import problem
from service.api.schemas import (
    Action,
    ActionBody,
    CreatedGame,
    CreateGame,
    DiscardAction,
    DrawAction,
    JoinedSeat,
    JoinGame,
    LayOffAction,
    MeldAction,
    SeatToken,
)
from service.config import MAX_EVENTS_PAGE
from service.domain import actions as domain
from service.domain.cards import Card
from service.domain.errors import InvalidSeating
from service.domain.rules import RuleSet
from service.domain.state import Source
from service.game.application import RummyApplication
from service.game.commands import Idempotency, NewGame, NewSeat
from service.game.results import GameState
from service.projections.events import EventView, event_view
from service.projections.views import GameView, Viewer, game_view

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Services:
    """What the handlers need: the application, the admin token (None: admin off),
    this deployment's caps and the metrics token."""

    games: RummyApplication
    admin_token: str | None
    caps: Caps
    inline: bool = False
    """Run small store calls on the event loop. Right for the embedded stores:
    their calls never wait on a network, and a worker thread beside the loop costs
    more in contention for the interpreter lock than it could overlap."""
    metrics_token: str | None = None
    """None: `/metrics` is public."""

    async def run(self, work: Callable[[], T], *, heavy: bool = False) -> T:
        """Do blocking store work: inline, or in a worker thread (PostgreSQL, and any
        `heavy` work, whose cost grows with the game: on the loop it would stall every
        other request, `/health` too)."""
        if self.inline and not heavy:
            return work()
        return await anyio.to_thread.run_sync(work)

    def rebuilds(self, game_id: UUID) -> bool:
        """Whether reading `game_id` means rebuilding it from the store (heavy)."""
        return self.games.cached_version(game_id) is None

    def reads_many(self, game_id: UUID, after: int, limit: int) -> bool:
        """Whether a page of events is heavy: more than `INLINE_EVENTS`, or unknown."""
        version = self.games.cached_version(game_id)
        return version is None or min(limit, version - after) > INLINE_EVENTS


INLINE_EVENTS = 100
"""The most events a page may hold and still be read on the event loop (about 2 ms)."""


class EventsPage(msgspec.Struct, kw_only=True):
    game_id: str
    version: int
    """The game's version now; the last event may be older when the page is full."""
    events: list[EventView]
    more: bool
    """Whether the game has events after this page's last: ask again with `after` its
    version (a page holds `limit` events, or the service's page size without one)."""


ETAG = ResponseHeader(
    name="ETag", description='The game\'s version, quoted: `"12"`.', documentation_only=True
)
Authorization = Annotated[
    str | None,
    HeaderParameter(
        name="Authorization",
        required=False,
        description="`Bearer <token>`: a player token, the admin token, or none (public).",
    ),
]

AdminAuthorization = Annotated[
    str | None,
    HeaderParameter(
        name="Authorization",
        required=False,
        description=(
            "`Bearer <admin token>`, which lets a game with open seats have a chosen deal "
            "(`seed` or `decks`); or none. Any other token is refused (401)."
        ),
    ),
]


def _etag(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


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
            "would deal as given. Any token but the admin's is refused (401)."
        ),
        throttle="create",
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
        data: JSONBody[CreateGame],
        authorization: AdminAuthorization = None,
    ) -> Response[CreatedGame]:
        def work() -> Response[CreatedGame]:
            by_admin = require_admin_or_nobody(authorization, services.admin_token)
            named = data.players or []
            seats = data.seats if data.seats is not None else len(named)
            if seats < len(named):
                raise InvalidSeating(f"{len(named)} players were named for only {seats} seats.")
            wanted: list[NewSeat | None] = [
                NewSeat(name=player.name, client_seed=player.client_seed or "", bot=player.bot)
                for player in named
            ]
            wanted.extend([None] * (seats - len(named)))
            services.caps.check_decks(len(data.decks or []))
            given = data.rules.given() if data.rules is not None else {}
            services.caps.check_rules(given)
            rules = RuleSet.from_dict(given)
            decks = [[Card.parse(code) for code in deck] for deck in data.decks or []]
            created = services.games.create_game(
                NewGame(
                    seats=wanted,
                    rules=rules,
                    seed=data.seed,
                    decks=decks,
                    dealer=data.dealer,
                    by_admin=by_admin,
                )
            )
            body = CreatedGame(
                game_id=str(created.game_id),
                players=[
                    SeatToken(seat=seat, name=named[seat].name, token=token)
                    for seat, token in sorted(created.tokens.items())
                ],
                version=created.version,
                seed_commitment=created.seed_commitment,
                deal=created.deal,
            )
            return Response(body, headers=_etag(created.version))

        return await services.run(work)

    @post(
        "/{game_id:uuid}/players",
        operation_id="joinGame",
        summary="Join an open seat",
        status_code=201,
        responses=problems(404, 409, 413, 422, 429),
        response_headers=[ETAG],
        throttle="join",
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
        data: JSONBody[JoinGame],
    ) -> Response[JoinedSeat]:
        def work() -> Response[JoinedSeat]:
            joined = services.games.join_game(
                game_id, NewSeat(name=data.name, client_seed=data.client_seed or "")
            )
            body = JoinedSeat(
                game_id=str(game_id), seat=joined.seat, token=joined.token, version=joined.version
            )
            return Response(body, headers=_etag(joined.version))

        return await services.run(work, heavy=services.rebuilds(game_id))

    @get(
        "/{game_id:uuid}",
        operation_id="getGame",
        summary="The game as the caller may see it",
        responses=problems(401, 403, 404),
        response_headers=[ETAG],
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
            return Response(game_view(state, viewer), headers=_etag(state.version))

        return await services.run(work, heavy=services.rebuilds(game_id))

    @post(
        "/{game_id:uuid}/actions",
        operation_id="playActions",
        summary="Play one action, or a list applied all or nothing",
        status_code=200,
        responses=problems(401, 403, 404, 409, 412, 413, 422, 429),
        response_headers=[ETAG],
        throttle="action",
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
        data: JSONBody[ActionBody],
        authorization: Authorization = None,
        idempotency_key: Annotated[
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
        ] = None,
        if_match: Annotated[
            str | None,
            HeaderParameter(
                name="If-Match",
                required=False,
                description='Act only if the game is still at this version (`"12"`); else 412.',
            ),
        ] = None,
    ) -> Response[GameView]:
        def work() -> Response[GameView]:
            body: Sequence[Action] = data if isinstance(data, list) else [data]
            key = None if idempotency_key is None else Idempotency(idempotency_key, _digest(body))
            played = services.games.play(
                game_id,
                lambda game: require_player(game, authorization, services.admin_token),
                [_to_domain(action) for action in body],
                idempotency=key,
                expected_version=_expected_version(if_match),
            )
            after = played.state
            return Response(
                game_view(after, Viewer(seat=played.seat)), headers=_etag(after.version)
            )

        return await services.run(work, heavy=services.rebuilds(game_id))

    @get(
        "/{game_id:uuid}/events",
        operation_id="listEvents",
        summary="The game's events after a version, redacted for the caller",
        responses=problems(401, 403, 404, 422),
        response_headers=[ETAG],
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
    ) -> Response[EventsPage]:
        size = services.caps.events_page if limit is None else limit

        def work() -> Response[EventsPage]:
            # Events first: the state read after them is at least as new, so the
            # page's version is never older than an event on it.
            events = services.games.events_after(game_id, after, size)
            state = services.games.state(game_id)
            viewer = viewer_for(state, authorization, services.admin_token)
            page = EventsPage(
                game_id=str(game_id),
                version=state.version,
                events=[_event(event, viewer, state) for event in events],
                more=bool(events) and events[-1].originator_version < state.version,
            )
            return Response(page, headers=_etag(state.version))

        return await services.run(work, heavy=services.reads_many(game_id, after, size))

    @get(
        "/{game_id:uuid}/replay",
        operation_id="replayGame",
        summary="The caller's view as it was at a version",
        responses=problems(401, 403, 404, 422),
        response_headers=[ETAG],
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
            return Response(game_view(then, viewer), headers=_etag(then.version))

        # A past version is rebuilt from the store, event by event.
        return await services.run(work, heavy=True)


def _event(event: object, viewer: Viewer, state: GameState) -> EventView:
    return event_view(event, viewer, state.table.rules, state.table.players)  # type: ignore[arg-type]


def _to_domain(action: Action) -> domain.Action:
    match action:
        case DrawAction(source=source):
            return domain.Draw(Source(source))
        case MeldAction(cards=cards):
            return domain.Meld(tuple(Card.parse(code) for code in cards))
        case LayOffAction(card=card, meld_id=meld_id):
            return domain.LayOff(Card.parse(card), meld_id)
        case DiscardAction(card=card):
            return domain.Discard(Card.parse(card))


def _digest(body: Sequence[Action]) -> str:
    return hashlib.sha256(msgspec.json.encode(list(body))).hexdigest()


IF_MATCH_PATTERN = r'^[ \t]*(\*|(W/)?"[0-9]{1,12}"|[0-9]{1,12})[ \t]*$'
"""What `If-Match` may hold: `"12"`, `W/"12"` or `12`; `*` is any version. The
OpenAPI document states the same pattern (service/api/openapi.py)."""


def _expected_version(if_match: str | None) -> int | None:
    """The version an `If-Match` header asks for, None for any."""
    if if_match is None:
        return None
    matched = re.fullmatch(IF_MATCH_PATTERN, if_match)
    if matched is None:
        raise problem(
            422,
            "invalid_if_match",
            f'If-Match must be a quoted game version such as "12", not {if_match!r}.',
        )
    value = matched.group(1)
    return None if value == "*" else int(value.removeprefix("W/").strip('"'))
