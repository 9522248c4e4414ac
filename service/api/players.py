"""Players across games at the API's edge: the seats' assertions vouched for, and who
may manage a platform (docs/players.md).

A seat's `player_assertion` is verified before the application sees the seat
(service/players/identities.py, `Identities.vouch`): the application gets the
pseudonym, never the player's reference or name (docs/privacy.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from service.api import schemas as s
from service.api.auth import bearer_token, is_admin
from service.api.errors import Forbidden, Unauthorized
from service.domain.errors import InvalidSeating
from service.players.errors import UnknownKey
from service.players.identities import Identities, Vouched


def vouched_players(
    identities: Identities | None, players: Sequence[s.NewPlayer]
) -> list[Vouched | None]:
    """The player each named seat's assertion vouches for (None: an anonymous seat). A
    bot's seat with one is refused before any is vouched for (nothing kept of it)."""
    if any(player.bot is not None and player.player_assertion for player in players):
        raise InvalidSeating("A bot's seat takes no `player_assertion`.")
    return [_vouched(identities, player.player_assertion) for player in players]


def vouched_joiner(identities: Identities | None, body: s.JoinGame) -> Vouched | None:
    return _vouched(identities, body.player_assertion)


def _vouched(identities: Identities | None, assertion: str | None) -> Vouched | None:
    if assertion is None:
        return None
    if identities is None:  # an app built without them (some tests)
        raise UnknownKey("This service vouches for no players: send no `player_assertion`.")
    return identities.vouch(assertion)


def require_platform(
    authorization: str | None,
    admin_token: str | None,
    identities: Identities,
    platform_id: str,
) -> None:
    """The admin, or `platform_id`'s own token, passes: 401 without a token or with an
    unknown one, 403 for another platform's token (a platform never manages another's
    keys or players)."""
    token = bearer_token(authorization)
    if token is None:
        raise Unauthorized("Send the platform's token (or the admin token).")
    if is_admin(token, admin_token):
        return
    caller = identities.platform_of(token)
    if caller is None:
        raise Unauthorized("The token is neither the admin token nor a platform's token.")
    if caller != platform_id:
        raise Forbidden("A platform's token is for its own keys and players only.")


def require_admin_not_platform(
    authorization: str | None, admin_token: str | None, identities: Identities
) -> None:
    """Only the admin registers platforms: 401 without a token or with an unknown one,
    403 for a platform's token (valid, but not for this)."""
    token = bearer_token(authorization)
    if token is None:
        raise Unauthorized("Registering a platform is for the admin: send the admin token.")
    if is_admin(token, admin_token):
        return
    if identities.platform_of(token) is not None:
        raise Forbidden("A platform's token cannot register platforms: the admin does.")
    raise Unauthorized("The token is not the admin token.")
