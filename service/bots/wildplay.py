"""Bot play in games with wild cards (`wild`; Wrotham): plans and swaps.

The classic plan (`melding.best_cover`) knows natural melds only. Here the
melds a hand can make come from the judge's own finder (`wilds.hand_melds`),
so a plan never counts on a meld the server would refuse; a hand may hold
copies (two or three `JK`), so the search runs over positions, not codes.

A swap under `swapped_wild: meld_now` must be sent with the meld or lay-off
that takes the wild out of hand (one request). `swap_uses` works those out
from the view alone: the table after the swap is the view's melds with the
natural card put where the wild stood, and the hand gains the wild.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, product

from service.bots.melding import Cover, search_cover
from service.bots.view import BotView
from service.domain import table_wilds, wilds
from service.domain.actions import Action, LayOff, Meld, Swap
from service.domain.cards import Card
from service.domain.melds import TableMeld
from service.domain.rule_values import GoingOut, LayOffRule, MeldsPerTurn
from service.domain.rules import RuleSet


def wild_cover(hand: Sequence[Card], rules: RuleSet, table: Sequence[TableMeld] = ()) -> Cover:
    """The split of `hand` into melds (any the wild rules read), cards that fit a meld
    of `table`, and deadwood, with the fewest deadwood cards, then points."""
    cards = sorted(hand, key=lambda card: card.sort_key)
    positions: dict[Card, list[int]] = {}
    for position, card in enumerate(cards):
        positions.setdefault(card, []).append(position)
    masks: set[int] = set()
    for meld, _ in wilds.hand_melds(cards, rules):
        # Each way of picking the copies a meld names: the search tells them apart.
        picks = [combinations(positions[card], count) for card, count in Counter(meld).items()]
        for chosen in product(*picks):
            bits = 0
            for group in chosen:
                for position in group:
                    bits |= 1 << position
            masks.add(bits)
    fits = {card for card in set(cards) if fits_wild_table(card, table, rules)}
    return search_cover(cards, rules, sorted(masks), fits)


def fits_wild_table(card: Card, table: Sequence[TableMeld], rules: RuleSet) -> bool:
    """Whether `card` could be laid off onto some meld of `table` (read as it stands)."""
    return any(table_wilds.lay_off_readings(meld, card, rules) for meld in table)


def sendable_meld(bot: BotView, meld: Sequence[Card]) -> Meld | None:
    """The legal meld of exactly these cards (with its reading where it holds a
    wild, so it is never `wild_ambiguous`), or None if `legal` offers none."""
    wanted = Counter(meld)
    for cards, as_ in bot.legal.meld_readings:
        if Counter(cards) == wanted:
            return Meld(cards, as_)
    for cards in bot.legal.melds:
        if Counter(cards) == wanted and not any(wilds.is_wild(card, bot.rules) for card in cards):
            return Meld(cards)
    return None


def swap_uses(bot: BotView, meld_id: str, card: Card) -> list[tuple[Action, ...]]:
    """Requests that swap `card` into meld `meld_id` and at once meld or lay off the
    wild taken (what `meld_now` asks); empty if the wild has no use now.

    A meld is tried only under `melds_per_turn: unlimited`: the view does not say
    whether this turn's one meld has been laid already.
    """
    rules = bot.rules
    table = [meld.copy() for meld in bot.melds]
    target = next(meld for meld in table if meld.id == meld_id)
    place = table_wilds.swap_place(target, card, rules)
    if place is None:
        return []
    wild = target.cards[place]
    target.cards[place] = card
    hand = list(bot.hand)
    hand.remove(card)
    hand.append(wild)
    swap = Swap(meld_id, card)
    uses: list[tuple[Action, ...]] = []
    # Under `after_own_meld`, only onto its own melds until it has one down.
    anywhere = rules.lay_off is LayOffRule.ANYTIME or any(meld.owner == bot.seat for meld in table)
    if _leaves_a_turn(bot, hand, [wild]):
        for meld in table:
            if meld.owner != bot.seat and not anywhere:
                continue
            for stands, _ in table_wilds.lay_off_readings(meld, wild, rules):
                uses.append((swap, LayOff(wild, meld.id, stands)))
    if rules.melds_per_turn is MeldsPerTurn.UNLIMITED:
        for cards, found in wilds.hand_melds(hand, rules):
            if wild in cards and _leaves_a_turn(bot, hand, cards):
                _, read, as_ = found[0]
                uses.append((swap, Meld(tuple(read), tuple(as_))))
    return uses


def _leaves_a_turn(bot: BotView, hand: Sequence[Card], spent: Sequence[Card]) -> bool:
    """Whether playing `spent` out of `hand` leaves a hand that can finish the turn:
    a card to discard where going out needs one, and never only a card taken from
    the pile this turn (the cards held that `legal` will not let go)."""
    left = list(hand)
    for card in spent:
        left.remove(card)
    if not left:
        return bot.rules.going_out is GoingOut.ANY
    if len(left) == 1:
        return left[0] in bot.legal.discard
    return True
