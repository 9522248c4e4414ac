"""The lobby: `GET /lobby`, the listed games that have open seats (anyone).

The lobby is kept by the application (service/store/lobby_store.py, which says how and
why); this handler reads one page of it and shows each game with what its
public view shows, nothing more: no token, token hash, client seed, seed or deck
is in the lobby's rows at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Annotated

from litestar import Controller, get
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import QueryParameter

from service.api import responses as out
from service.api import schemas as s
from service.api.deps import NO_TOKEN, Services
from service.api.docs.responses import VerbatimExample, problems
from service.api.errors import problem
from service.domain.presets import MIN_PLAYERS, MOST_PLAYERS
from service.domain.rule_values import Variant
from service.game.application import RummyApplication
from service.projections.shown_players import PlayerLookup, nobody
from service.store.lobby_rows import CURSOR_PATTERN, BadCursor, Cursor, LobbyQuery, OpenGame

DEFAULT_LIMIT = 20
MAX_LIMIT = 100

_EXAMPLE = {
    "games": [
        {
            "game_id": "0b7e8f2c-5a1d-4c3e-9f60-2d8a7b1c4e95",
            "variant": "classic",
            "rules": {"variant": "classic", "packs": 1, "jokers": 0, "target": 100},
            "seats": 3,
            "seats_taken": 1,
            "open_seats": 2,
            "players": [{"seat": 0, "name": "Ann"}, None, None],
            "created_at": "2026-11-29T21:45:35.287104Z",
        }
    ],
    "next": "1796146309516531.26f38c12f9a84465b3fa9bffbb979714",
}


class LobbyController(Controller):
    path = "/lobby"
    tags = ["lobby"]  # noqa: RUF012 - litestar reads it as a class attribute

    @get(
        "/",
        operation_id="listLobby",
        summary="The listed games that have open seats",
        security=NO_TOKEN,
        description=(
            "Every game waiting for players that was not created `unlisted`, newest "
            "first, with what its public view shows: variant, rules, seats taken and "
            "open, the players seated, when it was created. Join one with "
            "`POST /games/{game_id}/players`; a game leaves the lobby when its last seat "
            "fills (its first hand is dealt). Page with `after`: pass the `next` of the "
            "page before (opaque); it is null on the last page. Paging is by the games' "
            "(created_at, game_id) order, so a game created while you page is never on "
            "the pages that follow (it is on a new first page): no game comes twice and "
            "none that was there when you began is skipped, unless its last seat filled "
            "meanwhile. Filters: `variant`, `players` (seat count), `min_open`."
        ),
        responses={
            200: ResponseSpec(
                generate_examples=False,
                data_container=out.LobbyPage,
                description="A page of the lobby.",
                examples=[VerbatimExample(summary="One open table", value=_EXAMPLE)],
            ),
            **problems(422),
        },
    )
    async def list_lobby(
        self,
        services: NamedDependency[Services],
        variant: Annotated[
            Variant | None, QueryParameter(description="Only games of this variant.")
        ] = None,
        players: Annotated[
            int | None,
            QueryParameter(
                ge=MIN_PLAYERS, le=MOST_PLAYERS, description="Only games of this many seats."
            ),
        ] = None,
        min_open: Annotated[
            int,
            QueryParameter(
                ge=1, le=MOST_PLAYERS, description="Only games with at least this many open seats."
            ),
        ] = 1,
        limit: Annotated[
            int, QueryParameter(ge=1, le=MAX_LIMIT, description="At most this many games.")
        ] = DEFAULT_LIMIT,
        after: Annotated[
            str | None,
            QueryParameter(
                pattern=CURSOR_PATTERN,
                description="The `next` of the page before.",
            ),
        ] = None,
    ) -> out.LobbyPage:
        try:
            cursor = None if after is None else Cursor.decode(after)
        except BadCursor as error:
            raise problem(422, "invalid_request", str(error)) from None
        query = LobbyQuery(
            limit=limit,
            after=cursor,
            variant=None if variant is None else variant.value,
            players=players,
            min_open=min_open,
        )
        lookup = nobody if services.players is None else services.players.shown
        return await services.run(partial(lobby_page, services.games, query, lookup))


def lobby_page(
    games: RummyApplication, query: LobbyQuery, lookup: PlayerLookup = nobody
) -> out.LobbyPage:
    """One page of the lobby; a vouched-for seat named as `lookup` (the players' tables)
    names its pseudonym now."""
    page = games.lobby_page(query)
    vouched = [seat.player for game in page.games for seat in game.players if seat and seat.player]
    names = {pseudonym: shown.name for pseudonym, shown in lookup(vouched).items()}
    return out.LobbyPage(
        games=[_shown(game, names) for game in page.games],
        next=None if page.next is None else page.next.encode(),
    )


def _shown(game: OpenGame, names: Mapping[str, str]) -> out.LobbyGame:
    return out.LobbyGame(
        game_id=str(game.game_id),
        variant=Variant(game.variant),
        rules=dict(game.rules),
        seats=game.seats,
        seats_taken=game.seats_taken,
        open_seats=game.open_seats,
        players=[
            None
            if seat is None
            else out.LobbySeat(
                seat=number,
                name=seat.name if seat.player is None else names.get(seat.player, seat.name),
                bot=None if seat.bot is None else s.BotName(seat.bot),
            )
            for number, seat in enumerate(game.players)
        ],
        created_at=game.created,
    )
