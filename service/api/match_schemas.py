"""The bodies of matchmaking (routes/matchmaking.py, docs/players.md "Matchmaking").

The contract is docs/players.md, "Matchmaking".
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import msgspec
from msgspec import Meta

from service.api.player_schemas import PlayerAssertion
from service.api.schemas import BotName, Rules
from service.domain.presets import MIN_PLAYERS, MOST_PLAYERS
from service.domain.rule_values import Variant


class NewTicket(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A player asks to be seated at a table of `seats` with players of about its
    rating, playing `variant` by `rules`."""

    player_assertion: PlayerAssertion
    variant: Variant
    rules: Rules | None = None
    """House rules, as a new game takes them (their `variant` may be left out; if given
    it must be `variant`). Tickets match only tickets of the same variant and the same
    rules in canonical form."""
    seats: Annotated[int, Meta(ge=MIN_PLAYERS, le=MOST_PLAYERS, description="The table's size.")]
    rated: Annotated[
        bool, Meta(description="A rated game (the default); tickets match only their kind.")
    ] = True
    max_wait_seconds: Annotated[
        int,
        Meta(ge=1, le=86_400, description="The ticket expires unmatched after this (300)."),
    ] = 300
    bots_after_seconds: (
        Annotated[
            int,
            Meta(
                ge=0,
                le=86_400,
                description=(
                    "After this, the ticket may be seated with fewer players of its pool "
                    "and bots of level `bot` in the other seats. Left out: people only."
                ),
            ),
        ]
        | None
    ) = None
    bot: BotName | None = None
    """The bots' level (left out: `basic`)."""


class TicketStatus(StrEnum):
    WAITING = "waiting"
    MATCHED = "matched"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class OpenedTicket(msgspec.Struct, kw_only=True):
    ticket_id: str
    token: str
    """The ticket's bearer token, shown once: it reads the ticket and receives the seat
    token."""
    status: TicketStatus


class TicketView(msgspec.Struct, kw_only=True):
    ticket_id: str
    status: TicketStatus
    variant: str
    seats: int
    rated: bool
    game_id: str | None = None
    """Once matched: the game."""
    seat: int | None = None
    """Once matched: the ticket's seat."""
    token: str | None = None
    """Once matched: the seat's token (shown to this ticket's token only)."""
