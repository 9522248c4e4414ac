"""The `basic` strategy: play the way good players describe.

- Take the upcard only when it completes or extends a meld (one in the hand,
  or one on the table); otherwise draw from the stock.
- Meld as soon as possible, except when going rummy is one draw away: then
  hold everything back and discard, so the whole hand can go at once.
- Lay off everything possible before discarding.
- Discard dead ranks (whose other cards are out of play) and high cards that
  fit nothing, and avoid discarding a card that extends a meld on the table.

Every decision is a function of the seat's own view; the random generator
only breaks ties between equally good discards.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from random import Random

from service.bots.gin import play_gin
from service.bots.going_out import going_out_move
from service.bots.indian import play_indian
from service.bots.knocking import play_knock
from service.bots.melding import Cover, best_cover, fits_table, layable
from service.bots.rummy500 import play_rummy500
from service.bots.view import BotView
from service.bots.wildplay import fits_wild_table, sendable_meld, swap_uses, wild_cover
from service.domain.actions import Action, Discard, Draw, LayOff, Meld, Swap
from service.domain.cards import FULL_DECK, Card
from service.domain.engine import engine_for
from service.domain.rule_values import Aces, Family, GoingOut, LayOffRule, RummyBonus, SwappedWild
from service.domain.scoring import card_value
from service.domain.state import Source
from service.domain.wilds import is_wild
from service.projections.views import GameView

RUMMY_HOLD_DANGER = 3
"""Never hold melds back for a rummy while an opponent is down to this many cards."""
_NEAR_RUMMY = 4
"""A hand with more deadwood than this cannot be one draw from going rummy."""


def play_basic(view: GameView, rng: Random) -> Action | tuple[Action, ...]:
    """The next action (or whole request) for the seat whose view this is."""
    return basic_move(BotView.read(view), rng)


def basic_move(bot: BotView, rng: Random) -> Action | tuple[Action, ...]:
    """`play_basic` from the typed view: a searching level hands it a view that
    remembers the pile (`BotView.remembering`)."""
    if bot.rules.features.knocking:
        return play_knock(bot, rng)
    family = engine_for(bot.rules).family
    if family is Family.INDIAN:
        return play_indian(bot)
    if family is Family.GIN:
        return play_gin(bot, rng)
    if family is Family.RUMMY500:
        return play_rummy500(bot, rng)

    if bot.legal.draw:
        # Boathouse's second draw is judged like the first, on the new top discard.
        return _draw(bot)
    if not bot.legal.discard:
        raise ValueError(f"Seat {bot.seat} has no move to make: it is not its turn.")
    if bot.legal.can_go_out is not None:
        # A concealed turn: go out whenever a list does it, else keep building.
        going_out = going_out_move(bot)
        if going_out is not None:
            return going_out
        return Discard(_discard(bot, _cover(bot, bot.hand), rng))
    return _play(bot, rng)


# --- the draw ----------------------------------------------------------------


def _draw(bot: BotView) -> Action:
    upcard = bot.discard_top
    if Source.DISCARD in bot.legal.draw and upcard is not None and _wants(bot, upcard):
        return Draw(Source.DISCARD)
    return Draw(Source.STOCK if Source.STOCK in bot.legal.draw else bot.legal.draw[0])


def _wants(bot: BotView, upcard: Card) -> bool:
    """Whether `upcard` completes or extends a meld: with it the hand is left with no
    more deadwood than without it (a card that fits nothing adds one)."""
    without = _cover(bot, bot.hand)
    with_it = _cover(bot, (*bot.hand, upcard))
    return upcard not in with_it.deadwood and len(with_it.deadwood) <= len(without.deadwood)


# --- melds, lay-offs and the discard -----------------------------------------


def _play(bot: BotView, rng: Random) -> Action | tuple[Action, ...]:
    cover = _cover(bot, bot.hand)
    if bot.rules.has_wilds:
        return _play_wild(bot, cover, rng)
    held_for_rummy = _rummy_discard(bot, cover)
    if held_for_rummy is not None:
        return Discard(held_for_rummy)
    offered = {frozenset(cards): cards for cards in bot.legal.melds}
    for meld in cover.melds:
        cards = offered.get(frozenset(meld))
        if cards is not None:
            return Meld(cards)
    # Everything that fits goes, except cards kept for a meld the rules do not
    # let it lay yet (one meld per turn, say): that meld is worth more.
    saved = cover.meld_cards
    for card, meld_id in bot.legal.lay_offs:
        if card not in saved:
            return LayOff(card, meld_id)
    return Discard(_discard(bot, cover, rng))


def _play_wild(bot: BotView, cover: Cover, rng: Random) -> Action | tuple[Action, ...]:
    """The same order with wild cards: the plan's melds (sent with their reading), the
    natural lay-offs, swaps that turn a loose card into a wild, wilds laid off, then
    the discard. No rummy hold-back here: with wilds the hand is seldom one draw
    from going out whole, and a wild held back costs `wild_penalty`."""
    for meld in cover.melds:
        sendable = sendable_meld(bot, meld)
        if sendable is not None:
            return sendable
    saved = cover.meld_cards
    for card, meld_id in bot.legal.lay_offs:
        if card not in saved:
            return LayOff(card, meld_id)
    # A loose natural card for a wild: the wild fits far more melds.
    for meld_id, card, _ in bot.legal.swaps:
        if card in saved:
            continue
        if bot.rules.swapped_wild is not SwappedWild.MELD_NOW:
            return Swap(meld_id, card)
        uses = swap_uses(bot, meld_id, card)
        if uses:
            return uses[0]
    held = set(bot.hand)
    for card, meld_id, as_ in bot.legal.wild_lay_offs:
        # Never as a card still held: a swap would only bring the wild back.
        if card not in saved and as_ not in held:
            return LayOff(card, meld_id, as_)
    return Discard(_discard(bot, cover, rng))


def loose_discard(bot: BotView, rng: Random) -> tuple[Card, Cover]:
    """The card `basic` throws when it lays nothing this turn (its least useful), and
    the hand's best cover it was judged against: for a level that holds melds back."""
    cover = _cover(bot, bot.hand)
    return _discard(bot, cover, rng), cover


def _cover(bot: BotView, hand: tuple[Card, ...]) -> Cover:
    if bot.rules.has_wilds:
        return wild_cover(hand, bot.rules, bot.melds if _may_lay_off(bot) else ())
    fits = layable(hand, bot.melds, bot.rules) if _may_lay_off(bot) else frozenset()
    return best_cover(hand, bot.rules, fits)


def _may_lay_off(bot: BotView) -> bool:
    """Whether lay-offs onto the table count for this seat now. Under `after_own_meld`
    they count once it has a meld of its own down (its own melds are the only ones
    it could use before, and it has none)."""
    if bot.rules.lay_off is LayOffRule.ANYTIME:
        return True
    return any(meld.owner == bot.seat for meld in bot.melds)


def _rummy_discard(bot: BotView, cover: Cover) -> Card | None:
    """The card to discard while holding everything back for a rummy, or None to meld.

    Going rummy is one draw away when, after one discard, some card this seat
    cannot see would let the whole hand go next turn. The discard kept is the
    one that leaves the most such cards.
    """
    if (
        bot.rules.rummy_bonus is RummyBonus.NONE
        or bot.played_this_hand
        or _goes_out_now(bot, cover)
        or len(cover.deadwood) > _NEAR_RUMMY
        or any(count <= RUMMY_HOLD_DANGER for count in bot.opponents_holding())
    ):
        return None
    discardable = set(bot.legal.discard)
    outs: Counter[Card] = Counter()
    for card in _related_unseen(bot):
        after = _cover(bot, (*bot.hand, card))
        left = [dead for dead in after.deadwood if dead != card]
        if len(after.deadwood) <= 2 and card not in after.deadwood:
            # Discard one deadwood card now; the other (if any) goes next turn.
            outs.update(dead for dead in left if dead in discardable)
    if not outs:
        return None
    return min(outs, key=lambda card: (-outs[card], -card_value(card, bot.rules), _ORDER[card]))


def _goes_out_now(bot: BotView, cover: Cover) -> bool:
    if not cover.deadwood:
        return bot.rules.going_out is GoingOut.ANY
    return len(cover.deadwood) == 1 and cover.deadwood[0] in bot.legal.discard


def _related_unseen(bot: BotView) -> list[Card]:
    """The unseen cards that could join a meld with a held card, or the table's."""
    aces = bot.rules.aces
    near: set[Card] = set()
    for held in bot.hand:
        near.update(*_neighbours(held, aces))
    return sorted(
        (card for card in bot.unseen if card in near or fits_table(card, bot.melds, bot.rules)),
        key=_ORDER.__getitem__,
    )


def _discard(bot: BotView, cover: Cover, rng: Random) -> Card:
    """The least useful card the rules let this seat discard."""
    choices = list(bot.legal.discard)
    saved = cover.meld_cards
    loose = [card for card in bot.hand if card not in saved]
    # Rank the choices, worst first: a card kept for a meld or fitting the table
    # only as a last resort; then the cards that fit nothing, high ones first;
    # then the weakest partial meld. Ties fall to the generator, never to order.
    if bot.rules.has_wilds:
        return _discard_wild(bot, choices, saved, loose, rng)
    ranked = sorted(
        choices,
        key=lambda card: (
            card in saved,
            fits_table(card, bot.melds, bot.rules),
            -_waste(bot, card, loose),
            rng.random(),
        ),
    )
    return ranked[0]


def _discard_wild(
    bot: BotView, choices: list[Card], saved: frozenset[Card], loose: list[Card], rng: Random
) -> Card:
    """`_discard` with wild cards: never a wild while a natural card may go."""
    rules = bot.rules
    ranked = sorted(
        choices,
        key=lambda card: (
            is_wild(card, rules),
            card in saved,
            fits_wild_table(card, bot.melds, rules),
            0.0 if is_wild(card, rules) else -_waste(bot, card, loose),
            rng.random(),
        ),
    )
    return ranked[0]


def _waste(bot: BotView, card: Card, loose: list[Card]) -> float:
    """How little a loose card is worth keeping: its points against its chances.

    Each held partner (same rank, or same suit up to two ranks away) counts for
    much more than a card that might still come; a rank with no partner held and
    no other card unseen is dead, and waste is then its points alone.
    """
    same_rank, next_in_suit, two_away = _neighbours(card, bot.rules.aces)
    unseen, held = bot.unseen, set(loose)
    partners = sum(1 for group in (same_rank, next_in_suit, two_away) for c in group if c in held)
    chances = (
        sum(1 for c in same_rank if c in unseen)
        + sum(1 for c in next_in_suit if c in unseen)
        + sum(0.5 for c in two_away if c in unseen)
    )
    return card_value(card, bot.rules) / 2 - 6 * partners - chances


@cache
def _neighbours(
    card: Card, aces: Aces
) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """The cards that could share a meld with `card`: the other cards of its rank,
    the cards next to it in its suit, and those two ranks away."""
    same_rank = tuple(other for other in FULL_DECK if other.rank == card.rank and other != card)
    in_suit = [other for other in FULL_DECK if other.suit is card.suit]
    return (
        same_rank,
        tuple(other for other in in_suit if _run_gap(other, card, aces) == 1),
        tuple(other for other in in_suit if _run_gap(other, card, aces) == 2),
    )


def _run_gap(one: Card, other: Card, aces: Aces) -> int:
    """How far apart two cards stand in a run (99 for other suits or the same card)."""
    if one.suit is not other.suit or one == other:
        return 99
    gap = abs(one.rank - other.rank)
    if aces is Aces.AROUND_THE_CORNER:
        return min(gap, 13 - gap)
    if aces is Aces.HIGH_OR_LOW and 1 in (one.rank, other.rank):
        return min(gap, 14 - max(one.rank, other.rank))
    return gap


_ORDER: dict[Card, int] = {
    card: position for position, card in enumerate(sorted(FULL_DECK, key=lambda c: c.sort_key))
}
"""Display order (rank, then suit), looked up rather than recomputed."""
