"""Wilds on the table's melds (docs/rules.md "Wild cards"): what a card laid off on a
meld with readings stands for and where it goes, and the swaps that take back a
wild standing for a card held. `wilds` reads the melds themselves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from service.domain import melds
from service.domain.cards import SUITS, Card
from service.domain.enum_members import SET_MELD as _SET
from service.domain.errors import InvalidLayOff, SwappedWildUnused, WildAmbiguous
from service.domain.events import CardLaidOff, Event, MeldLaid, WildSwapped
from service.domain.melds import End, TableMeld
from service.domain.rules import RuleSet
from service.domain.wilds import Reading, card_at, is_wild, reading_codes


def lay_off_readings(meld: TableMeld, card: Card, rules: RuleSet) -> list[tuple[Card, End]]:
    """What `card` may stand for when laid off onto `meld` (a meld with readings),
    with the end it goes to. A natural card stands for itself; a wild for any card
    that extends the represented cards, a wild-rank card also for itself."""
    assert meld.as_ is not None, "a meld of a game with wilds keeps its reading"
    first = meld.as_[0]
    if not is_wild(card, rules):
        # Most cards held are of another rank (a set) or suit (a run): say no cheaply.
        other = (
            (card.rank is not first.rank) if meld.kind is _SET else (card.suit is not first.suit)
        )
        if other:
            return []
        candidates = [card]
    elif meld.kind is _SET:
        candidates = [card_at(first.rank.value, suit) for suit in SUITS]
    else:
        suit = first.suit
        below = card_at(first.rank.value - 1, suit)
        above = card_at(meld.as_[-1].rank.value + 1, suit)
        candidates = [above, below] if above != below else [above]
    represented = TableMeld(meld.id, meld.kind, list(meld.as_), meld.owner)
    found: list[tuple[Card, End]] = []
    for stands in candidates:
        if melds.can_lay_off(represented, stands, rules.aces):
            found.append((stands, melds.lay_off_end(represented, stands, rules.aces)))
    return found


def lay_off_reading(
    meld: TableMeld, card: Card, as_: Card | None, rules: RuleSet
) -> tuple[Card, End]:
    """What a laid-off `card` stands for and where it goes: `as_` if given, else the
    one reading left when a wild-rank card stands for itself where it can.
    Raises `InvalidLayOff` or `WildAmbiguous`."""
    found = lay_off_readings(meld, card, rules)
    if as_ is not None:
        for stands, end in found:
            if stands == as_:
                return stands, end
        if as_ != card and not is_wild(card, rules):
            raise InvalidLayOff(
                f"{_lead(meld, card)}: {card} is not wild, so it stands for itself."
            )
        raise InvalidLayOff(f"{_lead(meld, card)} as {as_}: {_why_not(meld, as_, rules)}")
    if not found:
        raise InvalidLayOff(f"{_lead(meld, card)}: {_why_not(meld, card, rules)}")
    natural = [pair for pair in found if pair[0] == card]
    if natural:
        return natural[0]
    if len(found) > 1:
        options = " or ".join(stands.code for stands, _ in found)
        raise WildAmbiguous(
            f"{card} laid off on meld {meld.id} could stand for {options}: say which with `as`."
        )
    return found[0]


def _lead(meld: TableMeld, card: Card) -> str:
    return f"{card} cannot be laid off on meld {meld.id} ({_reading_codes_of(meld)})"


def _why_not(meld: TableMeld, stands: Card, rules: RuleSet) -> str:
    assert meld.as_ is not None
    if stands.is_joker:
        return "a card stands for a natural card, never for JK."
    if stands in meld.as_:
        return f"the meld already holds {stands} (a place a wild holds is filled only by a swap)."
    represented = TableMeld(meld.id, meld.kind, list(meld.as_), meld.owner)
    try:
        melds.lay_off_end(represented, stands, rules.aces)
    except InvalidLayOff as invalid:
        return invalid.message.split(": ", 1)[-1]
    return "it does not fit there."  # pragma: no cover - only called for a misfit


# --- swaps -------------------------------------------------------------------


def swap_place(meld: TableMeld, card: Card, rules: RuleSet) -> int | None:
    """Where in `meld` a wild stands for exactly `card` (a wild-rank card standing for
    itself never moves), or None."""
    if meld.as_ is None:
        return None
    for index, (placed, stands) in enumerate(zip(meld.cards, meld.as_, strict=True)):
        if stands == card and placed != stands and is_wild(placed, rules):
            return index
    return None


def swaps_for(meld: TableMeld, held: Iterable[Card], rules: RuleSet) -> list[tuple[Card, Card]]:
    """(card put in, wild taken) for each card of `held` a wild of `meld` stands for."""
    codes = {card.code for card in held}
    if meld.as_ is None:
        return []
    return [
        (stands, placed)
        for placed, stands in zip(meld.cards, meld.as_, strict=True)
        if placed != stands and stands.code in codes and is_wild(placed, rules)
    ]


def unused_swapped_wild(events: Sequence[Event], seat: int) -> SwappedWildUnused | None:
    """Under `swapped_wild: meld_now`: each wild `seat` took by a swap must leave its
    hand by a later meld or lay-off in the same request (copies are not told apart)."""
    pending: Counter[Card] = Counter()
    for event in events:
        if isinstance(event, WildSwapped) and event.seat == seat:
            pending[event.wild] += 1
        elif isinstance(event, MeldLaid) and event.seat == seat:
            for card in event.cards:
                if pending[card] > 0:
                    pending[card] -= 1
        elif isinstance(event, CardLaidOff) and event.seat == seat and pending[event.card] > 0:
            pending[event.card] -= 1
    left = sorted(card.code for card, count in pending.items() for _ in range(count))
    if not left:
        return None
    return SwappedWildUnused(
        f"Under swapped_wild meld_now a wild taken by a swap must be melded or laid off in "
        f"the same request: {' '.join(left)} would stay in your hand."
    )


def _reading_codes_of(meld: TableMeld) -> str:
    if meld.as_ is None:
        return " ".join(card.code for card in meld.cards)
    return reading_codes(Reading(meld.kind, tuple(meld.cards), tuple(meld.as_)))
