"""Players' standings (docs/players.md): a player's recall and statistics (the player,
its platform or the admin), its ratings and each variant's leaderboard (public).

The standings are a projection of the feed (service/standings/), kept by
pseudonym; here a `platform:player` becomes its pseudonym
(service/players/, `Identities.seated`) and pseudonyms become players again
(`Identities.shown`). An erased player is nobody: its recall, statistics and
ratings are 404, and it is left off the leaderboards.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from litestar import Controller, get
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter

from service.api import standing_schemas as ss
from service.api.auth import bearer_token, is_admin
from service.api.deps import BEARER, NO_TOKEN, Authorization, Services
from service.api.docs.responses import problems
from service.api.errors import Forbidden, Unauthorized, problem
from service.domain.rule_values import Format, Variant
from service.domain.rules import RuleSet
from service.players.assertions import verify
from service.players.identities import Identities
from service.standings.standings import Rated, Recalled, Standings

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
RECALL_CURSOR = r"^[0-9]{1,18}\.[0-9a-f]{32}$"
"""A recall's cursor: the last game's creation (Unix ms) and id. Every cursor, and only
cursors, match it (as the lobby's): a request the document allows is never refused
for its cursor. Clients treat it as opaque all the same."""
BOARD_CURSOR = r"^[0-9]{1,9}\.-?[0-9]{1,9}\.[0-9]{1,24}\.ps_[0-9a-f]{64}$"
"""A leaderboard's cursor: the rank reached, the last rating, the last player's pseudonym."""

PlayerRef = FromPath[str]
Limit = Annotated[int, QueryParameter(ge=1, le=MAX_LIMIT, description="At most this many.")]
RecallCursor = Annotated[
    str | None,
    QueryParameter(pattern=RECALL_CURSOR, description="The `cursor` of the page before."),
]
BoardCursor = Annotated[
    str | None,
    QueryParameter(pattern=BOARD_CURSOR, description="The `cursor` of the page before."),
]


class PlayersController(Controller):
    path = "/players"
    tags = ["players"]  # noqa: RUF012 - litestar reads it as a class attribute

    @get(
        "/{player_ref:str}/games",
        operation_id="recallPlayerGames",
        summary="A player's games, newest first (the player, its platform, or the admin)",
        security=BEARER,
        description=(
            "The recall gaming standards ask for (e.g. AGCO 13.1.1-13.1.4: the last game "
            "and the nine before it, with every step): each game the player sat in with "
            "an assertion, its variant, rules, status, the player's seat and result, and "
            "links to that seat's replay and the public audit export. The caller is the "
            "player (its assertion as bearer token), its platform's token, or the admin; "
            "another platform or player: 403; an erased or unknown player: 404."
        ),
        responses=problems(401, 403, 404, 422),
    )
    async def recall(
        self,
        services: NamedDependency[Services],
        player_ref: PlayerRef,
        authorization: Authorization = None,
        limit: Limit = DEFAULT_LIMIT,
        cursor: RecallCursor = None,
    ) -> ss.RecallPage:
        after = None
        if cursor is not None:
            created, _, game = cursor.partition(".")
            after = (float(created), game)

        def work() -> ss.RecallPage:
            pseudonym = _allowed(services, player_ref, authorization)
            games, more = _standings(services).recall(pseudonym, limit, after)
            return ss.RecallPage(
                games=[_recalled(game) for game in games],
                cursor=None if more is None else f"{int(more[0])}.{more[1]}",
            )

        return await services.run(work)

    @get(
        "/{player_ref:str}/stats",
        operation_id="playerStats",
        summary="A player's statistics per variant (as the recall)",
        security=BEARER,
        description=(
            "Per variant (and Indian format): finished games, wins, mean finishing "
            "place and points, the current and best streaks of wins, games aborted and "
            "in play. Who may ask: as `recallPlayerGames`."
        ),
        responses=problems(401, 403, 404),
    )
    async def stats(
        self,
        services: NamedDependency[Services],
        player_ref: PlayerRef,
        authorization: Authorization = None,
    ) -> ss.PlayerStats:
        def work() -> ss.PlayerStats:
            pseudonym = _allowed(services, player_ref, authorization)
            found = _standings(services).stats(pseudonym)
            return ss.PlayerStats(stats=[ss.VariantStats(**_fields(kept)) for kept in found])

        return await services.run(work)

    @get(
        "/{player_ref:str}/ratings",
        operation_id="playerRatings",
        summary="A player's ratings, per variant and format (public)",
        security=NO_TOKEN,
        description=(
            'Glicko-2 ratings from rated games (docs/players.md, "Ratings"): one per '
            "variant (and Indian format) the player has played rated; `provisional` "
            "while the deviation is above 110. Public, as on lichess; 404 for an erased "
            "or unknown player."
        ),
        responses=problems(404),
    )
    async def ratings(
        self, services: NamedDependency[Services], player_ref: PlayerRef
    ) -> ss.PlayerRatings:
        def work() -> ss.PlayerRatings:
            pseudonym = _pseudonym(_identities(services), player_ref)
            found = _standings(services).ratings(pseudonym)
            return ss.PlayerRatings(ratings=[_rating(rated) for rated in found])

        return await services.run(work)


class LeaderboardsController(Controller):
    path = "/leaderboards"
    tags = ["players"]  # noqa: RUF012 - litestar reads it as a class attribute

    @get(
        "/{variant:str}",
        operation_id="leaderboard",
        summary="A variant's rated players, highest rating first (public)",
        security=NO_TOKEN,
        description=(
            "One page of a variant's leaderboard (Indian Rummy: of one `format`, "
            "`points` if none is named). Page with `cursor`: a page ends at a rating "
            "and a player, so a rating that moves while you page never shows a player "
            "twice or skips one that stayed. Erased players are left off."
        ),
        responses=problems(404, 422),
    )
    async def leaderboard(
        self,
        services: NamedDependency[Services],
        variant: FromPath[str],
        format: Annotated[
            Format | None, QueryParameter(description="Indian Rummy's format.")
        ] = None,
        limit: Limit = DEFAULT_LIMIT,
        cursor: BoardCursor = None,
    ) -> ss.Leaderboard:
        try:
            known = Variant(variant)
        except ValueError:
            raise problem(404, "not_found", f"There is no variant {variant!r}.") from None
        # A variant with formats (Indian Rummy) names its default in its preset.
        default = RuleSet.from_dict({"variant": known.value}).format
        if format is not None and default is None:
            raise problem(422, "invalid_request", f"{known.value} has no `format`.")
        format = format or default
        return await services.run(lambda: _leaderboard(services, known, format, limit, cursor))


def _leaderboard(
    services: Services,
    variant: Variant,
    format_: Format | None,
    limit: int,
    cursor: str | None,
) -> ss.Leaderboard:
    identities, standings = _identities(services), _standings(services)
    rank, at = 0, None
    if cursor is not None:
        reached, whole, fraction, pseudonym = cursor.split(".")
        rank, at = int(reached), (float(f"{whole}.{fraction}"), pseudonym)
    entries: list[ss.LeaderboardEntry] = []
    more = True
    while more and len(entries) < limit:
        # Exactly the entries still wanted: a page never reads past what it shows,
        # unless an erased player (left off) is among them.
        page, next_at = standings.leaderboard(
            variant.value, None if format_ is None else format_.value, limit - len(entries), at
        )
        shown = identities.shown([rated.pseudonym for rated in page])
        for rated in page:
            at = (rated.rating, rated.pseudonym)
            who = shown[rated.pseudonym]
            if who.player is None:
                continue  # erased: nobody to show
            rank += 1
            entries.append(
                ss.LeaderboardEntry(
                    rank=rank,
                    player=who.player,
                    name=who.name,
                    rating=round(rated.rating, 2),
                    deviation=round(rated.deviation, 2),
                    games=rated.games,
                )
            )
        more = next_at is not None
    following = f"{rank}.{_decimal(at[0])}.{at[1]}" if more and at is not None else None
    return ss.Leaderboard(entries=entries, cursor=following)


def _identities(services: Services) -> Identities:
    if services.players is None:
        raise problem(404, "not_found", "This service keeps no players.")
    return services.players


def _standings(services: Services) -> Standings:
    assert services.standings is not None, "the composition root gives the app its standings"
    return services.standings


def _pseudonym(identities: Identities, player_ref: str) -> str:
    platform_id, colon, player = player_ref.partition(":")
    pseudonym = identities.seated(platform_id, player) if colon and player else None
    if pseudonym is None:
        raise problem(404, "not_found", f"There is no player {player_ref!r}.")
    return pseudonym


def _allowed(services: Services, player_ref: str, authorization: str | None) -> str:
    """The pseudonym of `player_ref`, if the caller may read its recall: the admin, the
    player's platform, or the player (its assertion as bearer token)."""
    identities = _identities(services)
    token = bearer_token(authorization)
    if token is None:
        raise Unauthorized("Send the player's assertion, its platform's token or the admin's.")
    platform_id = player_ref.partition(":")[0]
    if not is_admin(token, services.admin_token):
        caller = identities.platform_of(token)
        if caller is None:
            asserted = verify(token, identities.tables.keys, identities.now)
            if f"{asserted.platform_id}:{asserted.player}" != player_ref:
                raise Forbidden("A player's assertion reads that player's own games only.")
        elif caller != platform_id:
            raise Forbidden("A platform reads its own players only.")
    return _pseudonym(identities, player_ref)


def _recalled(game: Recalled) -> ss.RecalledGame:
    finished = None
    if game.finished_at is not None:
        finished = datetime.fromtimestamp(game.finished_at / 1000, tz=UTC)
    return ss.RecalledGame(
        game_id=game.game_id,
        variant=game.variant,
        rules=game.rules,
        status=game.status,
        seat=game.seat,
        result=None if game.result is None else ss.GameResult(**game.result),
        finished_at=finished,
        replay_url=f"/play?game={game.game_id}&replay&seat={game.seat}",
        export_url=f"/games/{game.game_id}/audit",
    )


def _rating(rated: Rated) -> ss.PlayerRating:
    return ss.PlayerRating(
        variant=rated.variant,
        format=rated.format,
        rating=round(rated.rating, 2),
        deviation=round(rated.deviation, 2),
        volatility=round(rated.volatility, 6),
        provisional=rated.provisional,
        games=rated.games,
    )


def _fields(kept: Any) -> dict[str, Any]:
    return {name: getattr(kept, name) for name in kept.__slots__}


def _decimal(rating: float) -> str:
    """`rating` written with a point and no exponent, read back as the same float (repr
    does that for every rating a player can reach; fixed digits for the rest)."""
    written = repr(rating)
    return written if "e" not in written and "." in written else f"{rating:.17f}"
