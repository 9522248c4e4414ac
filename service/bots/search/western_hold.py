"""Holding melds back in the going-out games: what `strong` and `expert` lay, and when.

`basic` lays every meld and lay-off as soon as it can (holding back only when a
rummy is one draw away). Against it that is the costliest of its habits, far more
than any draw or discard the search could change: a meld on the table
- lets the other seats lay off onto it, which brings their going out nearer;
- gives up the rummy bonus (a hand that goes out in one turn doubles its win);
and all it saves is its own points, which count only if another seat goes out
first. So a searching seat keeps its melds in hand, throwing what `basic` would
throw with nothing to lay, until either it can go out (then the whole hand goes
at once, a rummy) or another seat is down to `HOLD_UNTIL` cards, when going out
is near and the points held start to matter: from then on it lays as `basic`
does.

Measured with each deal played as one hand twice, the seats swapped, against
`basic` (net points a hand, 95% margin): classic +10.0 ± 1.1 over 1000 deals
(59% of hands), wild +14.2 ± 1.1, Wrotham +10.8 ± 0.9. Laying at `HOLD_UNTIL` 3
beat 2, 4 and 5 in each (classic, a prototype of the same rule: +6.7 at 2, +8.1 at
4, +7.9 at 5); never laying before going out won 69% of classic hands but only
+0.8 points a hand; laying once the held melds pass 30 or 45 points did worse
(+3.8, +8.2), and so did letting lay-offs through (-0.9). docs/bots.md has the
rest, and the arena's verdicts (`western.HOLDING`).

A function of the view alone: the hand, the other seats' counts and the table.
"""

from __future__ import annotations

from random import Random

from service.bots.basic import loose_discard
from service.bots.view import BotView
from service.domain.actions import Action, Discard, Draw

Move = Action | tuple[Action, ...]

HOLD_UNTIL = 3
"""Another seat's card count at or under which the held melds go down: 3 beat 2, 4
and 5 in classic, wild and Wrotham (the module's measures)."""
MOST_SEATS = 4
"""Held back only at tables of at most this many seats (hands of seven cards or more).
In the arena (classic, one `strong` against `basic`s) it won 52.8% of games at three
seats (par 33.3%) and 59.4% at four (par 25%), both H1, but only 18.7% [16.7, 20.7]
at six (par 16.7%, six cards a hand, 300 games, open); five was not measured."""


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
        len(bot.hand_counts) > MOST_SEATS
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
