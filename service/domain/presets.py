"""The variants as presets (docs/rules.md "Variants"): `VARIANTS` holds each
variant's column of the rules page's table (`Preset`: the seats, the options it
has, its defaults, fixed values, ranges and caps, its engine's family and, in the
Western family, its `Features`). The rule set's checks, the OpenAPI schema and the
rules page all read this one table, so they agree by construction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service.domain.rule_values import (
    Abandon,
    Aces,
    BotLevel,
    Exhausted,
    Family,
    Format,
    LayOffRule,
    MeldsPerTurn,
    RummyBonus,
    SwappedWild,
    Variant,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 6
"""The fewest and most seats of any game; a variant may seat fewer (`Preset.players`)."""


@dataclass(frozen=True, slots=True)
class Features:
    """What a Western variant adds to, or changes in, the classic game: each variant
    of the family is a combination of these (its `Preset.features`), read by the one
    Western engine (`service.domain.western`)."""

    counts_copies: bool = True
    """A card named twice must be held twice (packs with copies of a code); the
    classic game calls a repeated card no meld, as it always has."""
    shows_out_of_play: bool = True
    """Views show `out_of_play_count` (and the admin's `out_of_play`)."""
    concealed_from: int | None = None
    """The first hand played with concealed turns (`concealed`), or None."""
    concealed_discard_last: bool = False
    """A concealed hand is always gone out of by a discard (Wrotham)."""
    second_draw: bool = False
    """Taking the top discard takes a second card at once (Boathouse)."""
    knocking: bool = False
    """Melds only in the count, and a hand ends by a knock (Knock Rummy)."""
    starter_deal: bool = False
    """No upcard: the starter is dealt one card more and opens without a draw."""


_CLASSIC_OPTIONS = (
    "aces",
    "hand_size",
    "melds_per_turn",
    "lay_off",
    "going_out",
    "rummy_bonus",
    "recycles",
    "recycle_shuffle",
    "exhausted",
    "max_turns",
    "scoring",
    "target",
    "deals",
)
WILD_OPTIONS = ("min_natural", "swap", "swapped_wild", "wild_penalty")
"""The options of the variants with wilds."""
LEAVING_OPTIONS = (
    "turn_seconds",
    "timeouts_before_takeover",
    "abandon",
    "takeover_bot",
    "time_bank_seconds",
)
"""Every variant's options for leaving and the turn clock."""
CAP_DEFAULTS: Mapping[str, int] = {"max_hands": 200, "max_events": 20_000}
"""The caps every variant has, and what a new game that leaves them out gets
(docs/rules.md "Caps"); games stored before them have none (None)."""
CAP_OPTIONS = ("target", "deals", "max_turns", *CAP_DEFAULTS)
"""The options each variant caps (`Preset.caps`), checked at creation only."""
_CAPS: Mapping[str, tuple[int, int]] = {
    "target": (1, 1000),
    "deals": (1, 50),
    "max_turns": (1, 1000),
    "max_hands": (1, 500),
    "max_events": (100, 20_000),
}
"""The caps of every variant that has the option, unless its preset says otherwise."""
LEAVING_DEFAULTS: Mapping[str, Any] = {
    "turn_seconds": None,
    "timeouts_before_takeover": 3,
    "abandon": Abandon.BOT,
    "takeover_bot": BotLevel.BASIC,
    "time_bank_seconds": 0,
}
TURN_SECONDS = (5, 86_400)
TIMEOUTS_BEFORE_TAKEOVER = (1, 100)
TIME_BANK_SECONDS = (0, 600)


@dataclass(frozen=True, slots=True)
class Preset:
    """One variant's column of docs/rules.md's table."""

    players: tuple[int, int]
    used: frozenset[str]
    """The options the variant has (every other one is unused: refused if given)."""
    defaults: Mapping[str, Any]
    """Values the variant gives options left out, where they differ from classic's."""
    fixed: Mapping[str, Any]
    """Options the variant fixes: they may be given only with this value."""
    ranges: Mapping[str, tuple[int, int]]
    """Whole-number options and their inclusive bounds."""
    caps: Mapping[str, tuple[int, int]]
    """The options on a game's length (`CAP_OPTIONS`) it has and their inclusive
    bounds: checked when a game is created only (`RuleSet.check_caps`), so a stored
    game with a larger value loads as it was made."""
    family: Family = Family.WESTERN
    """The engine that plays it (`service.domain.engine.engine_for`)."""
    features: Features = Features()
    """What it adds to the classic game, in the Western family."""
    summary: str = ""
    """The variant in a sentence or two: its schema's description in the OpenAPI
    document's `oneOf`."""
    spread_pile: bool = False
    """The discard pile is spread (500 Rum): a draw from it may take several cards
    (`Draw.count`); everywhere else a `count` other than 1 is not in the variant."""

    @property
    def accepted(self) -> frozenset[str]:
        """What a request may give: the used options and the variant itself."""
        return self.used | {"variant", "packs", "jokers"}


def _preset(
    players: tuple[int, int] = (MIN_PLAYERS, MAX_PLAYERS),
    *,
    unused: tuple[str, ...] = (),
    extra: tuple[str, ...] = (),
    defaults: Mapping[str, Any] | None = None,
    fixed: Mapping[str, Any] | None = None,
    ranges: Mapping[str, tuple[int, int]] | None = None,
    caps: Mapping[str, tuple[int, int]] | None = None,
    family: Family = Family.WESTERN,
    features: Features = Features(),
    summary: str,
    spread_pile: bool = False,
) -> Preset:
    ranges = dict(ranges or {})
    # One pack and no jokers, unless the variant says otherwise.
    fixed = {
        **({} if "packs" in ranges else {"packs": 1}),
        **({} if "jokers" in ranges else {"jokers": 0}),
        **(fixed or {}),
    }
    used = (
        (set(_CLASSIC_OPTIONS) - set(unused))
        | set(extra)
        | {"variant", "packs", "jokers", *LEAVING_OPTIONS, *CAP_DEFAULTS}
    )
    return Preset(
        players=players,
        used=frozenset(used),
        defaults={**fixed, **(defaults or {})},
        fixed=fixed,
        ranges=ranges,
        caps=_caps_of(used, fixed, caps),
        family=family,
        features=features,
        summary=summary,
        spread_pile=spread_pile,
    )


def _caps_of(
    used: set[str] | frozenset[str],
    fixed: Mapping[str, Any],
    caps: Mapping[str, tuple[int, int]] | None,
) -> dict[str, tuple[int, int]]:
    """A variant's caps: `_CAPS` (or its own) for each capped option it has and does
    not fix."""
    return {
        name: (caps or {}).get(name, bounds)
        for name, bounds in _CAPS.items()
        if name in used and name not in fixed
    }


_ACE_RANGE = {"ace_value": (1, 15)}
_WILD_RANGES = {"min_natural": (1, 3), "wild_penalty": (0, 50)}
_WILD_DEFAULTS = {
    "min_natural": 2,
    "swap": True,
    "swapped_wild": SwappedWild.FREE,
    "wild_penalty": 15,
}

VARIANTS: Mapping[Variant, Preset] = {
    # Classic shows its pack in views but stores only its classic options.
    Variant.CLASSIC: Preset(
        players=(MIN_PLAYERS, MAX_PLAYERS),
        used=frozenset((*_CLASSIC_OPTIONS, *LEAVING_OPTIONS, *CAP_DEFAULTS)),
        defaults={},
        fixed={"variant": Variant.CLASSIC, "packs": 1, "jokers": 0},
        ranges={},
        caps=_caps_of(set(_CLASSIC_OPTIONS) | set(CAP_DEFAULTS), {}, None),
        features=Features(counts_copies=False, shows_out_of_play=False),
        summary="The classic game (docs/rules.md): one pack of 52, no wild cards.",
    ),
    Variant.WILD: _preset(
        extra=("wild_rank", *WILD_OPTIONS, "ace_value"),
        defaults={"variant": Variant.WILD, "jokers": 2, **_WILD_DEFAULTS},
        ranges={"jokers": (0, 2), **_WILD_RANGES, **_ACE_RANGE},
        summary=(
            "Wild cards: `jokers` `JK` in the pack and/or every card of `wild_rank` stand "
            'for any card in a meld (docs/rules.md, "Wild cards").'
        ),
    ),
    Variant.BOATHOUSE: _preset(
        (2, 2),
        unused=("melds_per_turn", "lay_off"),
        extra=("ace_value",),
        defaults={"variant": Variant.BOATHOUSE, "hand_size": 10},
        fixed={"aces": Aces.HIGH_OR_LOW, "ace_value": 11, "rummy_bonus": RummyBonus.NONE},
        features=Features(concealed_from=1, second_draw=True),
        summary=(
            "Boathouse Rum, for two: a second draw after taking the top discard, melds only "
            "in the request that goes out."
        ),
    ),
    Variant.KNOCK: _preset(
        unused=("melds_per_turn", "lay_off", "going_out", "rummy_bonus", "scoring"),
        extra=("ace_value", "knock_penalty", "knock_bonus"),
        defaults={"variant": Variant.KNOCK, "knock_penalty": 10, "knock_bonus": 25},
        ranges={"knock_penalty": (0, 50), "knock_bonus": (0, 100), **_ACE_RANGE},
        features=Features(knocking=True),
        summary=(
            "Knock Rummy (Poker Rum): no melds on the table; knock to end the hand, the "
            "lowest count of unmatched cards wins the pot."
        ),
    ),
    Variant.WROTHAM: _preset(
        unused=("target",),
        extra=(*WILD_OPTIONS, "ace_value"),
        defaults={"variant": Variant.WROTHAM, "target": None, **_WILD_DEFAULTS},
        fixed={"jokers": 3, "hand_size": 7, "deals": 6},
        ranges={**_WILD_RANGES, **_ACE_RANGE},
        # Deals 1-3 are played as `wild`, 4-6 concealed (docs/rules.md "Wrotham").
        features=Features(concealed_from=4, concealed_discard_last=True, starter_deal=True),
        summary=(
            "Wrotham Rummy: 52 cards and 3 wild `JK`, six deals of 7 cards, melds only in "
            "the going-out request in deals 4-6."
        ),
    ),
    Variant.INDIAN: _preset(
        unused=("melds_per_turn", "lay_off", "going_out", "rummy_bonus", "scoring", "target"),
        extra=(
            "min_natural",
            "wild_penalty",
            "ace_value",
            "format",
            "first_drop",
            "middle_drop",
            "full_count",
        ),
        defaults={
            "variant": Variant.INDIAN,
            "packs": 2,
            "jokers": 2,
            "recycles": 1000,
            "target": None,
            "format": Format.POINTS,
            "full_count": 80,
        },
        fixed={
            "aces": Aces.HIGH_OR_LOW,
            "hand_size": 13,
            "exhausted": Exhausted.VOID,
            "min_natural": 1,
            "wild_penalty": 0,
            "ace_value": 10,
        },
        ranges={
            "packs": (1, 2),
            "jokers": (1, 2),
            "first_drop": (0, 200),
            "middle_drop": (0, 200),
            "full_count": (1, 200),
        },
        # Format `deals`: platforms play 2, 3 or 6 deals.
        caps={"deals": (1, 10)},
        family=Family.INDIAN,
        summary=(
            "Indian 13-card Rummy: 13 cards from one pack and a `JK` (two seats) or two packs "
            "and two `JK` (3-6 seats, who must use two: `packs` 2), a wild rank cut each "
            "deal, no melds on the table; declare by showing your hand in groups. `jokers` "
            "is the number of packs. `format`: `points` (one deal), `deals` (chips over "
            "`deals` deals), `pool_101` or `pool_201` (elimination); the drops default to "
            "20/40 points (25/50 in `pool_201`)."
        ),
    ),
    # Gin Rummy (docs/rules.md "Gin Rummy"): two players, ten cards, aces low.
    Variant.GIN: _preset(
        (2, 2),
        unused=(
            "melds_per_turn",
            "lay_off",
            "going_out",
            "rummy_bonus",
            "recycles",
            "recycle_shuffle",
            "exhausted",
            "scoring",
            "deals",
        ),
        extra=(
            "knock_limit",
            "gin_bonus",
            "big_gin_bonus",
            "undercut_bonus",
            "oklahoma",
            "game_bonus",
            "box_bonus",
            "shutout",
        ),
        defaults={
            "variant": Variant.GIN,
            "knock_limit": 10,
            "gin_bonus": 25,
            "big_gin_bonus": 31,
            "undercut_bonus": 25,
            "oklahoma": False,
            "game_bonus": 100,
            "box_bonus": 25,
            "shutout": True,
        },
        fixed={"aces": Aces.LOW, "hand_size": 10},
        ranges={
            "knock_limit": (0, 10),
            "gin_bonus": (0, 50),
            "big_gin_bonus": (0, 50),
            "undercut_bonus": (0, 50),
            "game_bonus": (0, 500),
            "box_bonus": (0, 100),
        },
        caps={"target": (10, 500)},
        family=Family.GIN,
        summary=(
            "Gin Rummy, for two: ten cards, aces low, no melds on the table; take or pass "
            "the upcard, knock with deadwood up to `knock_limit` (gin: none), the defender "
            "lays off on the knocker's melds. `big_gin_bonus` null turns big gin off; with "
            "`oklahoma` the upcard sets each hand's knock limit (no `knock_limit` then)."
        ),
    ),
    # 500 Rum (issue 29): its `packs` and `hand_size` follow the seats
    # (`rules._rummy500_defaults`, checked by `RuleSet.check_players`).
    Variant.RUMMY500: _preset(
        (2, 8),
        unused=("rummy_bonus", "recycles", "recycle_shuffle", "exhausted", "scoring", "deals"),
        defaults={"variant": Variant.RUMMY500, "target": 500, "hand_size": 7},
        fixed={
            "aces": Aces.HIGH_OR_LOW,
            "melds_per_turn": MeldsPerTurn.UNLIMITED,
            "lay_off": LayOffRule.ANYTIME,
        },
        ranges={"packs": (1, 2)},
        caps={"target": (100, 1000)},
        family=Family.RUMMY500,
        spread_pile=True,
        summary=(
            "500 Rum: 2-8 seats, one pack (two for 5-8 seats: `packs` 2), 13 cards each for "
            "two seats, else 7 (`hand_size`); a spread discard pile any depth of which may "
            "be taken (`draw` with `count`, the deepest card used at once); every card put "
            "down scores for whoever put it down, cards left in hand count against."
        ),
    ),
}
"""Each variant's preset, as docs/rules.md's table gives it."""

MOST_PLAYERS = max(preset.players[1] for preset in VARIANTS.values())
"""The most seats any variant has (500 Rum's 8): the bound of a new game's seats
before its variant's own (`RuleSet.check_players`)."""

FEATURES = {variant: preset.features for variant, preset in VARIANTS.items()}
"""Each variant's `Features`, read on every move (`RuleSet.features`)."""

INDIAN_OPTIONS = ("format", "first_drop", "middle_drop", "full_count")
"""Indian Rummy's own options."""

GIN_OPTIONS = (
    "knock_limit",
    "gin_bonus",
    "big_gin_bonus",
    "undercut_bonus",
    "oklahoma",
    "game_bonus",
    "box_bonus",
    "shutout",
)
"""Gin Rummy's own options."""
NULL_IS_A_VALUE = ("big_gin_bonus",)
"""Options whose null is a value of their own (big gin off), not "left out": a
request keeps it (`api/convert.py`)."""
GIN_NULLABLE = ("big_gin_bonus", "knock_limit")
"""Gin options that may be null: `big_gin_bonus` (null: no big gin) and
`knock_limit` (null, and only null, with `oklahoma`)."""
