"""The state of a table: the seats, the totals and the hand in play.

Plain mutable data, changed only by `service.domain.events.apply`; every
rule that decides what may happen lives in `turns` and `flow`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar

from service.domain.cards import Card, Rank
from service.domain.groups import Group
from service.domain.melds import TableMeld
from service.domain.rules import RuleSet


class Status(StrEnum):
    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


class Phase(StrEnum):
    DRAW = "draw"
    SECOND_DRAW = "second_draw"
    """Boathouse: the second card after taking the top discard."""
    PLAY = "play"
    SHOW = "show"
    """Indian: after a valid declaration, every other player in the deal shows."""


class Source(StrEnum):
    STOCK = "stock"
    DISCARD = "discard"


class HandEnding(StrEnum):
    """How a hand ended."""

    OUT = "out"
    RUMMY = "rummy"
    EXHAUSTED = "exhausted"
    TURN_CAP = "turn_cap"
    KNOCK = "knock"
    DECLARED = "declared"
    """Indian: a valid declaration, and every other player's show."""
    LAST_STANDING = "last_standing"
    """Indian: the others dropped or showed wrongly."""


class DealStatus(StrEnum):
    """Indian: where a seat stands in the deal (or, out of it, in the game)."""

    IN = "in"
    DROPPED = "dropped"
    WRONG_SHOW = "wrong_show"
    DECLARED = "declared"
    TO_SUBMIT = "to_submit"
    SUBMITTED = "submitted"
    SITTING_OUT = "sitting_out"
    """Not dealt in: a tie-break of format `deals` is played among the tied only."""
    ELIMINATED = "eliminated"


class LeaveReason(StrEnum):
    """Why a seat's player is gone: it left, it resigned (a concession), or its clock
    ran out `timeouts_before_takeover` times in a row."""

    LEFT = "left"
    RESIGNED = "resigned"
    TIMED_OUT = "timed_out"


class DropKind(StrEnum):
    FIRST = "first"
    MIDDLE = "middle"


@dataclass(frozen=True, slots=True)
class Show:
    """Indian: a declaration (with its finish `card`) or a submission, as the table saw
    it."""

    seat: int
    groups: tuple[Group, ...]
    points: int
    card: Card | None = None
    """The finish card of a declaration."""
    valid: bool | None = None
    """Whether a declaration was valid (None for a submission)."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """The result of a finished hand, readable as `last_hand` until the next one ends."""

    hand_number: int
    how: HandEnding
    out_seat: int | None
    remaining: tuple[tuple[Card, ...], ...]
    """Each seat's cards left in hand when the hand ended."""
    values: tuple[int, ...]
    """What each seat's remaining cards count."""
    points: tuple[int, ...]
    """What each seat added to its total for this hand."""
    totals: tuple[int, ...]
    # Knock Rummy's result (None in every other variant).
    knocker: int | None = None
    knock_card: Card | None = None
    """The card the knocker discarded face down: out of play, shown only here."""
    pot: int | None = None
    counts: tuple[int, ...] | None = None
    """Each seat's count: what its cards outside its best melds are worth."""
    unmatched: tuple[tuple[Card, ...], ...] | None = None
    """Each seat's cards outside the melds of its best arrangement, in sort order."""
    arranged: tuple[tuple[tuple[Card, ...], ...], ...] | None = None
    """Each seat's melds in that arrangement (`melds` in views)."""
    # Indian Rummy's result (None in every other variant).
    statuses: tuple[DealStatus, ...] | None = None
    """Each seat's status at the end of the deal."""
    shows: tuple[Show, ...] | None = None
    """The declaration and the submissions, in the order they were made."""
    eliminated: tuple[int, ...] | None = None
    """Pools: the seats this deal put at or over the limit."""

    @property
    def rummy(self) -> bool:
        return self.how is HandEnding.RUMMY


@dataclass(slots=True)
class HandState:
    """One hand in play."""

    number: int
    dealer: int
    hands: list[list[Card]]
    stock: list[Card]
    """Top of the stock LAST, so a draw is `pop()`."""
    discard: list[Card]
    """Oldest first; the top of the pile is the last card."""
    turn: int
    phase: Phase = Phase.DRAW
    melds: list[TableMeld] = field(default_factory=list)
    taken: Card | None = None
    """The card taken from the discard pile this turn, if any."""
    taken_second: Card | None = None
    """Boathouse: the second card taken from the discard pile this turn, if any."""
    melds_this_turn: int = 0
    played_this_turn: bool = False
    played_before: list[bool] = field(default_factory=list)
    """Per seat: melded or laid off in an earlier turn of this hand (no rummy then)."""
    recycles: int = 0
    turns: int = 0
    """Turns completed in this hand, for the `max_turns` cap."""
    melds_laid: int = 0
    """Melds laid this hand, for their ids."""
    out_of_play: list[Card] = field(default_factory=list)
    """Cards out of play for the rest of the hand (a knock card)."""
    knocker: int | None = None
    """Knock Rummy: the seat that knocked; the hand ends at once."""
    # Indian Rummy (None or empty in every other variant).
    wild: Rank | None = None
    """The deal's wild rank, from its indicator."""
    indicator: Card | None = None
    statuses: list[DealStatus] | None = None
    """Each seat's status in the deal."""
    deal_points: list[int | None] = field(default_factory=list)
    """Each seat's points in the deal, once known (a drop, a show)."""
    drawn: list[bool] = field(default_factory=list)
    """Each seat has drawn in this deal (a later drop is a middle drop)."""
    shows: list[Show] = field(default_factory=list)

    def to_act(self) -> int:
        """The seat whose move the game waits for: the turn's, or in Indian's show the
        first still to submit (the others may submit before it)."""
        if self.phase is Phase.SHOW and self.statuses is not None:
            return self.statuses.index(DealStatus.TO_SUBMIT)
        return self.turn

    def meld(self, meld_id: str) -> TableMeld | None:
        for meld in self.melds:
            if meld.id == meld_id:
                return meld
        return None

    def taken_cards(self) -> tuple[Card, ...]:
        """Every card taken from the discard pile this turn (none may be discarded)."""
        return tuple(card for card in (self.taken, self.taken_second) if card is not None)

    def has_own_meld(self, seat: int) -> bool:
        return any(meld.owner == seat for meld in self.melds)

    def cards(self) -> list[Card]:
        """Every card of the hand wherever it lies: in hand, stock, discard pile, a
        meld or out of play. The whole pack, as a multiset, while the rules hold (the
        conservation check)."""
        found = [card for held in self.hands for card in held]
        found.extend(self.stock)
        found.extend(self.discard)
        found.extend(self.out_of_play)
        for meld in self.melds:
            found.extend(meld.cards)
        return found

    def copy(self) -> HandState:
        """An independent copy (cards are immutable and shared)."""
        copied = _shallow_copy(self, _HAND_FIELDS)
        copied.hands = [list(held) for held in self.hands]
        copied.stock = list(self.stock)
        copied.discard = list(self.discard)
        copied.melds = [meld.copy() for meld in self.melds]
        copied.played_before = list(self.played_before)
        copied.out_of_play = list(self.out_of_play)
        copied.statuses = None if self.statuses is None else list(self.statuses)
        copied.deal_points = list(self.deal_points)
        copied.drawn = list(self.drawn)
        copied.shows = list(self.shows)
        return copied


@dataclass(slots=True)
class Table:
    """A game as the rules see it: seats, totals, the hand in play, the result."""

    rules: RuleSet
    players: int
    seated: list[bool]
    first_dealer: int | None = None
    """The first dealer when given at creation; otherwise drawn from the seed."""
    totals: list[int] = field(default_factory=list)
    hand: HandState | None = None
    dealer: int | None = None
    """The dealer of the latest hand dealt."""
    hands_played: int = 0
    last_hand: HandResult | None = None
    winner: int | None = None
    finished: bool = False
    eliminated: list[bool] = field(default_factory=list)
    """Indian pools: seats at or over the limit, out of the game."""
    left: list[bool] = field(default_factory=list)
    """Seats whose player left (resigned, or was taken over by its clock)."""
    forfeited: list[bool] = field(default_factory=list)
    """Seats out of the game for good by a forfeit: no more turns, never the winner."""
    timeouts: list[int] = field(default_factory=list)
    """Each seat's consecutive timeouts (docs/rules.md "Leaving and turn clocks")."""
    clocked: int | None = None
    """The seat whose turn the clock is playing now (its moves do not reset its count)."""

    def __post_init__(self) -> None:
        if not self.totals:
            # Format `deals` starts each player with its chips.
            self.totals = [self.rules.starting_score] * self.players
        if not self.eliminated:
            self.eliminated = [False] * self.players
        if not self.left:
            self.left = [False] * self.players
        if not self.forfeited:
            self.forfeited = [False] * self.players
        if not self.timeouts:
            self.timeouts = [0] * self.players

    def copy(self) -> Table:
        """An independent copy, much cheaper than `copy.deepcopy`."""
        copied = _shallow_copy(self, _TABLE_FIELDS)
        copied.seated = list(self.seated)
        copied.totals = list(self.totals)
        copied.eliminated = list(self.eliminated)
        copied.left = list(self.left)
        copied.forfeited = list(self.forfeited)
        copied.timeouts = list(self.timeouts)
        copied.hand = None if self.hand is None else self.hand.copy()
        return copied

    def __deepcopy__(self, memo: object) -> Table:
        return self.copy()

    @property
    def status(self) -> Status:
        if self.finished:
            return Status.FINISHED
        if self.dealer is None:
            return Status.WAITING
        return Status.PLAYING

    @property
    def hand_number(self) -> int:
        """The number of the hand in play, or of the latest hand (0 before the first deal)."""
        if self.hand is not None:
            return self.hand.number
        return self.hands_played


_T = TypeVar("_T", HandState, Table)


def _shallow_copy(source: _T, names: tuple[str, ...]) -> _T:
    """A new `source` holding the same values (the callers copy what they change):
    `dataclasses.replace` would build the fields anew, through `__init__`, at several
    times the cost."""
    copied = object.__new__(type(source))
    for name in names:
        setattr(copied, name, getattr(source, name))
    return copied


_HAND_FIELDS = tuple(each.name for each in dataclasses.fields(HandState))
_TABLE_FIELDS = tuple(each.name for each in dataclasses.fields(Table))
