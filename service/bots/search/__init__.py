"""The searching levels, `strong` and `expert`: determinized sampling.

A searching bot is a strategy like the others (`service.bots.strategies`): a
pure function of its seat's own view and a seeded generator. It samples deals
of the cards it cannot see, consistent with its view (`unknown.Unknown`),
judges its candidate moves on each sample, and plays the best on average. Its
budget is counted in samples (iterations), never in seconds, so a move is a
function of the view and the bot's seed (docs/bots.md); a wall-clock cap only
guards the server.

Each engine family has its own search (`FAMILY_SEARCHES`); a family without
one plays `basic` at every level.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from random import Random

from service.bots.basic import play_basic
from service.bots.search.budget import EXPERT, STRONG, Budget
from service.bots.search.gin import search_gin
from service.bots.search.indian import search_indian
from service.bots.search.rummy500 import search_rummy500
from service.bots.search.western import search_western
from service.bots.view import BotView
from service.domain.actions import Action
from service.domain.engine import engine_for
from service.domain.rule_values import Family
from service.projections.views import GameView

Move = Action | tuple[Action, ...]

FamilySearch = Callable[[GameView, BotView, Random, Budget], Move]
"""A family's search: the view, its typed reading, the bot's generator and budget."""

FAMILY_SEARCHES: Mapping[Family, FamilySearch] = {
    Family.GIN: search_gin,
    Family.RUMMY500: search_rummy500,
    Family.INDIAN: search_indian,
    Family.WESTERN: search_western,
}
"""The search of each engine family that has one."""


def play_strong(view: GameView, rng: Random) -> Move:
    """The `strong` level: the family's search under the `STRONG` budget."""
    return _search(view, rng, STRONG)


def play_expert(view: GameView, rng: Random) -> Move:
    """The `expert` level: the family's search under the `EXPERT` budget."""
    return _search(view, rng, EXPERT)


def _search(view: GameView, rng: Random, budget: Budget) -> Move:
    bot = BotView.read(view)
    search = FAMILY_SEARCHES.get(engine_for(bot.rules).family)
    if search is None:
        return play_basic(view, rng)
    return search(view, bot, rng, budget.scaled())
