"""The audit export: `GET /games/{game_id}/audit` (docs/audit.md)."""

from __future__ import annotations

from uuid import UUID

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath

from service.api.auth import require_audit_reader, viewer_for
from service.api.conditional import VERSION_ETAG, etag, version_tag
from service.api.deps import OPTIONAL_BEARER, Authorization, Services
from service.api.docs import VerbatimExample, problems
from service.projections.audit import AuditExport, audit_export

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
            "seed commitment and, once the game is finished, the seed; every event carries "
            "the SHA-256 hash chain. `rummy verify` checks it. The admin may read it at any "
            "time (the seed stays null until the game is finished); anyone may once the game "
            "is finished."
        ),
        response_headers=[VERSION_ETAG],
        security=OPTIONAL_BEARER,
        responses={
            200: ResponseSpec(
                generate_examples=False,
                data_container=AuditExport,
                description="The audit export (docs/audit.md).",
                examples=[VerbatimExample(summary="A finished game (shortened)", value=_EXAMPLE)],
            ),
            **problems(401, 403, 404),
        },
    )
    async def get_audit_export(
        self,
        services: NamedDependency[Services],
        game_id: FromPath[UUID],
        authorization: Authorization = None,
    ) -> Response[AuditExport]:
        def work() -> Response[AuditExport]:
            state = services.games.state(game_id)
            require_audit_reader(state, viewer_for(state, authorization, services.admin_token))
            export = audit_export(str(game_id), services.games.events_after(game_id))
            return Response(export, headers=etag(version_tag(export.version)))

        # Every event of the game, at any length.
        return await services.run(work, heavy=True)
