"""How far a hand is from going out: the best way to meld and lay off its cards.

`best_cover` splits a hand into melds to lay, cards to lay off onto the
table and the deadwood left over, with as few deadwood cards as possible
(then as few points). A hand whose deadwood is a single card goes out this
turn by discarding it. The search is exact for the melds the hand itself
can make; lay-offs are judged against the table as it is, with chains
(5H then 6H onto 2H 3H 4H) followed through the hand.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from service.domain import melds
from service.domain.cards import Card
from service.domain.melds import TableMeld
from service.domain.rules import RuleSet
from service.domain.scoring import card_value


@dataclass(frozen=True, slots=True)
class Cover:
    """A plan for a hand: melds to lay from it, cards to lay off, and the rest."""

    melds: tuple[tuple[Card, ...], ...]
    laid_off: tuple[Card, ...]
    deadwood: tuple[Card, ...]
    points: int
    """What the deadwood counts."""

    @property
    def meld_cards(self) -> frozenset[Card]:
        return frozenset(card for meld in self.melds for card in meld)


def layable(hand: Sequence[Card], table: Sequence[TableMeld], rules: RuleSet) -> frozenset[Card]:
    """The cards of `hand` that fit onto the table's melds, one after another."""
    if not table:
        return frozenset()
    aces = rules.aces
    extended = [
        TableMeld(id=meld.id, kind=meld.kind, cards=list(meld.cards), owner=meld.owner)
        for meld in table
    ]
    found: set[Card] = set()
    grew = True
    while grew:
        grew = False
        for card in hand:
            if card in found:
                continue
            for meld in extended:
                if melds.can_lay_off(meld, card, aces):
                    melds.extend(meld, card, melds.lay_off_end(meld, card, aces), -1)
                    found.add(card)
                    grew = True
                    break
    return frozenset(found)


def fits_table(card: Card, table: Sequence[TableMeld], rules: RuleSet) -> bool:
    """Whether `card` could be laid off onto a meld on the table right now."""
    return any(melds.can_lay_off(meld, card, rules.aces) for meld in table)


def best_cover(hand: Sequence[Card], rules: RuleSet, lay_offs: Collection[Card] = ()) -> Cover:
    """The split of `hand` into melds, lay-offs (`lay_offs` are the cards that fit
    the table) and deadwood with the fewest deadwood cards, then the fewest points.

    Ties go to melds over lay-offs, and otherwise to the first found, so the
    answer depends only on the cards, never on the order of `hand`.
    """
    cards = sorted(set(hand), key=_order)
    index = {card: position for position, card in enumerate(cards)}
    masks: list[int] = []
    for meld in melds.possible_melds(cards, rules.aces):
        bits = 0
        for card in meld:
            bits |= 1 << index[card]
        masks.append(bits)
    return search_cover(cards, rules, masks, lay_offs)


def search_cover(
    cards: Sequence[Card], rules: RuleSet, masks: Sequence[int], lay_offs: Collection[Card] = ()
) -> Cover:
    """The best split of `cards` (in sort order, copies side by side) by the melds
    `masks` (bit masks over `cards`): the search `best_cover` and the wild games'
    cover (service/bots/wildplay.py) share."""
    values = [card_value(card, rules) for card in cards]
    layable_bits = 0
    for position, card in enumerate(cards):
        if card in lay_offs:
            layable_bits |= 1 << position
    # Every meld the hand can make, as a bit mask, listed under its lowest card:
    # the search always places the lowest card still open, so it only ever
    # needs the melds that start there.
    starting: list[list[int]] = [[] for _ in cards]
    for bits in masks:
        starting[(bits & -bits).bit_length() - 1].append(bits)

    # For each set of cards still open: (deadwood count, points, choice, rest).
    best: dict[int, tuple[int, int, int, int]] = {0: (0, 0, 0, 0)}

    def solve(open_bits: int) -> tuple[int, int]:
        known = best.get(open_bits)
        if known is not None:
            return known[0], known[1]
        low = open_bits & -open_bits
        position = low.bit_length() - 1
        rest = open_bits ^ low
        count, points = solve(rest)
        found = (count + 1, points + values[position], _DEAD, rest)
        for bits in starting[position]:
            if bits & open_bits == bits:
                count, points = solve(open_bits ^ bits)
                if (count, points) < found[:2]:
                    found = (count, points, bits, open_bits ^ bits)
        if layable_bits & low:
            count, points = solve(rest)
            if (count, points) < found[:2]:
                found = (count, points, _LAID_OFF, rest)
        best[open_bits] = found
        return found[0], found[1]

    open_bits = (1 << len(cards)) - 1
    count, points = solve(open_bits)
    chosen: list[tuple[Card, ...]] = []
    laid_off: list[Card] = []
    deadwood: list[Card] = []
    while open_bits:
        _, _, choice, rest = best[open_bits]
        low = open_bits & -open_bits
        if choice == _DEAD:
            deadwood.append(cards[low.bit_length() - 1])
        elif choice == _LAID_OFF:
            laid_off.append(cards[low.bit_length() - 1])
        else:
            chosen.append(tuple(card for bit, card in enumerate(cards) if choice >> bit & 1))
        open_bits = rest
    assert len(deadwood) == count
    return Cover(
        melds=tuple(chosen), laid_off=tuple(laid_off), deadwood=tuple(deadwood), points=points
    )


# Choices that are not a meld's bit mask (a meld has at least three bits set).
_DEAD = 0
_LAID_OFF = -1


def _order(card: Card) -> tuple[int, str]:
    return card.sort_key
