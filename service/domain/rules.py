"""The rule set: every option docs/rules.md names, with its default.

A `RuleSet` is frozen and checks itself when built, so an impossible
combination fails when a game is created, never in the middle of one.
`RuleSet.from_dict` / `to_dict` read and write it as plain data with the
names of docs/rules.md.

A variant (`variant`) is a preset (docs/rules.md, "Variants"): its options
take the variant's defaults when left out, some are fixed, some unused
("-" in its table); `presets.VARIANTS` holds each variant's table, and every check
(`rule_checks`) reads it, so the rules page, the OpenAPI schema and the service agree
by construction. The options' named values are `rule_values`.
A classic rule set stores and reads exactly as before variants existed, but for the
caps a new game is given (`max_hands`, `max_events`), which games stored before them
lack (docs/rules.md "Caps").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service.domain.cards import Card, Rank, pack
from service.domain.errors import InvalidRules, InvalidSeating
from service.domain.presets import (
    CAP_DEFAULTS,
    FEATURES,
    LEAVING_DEFAULTS,
    LEAVING_OPTIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MOST_PLAYERS,
    VARIANTS,
    Features,
)
from service.domain.rule_checks import (
    check_clock,
    check_type,
    check_variant,
    coerce,
    plain_value,
)
from service.domain.rule_values import (
    Abandon,
    Aces,
    BotLevel,
    Exhausted,
    Format,
    GoingOut,
    LayOffRule,
    MeldsPerTurn,
    RummyBonus,
    Scoring,
    SwappedWild,
    Variant,
)

DECK_SIZE = 52
"""One pack without jokers: the classic game's deck."""


def default_hand_size(players: int) -> int:
    """Cards dealt to each player: 10 for two, 7 for three or four, 6 for five or six."""
    check_player_count(players, MAX_PLAYERS)
    if players == 2:
        return 10
    if players <= 4:
        return 7
    return 6


def smallest_hand_to_go_out(going_out: GoingOut) -> int:
    """The fewest cards dealt with which anyone can ever go out: after the draw a
    first meld takes 3 cards, and under `discard` one more must be left to throw."""
    return 3 if going_out is GoingOut.DISCARD else 2


def check_player_count(players: int, most: int = MOST_PLAYERS) -> None:
    """Refuse a seat count no game has (`most`: a rule set's `most_players`)."""
    if not MIN_PLAYERS <= players <= most:
        raise InvalidSeating(f"A game seats {MIN_PLAYERS} to {most} players, not {players}.")


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The house rules of one game; the defaults are the classic two-player game."""

    aces: Aces = Aces.LOW
    hand_size: int | None = None
    melds_per_turn: MeldsPerTurn = MeldsPerTurn.UNLIMITED
    lay_off: LayOffRule = LayOffRule.ANYTIME
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
    # Gin Rummy's options (docs/rules.md "Gin Rummy"); None in every other variant.
    knock_limit: int | None = None
    """The most deadwood a knock may leave (0: gin only); None with `oklahoma`."""
    gin_bonus: int | None = None
    big_gin_bonus: int | None = None
    """None in a gin game: no big gin."""
    undercut_bonus: int | None = None
    oklahoma: bool | None = None
    """The upcard sets each hand's knock limit, and a spade doubles the hand."""
    game_bonus: int | None = None
    box_bonus: int | None = None
    shutout: bool | None = None
    """A winner whose opponent won no hand doubles its final total."""
    # Leaving and the turn clock (docs/rules.md "Leaving and turn clocks"), in every
    # variant; stored only when they differ from these defaults.
    turn_seconds: int | None = None
    """Seconds a seat has to act before its move is made for it; None: no clock."""
    timeouts_before_takeover: int = 3
    """Consecutive timeouts after which the seat is abandoned per `abandon`."""
    abandon: Abandon = Abandon.BOT
    takeover_bot: BotLevel = BotLevel.BASIC
    """The level of the bot that plays a seat its player left (`abandon: bot`) and
    what is left of a timed-out turn (docs/bots.md "Levels"). Games stored before
    the rule read as `basic`: it is stored only when it differs."""
    time_bank_seconds: int = 0
    """Seconds each seat may spend, over the whole game, once its turn's clock ran
    out and before it times out; 0: no bank. Only with a clock (`turn_seconds`)."""
    # The caps on a game's length (docs/rules.md "Caps"), in every variant. None: no
    # cap, as in games stored before the caps; a new game is given its variant's
    # default (`from_dict` with `players`).
    max_hands: int | None = None
    """The most hands dealt in the game; reaching it unsettled aborts the game."""
    max_events: int | None = None
    """The most events the game holds (its creation counted) before it is aborted at
    the next turn or deal."""

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            check_type(field.name, getattr(self, field.name), field.type)
        check_variant(self)
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
        for name in CAP_DEFAULTS:
            value = getattr(self, name)
            if value is not None and value < 1:
                raise InvalidRules(f"{name} must be at least 1, not {value}.")
        check_clock(self)
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

    @property
    def most_players(self) -> int:
        """The seat count past which a game is no game (422 `invalid_seating`): six, as
        ever, or a variant's own most if it seats more (500 Rum's eight). Fewer than
        that but more than the variant seats is `invalid_rules` (`check_players`)."""
        return max(MAX_PLAYERS, VARIANTS[self.variant].players[1])

    @property
    def spread_pile(self) -> bool:
        """The discard pile is spread: a draw from it may take several cards."""
        return VARIANTS[self.variant].spread_pile

    @property
    def features(self) -> Features:
        """The variant's Western features (`Features`; an Indian game has the
        defaults)."""
        return FEATURES[self.variant]

    def check_seat_count(self, players: int) -> None:
        """Refuse a seat count past any game's (422 `invalid_seating`), naming what
        this variant seats, so a gin game of seven does not read as six allowed."""
        if not MIN_PLAYERS <= players <= self.most_players:
            low, high = VARIANTS[self.variant].players
            seats = f"{low}" if low == high else f"{low} to {high}"
            raise InvalidSeating(
                f"A game seats {MIN_PLAYERS} to {self.most_players} players, not {players} "
                f"(rule 'variant': {self.variant.value} seats {seats})."
            )

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
        if self.variant is Variant.RUMMY500:
            _check_rummy500_seats(self, players)

    def hand_size_for(self, players: int) -> int:
        """Cards dealt to each of `players`; fails if that would leave no stock."""
        self.check_seat_count(players)
        size = self.hand_size if self.hand_size is not None else default_hand_size(players)
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

    def check_caps(self) -> None:
        """Refuse a value over its variant's cap, or under a cap's floor (422
        `invalid_rules` naming the option): `target`, `deals`, `max_turns`, `max_hands`
        and `max_events` (docs/rules.md "Caps"). A check at creation, not when the rules
        are built: a game stored before the caps, or with a larger value, still loads
        and plays as it was made."""
        preset = VARIANTS[self.variant]
        variant = self.variant.value
        for name, (low, high) in preset.caps.items():
            value = getattr(self, name)
            if value is not None and not low <= value <= high:
                raise InvalidRules(
                    f"Rule {name!r} is {low} to {high} in variant {variant!r}, not {value}."
                )

    def to_dict(self) -> dict[str, Any]:
        """The rule set as plain JSON-ready data, every option of its variant named.

        A classic rule set gives exactly the options it had before variants, and the
        caps if it has them (a game stored before them keeps its form); `shown` adds
        what views show besides.
        """
        used = VARIANTS[self.variant].used
        shown = {
            field.name: plain_value(getattr(self, field.name))
            for field in dataclasses.fields(self)
            if field.name in used
        }
        if self.variant is Variant.INDIAN and self.deals is None:
            del shown["deals"]  # an option of format `deals` only
        for name in LEAVING_OPTIONS:
            # Left at its default, a leaving option is not stored: games that do not
            # use them store their rules as before.
            if getattr(self, name) == LEAVING_DEFAULTS[name]:
                del shown[name]
        for name in CAP_DEFAULTS:
            # Games made before the caps have none, and keep their stored form.
            if getattr(self, name) is None:
                del shown[name]
        return shown

    def shown(self) -> dict[str, Any]:
        """The rule set as views show it: `to_dict` with the variant and its pack."""
        shown = self.to_dict()
        for name in ("variant", "packs", "jokers", *LEAVING_OPTIONS):
            shown.setdefault(name, plain_value(getattr(self, name)))
        return shown

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], players: int | None = None) -> RuleSet:
        """Build from plain data; missing options take their variant's defaults.

        A game that sets `deals` and no `target` has no target, as docs/rules.md says.
        Indian Rummy's defaults depend on the table: `players` (when creating a game)
        gives two seats one pack, and the format sets the drops and the deals.

        `players` also marks a new game: `max_hands` and `max_events` left out take
        their defaults (`CAP_DEFAULTS`). Read back from a stored game (no `players`),
        a cap the data lacks stays None: games stored before the caps have none.
        """
        if not isinstance(data, Mapping):
            raise InvalidRules("rules must be an object of option names to values.")
        known = {field.name: field for field in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise InvalidRules(
                f"Unknown rule {unknown[0]!r}: the rules are {', '.join(sorted(known))}."
            )
        variant = coerce("variant", data.get("variant", Variant.CLASSIC.value), "Variant")
        assert isinstance(variant, Variant)
        preset = VARIANTS[variant]
        values: dict[str, Any] = dict(preset.defaults)
        for name, value in data.items():
            if name not in preset.accepted:
                raise InvalidRules(
                    f"Rule {name!r} is not an option of variant {variant.value!r}: leave it out."
                )
            try:
                values[name] = coerce(name, value, known[name].type)
            except InvalidRules as invalid:
                if variant is Variant.CLASSIC:
                    raise
                raise InvalidRules(f"{invalid.message} (variant {variant.value!r})") from None
        if data.get("deals") is not None and "target" not in data and "target" in preset.accepted:
            values["target"] = None
        if variant is Variant.INDIAN:
            _indian_defaults(values, data, players)
        if variant is Variant.GIN and values.get("oklahoma") and "knock_limit" not in data:
            values["knock_limit"] = None  # Oklahoma: the upcard sets the limit
        if variant is Variant.RUMMY500 and players is not None:
            _rummy500_defaults(values, data, players)
        if players is not None:
            for name, default in CAP_DEFAULTS.items():
                if values.get(name) is None:
                    values[name] = default
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


def rummy500_table(players: int) -> tuple[int, int]:
    """500 Rum's `packs` and `hand_size` for `players` seats (docs/rules.md "500
    Rum"): one pack for 2-4 seats and two for 5-8; 13 cards each for two, else 7."""
    return (1 if players <= 4 else 2), (13 if players == 2 else 7)


def _rummy500_defaults(values: dict[str, Any], data: Mapping[str, Any], players: int) -> None:
    """500 Rum's options that follow the seats, where the request leaves them out."""
    packs, hand_size = rummy500_table(players)
    if data.get("packs") is None:
        values["packs"] = packs
    if data.get("hand_size") is None:
        values["hand_size"] = hand_size


def _check_rummy500_seats(rules: RuleSet, players: int) -> None:
    """500 Rum's pack and hand are fixed by the seats: refuse any other."""
    packs, hand_size = rummy500_table(players)
    if rules.packs != packs:
        raise InvalidRules(
            f"Rule 'packs' is {packs} for {players} players in variant 'rummy500', "
            f"not {rules.packs}."
        )
    if rules.hand_size != hand_size:
        raise InvalidRules(
            f"Rule 'hand_size' is {hand_size} for {players} players in variant 'rummy500', "
            f"not {rules.hand_size}."
        )


CLASSIC = RuleSet()
