"""The bodies the API answers with (besides the views, `projections.views`): a
created game's seat tokens, a joined seat, a stream ticket, health, a page of
events, the lobby. The request bodies are `schemas.py`."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from service.api.schemas import BotName
from service.domain.fairness import DealMode
from service.domain.rule_values import Variant
from service.projections.event_views import EventView
from service.store.stream_tickets import TICKET_PATTERN


class SeatToken(msgspec.Struct, kw_only=True):
    seat: int
    name: str
    token: str
    """The bearer token that acts for this seat: shown once, never stored."""


class CreatedGame(msgspec.Struct, kw_only=True):
    game_id: str
    players: list[SeatToken]
    version: int
    seed_commitment: str
    deal: DealMode
    """How the deals are decided: `commit_reveal` or `explicit` (docs/fairness.md)."""


class JoinedSeat(msgspec.Struct, kw_only=True):
    game_id: str
    seat: int
    token: str
    version: int


class StreamTicket(msgspec.Struct, kw_only=True):
    ticket: Annotated[
        str,
        Meta(
            pattern=f"^{TICKET_PATTERN}$",
            description=(
                "Opens `GET /games/{game_id}/stream?ticket=...` once, as the caller that "
                "asked for it, within `expires_in` seconds: each connection needs a new one."
            ),
        ),
    ]
    expires_in: Annotated[
        int, Meta(ge=1, description="Seconds from now within which the ticket may be used.")
    ]


class Health(msgspec.Struct, kw_only=True):
    status: str


class EventsPage(msgspec.Struct, kw_only=True):
    game_id: str
    version: int
    """The game's version now; the last event may be older when the page is full."""
    events: list[EventView]
    more: bool
    """Whether the game has events after this page's last: ask again with `after` its
    version (a page holds `limit` events, or the service's page size without one)."""


class LobbySeat(msgspec.Struct, kw_only=True):
    seat: int
    name: str
    bot: BotName | None = None
    """The strategy of a computer player; null for a person."""


class LobbyGame(msgspec.Struct, kw_only=True):
    """A listed game with open seats: only what its public view shows."""

    game_id: str
    variant: Variant
    rules: dict[str, Any]
    """The rules as the game's views show them."""
    seats: int
    seats_taken: int
    open_seats: int
    players: list[LobbySeat | None]
    """Seat by seat: who sits there, or null while the seat is open."""
    created_at: datetime
    """When the game was created (RFC 3339, UTC): the lobby's order, newest first."""


class LobbyPage(msgspec.Struct, kw_only=True):
    games: list[LobbyGame]
    next: str | None
    """The `after` of the next page (opaque), or null when this page reached the end."""
