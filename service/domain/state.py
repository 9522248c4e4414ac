"""The state of a table: the seats, the totals and the hand in play.

Plain mutable data, changed only by `service.domain.changes.apply`; every
rule that decides what may happen lives in `turns` and `flow`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, TypeVar

from service.domain.cards import Card, Rank
from service.domain.engine import Engine, engine_for
from service.domain.indian.judge import Group
from service.domain.melds import TableMeld
from service.domain.presets import Features
from service.domain.rules import RuleSet

if TYPE_CHECKING:  # actions.py reads this module's Source
    from service.domain.actions import Action


class Status(StrEnum):
    """Where a game stands: `waiting` for players, `playing`, `finished` (with a
    winner) or `aborted` (ended without one, `game_aborted`). More values may come:
    a client treats one it does not know as a game it cannot act in."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"
    ABORTED = "aborted"


class AbortedBy(StrEnum):
    """Who or what ended a game without a winner (`game_aborted`): a cap of its rules
    (`cap`); the admin (`admin`) and idleness (`idle`) are named for what comes next."""

    ADMIN = "admin"
    IDLE = "idle"
    CAP = "cap"


ABORT_REASON_LENGTH = 500
"""The longest reason an admin's abort may give (stored, and shown to everyone)."""


class Phase(StrEnum):
    DRAW = "draw"
    SECOND_DRAW = "second_draw"
    """Boathouse: the second card after taking the top discard."""
    PLAY = "play"
    SHOW = "show"
    """Indian: after a valid declaration, every other player in the deal shows."""
    UPCARD_OFFER = "upcard_offer"
    """Gin: the non-dealer, then the dealer, may take the upcard or pass."""


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
    # Gin Rummy's ends of a hand (a knock that wins is `knock`).
    GIN = "gin"
    BIG_GIN = "big_gin"
    UNDERCUT = "undercut"
    VOID = "void"
    """Gin: a discard left two or fewer cards in the stock (or the turn cap): no score."""


class KnockKind(StrEnum):
    """Gin: what a knock is: deadwood within the limit, none (gin), or none with all
    eleven cards (big gin, no knock card)."""

    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big_gin"


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
class LaidOff:
    """Gin: a defender's card laid off on the knocker's meld number `meld` (an index
    into the knocker's `melds`)."""

    card: Card
    meld: int


@dataclass(frozen=True, slots=True)
class GinFinal:
    """Gin: one seat's final reckoning at the game's end (`GameFinished.result`)."""

    hands_won: int
    box: int
    """`box_bonus` for each hand won."""
    game_bonus: int
    shutout: bool
    """The winner whose total was doubled (the loser won no hand)."""
    total: int


@dataclass(frozen=True, slots=True)
class GinHand:
    """Gin Rummy's part of a hand in play (`HandState.gin`)."""

    knock_limit: int
    """This hand's knock limit (the upcard's value under Oklahoma)."""
    doubled: bool
    """Oklahoma: a spade upcard doubles the hand."""
    passes: int = 0
    """Passes of the upcard so far (2: both passed, the non-dealer draws from the stock)."""
    kind: KnockKind | None = None
    """The knock's kind, once knocked."""
    melds: tuple[tuple[Card, ...], ...] = ()
    """The knocker's arrangement, once knocked."""


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
    # Gin Rummy's result (None in every other variant): `knocker`, `knock_card`,
    # `counts` and `arranged` (each seat's melds) as Knock Rummy's, and these.
    deadwood: tuple[tuple[Card, ...], ...] | None = None
    """Gin: each seat's cards left outside its melds after the defender's lay-offs."""
    laid_off: tuple[tuple[LaidOff, ...], ...] | None = None
    """Gin: each seat's cards laid off on the knocker's melds (the defender's only)."""
    hand_winner: int | None = None
    """Gin: the one seat that scored the hand (None when void)."""
    # 500 Rum's result (None in every other variant).
    melded: tuple[int, ...] | None = None
    """Each seat's values put down this hand (`melded_points`); `points` is that less
    `values`, what its cards left in hand count."""

    @property
    def rummy(self) -> bool:
        return self.how is HandEnding.RUMMY


def statuses_of(result: HandResult) -> tuple[DealStatus, ...]:
    """Each seat's status at the end of a deal that the rules know to be Indian."""
    statuses = result.statuses
    assert statuses is not None, "an Indian deal's result has its statuses"
    return statuses


@dataclass(slots=True)
class IndianHand:
    """Indian Rummy's part of a deal in play (`HandState.indian`)."""

    wild: Rank
    """The deal's wild rank, from its indicator."""
    indicator: Card
    statuses: list[DealStatus]
    """Each seat's status in the deal."""
    deal_points: list[int | None]
    """Each seat's points in the deal, once known (a drop, a show)."""
    drawn: list[bool]
    """Each seat has drawn in this deal (a later drop is a middle drop)."""
    shows: list[Show] = field(default_factory=list)

    def copy(self) -> IndianHand:
        """An independent copy (cards and shows are immutable and shared)."""
        return IndianHand(
            wild=self.wild,
            indicator=self.indicator,
            statuses=list(self.statuses),
            deal_points=list(self.deal_points),
            drawn=list(self.drawn),
            shows=list(self.shows),
        )


def gin_of(hand: HandState) -> GinHand:
    """The Gin part of a hand that the rules know to be Gin Rummy's."""
    gin = hand.gin
    assert gin is not None, "a gin hand"
    return gin


@dataclass(slots=True)
class SpreadHand:
    """500 Rum's part of a hand in play (`HandState.spread`): its discard pile is
    spread, and a draw of several pile cards calls the deepest."""

    called: Card | None = None
    """The called card of this turn's draw, until the seat to play melds or lays it
    off (copies are never told apart: any copy of its code uses it)."""

    def copy(self) -> SpreadHand:
        return SpreadHand(called=self.called)


def indian_of(hand: HandState) -> IndianHand:
    """The Indian part of a deal that the rules know to be Indian."""
    indian = hand.indian
    assert indian is not None, "an Indian deal"
    return indian


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
    known: dict[int, list[Card]] = field(default_factory=dict)
    """Per seat, the cards everyone saw it take into its hand and that it still holds
    as far as the table can tell (`changes.remember`): taken face up from the
    discard pile, or a wild taken back from a meld. Public, as a player at the table
    would remember them."""
    knocker: int | None = None
    """Knock Rummy: the seat that knocked; the hand ends at once."""
    indian: IndianHand | None = None
    """Indian Rummy's part of the deal (None in every other variant)."""
    gin: GinHand | None = None
    """Gin Rummy's part of the hand (None in every other variant; immutable, replaced
    as it changes, so a copy shares it)."""
    spread: SpreadHand | None = None
    """500 Rum's part of the hand (None in every other variant)."""

    def to_act(self) -> int:
        """The seat whose move the game waits for: the turn's, or in Indian's show the
        first still to submit (the others may submit before it)."""
        if self.phase is Phase.SHOW and self.indian is not None:
            return self.indian.statuses.index(DealStatus.TO_SUBMIT)
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
        copied.known = {seat: list(cards) for seat, cards in self.known.items()}
        if self.indian is not None:
            copied.indian = self.indian.copy()
        if self.spread is not None:
            copied.spread = self.spread.copy()
        return copied


@dataclass(slots=True)
class Table:
    """A game as the rules see it: seats, totals, the hand in play, the result."""

    rules: RuleSet
    seat_count: int
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
    aborted: bool = False
    """Ended without a winner (`game_aborted`)."""
    events: int = 0
    """Events applied since the creation: the game's version less one (the caps)."""
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
    bank_left: list[int] = field(default_factory=list)
    """Each seat's time bank left, in whole seconds (the rule `time_bank_seconds`):
    never refilled, spent by `TimeBankUsed`."""
    hands_won: list[int] = field(default_factory=list)
    """Gin: the hands each seat has won (`HandResult.hand_winner`), for the box bonus."""
    final: tuple[GinFinal, ...] | None = None
    """Gin: each seat's final reckoning, once the game is finished."""
    engine: Engine = field(init=False, repr=False, compare=False)
    """The engine of the table's rules (`engine.engine_for`), chosen once, here: every
    move asks it."""
    features: Features = field(init=False, repr=False, compare=False)
    """The rules' `features`, read here by every move (an attribute, not a look-up)."""
    allows: frozenset[type[Action]] = field(init=False, repr=False, compare=False)
    """Every action the engine's phase table allows under the rules
    (`Engine.allowed_actions`): any other is not in the variant."""

    def __post_init__(self) -> None:
        self.engine = engine_for(self.rules)
        self.features = self.rules.features
        self.allows = self.engine.allowed_actions(self.rules)
        if not self.totals:
            # Format `deals` starts each player with its chips.
            self.totals = [self.rules.starting_score] * self.seat_count
        if not self.eliminated:
            self.eliminated = [False] * self.seat_count
        if not self.left:
            self.left = [False] * self.seat_count
        if not self.forfeited:
            self.forfeited = [False] * self.seat_count
        if not self.timeouts:
            self.timeouts = [0] * self.seat_count
        if not self.bank_left:
            self.bank_left = [self.rules.time_bank_seconds] * self.seat_count
        if not self.hands_won:
            self.hands_won = [0] * self.seat_count

    def copy(self) -> Table:
        """An independent copy, much cheaper than `copy.deepcopy`."""
        copied = _shallow_copy(self, _TABLE_FIELDS)
        copied.seated = list(self.seated)
        copied.totals = list(self.totals)
        copied.eliminated = list(self.eliminated)
        copied.left = list(self.left)
        copied.forfeited = list(self.forfeited)
        copied.timeouts = list(self.timeouts)
        copied.bank_left = list(self.bank_left)
        copied.hands_won = list(self.hands_won)
        copied.hand = None if self.hand is None else self.hand.copy()
        return copied

    def __deepcopy__(self, memo: object) -> Table:
        return self.copy()

    @property
    def status(self) -> Status:
        if self.finished:
            return Status.FINISHED
        if self.aborted:
            return Status.ABORTED
        if self.dealer is None:
            return Status.WAITING
        return Status.PLAYING

    @property
    def over(self) -> bool:
        """Finished or aborted: no move, join or leave is taken any more."""
        return self.finished or self.aborted

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
