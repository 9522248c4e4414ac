"""Gin Rummy's options read typed (docs/rules.md "Gin Rummy"): `gin_options` narrows
the rule set's optional fields once per set of values, as the turn reads them on
every knock it checks."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from service.domain.rules import RuleSet


@dataclass(frozen=True, slots=True)
class GinOptions:
    """The options every gin game sets (its preset)."""

    gin_bonus: int
    big_gin_bonus: int | None
    """None: no big gin."""
    undercut_bonus: int
    oklahoma: bool
    game_bonus: int
    box_bonus: int
    shutout: bool


def gin_options(rules: RuleSet) -> GinOptions:
    """The gin options of `rules`, which the caller knows to be a gin game's."""
    return _options(
        rules.gin_bonus,
        rules.big_gin_bonus,
        rules.undercut_bonus,
        rules.oklahoma,
        rules.game_bonus,
        rules.box_bonus,
        rules.shutout,
    )


@lru_cache(maxsize=64)
def _options(
    gin_bonus: int | None,
    big_gin_bonus: int | None,
    undercut_bonus: int | None,
    oklahoma: bool | None,
    game_bonus: int | None,
    box_bonus: int | None,
    shutout: bool | None,
) -> GinOptions:
    assert gin_bonus is not None, "a gin game has a gin bonus"
    assert undercut_bonus is not None, "a gin game has an undercut bonus"
    assert oklahoma is not None, "a gin game says whether it is Oklahoma"
    assert game_bonus is not None, "a gin game has a game bonus"
    assert box_bonus is not None, "a gin game has a box bonus"
    assert shutout is not None, "a gin game says whether a shutout doubles"
    return GinOptions(
        gin_bonus=gin_bonus,
        big_gin_bonus=big_gin_bonus,
        undercut_bonus=undercut_bonus,
        oklahoma=oklahoma,
        game_bonus=game_bonus,
        box_bonus=box_bonus,
        shutout=shutout,
    )
