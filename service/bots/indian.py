"""The `basic` strategy in Indian Rummy: group for the lowest count, declare when the
groups are valid.

Every decision asks the engine's own grouping search (`groupings`): the hand's
best groups after a draw give both the card to throw (the finish card of the
best declaration) and whether to declare; in the show, the best groups of the
13 are what the bot submits. It takes the top discard only when the best
declaration with it (without throwing it back) counts less than the hand does
now. It never drops: most opening hands have no life yet, and playing them on
beats paying the drop (against `random`, at least).
"""

from __future__ import annotations

from service.bots.view import BotView
from service.domain.actions import Action, Declare, Discard, Draw, SubmitGroups
from service.domain.cards import Card
from service.domain.indian.groupings import best_declaration, best_grouping
from service.domain.indian.options import indian_options
from service.domain.state import Source


def play_indian(bot: BotView) -> Action:
    wild = bot.deal_wild
    full_count = indian_options(bot.rules).full_count
    assert wild is not None, "an Indian view shows the deal's wild rank"
    legal = bot.legal
    if legal.can_submit:
        return SubmitGroups(best_grouping(bot.hand, wild, full_count).groups)
    if legal.draw:
        now = best_grouping(bot.hand, wild, full_count)
        top = bot.discard_top
        if top is not None and Source.DISCARD in legal.draw:
            taken = best_declaration((*bot.hand, top), wild, full_count, keep=top)
            if taken.points < now.points:
                return Draw(Source.DISCARD)
        return Draw(Source.STOCK)
    if not legal.can_declare:
        raise ValueError(f"Seat {bot.seat} has no move to make: it is not its turn.")
    best = best_declaration(bot.hand, wild, full_count, keep=taken_card(bot))
    if best.valid:
        return Declare(best.finish, best.groups)
    return Discard(best.finish)


def taken_card(bot: BotView) -> Card | None:
    """The card taken from the discard pile this turn, if any: the one card of the hand
    `legal` does not let the seat throw."""
    allowed = set(bot.legal.discard)
    return next((card for card in bot.hand if card not in allowed), None)
