"""The schema of a new game (`CreateGame` and its `Rules`) as the OpenAPI document states it.

`new_game_schema` finishes msgspec's schemas of the request types:

- the cross-field rules of a new game are described in words (how many seats the
  players and `seats` make, a person among them, the dealer among them, a hand
  size that leaves a stock for that many players): schemas that state them
  branch by seat count, which client generators cannot parse
  (openapi-python-client drops the operation), so the service checks them (422
  `invalid_seating`, `invalid_rules`, and `invalid_deck`: which pack a deck
  order must be depends on the rules);
- what needs no branches by seat count stays in the schema: each variant's
  options (`rules` is a `oneOf` on `variant` made from `VARIANTS`, so it and the
  service agree by construction), a target or a number of deals but not both,
  no rules under which the game could never end;
- this deployment's caps (`Caps`: deck orders, `max_turns`, `recycles`, the hand
  of a game with wild cards) are the bounds of a new game, so a body valid
  against the document served is never refused for them, and each variant's
  caps on a game's length (`target`, `deals`, `max_turns`, `max_hands`,
  `max_events`: `Preset.caps`) are stated with what they mean.
"""

from __future__ import annotations

import copy
import json
from enum import StrEnum
from typing import Any

from service.api.caps import Caps
from service.api.docs.plain_schema import REF_TEMPLATE
from service.domain.presets import (
    CAP_DEFAULTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MOST_PLAYERS,
    NULL_IS_A_VALUE,
    VARIANTS,
    Preset,
)
from service.domain.rule_values import GoingOut, Variant
from service.domain.rules import DECK_SIZE, smallest_hand_to_go_out


def new_game_schema(components: dict[str, Any], caps: Caps) -> None:
    """Finish `CreateGame` and `Rules` among msgspec's `components`, in place: the
    rules that span fields, this deployment's caps, one `Rules` schema per variant."""
    _new_game_rules(components)
    _caps(components, caps)
    _variant_rules(components)
    _wild_hand_cap(components, caps)
    _turns_cap(components, caps)


def _new_game_rules(components: dict[str, Any]) -> None:
    """The rules of a new game that span fields, in JSON Schema."""
    new_game = components["CreateGame"]
    largest_hands = ", ".join(
        f"{(DECK_SIZE - 2) // seats} for {seats} seats"
        for seats in range(MIN_PLAYERS, MAX_PLAYERS + 1)
    )
    new_game["description"] = (
        "Name the players, or give a number of open seats, or both (the named players take "
        "the first seats). The service also checks these rules, which span fields (422 "
        "`invalid_seating`, or `invalid_rules` for the hand size):\n\n"
        f"- there are {MIN_PLAYERS} to {MOST_PLAYERS} seats (at most {MAX_PLAYERS} but in "
        "`rummy500`): `seats` if given (never fewer "
        "than the named players), else one per named player;\n"
        "- at least one seat is for a person: open, or named without `bot`;\n"
        "- `dealer` is one of the seats;\n"
        f"- `rules.hand_size` leaves a stock after the upcard: at most {largest_hands}.\n\n"
        'For example `{"players": [{"name": "Ann"}], "seats": 3}` seats Ann '
        'and leaves two seats open; `{"players": [{"name": "Ann"}]}` alone is '
        '422 (one seat); `{"seats": 4, "rules": {"hand_size": 13}}` is 422 (13 '
        "cards each leave no stock for 4 players)."
    )
    new_game["description"] += (
        "\n\nA variant seats its own number of players (`boathouse`: 2; `rummy500`: 2 to 8, "
        "with `packs` 1 for 2-4 seats and 2 for 5-8, and `hand_size` 13 for two seats, "
        "else 7; 422 "
        "`invalid_rules`), and each of `decks` is the whole pack of the game's rules "
        "(`packs` times the 52 cards, `jokers` times `JK`; 422 `invalid_deck`)."
    )


_TARGET_OR_DEALS = {
    "description": "`target` and `deals` are two ways to end a game: set one at most.",
    "required": ["target", "deals"],
    "properties": {"target": {"type": "integer"}, "deals": {"type": "integer"}},
}


def _variant_rules(components: dict[str, Any]) -> None:
    """`Rules` as one schema per variant (`oneOf`, told apart by `variant`), each
    made from the variant's preset (`VARIANTS`, the table of docs/rules.md) as the
    service checks it: its options only, fixed ones `const`, ranges as bounds,
    its defaults. Every option may be null (the same as left out)."""
    every = components.pop("Rules")
    branches = []
    for variant, preset in VARIANTS.items():
        name = f"{variant.value.capitalize()}Rules"
        components[name] = _variant_schema(every, variant, preset)
        branches.append({"$ref": REF_TEMPLATE.format(name=name)})
    components["Rules"] = {
        "title": "Rules",
        "description": (
            "House rules by their docs/rules.md names, for one variant (`variant`, "
            "`classic` when left out). Anything left out (or null) takes the variant's "
            "default; a variant's fixed options may be given only their value, and the "
            "options it does not have may not be given at all. Every problem here is 422 "
            "`invalid_rules`, naming the option."
        ),
        "oneOf": branches,
    }


def _variant_schema(every: dict[str, Any], variant: Variant, preset: Preset) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for option, schema in every["properties"].items():
        if option not in preset.accepted:
            continue
        if option == "variant":
            properties[option] = (
                {"anyOf": [{"const": variant.value}, {"type": "null"}]}
                if variant is Variant.CLASSIC
                else {"const": variant.value}
            )
        elif option in preset.fixed:
            value = _plain(preset.fixed[option])
            properties[option] = {
                "anyOf": [{"const": value}, {"type": "null"}],
                "description": f"Fixed at {json.dumps(value)} in this variant.",
            }
        elif option in preset.ranges or option in preset.caps:
            low, high = preset.ranges.get(option) or preset.caps[option]
            properties[option] = {
                "anyOf": [{"type": "integer", "minimum": low, "maximum": high}, {"type": "null"}]
            }
            if option in preset.caps:
                properties[option]["description"] = _CAP_TEXT[option]
            if option in NULL_IS_A_VALUE:
                properties[option]["description"] = _NULL_TEXT[option]
        else:
            properties[option] = copy.deepcopy(schema)
            if option in _RULE_TEXT:
                properties[option]["description"] = _RULE_TEXT[option]
        default = preset.defaults.get(option, CAP_DEFAULTS.get(option))
        follows = _FOLLOWS_SEATS.get(variant, {}).get(option)
        if follows is not None:
            # No one default: a client reading one would send it for every seat count.
            properties[option]["description"] = follows
        elif default is not None and option not in preset.fixed:
            properties[option]["default"] = _plain(default)
    branch: dict[str, Any] = {
        "title": f"{variant.value.capitalize()}Rules",
        "description": preset.summary,
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if variant is not Variant.CLASSIC:
        branch["required"] = ["variant"]
    never: list[dict[str, Any]] = []
    if "target" in properties and "deals" in properties and "deals" not in preset.fixed:
        never.append({"not": _TARGET_OR_DEALS})
    if "hand_size" not in preset.fixed and "exhausted" in properties:
        never.append({"not": _never_ending(smallest_hand_to_go_out(GoingOut.ANY))})
        if "going_out" in properties:
            smallest = smallest_hand_to_go_out(GoingOut.DISCARD)
            never.append({"not": _never_ending(smallest, GoingOut.DISCARD)})
    never.extend(_NEVER.get(variant, ()))
    if never:
        branch["allOf"] = never
    return branch


_WILD_NEVER: list[dict[str, Any]] = [
    {
        "not": {
            "description": "A wild game needs at least one joker or a wild rank.",
            "required": ["jokers"],
            "properties": {"jokers": {"const": 0}, "wild_rank": {"type": "null"}},
        }
    }
]

_INDIAN_NEVER: list[dict[str, Any]] = [
    {
        "not": {
            "description": "`deals` is an option of format `deals` only.",
            "required": ["deals"],
            "properties": {"deals": {"type": "integer"}},
            "not": {"required": ["format"], "properties": {"format": {"const": "deals"}}},
        }
    },
    {
        "not": {
            "description": "`jokers` is the number of packs.",
            "required": ["packs", "jokers"],
            "anyOf": [
                {"properties": {"packs": {"const": 1}, "jokers": {"const": 2}}},
                {"properties": {"packs": {"const": 2}, "jokers": {"const": 1}}},
            ],
        }
    },
]


_GIN_NEVER: list[dict[str, Any]] = [
    {
        "not": {
            "description": "With `oklahoma` the upcard sets the knock limit: no `knock_limit`.",
            "required": ["oklahoma", "knock_limit"],
            "properties": {"oklahoma": {"const": True}, "knock_limit": {"type": "integer"}},
        }
    }
]


_RUMMY500_NEVER: list[dict[str, Any]] = [
    {
        "not": {
            "description": "`hand_size` is 13 (two seats) or 7 (3-8 seats).",
            "required": ["hand_size"],
            "properties": {"hand_size": {"type": "integer", "not": {"enum": [7, 13]}}},
        }
    }
]

_FOLLOWS_SEATS: dict[Variant, dict[str, str]] = {
    Variant.RUMMY500: {
        "hand_size": "Follows the seats: 13 for two, else 7 (leave it out, or give that).",
        "packs": "Follows the seats: 1 for 2-4, 2 for 5-8 (leave it out, or give that).",
    },
}
"""Options whose only value is fixed by the seat count: described, with no default."""

_NEVER: dict[Variant, list[dict[str, Any]]] = {
    Variant.WILD: _WILD_NEVER,
    Variant.INDIAN: _INDIAN_NEVER,
    Variant.GIN: _GIN_NEVER,
    Variant.RUMMY500: _RUMMY500_NEVER,
}
"""The combinations of options a variant refuses that a schema can say (the rule set's
own checks say every one, `invalid_rules`); a variant without any has no entry."""


def _plain(value: object) -> object:
    return value.value if isinstance(value, StrEnum) else value


_NULL_TEXT: dict[str, str] = {
    "big_gin_bonus": (
        "What big gin adds; `null`, given, turns big gin off (the one option whose null is "
        "not the same as leaving it out)."
    ),
}
"""What a null means for the options whose null is a value (`NULL_IS_A_VALUE`)."""

_RULE_TEXT: dict[str, str] = {
    "takeover_bot": (
        "The level of the server's bot that plays on a seat whose player left or timed out "
        "(under `abandon: bot`), and the rest of a timed-out turn: `random`, `basic` (the "
        "default), `strong` or `expert`."
    ),
}
"""What an option means as a rule where its type is shared (`BotName`, whose own
description says what the levels are)."""

_CAP_TEXT: dict[str, str] = {
    "target": "Capped for a new game (a stored game with more still plays).",
    "deals": "Capped for a new game (a stored game with more still plays).",
    "max_turns": (
        "Turns in one hand: at the cap the hand ends as if the stock ran out. Capped for a "
        "new game."
    ),
    "max_hands": (
        "Hands dealt in the game: when the last of them ends without a winner, the game is "
        "aborted (`game_aborted`, `by` `cap`)."
    ),
    "max_events": (
        "Events the game may hold (its creation counted): once it holds this many, the "
        "game is aborted (`game_aborted`, `by` `cap`) before the next turn or deal, so the "
        "turn in play may add a few."
    ),
}
"""What each cap means, in every variant's schema (docs/rules.md "Caps")."""


def _caps(components: dict[str, Any], caps: Caps) -> None:
    """This deployment's caps, where the request types state the most any may allow."""
    decks = components["CreateGame"]["properties"]["decks"]["anyOf"][0]
    decks["maxItems"] = caps.decks
    rules = components["Rules"]["properties"]
    rules["max_turns"]["anyOf"][0]["maximum"] = caps.max_turns
    rules["recycles"]["anyOf"][0]["maximum"] = caps.recycles


def _turns_cap(components: dict[str, Any], caps: Caps) -> None:
    """This deployment's highest `max_turns`, where it is below a variant's own cap."""
    for variant in VARIANTS:
        properties = components[f"{variant.value.capitalize()}Rules"]["properties"]
        if "max_turns" in properties:
            bounds = properties["max_turns"]["anyOf"][0]
            bounds["maximum"] = min(bounds["maximum"], caps.max_turns)


def _wild_hand_cap(components: dict[str, Any], caps: Caps) -> None:
    """This deployment's largest hand in a game with wild cards (`Caps.wild_hand`)."""
    hand_size = components["WildRules"]["properties"]["hand_size"]["anyOf"][0]
    hand_size["maximum"] = min(hand_size["maximum"], caps.wild_hand)


def _never_ending(smallest: int, going_out: GoingOut | None = None) -> dict[str, Any]:
    """Rules under which nobody can go out with fewer than `smallest` cards dealt
    (under `going_out`, if given), and no hand scores otherwise: the game could
    never end (`RuleSet.check_can_end`)."""
    under = "" if going_out is None else f" under `going_out` {going_out.value}"
    never: dict[str, Any] = {
        "description": (
            f"A game that could never end: fewer than {smallest} cards dealt{under}, so "
            "nobody can go out, and `exhausted` void (the default), so no hand scores."
        ),
        "required": ["hand_size"],
        "properties": {
            "hand_size": {"type": "integer", "maximum": smallest - 1},
            "exhausted": {"enum": ["void", None]},
        },
    }
    if going_out is not None:
        never["required"].append("going_out")
        never["properties"]["going_out"] = {"const": going_out.value}
    return never
