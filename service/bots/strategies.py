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
from service.bots.view import BotView
from service.domain.actions import Action
from service.domain.errors import InvalidSeating
from service.projections.views import GameView

Move = Action | tuple[Action, ...]
"""One action, or a request of several played all or nothing."""


class Strategy(Protocol):
    def __call__(self, view: GameView, rng: Random) -> Move: ...


def request_of(move: Move) -> Sequence[Action]:
    """The actions of `move`, as the request that plays it."""
    return move if isinstance(move, tuple) else (move,)


def play_random(view: GameView, rng: Random) -> Action:
    """Any legal move, each as likely as the others."""
    actions = BotView.read(view).actions()
    if not actions:
        raise ValueError(f"Seat {view.my_seat} has no move to make: it is not its turn.")
    return rng.choice(actions)


STRATEGIES: Mapping[str, Strategy] = {"random": play_random, "basic": play_basic}
"""Every strategy a bot seat may name."""


def strategy(name: str) -> Strategy:
    """The strategy called `name`; `InvalidSeating` if there is none."""
    found = STRATEGIES.get(name)
    if found is None:
        raise InvalidSeating(
            f"There is no bot strategy {name!r}: choose one of {', '.join(sorted(STRATEGIES))}."
        )
    return found
