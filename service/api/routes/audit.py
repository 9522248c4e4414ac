"""The audit export: `GET /games/{game_id}/audit` (docs/audit.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath

from service.api.auth import bearer_token, is_admin, require_audit_reader, viewer_for
from service.api.deps import OPTIONAL_BEARER, Authorization, Services
from service.api.docs.responses import VerbatimExample, problems
from service.api.transport.conditional import EXPORT_ETAG, NOT_MODIFIED, IfNoneMatch, not_modified
from service.domain.events import GAME_OVER_EVENTS
from service.game.event_records import GameEvent
from service.projections.audit_export import PAGE, AuditExport, export_chunks, export_name
from service.projections.shown_players import ShownPlayer
from service.projections.views import ADMIN, PUBLIC, Viewer

_EXAMPLE = {
    "format": "straight-rummy/audit/v1",
    "game_id": "0b7e8f2c-5a1d-4c3e-9f60-2d8a7b1c4e95",
    "version": 121,
    "status": "finished",
    "rules": {"aces": "low", "deals": 2, "target": None},
    "players": [
        {"seat": 0, "name": "Ann", "bot": None, "client_seed": ""},
        {"seat": 1, "name": "Bob", "bot": None, "client_seed": "bob-entropy-42"},
    ],
    "seed_commitment": "c8c76d8ec8a422343e040df982daf5c83957d1e8fc28a1e2c983e9b0f270b139",
    "seed": "example-seed-0001",
    "deal": "explicit",
    "client_seeds": ["", "bob-entropy-42"],
    "dealer_named": False,
    "explicit_decks": 0,
    "hands": [{"hand_number": 1, "dealer": 0, "deck": ["JS", "10S", "…"], "from_seed": True}],
    "winner": 1,
    "totals": [5, 12],
    "chain_salt": "8e20395df9d2bca737ee879207868a8001825b6e70c6b53d8fa7ed30f14ebb4c",
    "events": [
        {
            "version": 3,
            "type": "card_drawn",
            "at": "2026-11-29T21:46:00Z",
            "seat": 1,
            "data": {"source": "stock", "card": "10H"},
            "previous_hash": "32d17ee01b2b7b2564c82f12a41ff4ca7ef180ca6ae79477a8d9d28b5c837af2",
            "hash": "212fd3dd0750b45b904965cbbf39b8e017e9e0f8e709ef945a8929d93caa3998",
        }
    ],
    "chain": {
        "algorithm": "sha-256",
        "genesis": "656b06c90234dff29e7a760aba6bf88c4c013219869de5a59082972035221db1",
        "head": "9d5e4a0c3f1b2e7d8c6a5b4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d",
        "length": 121,
    },
}


class AuditController(Controller):
    path = "/games"
    tags = ["audit"]  # noqa: RUF012 - litestar reads it as a class attribute

    @get(
        "/{game_id:uuid}/audit",
        operation_id="getAuditExport",
        summary="The complete, unredacted event log, hash-chained, with the revealed seed",
        description=(
            "Everything needed to check the game independently (docs/audit.md): every event "
            "with its version, time, actor and data, each hand's deck order, the rules, the "
            "seed commitment and, once the game is over (finished or aborted), the seed; every "
            "event carries the SHA-256 hash chain. `rummy verify` checks it. The admin may "
            "read it at any time (the seed stays null until the game is over); anyone may "
            "once the game is over."
        ),
        response_headers=[EXPORT_ETAG],
        security=OPTIONAL_BEARER,
        responses={
            200: ResponseSpec(
                generate_examples=False,
                data_container=AuditExport,
                description="The audit export (docs/audit.md).",
                examples=[VerbatimExample(summary="A finished game (shortened)", value=_EXAMPLE)],
            ),
            304: NOT_MODIFIED,
            **problems(401, 403, 404, 422, 503),
        },
    )
    async def get_audit_export(
        self,
        services: NamedDependency[Services],
        game_id: FromPath[UUID],
        authorization: Authorization = None,
        if_none_match: IfNoneMatch = None,
    ) -> Response[Any]:
        def newest() -> GameEvent:
            last = services.games.newest_event(game_id)
            over = last.event_type in GAME_OVER_EVENTS
            require_audit_reader(over, _reader(services, game_id, authorization))
            return last

        # One read, unless a player's token is checked against a game not held here.
        last = await services.run(newest, heavy=_checks_a_player(services, game_id, authorization))
        name = export_name(str(game_id), last.originator_version)
        tag = f'"{name}"'
        unchanged = not_modified(if_none_match, tag)
        if unchanged is not None:
            return unchanged
        exports = services.exports
        place = exports.take_place()  # 503 when this process sends as many as it may
        # An export of a game that is over never changes: kept and sent again.
        over = last.event_type in GAME_OVER_EVENTS
        kept = exports.cache.find(name) if over else None
        if kept is not None:
            sent = exports.send_kept(place, kept, tag)
            if sent is not None:
                return sent
        version = last.originator_version

        def read_page(after: int) -> list[GameEvent]:
            return services.games.events_after(game_id, after, PAGE, upto=version)

        looked = _Lookup(services)
        chunks = export_chunks(str(game_id), read_page, looked)
        # Who a vouched-for seat is can change (an erasure): such an export is never kept.
        keep_as = name if over else None
        return exports.send(place, chunks, keep_as=keep_as, tag=tag, keep_if=looked.nobody)


class _Lookup:
    """The players' lookup for one export (service/players/), remembering whether the
    game had any vouched-for seat: an export that shows one is made afresh each time."""

    def __init__(self, services: Services) -> None:
        self.players = services.players
        self.asked = False

    def __call__(self, wanted: Sequence[str]) -> Mapping[str, ShownPlayer]:
        self.asked = True
        return {} if self.players is None else self.players.shown(wanted)

    def nobody(self) -> bool:
        return not self.asked


def _reader(services: Services, game_id: UUID, authorization: str | None) -> Viewer:
    """Who asks: a player's token is checked against the game (a bad token is refused,
    never downgraded); the public and the admin need no game."""
    token = bearer_token(authorization)
    if token is None:
        return PUBLIC
    if is_admin(token, services.admin_token):
        return ADMIN
    return viewer_for(services.games.state(game_id), authorization, services.admin_token)


def _checks_a_player(services: Services, game_id: UUID, authorization: str | None) -> bool:
    token = bearer_token(authorization)
    if token is None or is_admin(token, services.admin_token):
        return False
    return services.rebuilds(game_id)
