"""Melds on the table: sets and runs under the three ace modes, and lay-offs.

A set is 3 or 4 cards of one rank; a run is 3 or more cards of one suit in
consecutive rank, where the `aces` rule says whether an ace may also follow a
king (`high_or_low`) and whether a run may turn the corner through it
(`around_the_corner`). Every check comes as a verify / can pair built on one
private judge, and the legal-move lists are confirmed by that same judge, so
what a view offers and what a move may do can never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from itertools import combinations, pairwise

from service.domain.cards import SUITS, Card, Rank, Suit
from service.domain.errors import InvalidLayOff, InvalidMeld
from service.domain.rule_values import Aces

_MIN_MELD = 3
_FULL_SET = 4  # one deck: one card of a rank per suit
_FULL_RUN = 13  # one deck: the whole suit
_SUITS: tuple[Suit, ...] = SUITS  # C D H S: the order sets are laid out in
_SUIT_SLOT: dict[Suit, int] = {suit: slot for slot, suit in enumerate(_SUITS)}
# Attribute lookups on Enum classes (`Rank.ACE`) are slow on 3.11, where EnumType
# defines __getattr__: the hot paths read the members they need once, here.
_ACE, _TWO, _KING = int(Rank.ACE), int(Rank.TWO), int(Rank.KING)
_ACES_LOW = Aces.LOW

# The ace rule as one number. A run's cards stand at positions: A..K are 1..13,
# and a run that goes on past the king counts on, so the ace there is 14, the
# two 15, and so on. A run may climb up to this ceiling (and is never more than
# the 13 cards of its suit): `low` stops at the king, `high_or_low` lets the
# ace top a run once, `around_the_corner` lets a run from the king go all round.
_CEILING: dict[Aces, int] = {
    Aces.LOW: _KING,
    Aces.HIGH_OR_LOW: _KING + 1,
    Aces.AROUND_THE_CORNER: _KING + _FULL_RUN - 1,
}


class MeldKind(StrEnum):
    SET = "set"
    RUN = "run"


class End(StrEnum):
    """Where a lay-off goes: before the first card or after the last one.

    Runs are kept in run order (from the low end to the high end, a wrapping
    run starting from its first card, e.g. Q K A 2); a set lay-off always
    goes at the `HIGH` end (appended).
    """

    LOW = "low"
    HIGH = "high"


@dataclass(slots=True)
class TableMeld:
    """A meld on the table. Never rearranged, split or moved; only extended."""

    id: str
    kind: MeldKind
    cards: list[Card]
    owner: int
    laid_off: list[tuple[Card, int]] = field(default_factory=list)
    """Each card laid off onto this meld, with the seat that laid it off, in order."""
    as_: list[Card] | None = None
    """In games with wild cards: what each card stands for, parallel to `cards`
    (a natural card itself). None where the game has no wilds."""

    def copy(self) -> TableMeld:
        """An independent copy (cards are immutable and shared)."""
        return TableMeld(
            id=self.id,
            kind=self.kind,
            cards=list(self.cards),
            owner=self.owner,
            laid_off=list(self.laid_off),
            as_=None if self.as_ is None else list(self.as_),
        )


# As for `_ACE` above: the legal-move lists run these checks for every view.
_SET, _RUN = MeldKind.SET, MeldKind.RUN
_LOW_END, _HIGH_END = End.LOW, End.HIGH


# --- melds -------------------------------------------------------------------


class _Fault(Enum):
    """Why some cards are not a meld; turned into a sentence only when raised."""

    TOO_FEW = "too few"
    REPEATS = "repeats"
    MIXED = "mixed"
    GAP = "gap"
    CORNER = "corner"


def meld_kind(cards: Sequence[Card], aces: Aces) -> MeldKind:
    """The kind of meld `cards` make, or `InvalidMeld` with a sentence saying why not."""
    verdict = _judge_meld(cards, aces)
    if isinstance(verdict, _Fault):
        raise InvalidMeld(_meld_fault_sentence(cards, verdict, aces))
    return verdict


def is_meld(cards: Sequence[Card], aces: Aces) -> bool:
    """Whether `cards` make a meld: `meld_kind`'s yes or no, without raising."""
    return not isinstance(_judge_meld(cards, aces), _Fault)


def arrange(cards: Sequence[Card], aces: Aces) -> list[Card]:
    """`cards` (a valid meld) in table order: a run in run order, a set by suit.

    A run goes from its low end to its high end: a high ace last (Q K A), a
    wrapping run from its first card (Q K A 2), the whole suit as A..K.
    Cards that are no meld raise `InvalidMeld`.
    """
    if meld_kind(cards, aces) is _SET:
        return [card for suit in _SUITS for card in cards if card.suit is suit]
    by_rank: dict[int, Card] = {card.rank: card for card in cards}
    start = _run_start(by_rank.keys())
    assert start is not None  # meld_kind has just accepted these cards as a run
    return [by_rank[_rank_at(position)] for position in range(start, start + len(cards))]


def _judge_meld(cards: Sequence[Card], aces: Aces) -> MeldKind | _Fault:
    """The one source of truth for `meld_kind` and `is_meld`: a kind or a fault."""
    count = len(cards)
    if count < _MIN_MELD:
        return _Fault.TOO_FEW
    ranks = {card.rank for card in cards}
    if len(ranks) == 1:
        # Enum members are singletons, so identity tells suits apart without
        # Enum's Python-level hash. Distinct suits also mean at most four cards.
        return _SET if len({id(card.suit) for card in cards}) == count else _Fault.REPEATS
    suit = cards[0].suit
    if any(card.suit is not suit for card in cards):
        # Cards of distinct ranks cannot repeat; only otherwise pay for hashing cards.
        repeats = len(ranks) < count and _first_repeat(cards) is not None
        return _Fault.REPEATS if repeats else _Fault.MIXED
    if len(ranks) != count:
        return _Fault.REPEATS  # one suit: a repeated rank is a repeated card
    start = _run_start(ranks)
    if start is None:
        return _Fault.GAP
    if start + count - 1 > _CEILING[aces]:
        return _Fault.CORNER
    return _RUN


def _run_start(ranks: AbstractSet[int]) -> int | None:
    """The rank a run of these distinct ranks starts from, or None if there is a gap.

    Read round the corner (K then A), consecutive ranks have exactly one rank
    whose predecessor is missing: the run starts there. Whether the ace rule
    lets it turn the corner is the caller's question (see `_CEILING`).
    """
    low, high = min(ranks), max(ranks)
    if high - low + 1 == len(ranks):
        return low  # no corner to turn; this also reads the whole suit as A..K
    start = None
    for rank in ranks:
        if _down(rank) not in ranks:
            if start is not None:
                return None
            start = rank
    return start


def _rank_at(position: int) -> int:
    """The rank at a run position (14 is the ace above the king, 15 the two, …)."""
    return (position - 1) % _FULL_RUN + 1


# The ranks at positions 1, 2, … up to each ace rule's ceiling, for walking runs.
_RUN_LINE: dict[Aces, tuple[int, ...]] = {
    aces: tuple(_rank_at(position) for position in range(1, ceiling + 1))
    for aces, ceiling in _CEILING.items()
}


def _up(rank: int) -> int:
    """The next rank going up, turning the corner from king to ace."""
    return _ACE if rank == _KING else rank + 1


def _down(rank: int) -> int:
    """The next rank going down, turning the corner from ace to king."""
    return _KING if rank == _ACE else rank - 1


def _meld_fault_sentence(cards: Sequence[Card], fault: _Fault, aces: Aces) -> str:
    codes = _codes(cards)
    if fault is _Fault.TOO_FEW:
        if not cards:
            return "A meld needs at least 3 cards, and none were given."
        return f"{codes} is not a meld: a meld needs at least 3 cards, not {len(cards)}."
    if fault is _Fault.REPEATS:
        return (
            f"{codes} is not a meld: it repeats {_first_repeat(cards)}, and the deck "
            f"has only one of each card."
        )
    if fault is _Fault.MIXED:
        return (
            f"{codes} is not a meld: a set needs cards of one rank and a run cards of "
            f"one suit, and these mix ranks and suits."
        )
    by_rank: dict[int, Card] = {card.rank: card for card in cards}
    if fault is _Fault.GAP:
        below, above = _gap(by_rank.keys(), aces)
        return (
            f"{codes} is not a run: there is a gap between {by_rank[below]} and {by_rank[above]}."
        )
    if aces is _ACES_LOW and _TWO not in by_rank:
        return (
            f"{codes} is not a run: aces are low, so an ace goes only below a two, "
            f"never above a king."
        )
    return (
        f"{codes} is not a run: it turns the corner from king through ace to two, "
        f"which only the around_the_corner ace rule allows."
    )


def _gap(ranks: AbstractSet[int], aces: Aces) -> tuple[int, int]:
    """Two ranks with a gap between them, read the way the ace rule reads a run."""
    order = sorted(ranks)
    if aces is Aces.AROUND_THE_CORNER:
        # Leave the widest gap outside the would-be run and report one inside it.
        widest = max(range(len(order)), key=lambda i: (order[i] - order[i - 1]) % _FULL_RUN)
        order = order[widest:] + order[:widest]
    elif aces is Aces.HIGH_OR_LOW and order[0] == _ACE and _KING + 1 - order[1] < order[-1] - 1:
        order = [*order[1:], order[0]]  # the ace is nearer the king: read it high
    for below, above in pairwise(order):
        if _up(below) != above:
            return below, above
    raise AssertionError(f"no gap in ranks {order}")  # only called for a gap fault


def _first_repeat(cards: Sequence[Card]) -> Card | None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            return card
        seen.add(card)
    return None


# --- lay-offs ----------------------------------------------------------------


class _Misfit(Enum):
    """Why a card does not go onto a meld; a sentence only when raised."""

    WRONG_RANK = "wrong rank"
    SET_FULL = "set full"
    WRONG_SUIT = "wrong suit"
    RUN_FULL = "run full"
    ALREADY_IN = "already in"
    CORNER = "corner"
    NOT_NEXT = "not next"


def lay_off_end(meld: TableMeld, card: Card, aces: Aces) -> End:
    """Where `card` fits onto `meld`, or `InvalidLayOff` with a sentence saying why not.

    A card that fits both ends of a run (the one card a 12-card run lacks)
    goes at the `HIGH` end.
    """
    verdict = _judge_lay_off(meld, card, aces)
    if isinstance(verdict, _Misfit):
        raise InvalidLayOff(_misfit_sentence(meld, card, verdict, aces))
    return verdict


def can_lay_off(meld: TableMeld, card: Card, aces: Aces) -> bool:
    """Whether `card` fits onto `meld`: `lay_off_end`'s yes or no, without raising."""
    return not isinstance(_judge_lay_off(meld, card, aces), _Misfit)


def extend(meld: TableMeld, card: Card, end: End, seat: int, as_: Card | None = None) -> None:
    """Lay `card` off onto `meld` at `end`, recorded as laid off by `seat` (no checks).
    In a meld with readings, `as_` is what the card stands for (itself if None)."""
    if end is _LOW_END:
        meld.cards.insert(0, card)
    else:
        meld.cards.append(card)
    if meld.as_ is not None:
        reading = card if as_ is None else as_
        if end is _LOW_END:
            meld.as_.insert(0, reading)
        else:
            meld.as_.append(reading)
    meld.laid_off.append((card, seat))


def _judge_lay_off(meld: TableMeld, card: Card, aces: Aces) -> End | _Misfit:
    """The one source of truth for `lay_off_end` and `can_lay_off`.

    `meld.cards` is a valid meld in table order (as `arrange` and `extend` keep it).
    """
    cards = meld.cards
    if meld.kind is _SET:
        if card.rank != cards[0].rank:
            return _Misfit.WRONG_RANK
        if len(cards) >= _FULL_SET:
            return _Misfit.SET_FULL
        if any(held.suit is card.suit for held in cards):
            return _Misfit.ALREADY_IN
        return _HIGH_END
    if card.suit is not cards[0].suit:
        return _Misfit.WRONG_SUIT
    if len(cards) >= _FULL_RUN:
        return _Misfit.RUN_FULL
    below, above = _run_ends(cards, aces)
    # A run short of its whole suit never holds the ranks just beyond its ends,
    # so a card that matches one of them is not already in the meld.
    if card.rank == above:
        return _HIGH_END
    if card.rank == below:
        return _LOW_END
    if card in cards:
        return _Misfit.ALREADY_IN
    if card.rank in (_down(cards[0].rank), _up(cards[-1].rank)):
        return _Misfit.CORNER
    return _Misfit.NOT_NEXT


def _run_ends(cards: list[Card], aces: Aces) -> tuple[int | None, int | None]:
    """The ranks a run (in table order, short of 13 cards) takes below and above.

    The run's first card stands at the position of its rank (see `_CEILING`),
    so it reaches `start + len - 1`; one more card at either end reaches one
    higher, counted from the new first card when it goes below.
    """
    start, length = cards[0].rank, len(cards)
    ceiling = _CEILING[aces]
    below = _down(start)
    return (
        below if below + length <= ceiling else None,
        _up(cards[-1].rank) if start + length <= ceiling else None,
    )


def _misfit_sentence(meld: TableMeld, card: Card, misfit: _Misfit, aces: Aces) -> str:
    lead = f"{card} cannot be laid off on meld {meld.id} ({_codes(meld.cards)})"
    if misfit is _Misfit.WRONG_RANK:
        return f"{lead}: that is a set of {_rank_plural(meld.cards[0].rank)}."
    if misfit is _Misfit.SET_FULL:
        return f"{lead}: the set already has all four {_rank_plural(card.rank)}."
    if misfit is _Misfit.WRONG_SUIT:
        return f"{lead}: that is a run of {_suit_name(meld.cards[0].suit)}."
    if misfit is _Misfit.RUN_FULL:
        return f"{lead}: the run already holds all 13 {_suit_name(card.suit)}."
    if misfit is _Misfit.ALREADY_IN:
        return f"{lead}: {card} is already in that meld."
    if misfit is _Misfit.CORNER:
        if aces is _ACES_LOW and card.rank == _ACE:
            return f"{lead}: aces are low, so an ace goes only below a two, never above a king."
        return (
            f"{lead}: it would turn the corner from king through ace to two, "
            f"which only the around_the_corner ace rule allows."
        )
    wanted = [
        Card(Rank(rank), card.suit) for rank in _run_ends(meld.cards, aces) if rank is not None
    ]
    return f"{lead}: a run takes only the next card at either end, here {_or(wanted)}."


# --- legal moves -------------------------------------------------------------


def possible_melds(hand: Sequence[Card], aces: Aces) -> list[list[Card]]:
    """Every meld `hand` can make, each arranged, in a deterministic order.

    Sets come first, by rank (A to K), each rank's 3-card sets in suit order
    and then its 4-card set; then runs, by suit (C D H S), then by the rank
    they start from, then by length. The order of `hand` does not matter.
    """
    by_suit = _by_suit(hand)
    by_rank: dict[int, list[Card]] = {}
    for held in by_suit:  # in suit order, so each rank's cards are too
        for rank, card in held.items():
            by_rank.setdefault(rank, []).append(card)
    found: list[list[Card]] = []
    for rank in sorted(by_rank):
        group = by_rank[rank]
        if len(group) >= _MIN_MELD:
            found.extend(list(three) for three in combinations(group, _MIN_MELD))
            if len(group) == _FULL_SET:
                found.append(group)
    line = _RUN_LINE[aces]
    for held in by_suit:
        if len(held) >= _MIN_MELD:
            _add_runs(found, held, line)
    return found


def _add_runs(found: list[list[Card]], held: dict[int, Card], line: tuple[int, ...]) -> None:
    """Add to `found` every run in one suit's `held` cards (by rank): each start, each length.

    `line` holds the ranks at run positions 1, 2, … up to the ace rule's ceiling.
    """
    for start in sorted(held):
        run = [held[start]]
        # line[start] is the rank one position above `start`; a run has at most 13 cards.
        for rank in line[start : start + _FULL_RUN - 1]:
            card = held.get(rank)
            if card is None:
                break
            run.append(card)
            # The whole suit is one meld however it is read: keep it once, as A..K.
            if len(run) >= _MIN_MELD and (len(run) < _FULL_RUN or start == _ACE):
                found.append(run.copy())


def possible_lay_offs(
    hand: Sequence[Card], melds: Sequence[TableMeld], aces: Aces
) -> list[tuple[Card, TableMeld]]:
    """Every (card, meld) pair where a card of `hand` fits `meld`, deterministic order.

    Pairs go by the order of `melds`, then by card order (rank, then suit).
    """
    by_suit = _by_suit(hand)
    found: list[tuple[Card, TableMeld]] = []
    for meld in melds:
        first = meld.cards[0]
        if meld.kind is _SET:
            candidates = [held[first.rank] for held in by_suit if first.rank in held]
        else:
            held = by_suit[_SUIT_SLOT[first.suit]]
            neighbours = sorted({_down(first.rank), _up(meld.cards[-1].rank)})
            candidates = [held[rank] for rank in neighbours if rank in held]
        for card in candidates:
            # Candidates only narrow the search; the judge of lay_off_end decides.
            if not isinstance(_judge_lay_off(meld, card, aces), _Misfit):
                found.append((card, meld))
    return found


def _by_suit(hand: Sequence[Card]) -> tuple[dict[int, Card], ...]:
    """The hand's cards of each suit, in suit order, by rank (repeats dropped)."""
    by_suit: tuple[dict[int, Card], ...] = ({}, {}, {}, {})
    for card in hand:
        by_suit[_SUIT_SLOT[card.suit]][card.rank] = card
    return by_suit


# --- wording -----------------------------------------------------------------


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(card.code for card in cards)


def _rank_plural(rank: int) -> str:
    name = Rank(rank).name.lower()
    return f"{name}es" if name.endswith("x") else f"{name}s"


def _suit_name(suit: Suit) -> str:
    return suit.name.lower()


def _or(cards: list[Card]) -> str:
    if not cards:
        return "no card at all"
    return " or ".join(card.code for card in cards)
