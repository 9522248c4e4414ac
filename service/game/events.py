"""The stored events of a game: past tense, plain data, card codes as strings.

Each class is the persistent form of one domain event. `apply` turns it
back into the domain event and lets the domain change the table; it only
records, because it runs again on every replay. Every event says which
seat caused it (`seat`, None for the system), when the client sent an
idempotency key which request it belongs to (`request`), and which command
wrote it (`command_id`, so a save whose reply was lost recognises its own
commit: docs/storage.md).

The stored topic of each class is `service.game.events:<Name>`. If a class
ever moves, register its old topic in `service.game.topics`, or stored
games stop loading (tests/game/test_event_schema.py catches it).

When a class gains a field, it raises its `class_version` and says how to
read a record stored before, in `upcast_v<n>_v<n+1>` (the library calls it
on the record's state as it reads it). A field an upcaster derives is named
in the event's `derived_fields`: it was never stored, so the audit export,
which shows what was stored, leaves it out (and old hash chains stay as
they were).
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Any, ClassVar

from eventsourcing.domain import AggregateCreated, AggregateEvent

from service.domain import events as domain
from service.domain.cards import Card, parse_cards
from service.domain.fairness import DealMode, apparent_deal
from service.domain.melds import End, MeldKind
from service.domain.rules import RuleSet
from service.domain.state import HandEnding, HandResult, Source, Table

if TYPE_CHECKING:
    from service.game.aggregate import Game


class GameEvent(AggregateEvent):
    """Base of every event after creation."""

    seat: int | None
    request: dict[str, Any] | None
    """`{"seat", "key", "digest"}` of the idempotent request that caused it, if any."""
    derived_fields: ClassVar[tuple[str, ...]] = ()
    """Fields its stored record did not hold (see the module's docstring)."""
    command_id: str | None = field(default=None, kw_only=True)
    """The command that wrote it: random, one per command, never shown. None in
    events stored before it existed (they load with the class default)."""

    @property
    def event_type(self) -> str:
        """The event's name in the API: `CardDrawn` → `card_drawn`."""
        return _snake(type(self).__name__)

    def data(self) -> dict[str, Any]:
        """The event's own fields, without the envelope."""
        return {name: value for name, value in vars(self).items() if name not in _ENVELOPE}

    def apply(self, aggregate: Any) -> None:
        game: Game = aggregate
        self.apply_to(game)
        if self.request is not None:
            game.remember_request(self.request, self.originator_version)

    def apply_to(self, game: Game) -> None:
        domain.apply(game.table, self.to_domain())

    def to_domain(self) -> domain.Event:
        raise NotImplementedError


_ENVELOPE = frozenset(
    {
        "originator_id",
        "originator_version",
        "timestamp",
        "originator_topic",
        "seat",
        "request",
        "derived_fields",
        "command_id",
    }
)


def _snake(name: str) -> str:
    return "".join(f"_{char.lower()}" if char.isupper() else char for char in name).lstrip("_")


class GameCreated(AggregateCreated):
    class_version = 2
    """2: `deal` is recorded (version 1 records had none)."""

    rules: dict[str, Any]
    seats: list[dict[str, Any] | None]
    """One per seat: `{"name", "token_hash", "client_seed", "bot"}`, or None while open."""
    seed: str
    """The secret shuffle seed: never shown before the game is finished."""
    seed_commitment: str
    decks: list[list[str]]
    """Explicit deck orders for the first hands, if the creator gave them."""
    dealer: int | None
    deal: str
    """How the deals are decided: a `service.domain.fairness.DealMode` value."""
    command_id: str | None = field(default=None, kw_only=True)
    """As `GameEvent.command_id`: the command that created the game."""

    seat = None
    request = None
    event_type = "game_created"
    derived_fields: ClassVar[tuple[str, ...]] = ()

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """A game stored before `deal` was recorded: its deals were chosen if it was
        given decks or a seed of another shape than the server's. (A chosen seed of
        the server's shape reads as the server's: docs/fairness.md says so.)"""
        state["deal"] = apparent_deal(state["seed"], len(state["decks"])).value
        state["derived_fields"] = ("deal",)

    def data(self) -> dict[str, Any]:
        return {name: value for name, value in vars(self).items() if name not in _ENVELOPE}

    def apply(self, aggregate: Any) -> None:
        game: Game = aggregate
        game.seats = [None if seat is None else dict(seat) for seat in self.seats]
        game.seed = self.seed
        game.seed_commitment = self.seed_commitment
        game.deal = DealMode(self.deal)
        game.explicit_decks = tuple(tuple(parse_cards(deck)) for deck in self.decks)
        game.requests = {}
        game.table = Table(
            rules=RuleSet.from_dict(self.rules),
            players=len(self.seats),
            seated=[seat is not None for seat in self.seats],
            first_dealer=self.dealer,
        )


class PlayerJoined(GameEvent):
    name: str
    token_hash: str
    client_seed: str
    bot: str | None

    def apply_to(self, game: Game) -> None:
        assert self.seat is not None
        game.seats[self.seat] = {
            "name": self.name,
            "token_hash": self.token_hash,
            "client_seed": self.client_seed,
            "bot": self.bot,
        }
        super().apply_to(game)

    def to_domain(self) -> domain.Event:
        assert self.seat is not None
        return domain.PlayerJoined(seat=self.seat)


class HandDealt(GameEvent):
    hand_number: int
    dealer: int
    deck: list[str]

    def to_domain(self) -> domain.Event:
        return domain.HandDealt(
            hand_number=self.hand_number, dealer=self.dealer, deck=tuple(parse_cards(self.deck))
        )


class CardDrawn(GameEvent):
    source: str
    card: str

    def to_domain(self) -> domain.Event:
        assert self.seat is not None
        return domain.CardDrawn(
            seat=self.seat, source=Source(self.source), card=Card.parse(self.card)
        )


class MeldLaid(GameEvent):
    meld_id: str
    kind: str
    cards: list[str]

    def to_domain(self) -> domain.Event:
        assert self.seat is not None
        return domain.MeldLaid(
            seat=self.seat,
            meld_id=self.meld_id,
            kind=MeldKind(self.kind),
            cards=tuple(parse_cards(self.cards)),
        )


class CardLaidOff(GameEvent):
    meld_id: str
    card: str
    end: str

    def to_domain(self) -> domain.Event:
        assert self.seat is not None
        return domain.CardLaidOff(
            seat=self.seat, meld_id=self.meld_id, card=Card.parse(self.card), end=End(self.end)
        )


class CardDiscarded(GameEvent):
    card: str

    def to_domain(self) -> domain.Event:
        assert self.seat is not None
        return domain.CardDiscarded(seat=self.seat, card=Card.parse(self.card))


class StockRecycled(GameEvent):
    stock: list[str]
    """The new stock, top first."""
    shuffled: bool

    def to_domain(self) -> domain.Event:
        return domain.StockRecycled(stock=tuple(parse_cards(self.stock)), shuffled=self.shuffled)


class HandEnded(GameEvent):
    hand_number: int
    how: str
    out_seat: int | None
    remaining: list[list[str]]
    values: list[int]
    points: list[int]
    totals: list[int]

    def to_domain(self) -> domain.Event:
        return domain.HandEnded(
            HandResult(
                hand_number=self.hand_number,
                how=HandEnding(self.how),
                out_seat=self.out_seat,
                remaining=tuple(tuple(parse_cards(cards)) for cards in self.remaining),
                values=tuple(self.values),
                points=tuple(self.points),
                totals=tuple(self.totals),
            )
        )


class GameFinished(GameEvent):
    winner: int
    totals: list[int]

    def to_domain(self) -> domain.Event:
        return domain.GameFinished(winner=self.winner, totals=tuple(self.totals))


_RULES_EVENTS: tuple[type[GameEvent], ...] = (
    HandDealt,
    CardDrawn,
    MeldLaid,
    CardLaidOff,
    CardDiscarded,
    StockRecycled,
    HandEnded,
    GameFinished,
)
_STORED: dict[str, type[GameEvent]] = {_snake(cls.__name__): cls for cls in _RULES_EVENTS}
"""The stored class of each rules event; a join is stored with the player's details."""


def stored_fields(event: domain.Event) -> tuple[type[GameEvent], dict[str, Any]]:
    """The stored event class and its plain fields for a domain event."""
    name, fields = domain.plain(event)
    if name not in _STORED:
        raise TypeError(f"{name} is stored with the player's details, not from here")
    return _STORED[name], fields
