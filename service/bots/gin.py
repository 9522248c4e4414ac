"""The `basic` strategy in Gin Rummy: play for the least deadwood, knock when it
may.

Deadwood is the server's own count (`gin.deadwood.least`). The bot takes the
upcard (in the offer, or the top discard later) only when, with the best card then
thrown, its deadwood goes down; it throws the card that leaves the least deadwood
(the highest card among equals); it knocks whenever the rules let it (big gin
first, then gin), and then with the arrangement that leaves the defender least to
lay off: of the knocker's least-deadwood arrangements with that card, the one
whose melds take the fewest of the cards it cannot see.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from random import Random

from service.bots.view import BotView
from service.domain import melds
from service.domain.actions import Action, Discard, Draw, Knock, Pass
from service.domain.cards import Card
from service.domain.gin import deadwood
from service.domain.rules import RuleSet
from service.domain.scoring import card_value
from service.domain.state import Source


def play_gin(bot: BotView, rng: Random) -> Action:
    legal = bot.legal
    if legal.draw:
        return _draw(bot)
    if not legal.discard:
        raise ValueError(f"Seat {bot.seat} has no move to make: it is not its turn.")
    if legal.big_gin:
        return Knock(None)
    ordered = sorted(
        legal.discard,
        key=lambda card: (
            _count(_without(bot.hand, card), bot.rules),
            -card_value(card, bot.rules),
            rng.random(),
        ),
    )
    knockable = [card for card in ordered if card in legal.knock]
    if knockable:
        card = knockable[0]
        return Knock(card, _arrangement(bot, _without(bot.hand, card)))
    return Discard(ordered[0])


def _draw(bot: BotView) -> Action:
    upcard = bot.discard_top
    if Source.DISCARD in bot.legal.draw and upcard is not None:
        now = _count(bot.hand, bot.rules)
        taken = (*bot.hand, upcard)
        # The upcard may not be thrown back this turn.
        best = min(_count(_without(taken, card), bot.rules) for card in bot.hand)
        if best < now:
            return Draw(Source.DISCARD)
    if bot.legal.can_pass:
        return Pass()
    return Draw(Source.STOCK if Source.STOCK in bot.legal.draw else bot.legal.draw[0])


def _arrangement(bot: BotView, held: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    """Of the arrangements of `held` with its least deadwood, the one whose melds
    offer the fewest unseen cards a place to be laid off."""
    best = deadwood.least(held, bot.rules)
    options = [best.melds]
    possible = [tuple(meld) for meld in melds.possible_melds(list(held), bot.rules.aces)]
    for size in range(1, 4):
        for chosen in combinations(possible, size):
            cards = [card for meld in chosen for card in meld]
            if len(set(cards)) != len(cards):
                continue
            left = [card for card in held if card not in cards]
            if sum(card_value(card, bot.rules) for card in left) == best.count:
                options.append(tuple(chosen))
    unseen = bot.unseen
    return min(options, key=lambda arranged: _exposure(arranged, unseen))


def _exposure(arranged: tuple[tuple[Card, ...], ...], unseen: frozenset[Card]) -> int:
    """How many unseen cards could be laid off on `arranged` (one step out)."""
    places: set[Card] = set()
    for meld in arranged:
        ranks = {card.rank for card in meld}
        if len(ranks) == 1:
            places.update(card for card in unseen if card.rank in ranks)
            continue
        suit = meld[0].suit
        low = min(card.rank.value for card in meld)
        high = max(card.rank.value for card in meld)
        places.update(
            card for card in unseen if card.suit is suit and card.rank.value in (low - 1, high + 1)
        )
    return len(places)


def _without(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    left = list(hand)
    left.remove(card)
    return tuple(left)


def _count(hand: tuple[Card, ...], rules: RuleSet) -> int:
    return _count_sorted(tuple(sorted(hand, key=lambda card: card.sort_key)), rules)


@lru_cache(maxsize=4096)
def _count_sorted(hand: tuple[Card, ...], rules: RuleSet) -> int:
    return deadwood.least(hand, rules).count
