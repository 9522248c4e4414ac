"""Who is calling: a player of this game, the admin, or nobody (the public)."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from uuid import UUID

from service.api.errors import Forbidden, TicketRefused, Unauthorized, problem
from service.game.results import GameState
from service.game.tokens import token_game
from service.projections.views import ADMIN, PUBLIC, Viewer
from service.store.stream_tickets import Grant


def bearer_token(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header, None if there is none."""
    if authorization is None or not authorization.strip():
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("Send the token as 'Authorization: Bearer <token>'.")
    return token.strip()


def is_admin(token: str, admin_token: str | None) -> bool:
    return _is(token, admin_token)


def is_metrics_token(token: str, metrics_token: str | None) -> bool:
    return _is(token, metrics_token)


def require_metrics_reader(
    authorization: str | None, metrics_token: str | None, admin_token: str | None
) -> None:
    """With a metrics token configured, only it or the admin token reads the metrics (401)."""
    if metrics_token is None:
        return
    token = bearer_token(authorization)
    if token is None or not (
        is_metrics_token(token, metrics_token) or is_admin(token, admin_token)
    ):
        raise Unauthorized("The metrics need the metrics token (or the admin token).")


def _is(token: str, secret: str | None) -> bool:
    # Constant time: how much of a guess matched must not show in how long it took.
    return secret is not None and hmac.compare_digest(token.encode("utf-8"), secret.encode("utf-8"))


def viewer_for(game: GameState, authorization: str | None, admin_token: str | None) -> Viewer:
    """The viewer a request speaks for; a bad token is refused, never downgraded."""
    token = bearer_token(authorization)
    if token is None:
        return PUBLIC
    if is_admin(token, admin_token):
        return ADMIN
    return Viewer(seat=player_seat(game, token))


def has_ended(game: GameState) -> bool:
    """Whether `game` is over (finished or aborted, `Table.over`), so that nothing in it
    is secret from anyone any more."""
    return game.table.over


def replay_viewer(
    game: GameState, authorization: str | None, admin_token: str | None, seat: int | None
) -> Viewer:
    """Whose view a replay shows: the caller's own without `seat`; with it, that seat's,
    for anyone once the game is over (`has_ended`), before that for that seat's player
    or the admin only (401 for the public, 403 for another seat's player). A seat the
    game does not have is 422."""
    caller = viewer_for(game, authorization, admin_token)
    if seat is None:
        return caller
    if seat >= len(game.seats):
        raise problem(
            422,
            "invalid_request",
            f"seat: this game has seats 0 to {len(game.seats) - 1}, not {seat}.",
        )
    if caller.admin or caller.seat == seat or has_ended(game):
        return Viewer(seat=seat)
    message = (
        "Until the game is over, a replay shows a seat's view to its own player (and "
        "the admin) only; anyone may ask any seat's once it is finished or aborted."
    )
    raise Unauthorized(message) if caller == PUBLIC else Forbidden(message)


def stream_viewer(
    game: GameState,
    authorization: str | None,
    ticket: str | None,
    admin_token: str | None,
    redeem: Callable[[str, UUID], Grant | None],
) -> Viewer:
    """Who a live stream is for: the holder of a stream `ticket` (spent by this, through
    `redeem`, if it is for this game; another game's is refused and left unused), else
    as `viewer_for` says. A ticket and a token together are refused: they could name
    two callers."""
    if ticket is None:
        return viewer_for(game, authorization, admin_token)
    if authorization is not None:
        raise Unauthorized("Send a stream ticket or an Authorization header, not both.")
    if token_game(ticket) is not None:
        raise Unauthorized(
            "That is a player token, which must never be put in a URL: send it as "
            "'Authorization: Bearer <token>' to POST /games/{game_id}/stream-tickets, "
            "and open the stream with the ticket that answers."
        )
    return ticket_viewer(game.game_id, redeem(ticket, game.game_id))


def ticket_viewer(game_id: UUID, grant: Grant | None) -> Viewer:
    """The viewer a redeemed stream ticket speaks for in `game_id`."""
    if grant is None:
        raise TicketRefused(
            "This stream ticket is unknown, used already or expired: a ticket opens one "
            "stream, once, soon after it is issued. Get a new one with POST "
            "/games/{game_id}/stream-tickets, and resume with `after` the last id you got."
        )
    if grant.game_id != game_id:
        raise Forbidden("This stream ticket is for another game.")
    return ADMIN if grant.seat is None else Viewer(seat=grant.seat)


def ticket_holder(game: GameState, authorization: str | None, admin_token: str | None) -> Viewer:
    """Who may have a stream ticket for `game`: a player of it or the admin. The public
    needs none (its stream takes no token), so no token is 401."""
    viewer = viewer_for(game, authorization, admin_token)
    if viewer == PUBLIC:
        raise Unauthorized(
            "A stream ticket is for a player of this game or the admin: send the bearer "
            "token. The public stream needs no ticket."
        )
    return viewer


def player_seat(game: GameState, token: str) -> int:
    """The seat `token` acts for in `game`: 403 for another game's token, else 401."""
    # A token of this very game, the usual case, is told without parsing its prefix
    # as a UUID: 0.9 µs against 2.9 µs.
    if not token.startswith(f"{game.game_id.hex}."):
        claimed = token_game(token)
        if claimed is not None and claimed != game.game_id:
            raise Forbidden("This token is for another game.")
    seat = game.seat_of(token)
    if seat is None:
        raise Unauthorized("The token is not valid for this game.")
    return seat


def require_admin_or_nobody(authorization: str | None, admin_token: str | None) -> bool:
    """Whether the admin calls (True) or nobody in particular (False, no token): where
    no player exists yet, any other token is a mistake, refused rather than ignored."""
    token = bearer_token(authorization)
    if token is None:
        return False
    if is_admin(token, admin_token):
        return True
    raise Unauthorized("Only the admin token is accepted here; send it, or no token at all.")


def require_player(game: GameState, authorization: str | None, admin_token: str | None) -> int:
    token = bearer_token(authorization)
    if token is None:
        raise Unauthorized("Only a player of this game may act: send its bearer token.")
    if is_admin(token, admin_token):
        raise Forbidden("The admin token reads games; only a player's token acts.")
    return player_seat(game, token)


def require_admin(
    authorization: str | None, admin_token: str | None, what: str = "the feed"
) -> None:
    """Only the admin token passes: 401 without a token (or with a bad one), 403 for a
    player's token; `what` names what is asked for in the message."""
    token = bearer_token(authorization)
    if token is None:
        raise Unauthorized(f"{what[0].upper()}{what[1:]} is for the admin: send the admin token.")
    if is_admin(token, admin_token):
        return
    if token_game(token) is not None:
        raise Forbidden(f"A player's token reads its own game; {what} is for the admin.")
    raise Unauthorized("The token is not the admin token.")


def require_audit_reader(over: bool, viewer: Viewer) -> None:
    """The audit export of a game in play is the admin's (it names every card dealt);
    anyone's once the game is over (`over`: finished or aborted): 401 for the public,
    403 for a player."""
    if viewer.admin or over:
        return
    message = (
        "The audit export of a game in play is for the admin; anyone may read it "
        "once the game is over (finished or aborted)."
    )
    raise Unauthorized(message) if viewer == PUBLIC else Forbidden(message)
