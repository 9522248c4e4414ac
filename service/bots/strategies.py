"""The strategies by name, and the `random` one.

A strategy is a pure function of one seat's own view and a random generator
the caller seeds: it returns that seat's next action, or a whole request of
several (`Move`): a concealed going out (Boathouse; Wrotham deals 4-6) is
legal only as one list of melds and its discard. It never sees the
hidden state (see `service.bots.view`), and with the same view and the same
generator state it always decides the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Protocol

from service.bots.basic import play_basic
from service.bots.going_out import going_out_move
from service.bots.search import play_expert, play_strong
from service.bots.view import BotView
from service.bots.wildplay import swap_uses
from service.domain.actions import Action, Swap
from service.domain.errors import InvalidSeating
from service.domain.rule_values import SwappedWild
from service.projections.views import GameView

Move = Action | tuple[Action, ...]
"""One action, or a request of several played all or nothing."""


class Strategy(Protocol):
    def __call__(self, view: GameView, rng: Random) -> Move: ...


def request_of(move: Move) -> Sequence[Action]:
    """The actions of `move`, as the request that plays it."""
    return move if isinstance(move, tuple) else (move,)


def play_random(view: GameView, rng: Random) -> Action:
    """Any legal single action, each as likely as the others (under `meld_now` a swap
    is no single action: its wild must be used in the same request)."""
    bot = BotView.read(view)
    actions = _single_actions(bot)
    if not actions:
        raise ValueError(f"Seat {view.my_seat} has no move to make: it is not its turn.")
    return rng.choice(actions)


GO_OUT_CHANCE = 0.5
"""How often `random` goes out when a concealed turn lets it (its other moves there
are discards)."""


def play_random_move(view: GameView, rng: Random) -> Move:
    """The `random` strategy: any legal move, each as likely as the others; in a
    concealed turn that can go out, the going-out request half the time; under
    `meld_now`, a swap together with a meld or lay-off of the wild it takes. In the
    classic game it is `play_random`, move for move."""
    bot = BotView.read(view)
    actions = bot.actions()
    if not actions:
        raise ValueError(f"Seat {view.my_seat} has no move to make: it is not its turn.")
    if bot.legal.can_go_out and rng.random() < GO_OUT_CHANCE:
        going_out = going_out_move(bot)
        if going_out is not None:
            return going_out
    chosen = rng.choice(actions)
    if isinstance(chosen, Swap) and bot.rules.swapped_wild is SwappedWild.MELD_NOW:
        uses = swap_uses(bot, chosen.meld_id, chosen.card)
        if uses:
            return rng.choice(uses)
        # This swap's wild has no use now, so it cannot be played: choose again.
        return rng.choice(_single_actions(bot))
    return chosen


def _single_actions(bot: BotView) -> list[Action]:
    actions = bot.actions()
    if bot.rules.swapped_wild is SwappedWild.MELD_NOW:
        return [action for action in actions if not isinstance(action, Swap)]
    return actions


STRATEGIES: Mapping[str, Strategy] = {
    "random": play_random_move,
    "basic": play_basic,
    "strong": play_strong,
    "expert": play_expert,
}
"""Every strategy a bot seat may name: the levels of docs/bots.md, weakest first."""


def strategy(name: str) -> Strategy:
    """The strategy called `name`; `InvalidSeating` if there is none."""
    found = STRATEGIES.get(name)
    if found is None:
        raise InvalidSeating(
            f"There is no bot strategy {name!r}: choose one of {', '.join(sorted(STRATEGIES))}."
        )
    return found
