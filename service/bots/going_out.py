"""A concealed going out (Boathouse; Wrotham deals 4-6) worked out from a view.

In a concealed turn `legal` says only whether a going-out list exists
(`can_go_out`); the list itself is the player's to find. The domain's own
search (`concealed.going_out_list`) finds one from the bot's hand, with the
cards `legal` lets it discard: nothing hidden is read.
"""

from __future__ import annotations

from service.bots.view import BotView
from service.domain import concealed
from service.domain.actions import Action
from service.domain.rule_values import GoingOut


def going_out_move(bot: BotView) -> tuple[Action, ...] | None:
    """The request that goes out now in a concealed turn, or None if there is none."""
    if not bot.legal.can_go_out:
        return None
    return concealed.going_out_list(
        bot.hand,
        bot.rules,
        discardable=bot.legal.discard,
        # Wrotham's concealed deals always end with a discard (docs/rules.md).
        discard_needed=bot.rules.features.concealed_discard_last
        or bot.rules.going_out is GoingOut.DISCARD,
    )
