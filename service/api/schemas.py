"""Request and response bodies of the HTTP contract (docs/api.md), as msgspec structs:
the games', the lobby's, the stream tickets' and the health check's (the webhooks'
admin routes have theirs in webhook_schemas.py).

Card codes are an enum of the 52 codes of docs/rules.md and the joker `JK`, so the
OpenAPI document lists them and a bad code is refused by name before any rule runs.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Any

import msgspec
from msgspec import UNSET, Meta, UnsetType

from service.api import printable
from service.api.player_schemas import PlayerAssertion, Rated
from service.config import MAX_DECKS, MAX_RECYCLES
from service.domain.cards import ALL_CARDS, RANKS, card_code_problem, rank_code_problem
from service.domain.presets import (
    MIN_PLAYERS,
    MOST_PLAYERS,
    NULL_IS_A_VALUE,
    TIME_BANK_SECONDS,
    TIMEOUTS_BEFORE_TAKEOVER,
    TURN_SECONDS,
    VARIANTS,
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
from service.domain.state import ABORT_REASON_LENGTH, Source

CardCode = StrEnum(  # type: ignore[misc]
    "CardCode", {card.code: card.code for card in ALL_CARDS}, module=__name__
)
"""One of the 52 card codes, rank (A 2-10 J Q K) then suit (C D H S), or `JK`, the
printed joker (only in packs that hold jokers: elsewhere nobody holds it)."""

RankCode = StrEnum(  # type: ignore[misc]
    "RankCode", {rank.code: rank.code for rank in RANKS}, module=__name__
)
"""A rank: A 2-10 J Q K."""

BotName = StrEnum(  # type: ignore[misc]
    "BotName", {level.value: level.value for level in BotLevel}, module=__name__
)
"""A computer player's level: the domain's `BotLevel`, as bot seats (`players[].bot`)
and the rule `takeover_bot` name it (the document has called it `BotName` since the
first bot), described as the domain describes it."""
BotName.__doc__ = BotLevel.__doc__


def bot_name_problem(text: object) -> str:
    """Why `text` is no bot level, naming the levels (docs/bots.md "Levels")."""
    levels = ", ".join(level.value for level in BotLevel)
    return f"{text!r} is no bot level: a bot is one of {levels} (weakest first)."


CODE_PROBLEMS: dict[type, Callable[[object], str]] = {
    CardCode: card_code_problem,
    RankCode: rank_code_problem,
    BotName: bot_name_problem,
}
"""Each enumeration of codes and the function that says, with their format, why a
text is none of them (a body's 422 names it: bodies.py)."""


Name = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=printable.NAME_MAX_LENGTH,
        pattern=printable.NAME_PATTERN,
        description=printable.NAME_RULE,
        examples=["Ann"],
    ),
]
ClientSeed = Annotated[
    str,
    Meta(
        max_length=printable.CLIENT_SEED_MAX_LENGTH,
        pattern=printable.CLIENT_SEED_PATTERN,
        description=printable.CLIENT_SEED_RULE,
        examples=["my-own-entropy-7f3a"],
    ),
]


def _pack_sizes(end: int) -> list[int]:
    """The smallest (`end` 0) or largest (1) pack of each variant: `packs` times 52
    and the jokers, each at its fixed value or that end of its range."""

    def option(preset: Any, name: str) -> int:
        fixed = preset.fixed.get(name, 0)
        return int(preset.ranges.get(name, (fixed, fixed))[end])

    return [option(preset, "packs") * 52 + option(preset, "jokers") for preset in VARIANTS.values()]


SMALLEST_PACK = min(_pack_sizes(0))
LARGEST_PACK = max(_pack_sizes(1))
"""The fewest and most cards a game's whole pack holds (`RuleSet.deck_size`)."""

Deck = Annotated[
    list[CardCode],
    Meta(
        min_length=SMALLEST_PACK,
        max_length=LARGEST_PACK,
        description=(
            "A whole pack in deal order, index 0 dealt first: each card of the game's pack "
            "as often as the pack holds it (`rules.packs` times the 52 cards and "
            "`rules.jokers` times `JK`; the classic game: each of the 52 once), else 422 "
            "`invalid_deck`."
        ),
    ),
]


def _span(name: str) -> tuple[int, int]:
    """The least and most a whole-number option may be in any variant (its range, or
    its cap on a new game)."""
    values: list[int] = []
    for preset in VARIANTS.values():
        if name in preset.ranges:
            values.extend(preset.ranges[name])
        elif name in preset.caps:
            values.extend(preset.caps[name])
        elif name in preset.fixed:
            values.append(preset.fixed[name])
    return min(values), max(values)


_PACKS = _span("packs")
_JOKERS = _span("jokers")
_MIN_NATURAL = _span("min_natural")
_WILD_PENALTY = _span("wild_penalty")
_ACE_VALUE = _span("ace_value")
_KNOCK_PENALTY = _span("knock_penalty")
_KNOCK_BONUS = _span("knock_bonus")
_FIRST_DROP = _span("first_drop")
_MIDDLE_DROP = _span("middle_drop")
_FULL_COUNT = _span("full_count")
_KNOCK_LIMIT = _span("knock_limit")
_GIN_BONUS = _span("gin_bonus")
_BIG_GIN_BONUS = _span("big_gin_bonus")
_UNDERCUT_BONUS = _span("undercut_bonus")
_GAME_BONUS = _span("game_bonus")
_BOX_BONUS = _span("box_bonus")
_TARGET = _span("target")
_DEALS = _span("deals")
_MAX_TURNS = _span("max_turns")
_MAX_HANDS = _span("max_hands")
_MAX_EVENTS = _span("max_events")


class Rules(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """House rules by their docs/rules.md names; anything left out (or null) takes its
    variant's default. The decoder knows every option of every variant; which ones a
    variant has, fixes or bounds is `VARIANTS`' (the document's `oneOf` says it, and
    the service refuses the rest as 422 `invalid_rules`)."""

    aces: Aces | UnsetType | None = UNSET
    hand_size: Annotated[int, Meta(ge=1, le=25)] | UnsetType | None = UNSET
    melds_per_turn: MeldsPerTurn | UnsetType | None = UNSET
    lay_off: LayOffRule | UnsetType | None = UNSET
    going_out: GoingOut | UnsetType | None = UNSET
    rummy_bonus: RummyBonus | UnsetType | None = UNSET
    recycles: Annotated[int, Meta(ge=0, le=MAX_RECYCLES)] | UnsetType | None = UNSET
    recycle_shuffle: bool | UnsetType | None = UNSET
    exhausted: Exhausted | UnsetType | None = UNSET
    max_turns: Annotated[int, Meta(ge=_MAX_TURNS[0], le=_MAX_TURNS[1])] | UnsetType | None = UNSET
    scoring: Scoring | UnsetType | None = UNSET
    target: Annotated[int, Meta(ge=_TARGET[0], le=_TARGET[1])] | UnsetType | None = UNSET
    deals: Annotated[int, Meta(ge=_DEALS[0], le=_DEALS[1])] | UnsetType | None = UNSET
    variant: Variant | UnsetType | None = UNSET
    packs: Annotated[int, Meta(ge=_PACKS[0], le=_PACKS[1])] | UnsetType | None = UNSET
    jokers: Annotated[int, Meta(ge=_JOKERS[0], le=_JOKERS[1])] | UnsetType | None = UNSET
    wild_rank: RankCode | UnsetType | None = UNSET
    min_natural: Annotated[int, Meta(ge=_MIN_NATURAL[0], le=_MIN_NATURAL[1])] | UnsetType | None = (
        UNSET
    )
    swap: bool | UnsetType | None = UNSET
    swapped_wild: SwappedWild | UnsetType | None = UNSET
    wild_penalty: (
        Annotated[int, Meta(ge=_WILD_PENALTY[0], le=_WILD_PENALTY[1])] | UnsetType | None
    ) = UNSET
    ace_value: Annotated[int, Meta(ge=_ACE_VALUE[0], le=_ACE_VALUE[1])] | UnsetType | None = UNSET
    knock_penalty: (
        Annotated[int, Meta(ge=_KNOCK_PENALTY[0], le=_KNOCK_PENALTY[1])] | UnsetType | None
    ) = UNSET
    knock_bonus: Annotated[int, Meta(ge=_KNOCK_BONUS[0], le=_KNOCK_BONUS[1])] | UnsetType | None = (
        UNSET
    )
    format: Format | UnsetType | None = UNSET
    first_drop: Annotated[int, Meta(ge=_FIRST_DROP[0], le=_FIRST_DROP[1])] | UnsetType | None = (
        UNSET
    )
    middle_drop: Annotated[int, Meta(ge=_MIDDLE_DROP[0], le=_MIDDLE_DROP[1])] | UnsetType | None = (
        UNSET
    )
    full_count: Annotated[int, Meta(ge=_FULL_COUNT[0], le=_FULL_COUNT[1])] | UnsetType | None = (
        UNSET
    )
    # Gin Rummy's options (docs/rules.md "Gin Rummy").
    knock_limit: Annotated[int, Meta(ge=_KNOCK_LIMIT[0], le=_KNOCK_LIMIT[1])] | UnsetType | None = (
        UNSET
    )
    gin_bonus: Annotated[int, Meta(ge=_GIN_BONUS[0], le=_GIN_BONUS[1])] | UnsetType | None = UNSET
    big_gin_bonus: (
        Annotated[
            int,
            Meta(
                ge=_BIG_GIN_BONUS[0],
                le=_BIG_GIN_BONUS[1],
                description="Gin: null (given) turns big gin off; left out, the default.",
            ),
        ]
        | UnsetType
        | None
    ) = UNSET
    undercut_bonus: (
        Annotated[int, Meta(ge=_UNDERCUT_BONUS[0], le=_UNDERCUT_BONUS[1])] | UnsetType | None
    ) = UNSET
    oklahoma: bool | UnsetType | None = UNSET
    game_bonus: Annotated[int, Meta(ge=_GAME_BONUS[0], le=_GAME_BONUS[1])] | UnsetType | None = (
        UNSET
    )
    box_bonus: Annotated[int, Meta(ge=_BOX_BONUS[0], le=_BOX_BONUS[1])] | UnsetType | None = UNSET
    shutout: bool | UnsetType | None = UNSET
    turn_seconds: (
        Annotated[int, Meta(ge=TURN_SECONDS[0], le=TURN_SECONDS[1])] | UnsetType | None
    ) = UNSET
    timeouts_before_takeover: (
        Annotated[int, Meta(ge=TIMEOUTS_BEFORE_TAKEOVER[0], le=TIMEOUTS_BEFORE_TAKEOVER[1])]
        | UnsetType
        | None
    ) = UNSET
    abandon: Abandon | UnsetType | None = UNSET
    takeover_bot: BotName | UnsetType | None = UNSET
    time_bank_seconds: (
        Annotated[
            int,
            Meta(
                ge=TIME_BANK_SECONDS[0],
                le=TIME_BANK_SECONDS[1],
                description=(
                    "Seconds each seat may spend over the whole game once its turn's "
                    "clock ran out, before it times out; never refilled. 0 (the default): "
                    "no bank. Only with `turn_seconds` (else 422 `invalid_rules`)."
                ),
            ),
        ]
        | UnsetType
        | None
    ) = UNSET
    max_hands: Annotated[int, Meta(ge=_MAX_HANDS[0], le=_MAX_HANDS[1])] | UnsetType | None = UNSET
    max_events: Annotated[int, Meta(ge=_MAX_EVENTS[0], le=_MAX_EVENTS[1])] | UnsetType | None = (
        UNSET
    )

    def given(self) -> dict[str, Any]:
        """The options given a value (null is the same as left out); a rank as its code."""
        given = {
            name: value.value if isinstance(value, RankCode) else value
            for name in self.__struct_fields__
            if (value := getattr(self, name)) is not None and value is not UNSET
        }
        # A few options' null is a value (`big_gin_bonus`: no big gin), not "left out".
        for name in NULL_IS_A_VALUE:
            if getattr(self, name) is None:
                given[name] = None
        return given

    def named(self) -> list[str]:
        """Every option the body names, null ones included: a variant's unused option
        may not appear at all."""
        return [name for name in self.__struct_fields__ if getattr(self, name) is not UNSET]

    def normalized(self) -> Rules:
        """The same rules with every null left out: a field left out and a field given
        as null mean the same, so they make the same request (`Idempotency-Key`)."""
        return msgspec.structs.replace(
            self,
            **{
                name: UNSET
                for name in self.__struct_fields__
                if getattr(self, name) is None and name not in NULL_IS_A_VALUE
            },
        )


class NewPlayer(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: Name
    client_seed: ClientSeed | None = None
    bot: BotName | None = None
    player_assertion: PlayerAssertion | None = None


class CreateGame(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Name the players, or give a number of open seats, or both (the named
    players take the first seats)."""

    players: Annotated[list[NewPlayer], Meta(max_length=MOST_PLAYERS)] | None = None
    seats: Annotated[int, Meta(ge=MIN_PLAYERS, le=MOST_PLAYERS)] | None = None
    rules: Rules | None = None
    seed: Annotated[str, Meta(min_length=1, max_length=256)] | None = None
    decks: Annotated[list[Deck], Meta(max_length=MAX_DECKS)] | None = None
    dealer: Annotated[int, Meta(ge=0, le=MOST_PLAYERS - 1)] | None = None
    unlisted: (
        Annotated[
            bool,
            Meta(
                description=(
                    "`true`: keep the game out of the lobby (`GET /lobby`); its open seats "
                    "are joined by its id alone, e.g. from a link its creator shares. "
                    "Left out (or `false`, or null): listed while a seat is open."
                )
            ),
        ]
        | None
    ) = None
    rated: Rated | None = None


class JoinGame(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: Name
    client_seed: ClientSeed | None = None
    player_assertion: PlayerAssertion | None = None


class DrawAction(
    msgspec.Struct, kw_only=True, tag_field="type", tag="draw", forbid_unknown_fields=True
):
    source: Source
    count: (
        Annotated[
            int,
            Meta(
                ge=1,
                description=(
                    "500 Rum (`rummy500`): how many cards to take from the top of the spread "
                    "discard pile; the deepest is the called card, which must be melded or laid "
                    "off this turn. Any other count than 1 elsewhere, or from the stock, is 409 "
                    "`not_in_variant`. Left out: 1."
                ),
            ),
        ]
        | UnsetType
    ) = UNSET
    """No `default` in the document: generators that make a defaulted property
    required (openapi-typescript) would then ask every draw for a count."""


MeldCards = Annotated[list[CardCode], Meta(min_length=1, max_length=13)]
MeldId = Annotated[str, Meta(min_length=1, max_length=64)]


class MeldAction(
    msgspec.Struct,
    kw_only=True,
    tag_field="type",
    tag="meld",
    forbid_unknown_fields=True,
    rename={"as_": "as"},
):
    cards: MeldCards
    as_: MeldCards | UnsetType = UNSET
    """Games with wild cards: what each card stands for, parallel to `cards` (a
    natural card names itself; another length is 422). Left out, the server reads
    the meld, or answers 409 `wild_ambiguous` when several readings remain."""


class LayOffAction(
    msgspec.Struct,
    kw_only=True,
    tag_field="type",
    tag="lay_off",
    forbid_unknown_fields=True,
    rename={"as_": "as"},
):
    card: CardCode
    meld_id: MeldId
    as_: CardCode | UnsetType = UNSET
    """Games with wild cards: what a wild `card` stands for in the meld."""


class SwapAction(
    msgspec.Struct, kw_only=True, tag_field="type", tag="swap", forbid_unknown_fields=True
):
    """Games with `swap`: put `card`, the natural card one of the meld's wilds stands
    for, into meld `meld_id`, and take that wild into hand (in the `play` phase)."""

    meld_id: MeldId
    card: CardCode


KnockMelds = Annotated[list[MeldCards], Meta(max_length=4)]
"""Gin: the knocker's melds, each a list of card codes."""


class KnockAction(
    msgspec.Struct, kw_only=True, tag_field="type", tag="knock", forbid_unknown_fields=True
):
    """Knock Rummy and Gin: end the hand, discarding `card` face down (in the `play`
    phase). Gin only: leave `card` out for big gin (all eleven cards in melds), and
    give `melds`, your arrangement of the other cards, or leave it out for the
    server's least-deadwood one. Knock Rummy: `card` only (else 409 `not_in_variant`)."""

    card: CardCode | UnsetType = UNSET
    melds: KnockMelds | UnsetType = UNSET


class PassAction(
    msgspec.Struct, kw_only=True, tag_field="type", tag="pass", forbid_unknown_fields=True
):
    """Gin, in the `upcard_offer` phase: leave the upcard (the non-dealer, then the
    dealer; after both, the non-dealer draws from the stock)."""


class DiscardAction(
    msgspec.Struct, kw_only=True, tag_field="type", tag="discard", forbid_unknown_fields=True
):
    card: CardCode


GroupCards = Annotated[list[CardCode], Meta(max_length=14)]
Groups = Annotated[list[GroupCards], Meta(max_length=14)]


class DeclareAction(
    msgspec.Struct, kw_only=True, tag_field="type", tag="declare", forbid_unknown_fields=True
):
    """Indian: after drawing, put the finish `card` out of play and show the other 13
    cards in `groups` (exactly those 13, else 409 `incomplete_declaration`). The
    server judges the groups: a wrong declaration is a result, not an error."""

    card: CardCode
    groups: Groups


class SubmitGroupsAction(
    msgspec.Struct,
    kw_only=True,
    tag_field="type",
    tag="submit_groups",
    forbid_unknown_fields=True,
):
    """Indian, in the `show` phase: show your hand in `groups`, once (cards in no
    group are ungrouped; `[]` shows none)."""

    groups: Groups


class DropAction(
    msgspec.Struct, kw_only=True, tag_field="type", tag="drop", forbid_unknown_fields=True
):
    """Indian: leave the deal on your turn before drawing, for `legal.drop_points`."""


Action = (
    DrawAction
    | MeldAction
    | LayOffAction
    | DiscardAction
    | SwapAction
    | KnockAction
    | DeclareAction
    | SubmitGroupsAction
    | DropAction
    | PassAction
)
ActionBody = Action | Annotated[list[Action], Meta(min_length=1, max_length=64)]


class Leave(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Leave the game for good: `resign: true` concedes it (a forfeit); a plain leave
    follows the game's rule `abandon` (docs/rules.md "Leaving and turn clocks")."""

    resign: bool = False


class Abort(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Why the admin ends the game void: shown to everyone in `game_aborted`."""

    reason: Annotated[str, Meta(min_length=1, max_length=ABORT_REASON_LENGTH)]
