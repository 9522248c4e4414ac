"""The rule set: every option docs/rules.md names, with its default.

A `RuleSet` is frozen and checks itself when built, so an impossible
combination fails when a game is created, never in the middle of one.
`RuleSet.from_dict` / `to_dict` read and write it as plain data with the
names of docs/rules.md.

A variant (`variant`) is a preset (docs/rules.md, "Variants"): its options
take the variant's defaults when left out, some are fixed, some unused
("-" in its table); `VARIANTS` holds each variant's table, and every check reads it, so
the rules page, the OpenAPI schema and the service agree by construction.
A classic rule set stores and reads exactly as before variants existed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from service.domain.cards import RANKS, Card, Rank, pack
from service.domain.errors import InvalidRules, InvalidSeating

MIN_PLAYERS = 2
MAX_PLAYERS = 6
DECK_SIZE = 52
"""One pack without jokers: the classic game's deck."""


class Variant(StrEnum):
    CLASSIC = "classic"
    WILD = "wild"
    BOATHOUSE = "boathouse"
    KNOCK = "knock"
    WROTHAM = "wrotham"
    INDIAN = "indian"


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


# When a player may lay off (`RuleSet.lay_off`). Its name is the OpenAPI document's
# for these values (a docstring would show there too); code that also handles the
# lay-off move (`service.domain.actions.LayOff`) imports it as `LayOffRule`.
class LayOff(StrEnum):
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


def default_hand_size(players: int) -> int:
    """Cards dealt to each player: 10 for two, 7 for three or four, 6 for five or six."""
    check_player_count(players)
    if players == 2:
        return 10
    if players <= 4:
        return 7
    return 6


def smallest_hand_to_go_out(going_out: GoingOut) -> int:
    """The fewest cards dealt with which anyone can ever go out: after the draw a
    first meld takes 3 cards, and under `discard` one more must be left to throw."""
    return 3 if going_out is GoingOut.DISCARD else 2


def check_player_count(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidSeating(f"A game seats {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}.")


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The house rules of one game; the defaults are the classic two-player game."""

    aces: Aces = Aces.LOW
    hand_size: int | None = None
    melds_per_turn: MeldsPerTurn = MeldsPerTurn.UNLIMITED
    lay_off: LayOff = LayOff.ANYTIME
    going_out: GoingOut = GoingOut.ANY
    rummy_bonus: RummyBonus = RummyBonus.DOUBLE
    recycles: int = 1
    recycle_shuffle: bool = True
    exhausted: Exhausted = Exhausted.VOID
    max_turns: int = 500
    scoring: Scoring = Scoring.WINNER
    target: int | None = 100
    deals: int | None = None
    # The variants' options (docs/rules.md "Variants"); None where the variant has
    # no such option. Classic games store none of them.
    variant: Variant = Variant.CLASSIC
    packs: int = 1
    jokers: int = 0
    wild_rank: str | None = None
    """The code of the nominated wild rank (`2` for deuces wild), or None."""
    min_natural: int | None = None
    swap: bool | None = None
    swapped_wild: SwappedWild | None = None
    wild_penalty: int | None = None
    ace_value: int | None = None
    """What an ace left in hand counts; None is classic's (see `ace_points`)."""
    knock_penalty: int | None = None
    knock_bonus: int | None = None
    format: Format | None = None
    """Indian Rummy: points, deals or a pool."""
    first_drop: int | None = None
    middle_drop: int | None = None
    full_count: int | None = None
    """Indian Rummy: the most a hand counts, and a wrong show's points."""
    # Leaving and the turn clock (docs/rules.md "Leaving and turn clocks"), in every
    # variant; stored only when they differ from these defaults.
    turn_seconds: int | None = None
    """Seconds a seat has to act before its move is made for it; None: no clock."""
    timeouts_before_takeover: int = 3
    """Consecutive timeouts after which the seat is abandoned per `abandon`."""
    abandon: Abandon = Abandon.BOT

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            _check_type(field.name, getattr(self, field.name), field.type)
        _check_variant(self)
        if self.hand_size is not None and self.hand_size < 1:
            raise InvalidRules(f"hand_size must be at least 1, not {self.hand_size}.")
        if self.hand_size is not None and self.hand_size * MIN_PLAYERS + 2 > self.deck_size:
            raise InvalidRules(
                f"hand_size {self.hand_size} leaves no stock even for two players: "
                f"at most {(self.deck_size - 2) // MIN_PLAYERS} cards each fit the pack."
            )
        if self.recycles < 0:
            raise InvalidRules(f"recycles must be 0 or more, not {self.recycles}.")
        if self.max_turns < 1:
            raise InvalidRules(f"max_turns must be at least 1, not {self.max_turns}.")
        _check_clock(self)
        if self.variant is Variant.INDIAN:
            return  # its format ends the game (checked with the variant)
        if (self.target is None) == (self.deals is None):
            raise InvalidRules(
                "Set exactly one way to end the game: a points target or a number of deals."
            )
        if self.target is not None and self.target < 1:
            raise InvalidRules(f"target must be at least 1 point, not {self.target}.")
        if self.deals is not None and self.deals < 1:
            raise InvalidRules(f"deals must be at least 1, not {self.deals}.")

    @property
    def ace_points(self) -> int:
        """What an ace left in a hand counts: `ace_value` if set, else 1, or 15 where
        an ace may be high."""
        if self.ace_value is not None:
            return self.ace_value
        return 1 if self.aces is Aces.LOW else 15

    @property
    def starting_score(self) -> int:
        """Every seat's score before the first deal: Indian format `deals` gives each
        `full_count` chips per deal, every other game starts at 0."""
        if self.format is Format.DEALS and self.full_count is not None and self.deals is not None:
            return self.full_count * self.deals
        return 0

    @property
    def deck_size(self) -> int:
        """Cards in the whole pack: `packs` times 52 and the jokers."""
        return self.packs * DECK_SIZE + self.jokers

    @property
    def pack(self) -> tuple[Card, ...]:
        """The whole pack in reference order (docs/fairness.md)."""
        return pack(self.packs, self.jokers)

    @property
    def wild(self) -> Rank | None:
        """The nominated wild rank, if any (jokers are wild besides)."""
        return None if self.wild_rank is None else Rank.parse(self.wild_rank)

    @property
    def has_wilds(self) -> bool:
        return self.jokers > 0 or self.wild_rank is not None

    def check_players(self, players: int) -> None:
        """Refuse a player count the variant does not seat (422 `invalid_rules`)."""
        low, high = VARIANTS[self.variant].players
        if not low <= players <= high:
            seats = f"{low}" if low == high else f"{low} to {high}"
            raise InvalidRules(
                f"Rule 'variant': {self.variant.value} seats {seats} players, not {players}."
            )
        if self.variant is Variant.INDIAN and players > 2 and self.packs != 2:
            raise InvalidRules(
                f"Rule 'packs': indian deals from two packs to {players} players, not one."
            )

    def hand_size_for(self, players: int) -> int:
        """Cards dealt to each of `players`; fails if that would leave no stock."""
        size = self.hand_size if self.hand_size is not None else default_hand_size(players)
        check_player_count(players)
        # Wrotham deals no upcard, but its starter gets an eighth card instead.
        if players * size + 2 > self.deck_size:
            raise InvalidRules(
                f"hand_size {size} for {players} players deals {players * size} cards and "
                f"leaves no stock after the upcard: at most {(self.deck_size - 2) // players} "
                f"each."
            )
        return size

    def check_can_end(self) -> None:
        """Refuse rules under which a game could never end (docs/rules.md: the turn cap
        is there "so a game can never run for ever"). A check at creation, not
        when the rules are built: games stored before it rebuild their rules too.

        A player goes out holding `hand_size` + 1 cards after the draw, and the
        first meld of a hand takes 3 of them: so nobody ever goes out with one
        card dealt, nor with two when the last card must be discarded. If,
        besides, a hand that runs out scores nothing, no hand ever scores.
        """
        smallest = smallest_hand_to_go_out(self.going_out)
        if (
            self.hand_size is not None
            and self.hand_size < smallest
            and self.exhausted is Exhausted.VOID
        ):
            raise InvalidRules(
                f"With hand_size {self.hand_size} and going_out {self.going_out.value} "
                f"nobody can ever go out (a first meld takes 3 cards), and with exhausted "
                f"void no other hand scores: the game could never end. Deal at least "
                f"{smallest} cards each, or set exhausted to score."
            )

    def to_dict(self) -> dict[str, Any]:
        """The rule set as plain JSON-ready data, every option of its variant named.

        A classic rule set gives exactly the options it had before variants (stored
        games keep their form); `shown` adds what views show besides.
        """
        used = VARIANTS[self.variant].used
        shown = {
            field.name: _plain(getattr(self, field.name))
            for field in dataclasses.fields(self)
            if field.name in used
        }
        if self.variant is Variant.INDIAN and self.deals is None:
            del shown["deals"]  # an option of format `deals` only
        for name in LEAVING_OPTIONS:
            # Left at its default, a leaving option is not stored: games that do not
            # use them store their rules as before.
            if getattr(self, name) == _LEAVING_DEFAULTS[name]:
                del shown[name]
        return shown

    def shown(self) -> dict[str, Any]:
        """The rule set as views show it: `to_dict` with the variant and its pack."""
        shown = self.to_dict()
        for name in ("variant", "packs", "jokers", *LEAVING_OPTIONS):
            shown.setdefault(name, _plain(getattr(self, name)))
        return shown

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], players: int | None = None) -> RuleSet:
        """Build from plain data; missing options take their variant's defaults.

        A game that sets `deals` and no `target` has no target, as docs/rules.md says.
        Indian Rummy's defaults depend on the table: `players` (when creating a game)
        gives two seats one pack, and the format sets the drops and the deals.
        """
        if not isinstance(data, Mapping):
            raise InvalidRules("rules must be an object of option names to values.")
        known = {field.name: field for field in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise InvalidRules(
                f"Unknown rule {unknown[0]!r}: the rules are {', '.join(sorted(known))}."
            )
        variant = _coerce("variant", data.get("variant", Variant.CLASSIC.value), "Variant")
        assert isinstance(variant, Variant)
        preset = VARIANTS[variant]
        values: dict[str, Any] = dict(preset.defaults)
        for name, value in data.items():
            if name not in preset.accepted:
                raise InvalidRules(
                    f"Rule {name!r} is not an option of variant {variant.value!r}: leave it out."
                )
            try:
                values[name] = _coerce(name, value, known[name].type)
            except InvalidRules as invalid:
                if variant is Variant.CLASSIC:
                    raise
                raise InvalidRules(f"{invalid.message} (variant {variant.value!r})") from None
        if data.get("deals") is not None and "target" not in data and "target" in preset.accepted:
            values["target"] = None
        if variant is Variant.INDIAN:
            _indian_defaults(values, data, players)
        return cls(**values)


def _indian_defaults(values: dict[str, Any], data: Mapping[str, Any], players: int | None) -> None:
    """The Indian options whose defaults follow the table or the format: one pack at
    two seats (else two), as many jokers as packs, 25/50 drops in `pool_201` (else
    20/40), two deals in format `deals` (no other format has the option)."""
    if "packs" not in data and players == 2:
        values["packs"] = 1
    if "jokers" not in data:
        values["jokers"] = values["packs"]
    pool_201 = values["format"] is Format.POOL_201
    if "first_drop" not in data:
        values["first_drop"] = 25 if pool_201 else 20
    if "middle_drop" not in data:
        values["middle_drop"] = 50 if pool_201 else 40
    if values["format"] is Format.DEALS and data.get("deals") is None:
        values["deals"] = 2


def _plain(value: object) -> object:
    return value.value if isinstance(value, StrEnum) else value


_ENUMS: dict[str, type[StrEnum]] = {
    "Variant": Variant,
    "Format": Format,
    "SwappedWild": SwappedWild,
    "Aces": Aces,
    "MeldsPerTurn": MeldsPerTurn,
    "LayOff": LayOff,
    "GoingOut": GoingOut,
    "RummyBonus": RummyBonus,
    "Exhausted": Exhausted,
    "Scoring": Scoring,
    "Abandon": Abandon,
}


def _coerce(name: str, value: object, annotation: object) -> object:
    enum = _ENUMS.get(str(annotation).removesuffix(" | None"))
    if enum is None or value is None or isinstance(value, enum):
        return value
    try:
        return enum(value)  # type: ignore[arg-type]
    except ValueError:
        choices = ", ".join(member.value for member in enum)
        raise InvalidRules(f"Rule {name!r} is one of {choices}, not {value!r}.") from None


def _check_type(name: str, value: object, annotation: object) -> None:
    spelled = str(annotation)
    optional = spelled.endswith(" | None")
    spelled = spelled.removesuffix(" | None")
    if value is None:
        if not optional:
            raise InvalidRules(f"Rule {name!r} must be set.")
        return
    enum = _ENUMS.get(spelled)
    if enum is not None:
        if not isinstance(value, enum):
            raise InvalidRules(f"Rule {name!r} must be one of its named values, not {value!r}.")
        return
    expected: type = {"bool": bool, "str": str}.get(spelled, int)
    # bool is an int in Python, but `recycles: true` is a mistake, not 1.
    if type(value) is not expected:
        wanted = {bool: "true or false", str: "a string"}.get(expected, "a whole number")
        raise InvalidRules(f"Rule {name!r} must be {wanted}, not {value!r}.")


# --- the variants as presets -------------------------------------------------

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
_WILD_OPTIONS = ("min_natural", "swap", "swapped_wild", "wild_penalty")
LEAVING_OPTIONS = ("turn_seconds", "timeouts_before_takeover", "abandon")
"""Every variant's options for leaving and the turn clock."""
_LEAVING_DEFAULTS: Mapping[str, Any] = {
    "turn_seconds": None,
    "timeouts_before_takeover": 3,
    "abandon": Abandon.BOT,
}
TURN_SECONDS = (5, 86_400)
TIMEOUTS_BEFORE_TAKEOVER = (1, 100)


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
        | {"variant", "packs", "jokers", *LEAVING_OPTIONS}
    )
    return Preset(
        players=players,
        used=frozenset(used),
        defaults={**fixed, **(defaults or {})},
        fixed=fixed,
        ranges=ranges,
    )


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
        used=frozenset((*_CLASSIC_OPTIONS, *LEAVING_OPTIONS)),
        defaults={},
        fixed={"variant": Variant.CLASSIC, "packs": 1, "jokers": 0},
        ranges={},
    ),
    Variant.WILD: _preset(
        extra=("wild_rank", *_WILD_OPTIONS, "ace_value"),
        defaults={"variant": Variant.WILD, "jokers": 2, **_WILD_DEFAULTS},
        ranges={"jokers": (0, 2), **_WILD_RANGES, **_ACE_RANGE},
    ),
    Variant.BOATHOUSE: _preset(
        (2, 2),
        unused=("melds_per_turn", "lay_off"),
        extra=("ace_value",),
        defaults={"variant": Variant.BOATHOUSE, "hand_size": 10},
        fixed={"aces": Aces.HIGH_OR_LOW, "ace_value": 11, "rummy_bonus": RummyBonus.NONE},
    ),
    Variant.KNOCK: _preset(
        unused=("melds_per_turn", "lay_off", "going_out", "rummy_bonus", "scoring"),
        extra=("ace_value", "knock_penalty", "knock_bonus"),
        defaults={"variant": Variant.KNOCK, "knock_penalty": 10, "knock_bonus": 25},
        ranges={"knock_penalty": (0, 50), "knock_bonus": (0, 100), **_ACE_RANGE},
    ),
    Variant.WROTHAM: _preset(
        unused=("target",),
        extra=(*_WILD_OPTIONS, "ace_value"),
        defaults={"variant": Variant.WROTHAM, "target": None, **_WILD_DEFAULTS},
        fixed={"jokers": 3, "hand_size": 7, "deals": 6},
        ranges={**_WILD_RANGES, **_ACE_RANGE},
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
    ),
}
"""Each variant's preset, as docs/rules.md's table gives it."""

_INDIAN_OPTIONS = ("format", "first_drop", "middle_drop", "full_count")


def _check_clock(rules: RuleSet) -> None:
    """The leaving options' ranges, the same in every variant."""
    for name, (low, high), optional in (
        ("turn_seconds", TURN_SECONDS, True),
        ("timeouts_before_takeover", TIMEOUTS_BEFORE_TAKEOVER, False),
    ):
        value = getattr(rules, name)
        if value is None and optional:
            continue
        if not low <= value <= high:
            none = " or null (no clock)" if optional else ""
            raise InvalidRules(f"Rule {name!r} is {low} to {high}{none}, not {value}.")


def _check_variant(rules: RuleSet) -> None:
    """Hold a rule set to its variant's preset: unused options unset, fixed ones at
    their value, numbers in range. Each message names the option and the variant."""
    preset = VARIANTS[rules.variant]
    variant = rules.variant.value
    optional = ("wild_rank", *_WILD_OPTIONS, "ace_value", "knock_penalty", "knock_bonus")
    for name in (*optional, *_INDIAN_OPTIONS):
        if name not in preset.used and getattr(rules, name) is not None:
            raise InvalidRules(f"Rule {name!r} is not an option of variant {variant!r}.")
        nullable = name in ("wild_rank", "ace_value")
        if name in preset.used and not nullable and getattr(rules, name) is None:
            raise InvalidRules(f"Rule {name!r} must be set in variant {variant!r}.")
    for name, value in preset.fixed.items():
        if getattr(rules, name) != value:
            raise InvalidRules(
                f"Rule {name!r} is {_plain(value)!r} in variant {variant!r}, "
                f"not {_plain(getattr(rules, name))!r}."
            )
    for name, (low, high) in preset.ranges.items():
        value = getattr(rules, name)
        if value is not None and not low <= value <= high:
            raise InvalidRules(
                f"Rule {name!r} is {low} to {high} in variant {variant!r}, not {value}."
            )
    if rules.wild_rank is not None and rules.wild_rank not in _RANK_CODES:
        raise InvalidRules(
            f"Rule 'wild_rank' is a rank (A 2-10 J Q K) or null, not {rules.wild_rank!r}."
        )
    if rules.variant is Variant.INDIAN:
        _check_indian(rules)
    if rules.variant is Variant.WILD and not rules.has_wilds:
        raise InvalidRules("Rule 'jokers': variant 'wild' needs at least one joker or a wild_rank.")


def _check_indian(rules: RuleSet) -> None:
    if rules.jokers != rules.packs:
        raise InvalidRules(
            f"Rule 'jokers' is the number of packs in variant 'indian' ({rules.packs}), "
            f"not {rules.jokers}."
        )
    if rules.target is not None:
        raise InvalidRules("Rule 'target' is not an option of variant 'indian'.")
    if rules.format is Format.DEALS:
        if rules.deals is None or rules.deals < 1:
            raise InvalidRules("Rule 'deals' must be at least 1 in format 'deals'.")
    elif rules.deals is not None:
        raise InvalidRules(
            f"Rule 'deals' is an option of format 'deals' only, not of {rules.format}."
        )


_RANK_CODES = frozenset(rank.code for rank in RANKS)


CLASSIC = RuleSet()
