"""The stored events of a game: past tense, plain data, card codes as strings.

Every event after the creation is a domain event (service/domain/events.py,
where each is defined once) in its plain form: `stored_fields` stores one,
`to_domain` reads it back, and the domain's `apply` changes the table. Each
says which seat caused it (`seat`, None for the system), when the client
sent an idempotency key which request it belongs to (`request`), and which
command wrote it (`command_id`, so a save whose reply was lost recognises
its own commit: docs/storage.md). A join also holds the player's details
beside the rules' data (`PlayerJoined.details`). The creation (`GameCreated`)
is the aggregate's own: it holds the rules, the seats and the seed.

The stored classes exist for their topics, `service.game.events:<Name>`:
one for each domain event, named as it is, with nothing in it (importing
this module fails if one is missing). The topics name this module as it was
called when the first games were stored (`TOPIC_MODULE`): each class keeps
that topic (`TOPIC`, read by the library's `get_topic`) and registers it, so
games are written and read under the same topics as ever. If a class ever
moves, register its old topic in `service.game.topics`, or stored games stop
loading (tests/game/test_event_schema.py catches it).

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
from eventsourcing.utils import register_topic

from service.domain import events as domain
from service.domain.cards import parse_cards
from service.domain.fairness import DealMode, apparent_deal
from service.domain.hand_chain import SeedScheme, chain_length, hand_seeds, rules_digest
from service.domain.rules import RuleSet
from service.domain.state import Table

if TYPE_CHECKING:
    from service.game.aggregate import Game

TOPIC_MODULE = "service.game.events"
"""The module every stored class's topic names (`service.game.events:CardDrawn`):
this module's name when the first games were stored, kept in the store for ever."""


class GameEvent(AggregateEvent):
    """Base of every stored event after creation: a domain event in plain form."""

    seat: int | None
    request: dict[str, Any] | None
    """`{"seat", "key", "digest"}` of the idempotent request that caused it, if any
    (`service.game.aggregate.IdempotentRequest`: for creating and joining, the seat is
    None and the key its hash)."""
    command_id: str | None = field(default=None, kw_only=True)
    """The command that wrote it: random, one per command, never shown. None in
    events stored before it existed (they load with the class default)."""

    domain_type: ClassVar[type[domain.Event]]
    """The domain event it stores: the one of the same name."""
    event_type: ClassVar[str]
    """The event's name in the API and the export: `card_drawn`."""
    details: ClassVar[tuple[str, ...]] = ()
    """Fields the service stores beside the rules' data (a join's player details)."""
    derived_fields: ClassVar[tuple[str, ...]] = ()
    """Fields its stored record did not hold (see the module's docstring)."""
    TOPIC: ClassVar[str]
    """Its topic in the store: `TOPIC_MODULE:<its name>`."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.TOPIC = f"{TOPIC_MODULE}:{cls.__name__}"
        cls.domain_type = _DOMAIN_TYPES[cls.__name__]
        cls.event_type = domain.name_of(cls.domain_type)
        # Its own `__init__`, `__eq__` and `__repr__`, over the whole state (the
        # dataclass ones would see only the envelope): the library's dataclass
        # decorator, applied next, keeps them.
        cls.__init__ = _fill  # type: ignore[assignment,method-assign]
        cls.__eq__ = _same_state  # type: ignore[assignment,method-assign]
        cls.__repr__ = _show_state  # type: ignore[assignment,method-assign]

    def data(self) -> dict[str, Any]:
        """The event's own fields, without the envelope."""
        return {name: value for name, value in vars(self).items() if name not in _ENVELOPE}

    def to_domain(self) -> domain.Event:
        # The state holds the envelope and any details too: only the event's own
        # fields are read from it.
        return domain.from_plain(self.event_type, self.seat, vars(self))

    def apply(self, aggregate: Any) -> None:
        game: Game = aggregate
        game.apply_stored(self)


_DOMAIN_TYPES = {event.__name__: event for event in domain.EVENTS}

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
        "unlisted",
        "rated",
    }
)


class GameCreated(AggregateCreated):
    class_version = 5
    """2: `deal` is recorded (version 1 records had none). 3: `unlisted` is recorded
    (earlier records had none: every game was listed). 4: `seed_scheme` and
    `rules_digest` are recorded (earlier games dealt from one seed: `game`). 5: `rated`
    is recorded (earlier games were not rated)."""

    rules: dict[str, Any]
    seats: list[dict[str, Any] | None]
    """One per seat: `{"name", "token_hash", "client_seed", "bot"}`, and `"player"` (a
    pseudonym, service/players/pseudonyms.py) for a seat a platform vouched for, whose
    `name` is then `""` (the name is kept beside the events, erasable); None while open."""
    seed: str
    """The secret shuffle seed: never shown before the game is finished."""
    seed_commitment: str
    decks: list[list[str]]
    """Explicit deck orders for the first hands, if the creator gave them."""
    dealer: int | None
    deal: str
    """How the deals are decided: a `service.domain.fairness.DealMode` value."""
    seed_scheme: str
    """A `service.domain.hand_chain.SeedScheme` value: one seed per hand, or per game."""
    rules_digest: str
    """SHA-256 of `rules` (`hand_chain.rules_digest`); a `hand_chain` commitment binds it."""
    command_id: str | None = field(default=None, kw_only=True)
    """As `GameEvent.command_id`: the command that created the game."""
    request: dict[str, Any] | None = field(default=None, kw_only=True)
    """As `GameEvent.request`, for a game created with an `Idempotency-Key` (its seat
    None, its key hashed). None in games stored before it existed (the class default)."""
    rated: bool = field(default=False, kw_only=True)
    """For the ratings: every human seat vouched for by a platform (issue 32). In the
    envelope, as `unlisted`: how the game counts, not what is played, so the audit
    export and its hash chain leave it out; the ratings read it from this record."""
    unlisted: bool = field(default=False, kw_only=True)
    """Kept out of the lobby (service/store/lobby_rows.py); the join link still works. How
    the game is offered, not what is played, so in the envelope: the audit export
    and its hash chain leave it out."""

    seat = None
    TOPIC: ClassVar[str] = f"{TOPIC_MODULE}:GameCreated"
    event_type: ClassVar[str] = "game_created"
    derived_fields: ClassVar[tuple[str, ...]] = ()

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """A game stored before `deal` was recorded: its deals were chosen if it was
        given decks or a seed of another shape than the server's. (A chosen seed of
        the server's shape reads as the server's: docs/fairness.md says so.)"""
        state["deal"] = apparent_deal(state["seed"], len(state["decks"])).value
        state["derived_fields"] = ("deal",)

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        """A game stored before `unlisted` was recorded was listed (the lobby came
        with it). An envelope field, so not a derived one: the export never shows it."""
        state["unlisted"] = False

    @staticmethod
    def upcast_v3_v4(state: dict[str, Any]) -> None:
        """A game stored before `seed_scheme` dealt every hand from its one seed (`game`);
        its rules digest is computed from the rules it stored. Neither was stored,
        so the export leaves both out and its hash chain stays as it was."""
        state["seed_scheme"] = SeedScheme.GAME.value
        state["rules_digest"] = rules_digest(state["rules"])
        state["derived_fields"] = (*state.get("derived_fields", ()), "seed_scheme", "rules_digest")

    @staticmethod
    def upcast_v4_v5(state: dict[str, Any]) -> None:
        """A game stored before `rated` was recorded was not rated (ratings came later).
        An envelope field: the export never shows it."""
        state["rated"] = False

    def data(self) -> dict[str, Any]:
        return {name: value for name, value in vars(self).items() if name not in _ENVELOPE}

    def apply(self, aggregate: Any) -> None:
        game: Game = aggregate
        game.rated = self.rated
        game.seats = [None if seat is None else dict(seat) for seat in self.seats]
        game.seed = self.seed
        game.seed_commitment = self.seed_commitment
        game.deal_mode = DealMode(self.deal)
        game.seed_scheme = SeedScheme(self.seed_scheme)
        game.rules_digest = self.rules_digest
        game.hand_seeds = (
            hand_seeds(self.seed, chain_length(self.rules.get("max_hands")))
            if game.seed_scheme is SeedScheme.HAND_CHAIN
            else ()
        )
        game.explicit_decks = tuple(tuple(parse_cards(deck)) for deck in self.decks)
        game.hands_dealt = 0
        game.requests = {}
        game.turn_started = None
        game.turn_of = None
        game.turn_banks = ()
        if self.request is not None:
            game.remember_request(self.request, self.originator_version)
        game.table = Table(
            rules=RuleSet.from_dict(self.rules),
            seat_count=len(self.seats),
            seated=[seat is not None for seat in self.seats],
            first_dealer=self.dealer,
        )


def _fill(self: GameEvent, **fields: Any) -> None:
    # A stored event's fields are its domain event's, so none is declared: they go
    # straight into the event's state, which is what the library stores and how
    # it reads an event back (`Mapper.to_domain_event`).
    self.__dict__.update(fields)
    self.__post_init__()


def _same_state(self: GameEvent, other: object) -> bool:
    return type(self) is type(other) and vars(self) == vars(other)


def _show_state(self: GameEvent) -> str:
    shown = ", ".join(f"{name}={value!r}" for name, value in vars(self).items())
    return f"{type(self).__name__}({shown})"


SEAT_DETAILS = ("name", "token_hash", "client_seed", "bot")
"""What a join stores of the player beside the seat it took (and `player`, the
pseudonym, when a platform vouched for it: `SeatEntry.player`)."""


def joined_seat(stored: GameEvent) -> dict[str, Any]:
    """The seat entry a `PlayerJoined` record holds, its pseudonym with it if it has one."""
    entry = {name: getattr(stored, name) for name in stored.details}
    player = vars(stored).get("player")
    if player is not None:
        entry["player"] = player
    return entry


# One class per domain event, named as it is, for its topic; nothing else.


class PlayerJoined(GameEvent):
    details = SEAT_DETAILS


class HandDealt(GameEvent):
    """A `hand_chain` game stores beside the deal every seat's client seed,
    `client_seeds`, public from the deal on (docs/fairness.md "A seed per hand");
    records of `game` games have none and read unchanged."""

    details = ("client_seeds",)


class CardDrawn(GameEvent):
    pass


class MeldLaid(GameEvent):
    pass


class CardLaidOff(GameEvent):
    pass


class CardDiscarded(GameEvent):
    pass


class StockRecycled(GameEvent):
    pass


class HandEnded(GameEvent):
    """A `hand_chain` game stores beside the result the seed the hand was dealt
    from, `hand_seed` (revealed with it); records of `game` games have none and
    read unchanged (`Game.hand_seed_of`)."""

    details = ("hand_seed",)


class GameFinished(GameEvent):
    pass


class WildSwapped(GameEvent):
    pass


class Knocked(GameEvent):
    pass


class Declared(GameEvent):
    pass


class GroupsSubmitted(GameEvent):
    pass


class PlayerDropped(GameEvent):
    pass


class PlayerEliminated(GameEvent):
    pass


class TurnTimedOut(GameEvent):
    pass


class PlayerLeft(GameEvent):
    pass


class GameAborted(GameEvent):
    pass


class TimeBankUsed(GameEvent):
    pass


class UpcardPassed(GameEvent):
    pass


STORED: dict[type[domain.Event], type[GameEvent]] = {
    stored.domain_type: stored for stored in GameEvent.__subclasses__()
}
"""The stored class of each domain event."""
if missing := [event.__name__ for event in domain.EVENTS if event not in STORED]:
    raise TypeError(f"no stored class for the domain events {missing}: add one above")
register_topic(GameCreated.TOPIC, GameCreated)  # read before any is written
for _stored in STORED.values():
    register_topic(_stored.TOPIC, _stored)


def stored_fields(
    event: domain.Event, request: dict[str, Any] | None, command_id: str | None
) -> tuple[type[GameEvent], dict[str, Any]]:
    """The stored class of `event` and the fields to trigger it with: the envelope
    (the seat that caused it, None for the system's; the request; the command),
    then its plain data, in the order they have always been stored."""
    _, data = domain.plain(event)
    envelope = {"seat": domain.actor(event), "request": request, "command_id": command_id}
    return STORED[type(event)], {**envelope, **data}
