"""The rule set: every option docs/rules.md names, with its default.

A `RuleSet` is frozen and checks itself when built, so an impossible
combination fails when a game is created, never in the middle of one.
`RuleSet.from_dict` / `to_dict` read and write it as plain data with the
names of docs/rules.md.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from service.domain.errors import InvalidRules, InvalidSeating

MIN_PLAYERS = 2
MAX_PLAYERS = 6
DECK_SIZE = 52


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

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            _check_type(field.name, getattr(self, field.name), field.type)
        if self.hand_size is not None and self.hand_size < 1:
            raise InvalidRules(f"hand_size must be at least 1, not {self.hand_size}.")
        if self.hand_size is not None and self.hand_size * MIN_PLAYERS + 2 > DECK_SIZE:
            raise InvalidRules(
                f"hand_size {self.hand_size} leaves no stock even for two players: "
                f"at most {(DECK_SIZE - 2) // MIN_PLAYERS} cards each fit one deck."
            )
        if self.recycles < 0:
            raise InvalidRules(f"recycles must be 0 or more, not {self.recycles}.")
        if self.max_turns < 1:
            raise InvalidRules(f"max_turns must be at least 1, not {self.max_turns}.")
        if (self.target is None) == (self.deals is None):
            raise InvalidRules(
                "Set exactly one way to end the game: a points target or a number of deals."
            )
        if self.target is not None and self.target < 1:
            raise InvalidRules(f"target must be at least 1 point, not {self.target}.")
        if self.deals is not None and self.deals < 1:
            raise InvalidRules(f"deals must be at least 1, not {self.deals}.")

    @property
    def ace_value(self) -> int:
        """What an ace left in a hand counts: 1, or 15 where an ace may be high."""
        return 1 if self.aces is Aces.LOW else 15

    def hand_size_for(self, players: int) -> int:
        """Cards dealt to each of `players`; fails if that would leave no stock."""
        size = self.hand_size if self.hand_size is not None else default_hand_size(players)
        check_player_count(players)
        if players * size + 2 > DECK_SIZE:
            raise InvalidRules(
                f"hand_size {size} for {players} players deals {players * size} cards and "
                f"leaves no stock after the upcard: at most {(DECK_SIZE - 2) // players} each."
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
        """The rule set as plain JSON-ready data, every option named."""
        return {field.name: _plain(getattr(self, field.name)) for field in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Build from plain data; missing options take their defaults.

        A game that sets `deals` and no `target` has no target, as docs/rules.md says.
        """
        if not isinstance(data, dict):
            raise InvalidRules("rules must be an object of option names to values.")
        known = {field.name: field for field in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise InvalidRules(
                f"Unknown rule {unknown[0]!r}: the rules are {', '.join(sorted(known))}."
            )
        values: dict[str, Any] = {}
        for name, value in data.items():
            values[name] = _coerce(name, value, known[name].type)
        if values.get("deals") is not None and "target" not in values:
            values["target"] = None
        return cls(**values)


def _plain(value: object) -> object:
    return value.value if isinstance(value, StrEnum) else value


_ENUMS: dict[str, type[StrEnum]] = {
    "Aces": Aces,
    "MeldsPerTurn": MeldsPerTurn,
    "LayOff": LayOff,
    "GoingOut": GoingOut,
    "RummyBonus": RummyBonus,
    "Exhausted": Exhausted,
    "Scoring": Scoring,
}


def _coerce(name: str, value: object, annotation: object) -> object:
    enum = _ENUMS.get(str(annotation))
    if enum is None or isinstance(value, enum):
        return value
    try:
        return enum(value)  # type: ignore[arg-type]
    except ValueError:
        choices = ", ".join(member.value for member in enum)
        raise InvalidRules(f"Rule {name!r} is one of {choices}, not {value!r}.") from None


def _check_type(name: str, value: object, annotation: object) -> None:
    spelled = str(annotation)
    enum = _ENUMS.get(spelled)
    if enum is not None:
        if not isinstance(value, enum):
            raise InvalidRules(f"Rule {name!r} must be one of its named values, not {value!r}.")
        return
    optional = spelled.endswith("| None")
    if value is None:
        if not optional:
            raise InvalidRules(f"Rule {name!r} must be set.")
        return
    expected: type = bool if spelled == "bool" else int
    # bool is an int in Python, but `recycles: true` is a mistake, not 1.
    if type(value) is not expected:
        wanted = "true or false" if expected is bool else "a whole number"
        raise InvalidRules(f"Rule {name!r} must be {wanted}, not {value!r}.")


CLASSIC = RuleSet()
