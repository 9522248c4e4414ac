"""When the Indian search drops (docs/rules.md "Indian 13-card Rummy", "Drop").

Only where a deal's points outlive it: in `points` one deal is the game, so a
drop is a loss and the search never drops. Elsewhere it takes the first drop
(before its first draw) with a hand that has nothing to build on: no pure
sequence, no wild, and at most `FEW_LINKS` pairs of naturals that could grow
into a pure sequence. Such a hand loses most races and then counts near the
full count, far above the first drop's points. It never drops into its own
elimination from a pool, and never takes a middle drop (by then it has drawn
towards its groups).

`expert` in format `deals` knows what the last deal is for (`drop_wins`): the
game, not the chips. There it drops exactly when the drop wins the game whatever
the others' deal brings (its lead over each is more than the most the drop can
cost it), and otherwise never (a drop from a smaller lead, or from behind, loses
the game or ties it at best).
"""

from __future__ import annotations

from service.bots.view import BotView
from service.domain.cards import Card
from service.domain.indian.groupings import best_grouping
from service.domain.indian.judge import GroupKind, is_wild
from service.domain.indian.options import indian_options
from service.domain.rule_values import Format
from service.projections.views import GameView

FEW_LINKS = 2
"""A hand with more pairs than this that could become a pure sequence plays on."""
_RUN_REACH = 2
"""Two cards of a suit this many ranks apart or fewer can share a run of three."""


def should_drop(view: GameView, bot: BotView) -> bool:
    """Whether to take the first drop now (the caller has checked it may drop)."""
    options = indian_options(bot.rules)
    wild = bot.deal_wild
    if options.format is Format.POINTS or wild is None:
        return False
    if bot.legal.drop_points != options.first_drop:
        return False
    limit = options.format.pool_limit
    if limit is not None and view.players[bot.seat].score + options.first_drop >= limit:
        return False
    hand = bot.hand
    if any(is_wild(card, wild) for card in hand):
        return False
    kinds = best_grouping(hand, wild, options.full_count).shown.kinds
    if GroupKind.PURE_SEQUENCE in kinds:
        return False
    return links(hand) <= FEW_LINKS


def links(hand: tuple[Card, ...]) -> int:
    """Pairs of cards of one suit near enough to share a run of three (the ace both
    low and high)."""
    found = 0
    for index, card in enumerate(hand):
        for other in hand[index + 1 :]:
            if other.suit is not card.suit or other.rank is card.rank:
                continue
            low, high = sorted((int(card.rank), int(other.rank)))
            # The ace stands low (A 2 3) or high (Q K A).
            gap = min(high - low, 14 - high) if low == 1 else high - low
            if gap <= _RUN_REACH:
                found += 1
    return found


def drop_wins(view: GameView, bot: BotView) -> bool | None:
    """In format `deals`, from its last deal on (a tie plays on): whether dropping now
    wins the game however the deal ends; None before then and in the other formats.

    The drop pays its points to the deal's winner, who also takes each other loser's
    points, at most the full count each. So the drop wins when this seat's chips,
    less the drop, stay above every seat still in the deal after that seat gains the
    drop and the full count of each other seat in it, and above every seat out of it
    (who pays, and gains nothing)."""
    options = indian_options(bot.rules)
    if options.format is not Format.DEALS or options.deals is None:
        return None
    if view.hand_number < options.deals:
        return None
    cost = bot.legal.drop_points or 0
    left = view.players[bot.seat].score - cost
    playing = [seat for seat, count in enumerate(bot.hand_counts) if count and seat != bot.seat]
    most = cost + options.full_count * (len(playing) - 1)
    return all(
        left > player.score + (most if player.seat in playing else 0)
        for player in view.players
        if player.seat != bot.seat
    )
