"""The `basic` strategy's 500 Rum (docs/rules.md "500 Rum"), from the seat's own
view: every card put down scores, every card held counts against, so it

- digs into the spread pile when the called card melds: of the counts `legal`
  offers, the one whose cards add the most points to the plan's melds and
  lay-offs (`melding.best_cover`) less what the taken cards left over would
  cost if still held; else the top card when it fits a meld, else the stock;
- uses the called card first (a meld holding it, else its lay-off, else a lay-off
  leading up to it), then lays every meld of its plan and every lay-off;
- discards the least useful card the rules let it: never one its plan melds or
  that fits the table if another may go, nor one that melds with cards in the
  pile (it would hand the next player a meld), the lowest of the rest: a
  high card is what the next player digs the pile for.
"""

from __future__ import annotations

from random import Random

from service.bots.melding import Cover, best_cover, fits_table, layable
from service.bots.view import BotView
from service.domain.actions import Action, Discard, Draw, LayOff, Meld
from service.domain.cards import Card
from service.domain.rummy500 import pile
from service.domain.scoring import card_value
from service.domain.state import Source

MIN_GAIN = 0
"""The least a pile draw of several cards must add to the plan to be taken."""
LEFTOVER_WEIGHT = 0.5
"""How much of a taken card's value the plan fears losing if it stays in hand: it
may still meld later, so not all of it."""


def play_rummy500(bot: BotView, rng: Random) -> Action:
    """The next action for the seat whose view this is."""
    if bot.legal.draw:
        return _draw(bot)
    if bot.called is not None:
        return _use_called(bot, bot.called)
    cover = _cover(bot, bot.hand)
    offered = {frozenset(cards): cards for cards in bot.legal.melds}
    for meld in cover.melds:
        cards = offered.get(frozenset(meld))
        if cards is not None:
            return Meld(cards)
    for card, meld_id in bot.legal.lay_offs:
        return LayOff(card, meld_id)
    if not bot.legal.discard:
        # The plan's melds are refused (they would strand nothing here): any offered.
        if bot.legal.melds:
            return Meld(bot.legal.melds[0])
        raise ValueError(f"Seat {bot.seat} has no move to make: it is not its turn.")
    return Discard(_discard(bot, cover, rng))


def _cover(bot: BotView, hand: tuple[Card, ...]) -> Cover:
    return best_cover(hand, bot.rules, layable(hand, bot.melds, bot.rules))


def _value(bot: BotView, cover: Cover) -> float:
    """What a plan is worth: its melds and lay-offs put down, less its deadwood."""
    rules = bot.rules
    down = sum(card_value(card, rules) for meld in cover.melds for card in meld)
    down += sum(card_value(card, rules) for card in cover.laid_off)
    return down - LEFTOVER_WEIGHT * cover.points


def _draw(bot: BotView) -> Action:
    counts = [count for count in bot.legal.pile_counts if count > 1]
    base = _value(bot, _cover(bot, bot.hand))
    best: tuple[float, int] | None = None
    for count in counts:
        taken = bot.pile[-count:]
        gain = _value(bot, _cover(bot, (*bot.hand, *taken))) - base
        # On equal gain the deeper draw: every card taken may meld later.
        if gain >= MIN_GAIN and (best is None or (gain, count) > best):
            best = (gain, count)
    if best is not None:
        return Draw(Source.DISCARD, best[1])
    if Source.DISCARD in bot.legal.draw and bot.pile:
        top = bot.pile[-1]
        with_it = _cover(bot, (*bot.hand, top))
        if top not in with_it.deadwood:
            return Draw(Source.DISCARD)
    return Draw(Source.STOCK if Source.STOCK in bot.legal.draw else bot.legal.draw[0])


def _use_called(bot: BotView, called: Card) -> Action:
    """A move towards using the called card: a meld holding it (the longest), its
    lay-off, a lay-off of its suit (a chain leading to it), else any offered play
    (`legal` offers only plays that leave it usable)."""
    holding = [cards for cards in bot.legal.melds if called in cards]
    if holding:
        return Meld(max(holding, key=len))
    for card, meld_id in bot.legal.lay_offs:
        if card == called:
            return LayOff(card, meld_id)
    for card, meld_id in bot.legal.lay_offs:
        if card.suit is called.suit:
            return LayOff(card, meld_id)
    if bot.legal.melds:
        return Meld(bot.legal.melds[0])
    card, meld_id = bot.legal.lay_offs[0]
    return LayOff(card, meld_id)


def _discard(bot: BotView, cover: Cover, rng: Random) -> Card:
    """The least useful card: not one the plan melds, not one that fits the table,
    the highest of the rest (ties broken at random)."""
    saved = cover.meld_cards
    rules = bot.rules
    ranked = sorted(
        bot.legal.discard,
        key=lambda card: (
            card in saved,
            fits_table(card, bot.melds, rules),
            _feeds_pile(bot, card),
            # Low cards first: a high one is what the next player digs the pile for,
            # and holding it costs only if someone goes out.
            card_value(card, rules),
            rng.random(),
        ),
    )
    return ranked[0]


def _feeds_pile(bot: BotView, card: Card) -> bool:
    """Whether `card` on the pile would meld with cards already in it: the next
    player taking down to them would get a meld for nothing."""
    return any(True for _ in pile.melds_holding(card, (*bot.pile, card), bot.rules.aces))
