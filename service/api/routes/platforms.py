"""Platforms (docs/players.md): the admin registers one with its first signing key; the
platform (or the admin) adds and retires keys and erases its players.

Identity lives in service/players/; what it keeps, and what erasure does, is
docs/privacy.md. The platform's token answers only here and in later reads of
its own players; a platform never manages another's (403).
"""

from __future__ import annotations

from litestar import Controller, Response, delete, post
from litestar.di import NamedDependency
from litestar.openapi.spec import Example
from litestar.params import FromPath, JSONBody

from service.api import player_schemas as ps
from service.api.deps import BEARER, Authorization, Services
from service.api.docs.responses import problems
from service.api.players import require_admin_not_platform, require_platform
from service.players.identities import Identities
from service.players.keys import checked_key
from service.store.player_tables import KeyRow

NO_STORE = {"Cache-Control": "no-store"}
"""The answer that shows the platform's token is kept by no cache."""

_HMAC_EXAMPLE = {
    "alg": "HS256",
    "kid": "2026-12",
    "secret": "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTEyMzQ",
}


def _key(key: ps.PlatformKey) -> KeyRow:
    return checked_key(key.alg.value, key.kid, key.secret, key.public_key)


def _identities(services: Services) -> Identities:
    assert services.players is not None, "the composition root gives the app its players"
    return services.players


PlatformId = FromPath[str]


class PlatformsController(Controller):
    path = "/platforms"
    tags = ["players"]  # noqa: RUF012 - litestar reads it as a class attribute
    security = BEARER

    @post(
        "/",
        operation_id="registerPlatform",
        summary="Register a platform that vouches for its players; its token is shown once (admin)",
        status_code=201,
        responses=problems(401, 403, 422),
        description=(
            "The platform signs player assertions (JWTs) with the `key` given here, or "
            "with keys added later; its `token` (shown once: only its hash is kept) is "
            "its bearer token for managing its keys and players. docs/players.md."
        ),
        request_body_examples=[
            Example(summary="An HMAC key", value={"name": "Parlour", "key": _HMAC_EXAMPLE})
        ],
    )
    async def register_platform(
        self,
        services: NamedDependency[Services],
        data: JSONBody[ps.NewPlatform],
        authorization: Authorization = None,
    ) -> Response[ps.RegisteredPlatform]:
        identities = _identities(services)

        def work() -> Response[ps.RegisteredPlatform]:
            require_admin_not_platform(authorization, services.admin_token, identities)
            registered = identities.register(data.name, _key(data.key))
            body = ps.RegisteredPlatform(platform_id=registered.platform_id, token=registered.token)
            return Response(body, status_code=201, headers=NO_STORE)

        return await services.run(work)

    @post(
        "/{platform_id:str}/keys",
        operation_id="addPlatformKey",
        summary="Add a signing key: several are valid at once (the platform or the admin)",
        status_code=204,
        responses=problems(401, 403, 404, 409, 422),
        description=(
            "Key rotation: add the new key, sign new assertions with it (naming its `kid`), "
            "then retire the old one once the assertions it signed have expired. With two "
            "keys or more an assertion must name its key (`kid`). 409 `key_exists` for a "
            "`kid` the platform has."
        ),
        request_body_examples=[Example(summary="An HMAC key", value=_HMAC_EXAMPLE)],
    )
    async def add_platform_key(
        self,
        services: NamedDependency[Services],
        platform_id: PlatformId,
        data: JSONBody[ps.PlatformKey],
        authorization: Authorization = None,
    ) -> None:
        identities = _identities(services)

        def work() -> None:
            require_platform(authorization, services.admin_token, identities, platform_id)
            identities.add_key(platform_id, _key(data))

        await services.run(work)

    @delete(
        "/{platform_id:str}/keys/{kid:str}",
        operation_id="retirePlatformKey",
        summary="Retire a signing key (the platform or the admin)",
        status_code=204,
        responses=problems(401, 403, 404),
        description=(
            "Assertions signed with it are refused from now on (401 "
            "`assertion_unknown_key`); seats they took keep their players."
        ),
    )
    async def retire_platform_key(
        self,
        services: NamedDependency[Services],
        platform_id: PlatformId,
        kid: FromPath[str],
        authorization: Authorization = None,
    ) -> None:
        identities = _identities(services)

        def work() -> None:
            require_platform(authorization, services.admin_token, identities, platform_id)
            identities.retire_key(platform_id, kid)

        await services.run(work)

    @delete(
        "/{platform_id:str}/players/{player:str}",
        operation_id="erasePlayer",
        summary="Erase a player: its games show it no more (the platform or the admin)",
        status_code=204,
        responses=problems(401, 403, 404),
        description=(
            "Crypto-shredding (docs/privacy.md): the player's secret, reference and name "
            "are deleted; every game it played then shows its seat as `player: null`, "
            '`name: "erased"`, in views and audit exports alike, and every export still '
            "verifies. Erasing an unknown or erased player answers 204 too."
        ),
    )
    async def erase_player(
        self,
        services: NamedDependency[Services],
        platform_id: PlatformId,
        player: FromPath[str],
        authorization: Authorization = None,
    ) -> None:
        identities = _identities(services)

        def work() -> None:
            require_platform(authorization, services.admin_token, identities, platform_id)
            identities.erase(platform_id, player)

        await services.run(work)
