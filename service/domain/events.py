"""What happened at a table: the events, and their plain form.

Each event is defined here once, as a dataclass of typed fields. Its plain
form (`plain`, `from_plain`: cards as codes, enums as values, tuples as
lists) is read off those fields, for the store (service/game/event_records.py),
the audit export and the verifier alike; its name is its class's in
snake case (`card_drawn`). A new event is a dataclass here, a case in
`changes.apply` (how it changes a table) and its view
(service/projections/event_views.py); docs/architecture.md says more.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, get_args

from service.domain.cards import Card
from service.domain.indian.judge import Group
from service.domain.melds import End, MeldKind
from service.domain.plain import Codec
from service.domain.state import (
    AbortedBy,
    DropKind,
    GinFinal,
    HandResult,
    KnockKind,
    LeaveReason,
    Source,
)


@dataclass(frozen=True, slots=True)
class PlayerJoined:
    seat: int


@dataclass(frozen=True, slots=True)
class HandDealt:
    hand_number: int
    dealer: int
    deck: tuple[Card, ...]
    """The full deck order the hand was dealt from."""
    seats: tuple[int, ...] | None = None
    """Indian: the seats dealt in (the others are eliminated or sit out)."""


@dataclass(frozen=True, slots=True)
class CardDrawn:
    seat: int
    source: Source
    card: Card
    second: bool = False
    """Boathouse: the second card of a turn that took the top discard."""
    count: int = 1
    """500 Rum: how many cards were taken from the top of the spread pile; with more
    than one, `card` is the deepest (the called card) and `cards` all of them."""
    cards: tuple[Card, ...] | None = None
    """500 Rum: the cards a draw of several took, in pile order (deepest first)."""


@dataclass(frozen=True, slots=True)
class MeldLaid:
    seat: int
    meld_id: str
    kind: MeldKind
    cards: tuple[Card, ...]
    """In table order."""
    as_: tuple[Card, ...] | None = None
    """With wild cards: what each card stands for, parallel to `cards`."""


@dataclass(frozen=True, slots=True)
class CardLaidOff:
    seat: int
    meld_id: str
    card: Card
    end: End
    as_: Card | None = None
    """With wild cards: what the laid-off card stands for."""


@dataclass(frozen=True, slots=True)
class WildSwapped:
    """`card` put into meld `meld_id` where `wild` stood for it (`as`); the wild
    goes to the seat's hand."""

    seat: int
    meld_id: str
    card: Card
    wild: Card
    as_: Card


@dataclass(frozen=True, slots=True)
class Knocked:
    """Knock Rummy and Gin: `seat` knocked, discarding `card` face down (kept secret
    from players until the hand's result shows it). Gin: its `kind` and the knocker's
    arrangement (`melds`); big gin has no `card`."""

    seat: int
    card: Card | None
    kind: KnockKind | None = None
    melds: tuple[tuple[Card, ...], ...] | None = None


@dataclass(frozen=True, slots=True)
class UpcardPassed:
    """Gin: `seat` left the upcard in the offer."""

    seat: int


@dataclass(frozen=True, slots=True)
class Declared:
    """Indian: `seat` showed `groups` and put the finish `card` out of play. Valid:
    0 points, and the others show; wrong: `full_count` points, out of the deal."""

    seat: int
    card: Card
    groups: tuple[Group, ...]
    valid: bool
    points: int


@dataclass(frozen=True, slots=True)
class GroupsSubmitted:
    """Indian, in the show: `seat` showed its hand in `groups`, for `points`."""

    seat: int
    groups: tuple[Group, ...]
    points: int


@dataclass(frozen=True, slots=True)
class PlayerDropped:
    """Indian: `seat` left the deal before drawing; its hand is never shown."""

    seat: int
    kind: DropKind
    points: int


@dataclass(frozen=True, slots=True)
class PlayerEliminated:
    """Indian pools: `player` reached the limit with `score` and is out of the game
    (the rules eliminate it: no seat's move did)."""

    player: int
    score: int


@dataclass(frozen=True, slots=True)
class TurnTimedOut:
    """`player`'s (a seat's) time to act ran out (the rule `turn_seconds`): the
    server's bot makes the rest of its move, as that seat's ordinary events, right
    after. `timeouts` is the seat's count of consecutive timeouts with this one. The
    system's event (as `PlayerEliminated`): no seat's move caused it."""

    player: int
    timeouts: int


@dataclass(frozen=True, slots=True)
class TimeBankUsed:
    """`player` (a seat) spent `seconds` of its time bank (the rule
    `time_bank_seconds`): its turn's clock had run out, and it acted (its move
    follows) or its bank ran out too (its `TurnTimedOut` follows). Whole seconds,
    at least 1, at most what is left: the bank is never refilled. The system's
    event (as `TurnTimedOut`): the seat it concerns is named in it."""

    player: int
    seconds: int


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """The player of seat `player` is gone for good (`reason`). `replaced`: the
    server's bot plays the seat on; else the seat forfeits (docs/rules.md "Leaving
    and turn clocks"). Indian: a forfeit in the deal is scored as a drop (`drop`,
    `points`). Recorded as the system's (as `PlayerEliminated`): a timeout causes
    it too, and the seat it concerns is named in it."""

    player: int
    reason: LeaveReason
    replaced: bool
    drop: DropKind | None = None
    points: int | None = None


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class StockRecycled:
    seat: int
    """Whose draw from the empty stock turned the discards over."""
    stock: tuple[Card, ...]
    """The new stock, top first."""
    shuffled: bool


@dataclass(frozen=True, slots=True)
class HandEnded(HandResult):
    """The hand's result, as `Table.last_hand` keeps it."""


@dataclass(frozen=True, slots=True)
class GameFinished:
    winner: int
    totals: tuple[int, ...]
    result: tuple[GinFinal, ...] | None = None
    """Gin: each seat's bonuses and final total (`totals` are those totals)."""


@dataclass(frozen=True, slots=True)
class GameAborted:
    """The game ended without a winner: `by` a cap of its rules (docs/rules.md
    "Caps"; `reason` names it), or, as later work may add, by the admin or for
    idleness. The hand in play, if any, is left unplayed and unscored."""

    by: AbortedBy
    reason: str


Event = (
    PlayerJoined
    | HandDealt
    | CardDrawn
    | MeldLaid
    | CardLaidOff
    | CardDiscarded
    | StockRecycled
    | HandEnded
    | GameFinished
    | WildSwapped
    | Knocked
    | Declared
    | GroupsSubmitted
    | PlayerDropped
    | PlayerEliminated
    | TurnTimedOut
    | PlayerLeft
    | GameAborted
    | TimeBankUsed
    | UpcardPassed
)

EVENTS: tuple[type[Event], ...] = get_args(Event)
"""Every event, in the order of the union above."""

PLAYER_EVENTS: tuple[type[Event], ...] = (
    PlayerJoined,
    CardDrawn,
    MeldLaid,
    CardLaidOff,
    CardDiscarded,
    StockRecycled,
    WildSwapped,
    Knocked,
    Declared,
    GroupsSubmitted,
    PlayerDropped,
    UpcardPassed,
)
"""The events a player's own move causes: their `seat` is that player's. The rest
(deals, the end of a hand, the end of the game) the rules make by themselves."""


def actor(event: Event) -> int | None:
    """The seat whose move caused `event`, or None for the system's."""
    return event.seat if isinstance(event, PLAYER_EVENTS) else None  # type: ignore[union-attr]


def name_of(event_type: type[Event]) -> str:
    """An event's name where it is stored and shown: `CardDrawn` → `card_drawn`."""
    return _NAMES[event_type]


def plain(event: Event) -> tuple[str, dict[str, Any]]:
    """The event's name and its data in plain form (card codes as strings), the form
    stored events and audit exports carry. Its actor is not part of the data: it is
    stored beside it (`actor`)."""
    event_type = type(event)
    return _NAMES[event_type], _CODECS[event_type].to_plain(event)


def from_plain(name: str, seat: int | None, data: Mapping[str, Any]) -> Event:
    """The event `plain` made `(name, data)` of, caused by `seat`. `data` may hold
    other entries (a stored event's envelope): only the event's own are read."""
    event_type = _TYPES[name]
    codec = _CODECS[event_type]
    if event_type not in PLAYER_EVENTS:
        return codec.from_plain(data)
    if seat is None:
        raise TypeError(f"{name} is a player's move: it needs the seat that made it")
    return codec.from_plain(data, seat=seat)


def _snake(name: str) -> str:
    return "".join(f"_{char.lower()}" if char.isupper() else char for char in name).lstrip("_")


_NAMES: dict[type[Event], str] = {event_type: _snake(event_type.__name__) for event_type in EVENTS}
_TYPES: dict[str, type[Event]] = {name: event_type for event_type, name in _NAMES.items()}
EVENT_NAMES: tuple[str, ...] = tuple(_NAMES.values())
"""Every event's name (its `type` where it is shown), in the order of `EVENTS`."""
GAME_OVER_EVENTS: tuple[str, ...] = (_NAMES[GameFinished], _NAMES[GameAborted])
"""The names of the events that end a game: after one, nothing more happens."""
_CODECS: dict[type[Event], Codec[Event]] = {
    event_type: Codec(event_type, apart=("seat",) if event_type in PLAYER_EVENTS else ())
    for event_type in EVENTS
}
