"""Request and response bodies of the HTTP contract (docs/api.md), as msgspec structs.

Card codes are an enum of the 52 codes of docs/rules.md, so the OpenAPI document
lists them and a bad code is refused by name before any rule runs.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from service.api import printable
from service.config import MAX_DECKS, MAX_RECYCLES, MAX_TURNS
from service.domain.cards import FULL_DECK
from service.domain.fairness import DealMode
from service.domain.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Aces,
    Exhausted,
    GoingOut,
    LayOff,
    MeldsPerTurn,
    RummyBonus,
    Scoring,
)
from service.domain.state import Source
from service.game.tickets import TICKET_PATTERN
from service.projections.events import EventView

CardCode = StrEnum(  # type: ignore[misc]
    "CardCode", {card.code: card.code for card in FULL_DECK}, module=__name__
)
"""One of the 52 card codes: rank (A 2-10 J Q K) then suit (C D H S)."""


class BotName(StrEnum):
    """A computer player's strategy."""

    RANDOM = "random"
    BASIC = "basic"


Name = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=printable.NAME_MAX_LENGTH,
        pattern=printable.NAME_PATTERN,
        description=printable.NAME_RULE,
        examples=["Ann"],
    ),
]
ClientSeed = Annotated[
    str,
    Meta(
        max_length=printable.CLIENT_SEED_MAX_LENGTH,
        pattern=printable.CLIENT_SEED_PATTERN,
        description=printable.CLIENT_SEED_RULE,
        examples=["my-own-entropy-7f3a"],
    ),
]
Deck = Annotated[
    list[CardCode],
    Meta(
        min_length=52,
        max_length=52,
        description="A full deck order: each of the 52 cards once; index 0 is dealt first.",
    ),
]


class Rules(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """House rules by their docs/rules.md names; anything left out takes its default."""

    aces: Aces | None = None
    hand_size: Annotated[int, Meta(ge=1, le=25)] | None = None
    melds_per_turn: MeldsPerTurn | None = None
    lay_off: LayOff | None = None
    going_out: GoingOut | None = None
    rummy_bonus: RummyBonus | None = None
    recycles: Annotated[int, Meta(ge=0, le=MAX_RECYCLES)] | None = None
    recycle_shuffle: bool | None = None
    exhausted: Exhausted | None = None
    max_turns: Annotated[int, Meta(ge=1, le=MAX_TURNS)] | None = None
    scoring: Scoring | None = None
    target: Annotated[int, Meta(ge=1, le=1_000_000)] | None = None
    deals: Annotated[int, Meta(ge=1, le=1000)] | None = None

    def given(self) -> dict[str, Any]:
        return {
            name: getattr(self, name)
            for name in self.__struct_fields__
            if getattr(self, name) is not None
        }


class NewPlayer(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: Name
    client_seed: ClientSeed | None = None
    bot: BotName | None = None


class CreateGame(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Name the players, or give a number of open seats, or both (the named
    players take the first seats)."""

    players: Annotated[list[NewPlayer], Meta(max_length=MAX_PLAYERS)] | None = None
    seats: Annotated[int, Meta(ge=MIN_PLAYERS, le=MAX_PLAYERS)] | None = None
    rules: Rules | None = None
    seed: Annotated[str, Meta(min_length=1, max_length=256)] | None = None
    decks: Annotated[list[Deck], Meta(max_length=MAX_DECKS)] | None = None
    dealer: Annotated[int, Meta(ge=0, le=MAX_PLAYERS - 1)] | None = None


class JoinGame(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: Name
    client_seed: ClientSeed | None = None


class DrawAction(
    msgspec.Struct, kw_only=True, tag_field="type", tag="draw", forbid_unknown_fields=True
):
    source: Source


class MeldAction(
    msgspec.Struct, kw_only=True, tag_field="type", tag="meld", forbid_unknown_fields=True
):
    cards: Annotated[list[CardCode], Meta(min_length=1, max_length=13)]


class LayOffAction(
    msgspec.Struct, kw_only=True, tag_field="type", tag="lay_off", forbid_unknown_fields=True
):
    card: CardCode
    meld_id: Annotated[str, Meta(min_length=1, max_length=64)]


class DiscardAction(
    msgspec.Struct, kw_only=True, tag_field="type", tag="discard", forbid_unknown_fields=True
):
    card: CardCode


Action = DrawAction | MeldAction | LayOffAction | DiscardAction
ActionBody = Action | Annotated[list[Action], Meta(min_length=1, max_length=64)]


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


class FeedItem(msgspec.Struct, kw_only=True):
    position: int
    """The event's place in the commit order of all games: grows, may skip numbers."""
    game_id: str
    event: EventView
    """The event as the admin sees it in `listEvents` (`version` is its place in its game)."""


class FeedPage(msgspec.Struct, kw_only=True):
    events: list[FeedItem]
    next_after: int
    """Ask for `after=next_after` next: the position of the last event here (or `after`
    if there is none). Positions have gaps, so never compute a cursor by counting."""
    last_position: int
    """The newest position now; you have read to the end when `next_after` reaches it."""
