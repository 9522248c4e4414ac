"""What happened at a table, and how each fact changes the table.

Each event is defined here once, as a dataclass of typed fields. Its plain
form (`plain`, `from_plain`: cards as codes, enums as values, tuples as
lists) is read off those fields, for the store (service/game/events.py),
the audit export and the verifier alike; its name is its class's in
snake case (`card_drawn`). A new event is a dataclass here, a case in
`apply` and its view (service/projections/events.py); docs/architecture.md
says more.

`apply` only records: it never checks a rule, reads a clock or draws a
random number, because it runs again on every replay. The checks happen
before an event exists, in `turns` and `flow`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, get_args

from service.domain.cards import Card
from service.domain.deal import deal, deal_among, deal_to_starter
from service.domain.groups import Group, wild_rank_of
from service.domain.melds import End, MeldKind, TableMeld, extend
from service.domain.plain import Codec
from service.domain.rules import Variant
from service.domain.state import (
    DealStatus,
    DropKind,
    HandResult,
    HandState,
    LeaveReason,
    Phase,
    Show,
    Source,
    Table,
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
    """Knock Rummy: `seat` knocked, discarding `card` face down (kept secret from
    players until the hand's result shows it)."""

    seat: int
    card: Card


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
_CODECS: dict[type[Event], Codec[Event]] = {
    event_type: Codec(event_type, apart=("seat",) if event_type in PLAYER_EVENTS else ())
    for event_type in EVENTS
}


_TURN_ENDS = (CardDiscarded, Knocked, Declared, GroupsSubmitted, PlayerDropped)
"""A seat's own events that end its turn (or its part of a show)."""


def apply(table: Table, event: Event) -> None:
    """Change `table` by one event."""
    if table.clocked is not None or any(table.timeouts):
        _count_timeouts(table, event)
    match event:
        case PlayerJoined(seat=seat):
            table.seated[seat] = True
        case HandDealt():
            _apply_hand_dealt(table, event)
        case CardDrawn(seat=seat, source=source, card=card, second=second):
            hand = _hand(table)
            pile = hand.stock if source is Source.STOCK else hand.discard
            pile.pop()
            hand.hands[seat].append(card)
            if hand.drawn:
                hand.drawn[seat] = True
            from_pile = card if source is Source.DISCARD else None
            if second:
                hand.taken_second = from_pile
                hand.phase = Phase.PLAY
            else:
                hand.taken = from_pile
                # Boathouse: the top discard is taken with a second card at once.
                pair = from_pile is not None and table.rules.variant is Variant.BOATHOUSE
                hand.phase = Phase.SECOND_DRAW if pair else Phase.PLAY
        case MeldLaid(seat=seat, meld_id=meld_id, kind=kind, cards=cards, as_=as_):
            hand = _hand(table)
            held = hand.hands[seat]
            for card in cards:
                held.remove(card)
            hand.melds.append(
                TableMeld(
                    id=meld_id,
                    kind=kind,
                    cards=list(cards),
                    owner=seat,
                    as_=None if as_ is None else list(as_),
                )
            )
            hand.melds_laid += 1
            hand.melds_this_turn += 1
            hand.played_this_turn = True
        case CardLaidOff(seat=seat, meld_id=meld_id, card=card, end=end, as_=as_):
            hand = _hand(table)
            hand.hands[seat].remove(card)
            meld = hand.meld(meld_id)
            assert meld is not None, "a laid-off card names a meld on the table"
            extend(meld, card, end, seat, as_)
            hand.played_this_turn = True
        case WildSwapped(seat=seat, meld_id=meld_id, card=card, wild=wild, as_=as_):
            hand = _hand(table)
            held = hand.hands[seat]
            held.remove(card)
            meld = hand.meld(meld_id)
            assert meld is not None, "a swap names a meld on the table"
            assert meld.as_ is not None, "a swap names a meld with readings"
            place = next(
                index
                for index, (placed, reading) in enumerate(zip(meld.cards, meld.as_, strict=True))
                if placed == wild and reading == as_
            )
            meld.cards[place] = card
            meld.as_[place] = card
            held.append(wild)
            # A swap lays a card on the table: going out in a later turn is no rummy.
            hand.played_this_turn = True
        case Knocked(seat=seat, card=card):
            hand = _hand(table)
            hand.hands[seat].remove(card)
            hand.out_of_play.append(card)
            hand.knocker = seat
        case CardDiscarded(seat=seat, card=card):
            hand = _hand(table)
            held = hand.hands[seat]
            held.remove(card)
            hand.discard.append(card)
            # A discard that empties the hand goes out on this very turn, so its
            # melds were not laid "in an earlier turn": it may still be a rummy.
            if hand.played_this_turn and held:
                hand.played_before[seat] = True
            _next_turn(table, hand, seat)
        case StockRecycled(stock=stock):
            hand = _hand(table)
            hand.discard = hand.discard[-1:]
            hand.stock = list(reversed(stock))
            hand.recycles += 1
        case Declared(seat=seat, card=card, groups=groups, valid=valid, points=points):
            hand = _hand(table)
            held = hand.hands[seat]
            held.remove(card)
            hand.out_of_play.append(card)
            hand.shows.append(Show(seat=seat, groups=groups, points=points, card=card, valid=valid))
            hand.deal_points[seat] = points
            statuses = _statuses(hand)
            if valid:
                # The others in the deal show in any order; the declarer's 13 stay shown.
                statuses[seat] = DealStatus.DECLARED
                for other, status in enumerate(statuses):
                    if status is DealStatus.IN:
                        statuses[other] = DealStatus.TO_SUBMIT
                hand.phase = Phase.SHOW
            else:
                statuses[seat] = DealStatus.WRONG_SHOW
                hand.out_of_play.extend(held)
                held.clear()
                _next_turn(table, hand, seat)
        case GroupsSubmitted(seat=seat, groups=groups, points=points):
            hand = _hand(table)
            hand.shows.append(Show(seat=seat, groups=groups, points=points))
            hand.deal_points[seat] = points
            _statuses(hand)[seat] = DealStatus.SUBMITTED
        case PlayerDropped(seat=seat, points=points):
            hand = _hand(table)
            held = hand.hands[seat]
            # Set aside face down: out of play, never shown.
            hand.out_of_play.extend(held)
            held.clear()
            hand.deal_points[seat] = points
            _statuses(hand)[seat] = DealStatus.DROPPED
            _next_turn(table, hand, seat)
        case PlayerEliminated(player=player):
            table.eliminated[player] = True
        case TurnTimedOut(player=seat, timeouts=timeouts):
            table.timeouts[seat] = timeouts
            table.clocked = seat
        case PlayerLeft():
            _apply_player_left(table, event)
        case HandEnded():
            table.totals = list(event.totals)
            table.last_hand = event
            table.hands_played = event.hand_number
            table.hand = None
        case GameFinished(winner=winner, totals=totals):
            table.winner = winner
            table.totals = list(totals)
            table.finished = True


def _count_timeouts(table: Table, event: Event) -> None:
    """A seat's consecutive timeouts go back to 0 when it ends a turn itself (a
    discard, a knock, a declaration, a show's submission, a drop, or going out); its
    moves in a turn the clock plays (after its `TurnTimedOut`) do not count."""
    seat = actor(event)
    if seat is None:
        if isinstance(event, HandDealt | HandEnded | GameFinished):
            table.clocked = None
        return
    if table.clocked is not None and table.clocked != seat:
        table.clocked = None
    if table.clocked == seat:
        return
    if isinstance(event, _TURN_ENDS):
        table.timeouts[seat] = 0
    elif isinstance(event, MeldLaid | CardLaidOff) and table.hand is not None:
        # Going out by a meld or a lay-off that empties the hand ends the turn too.
        laid = len(event.cards) if isinstance(event, MeldLaid) else 1
        if len(table.hand.hands[seat]) == laid:
            table.timeouts[seat] = 0


def _apply_player_left(table: Table, event: PlayerLeft) -> None:
    seat = event.player
    table.left[seat] = True
    table.timeouts[seat] = 0
    if table.clocked == seat:
        table.clocked = None
    if event.replaced:
        return
    table.forfeited[seat] = True
    hand = table.hand
    if hand is None or table.finished:
        return
    if event.points is not None:
        # Indian: scored as a drop; its hand set aside face down, never shown.
        hand.out_of_play.extend(hand.hands[seat])
        hand.hands[seat].clear()
        hand.deal_points[seat] = event.points
        _statuses(hand)[seat] = DealStatus.DROPPED
        if hand.turn == seat:
            _next_turn(table, hand, seat)
    elif hand.statuses is None and hand.turn == seat:
        # The other variants: its cards lie face down where they are, unplayed; the
        # turn passes on.
        _next_turn(table, hand, seat)


def _next_turn(table: Table, hand: HandState, seat: int) -> None:
    """The turn passes to the next seat still in the deal (every seat, but in Indian
    Rummy's deals)."""
    turn = (seat + 1) % table.players
    if hand.statuses is not None:
        while hand.statuses[turn] is not DealStatus.IN and turn != seat:
            turn = (turn + 1) % table.players
    elif any(table.forfeited):
        while table.forfeited[turn] and turn != seat:
            turn = (turn + 1) % table.players
    hand.turn = turn
    hand.phase = Phase.DRAW
    hand.taken = None
    hand.taken_second = None
    hand.melds_this_turn = 0
    hand.played_this_turn = False
    hand.turns += 1


def _statuses(hand: HandState) -> list[DealStatus]:
    assert hand.statuses is not None, "an Indian deal keeps its seats' statuses"
    return hand.statuses


def _apply_hand_dealt(table: Table, event: HandDealt) -> None:
    size = table.rules.hand_size_for(table.players)
    stock: tuple[Card, ...]
    if event.seats is not None and table.rules.variant is Variant.INDIAN:
        _apply_indian_deal(table, event, event.seats, size)
        return
    # Dealt round the seats still in the game (all of them, unless some forfeited).
    seats = event.seats if event.seats is not None else tuple(range(table.players))
    among = len(seats)
    if among != table.players:
        size = table.rules.hand_size_for(among)
    dealer = seats.index(event.dealer)
    if table.rules.variant is Variant.WROTHAM:
        # No upcard, an empty pile, and the starter opens with eight cards, no draw.
        starter = deal_to_starter(event.deck, dealer, among, size)
        dealt_hands, stock, discard = starter.hands, starter.stock, []
        turn, phase = seats[starter.starter], Phase.PLAY
    else:
        dealt = deal(event.deck, dealer, among, size)
        dealt_hands, stock, discard = dealt.hands, dealt.stock, [dealt.upcard]
        turn, phase = seats[(dealer + 1) % among], Phase.DRAW
    hands: list[list[Card]] = [[] for _ in range(table.players)]
    for seat, held in zip(seats, dealt_hands, strict=True):
        hands[seat] = list(held)
    table.dealer = event.dealer
    table.hand = HandState(
        number=event.hand_number,
        dealer=event.dealer,
        hands=hands,
        stock=list(reversed(stock)),
        discard=discard,
        turn=turn,
        phase=phase,
        played_before=[False] * table.players,
    )


def _apply_indian_deal(table: Table, event: HandDealt, seats: tuple[int, ...], size: int) -> None:
    """Indian: 13 each to the seats dealt in, the upcard, then the wild indicator (face
    up, out of play); the seat after the dealer among them starts."""
    dealt = deal_among(event.deck, event.dealer, seats, size)
    hands: list[list[Card]] = [[] for _ in range(table.players)]
    for seat, held in zip(seats, dealt.hands, strict=True):
        hands[seat] = list(held)
    statuses = [
        DealStatus.IN
        if seat in seats
        else DealStatus.ELIMINATED
        if table.eliminated[seat]
        else DealStatus.SITTING_OUT
        for seat in range(table.players)
    ]
    table.dealer = event.dealer
    table.hand = HandState(
        number=event.hand_number,
        dealer=event.dealer,
        hands=hands,
        stock=list(reversed(dealt.stock)),
        discard=[dealt.upcard],
        turn=dealt.starter,
        phase=Phase.DRAW,
        played_before=[False] * table.players,
        out_of_play=[dealt.indicator],
        wild=wild_rank_of(dealt.indicator),
        indicator=dealt.indicator,
        statuses=statuses,
        deal_points=[None] * table.players,
        drawn=[False] * table.players,
    )


def _hand(table: Table) -> HandState:
    assert table.hand is not None, "a move event only follows a deal"
    return table.hand
