"""The named values of the rule set's options (docs/rules.md): each a `StrEnum`
whose values are the ones the rules page, the API and the stored rules spell."""

from __future__ import annotations

from enum import StrEnum


class Variant(StrEnum):
    CLASSIC = "classic"
    WILD = "wild"
    BOATHOUSE = "boathouse"
    KNOCK = "knock"
    WROTHAM = "wrotham"
    INDIAN = "indian"
    # Gin Rummy (issue 29): its own family (service/domain/gin/).
    GIN = "gin"
    # 500 Rum (issue 29): a spread discard pile, meld credit per player.
    RUMMY500 = "rummy500"


class Family(StrEnum):
    """A family of rule sets played by one engine (`service.domain.engine`)."""

    WESTERN = "western"
    INDIAN = "indian"
    GIN = "gin"
    RUMMY500 = "rummy500"


class Format(StrEnum):
    """Indian Rummy's formats: one deal, a number of deals for chips, or a pool."""

    POINTS = "points"
    DEALS = "deals"
    POOL_101 = "pool_101"
    POOL_201 = "pool_201"

    @property
    def pool_limit(self) -> int | None:
        """The score at or over which a pool eliminates a player."""
        return {"pool_101": 101, "pool_201": 201}.get(self.value)


class SwappedWild(StrEnum):
    """What a wild taken by a swap may do: anything (`free`), or leave the hand by a
    meld or lay-off in the same request (`meld_now`)."""

    FREE = "free"
    MELD_NOW = "meld_now"


class Aces(StrEnum):
    LOW = "low"
    HIGH_OR_LOW = "high_or_low"
    AROUND_THE_CORNER = "around_the_corner"


class MeldsPerTurn(StrEnum):
    UNLIMITED = "unlimited"
    ONE = "one"


# When a player may lay off (`RuleSet.lay_off`); the lay-off move is
# `service.domain.actions.LayOff`. The OpenAPI document names these values `LayOff`
# (service/api/schemas.py; a docstring would show there too).
class LayOffRule(StrEnum):
    ANYTIME = "anytime"
    AFTER_OWN_MELD = "after_own_meld"


class GoingOut(StrEnum):
    ANY = "any"
    DISCARD = "discard"


class RummyBonus(StrEnum):
    DOUBLE = "double"
    PLUS_10 = "plus_10"
    NONE = "none"


class Exhausted(StrEnum):
    VOID = "void"
    SCORE = "score"


class Scoring(StrEnum):
    WINNER = "winner"
    PENALTY = "penalty"


class Abandon(StrEnum):
    """What becomes of a seat whose player leaves (or is taken over by its clock):
    the server's bot plays it on (`bot`), or it forfeits (`forfeit`)."""

    BOT = "bot"
    FORFEIT = "forfeit"


class BotLevel(StrEnum):
    """A computer player's level (docs/bots.md "Levels"), weakest first: `random`
    plays any legal move, `basic` the rule-of-thumb player, `strong` and `expert`
    search deals of the cards they cannot see (`expert` with the larger budget).
    A bot seat names one (`players[].bot`), and so does the rule `takeover_bot`."""

    RANDOM = "random"
    BASIC = "basic"
    STRONG = "strong"
    EXPERT = "expert"
