"""Holding melds back in the going-out games: what `strong` and `expert` lay, and when.

`basic` lays every meld and lay-off as soon as it can (holding back only when a
rummy is one draw away). At two seats that is the costliest of its habits, more
than any draw or discard the search could change: a meld on the table
- lets the other seat lay off onto it, which brings its going out nearer;
- gives up the rummy bonus (a hand that goes out in one turn doubles its win);
and all it saves is its own points, which count against the seat only if the
other goes out first. So a searching seat keeps its melds in hand, throwing what
`basic` would throw with nothing to lay, until either it can go out (then the
whole hand goes at once, a rummy) or the other seat is down to `HOLD_UNTIL` cards,
when going out is near and the points held start to matter: from then on it lays
as `basic` does.

Measured (`/tmp/handbench.py`-style, each deal one hand played twice with the seats
swapped, against `basic`, 1000 deals): melding at `HOLD_UNTIL` 3 won +10.4 points a
hand in classic (58% of hands); at 5, +7.9; at 2, +6.7; never (0), +0.8 (69% of
hands, but the held points lost when it loses). Capping the points held (melding
once they pass 30 or 45) did worse (+3.8, +8.2).

A function of the view alone: the hand, the other seats' counts and the table.
"""

from __future__ import annotations

from random import Random

from service.bots.basic import loose_discard
from service.bots.view import BotView
from service.domain.actions import Action, Discard, Draw

Move = Action | tuple[Action, ...]

HOLD_UNTIL = 3
"""The other seat's card count at or under which melds go down: see the module's
measures (3 beat 2, 4 and 5; at 3 or fewer it goes out within a turn or two)."""
SEATS = 2
"""Held back only at this many seats: the only table measured."""


def hold_back(bot: BotView, basic: Move, rng: Random) -> Move:
    """`basic`'s move, or instead of laying a meld, a lay-off or a swap, the discard
    `basic` makes with nothing to lay, while the hand is held for going out whole.

    Held only before the seat has laid anything this hand (after that no rummy is
    left to win, and its melds already show), while the hand is more than a card
    from going out, and while every other seat holds more than `HOLD_UNTIL` cards.
    `rng` breaks ties between equal discards as `basic`'s does."""
    if isinstance(basic, Discard | Draw | tuple):
        return basic
    if (
        len(bot.hand_counts) != SEATS
        or bot.legal.can_go_out is not None
        or not bot.legal.discard
        or bot.played_this_hand
        or any(count <= HOLD_UNTIL for count in bot.opponents_holding())
    ):
        return basic
    card, cover = loose_discard(bot, rng)
    if len(cover.deadwood) <= 1:
        # Out this turn or next, laid whole: basic's own order of melds does it.
        return basic
    return Discard(card)
