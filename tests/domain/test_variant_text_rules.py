"""The rules text, section "Variants" / "Rule set", read sentence by sentence.

The table below is copied by hand from the rules text (one row per option,
one column per variant), not read back from `service.domain.presets.VARIANTS`:
the tests hold the presets to the text.
"""

from __future__ import annotations

from typing import Any

import pytest

from service.domain.cards import JOKER, Card, pack, sorted_cards
from service.domain.errors import InvalidDeck, InvalidRules, InvalidSeating
from service.domain.rule_values import Aces, RummyBonus, Variant
from service.domain.rules import RuleSet
from service.domain.setup import check_new_game

VARIANTS = ("wild", "boathouse", "knock", "wrotham")
UNUSED = "-"

# option: (wild, boathouse, knock, wrotham); each cell is UNUSED, or
# ("fixed", value), or ("any", default) or ("range", low, high, default).
TABLE: dict[str, tuple[Any, ...]] = {
    "packs": (("fixed", 1),) * 4,
    "jokers": (("range", 0, 2, 2), ("fixed", 0), ("fixed", 0), ("fixed", 3)),
    "wild_rank": (("any", None), UNUSED, UNUSED, UNUSED),
    "min_natural": (("range", 1, 3, 2), UNUSED, UNUSED, ("range", 1, 3, 2)),
    "swap": (("any", True), UNUSED, UNUSED, ("any", True)),
    "swapped_wild": (("any", "free"), UNUSED, UNUSED, ("any", "free")),
    "wild_penalty": (("range", 0, 50, 15), UNUSED, UNUSED, ("range", 0, 50, 15)),
    "ace_value": (
        ("range", 1, 15, None),
        ("fixed", 11),
        ("range", 1, 15, None),
        ("range", 1, 15, None),
    ),
    "aces": (("any", "low"), ("fixed", "high_or_low"), ("any", "low"), ("any", "low")),
    "hand_size": (("any", None), ("any", 10), ("any", None), ("fixed", 7)),
    "melds_per_turn": (("any", "unlimited"), UNUSED, UNUSED, ("any", "unlimited")),
    "lay_off": (("any", "anytime"), UNUSED, UNUSED, ("any", "anytime")),
    "going_out": (("any", "any"), ("any", "any"), UNUSED, ("any", "any")),
    "rummy_bonus": (("any", "double"), ("fixed", "none"), UNUSED, ("any", "double")),
    "scoring": (("any", "winner"), ("any", "winner"), UNUSED, ("any", "winner")),
    "target": (("any", 100), ("any", 100), ("any", 100), UNUSED),
    "deals": (("any", None), ("any", None), ("any", None), ("fixed", 6)),
    "exhausted": (("any", "void"),) * 4,
    "recycles": (("any", 1),) * 4,
    "recycle_shuffle": (("any", True),) * 4,
    "max_turns": (("any", 500),) * 4,
    "knock_penalty": (UNUSED, UNUSED, ("range", 0, 50, 10), UNUSED),
    "knock_bonus": (UNUSED, UNUSED, ("range", 0, 100, 25), UNUSED),
}
PLAYERS = {"wild": (2, 6), "boathouse": (2, 2), "knock": (2, 6), "wrotham": (2, 6)}


def cells(kind: str | None = None) -> list[Any]:
    """The table's cells as test cases: all, or those fixed, ranged or unused."""
    return [
        pytest.param(option, variant, row[column], id=f"{variant}-{option}")
        for option, row in TABLE.items()
        for column, variant in enumerate(VARIANTS)
        if kind is None or (row[column] == UNUSED if kind == UNUSED else row[column][0] == kind)
    ]


def shown(rules: RuleSet, option: str) -> object:
    return rules.shown().get(option, UNUSED)


def test_classic_is_the_default_and_block_rummy_is_classic_with_no_recycles() -> None:
    # "Rule `variant`: `classic` (default) ... Block Rummy is the classic game with
    # `recycles: 0`."
    assert RuleSet.from_dict({}).variant is Variant.CLASSIC
    assert RuleSet.from_dict({"variant": "classic"}) == RuleSet()
    block = RuleSet.from_dict({"recycles": 0})
    assert block.variant is Variant.CLASSIC
    assert block.recycles == 0


@pytest.mark.parametrize(("option", "variant", "cell"), cells())
def test_an_omitted_option_takes_the_variant_s_default(
    option: str, variant: str, cell: Any
) -> None:
    # "omitted options take *its* defaults"; an option marked - is not shown.
    rules = RuleSet.from_dict({"variant": variant})
    if cell == UNUSED:
        assert option not in rules.to_dict()
        return
    expected = cell[1] if cell[0] in ("fixed", "any") else cell[3]
    assert shown(rules, option) == expected


@pytest.mark.parametrize(("option", "variant", "cell"), cells("fixed"))
def test_a_fixed_option_may_be_given_its_value_and_no_other(
    option: str, variant: str, cell: Any
) -> None:
    # "a fixed option may be omitted or given its value; any other value ... is 422
    # `invalid_rules` whose detail names the option".
    base = {"variant": variant}
    if variant == "wild" and option == "jokers":
        base["wild_rank"] = "2"
    assert shown(RuleSet.from_dict({**base, option: cell[1]}), option) == cell[1]
    other = _another_value(option, cell[1])
    with pytest.raises(InvalidRules, match=f"'{option}'"):
        RuleSet.from_dict({**base, option: other})


@pytest.mark.parametrize(("option", "variant", "cell"), cells(UNUSED))
def test_an_option_marked_unused_is_refused_naming_it(option: str, variant: str, cell: Any) -> None:
    # "any option marked -" is 422 `invalid_rules` naming the option.
    value = TABLE[option][next(i for i, c in enumerate(TABLE[option]) if c != UNUSED)]
    given = value[1] if value[0] in ("fixed", "any") else value[3]
    with pytest.raises(InvalidRules, match=f"'{option}'.*{variant}"):
        RuleSet.from_dict({"variant": variant, option: given if given is not None else 1})


@pytest.mark.parametrize(("option", "variant", "cell"), cells("range"))
def test_a_range_holds_its_ends_and_refuses_beyond_them(
    option: str, variant: str, cell: Any
) -> None:
    # "a value out of range" is 422 `invalid_rules` naming the option.
    _, low, high, _ = cell
    base: dict[str, Any] = {"variant": variant}
    if variant == "wild":
        base["wild_rank"] = "2"  # so that jokers: 0 is still a game with wilds
    for value in (low, high):
        assert getattr(RuleSet.from_dict({**base, option: value}), option) == value
    for value in (low - 1, high + 1):
        with pytest.raises(InvalidRules, match=f"'{option}'.*{variant}"):
            RuleSet.from_dict({**base, option: value})


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_player_count_the_variant_does_not_allow_is_invalid_rules(variant: str) -> None:
    rules = RuleSet.from_dict({"variant": variant})
    low, high = PLAYERS[variant]
    for players in range(2, 7):
        if low <= players <= high:
            check_new_game(rules, players)
        else:
            with pytest.raises(InvalidRules, match="variant"):
                check_new_game(rules, players)
    with pytest.raises(InvalidSeating):  # never a table of one, in any variant
        check_new_game(rules, 1)


def test_ace_value_null_is_classic_s_one_under_low_aces_else_fifteen() -> None:
    # "`ace_value` 1-15; null is classic's (1 under `aces: low`, else 15)."
    assert RuleSet.from_dict({"variant": "knock"}).ace_points == 1
    assert RuleSet.from_dict({"variant": "knock", "aces": "high_or_low"}).ace_points == 15
    assert RuleSet.from_dict({"variant": "knock", "ace_value": 7}).ace_points == 7
    assert RuleSet.from_dict({"variant": "boathouse"}).ace_points == 11


def test_classic_shows_one_pack_and_no_jokers_and_stores_as_before() -> None:
    # "Classic shows `packs: 1`, `jokers: 0`, the rest -."
    classic = RuleSet()
    assert classic.shown()["packs"] == 1
    assert classic.shown()["jokers"] == 0
    assert classic.shown()["variant"] == "classic"
    for option in ("wild_rank", "min_natural", "swap", "knock_penalty", "ace_value"):
        assert option not in classic.shown()
        with pytest.raises(InvalidRules, match=f"'{option}'"):
            RuleSet.from_dict({option: 1})
    # Stored classic rules keep the thirteen options they always had.
    assert set(classic.to_dict()) == {
        "aces", "hand_size", "melds_per_turn", "lay_off", "going_out", "rummy_bonus",
        "recycles", "recycle_shuffle", "exhausted", "max_turns", "scoring", "target", "deals",
    }  # fmt: skip


def test_wild_needs_a_joker_or_a_wild_rank() -> None:
    with pytest.raises(InvalidRules, match="jokers"):
        RuleSet.from_dict({"variant": "wild", "jokers": 0})
    assert RuleSet.from_dict({"variant": "wild", "jokers": 0, "wild_rank": "2"}).has_wilds
    assert RuleSet.from_dict({"variant": "wild", "jokers": 1}).has_wilds


def test_a_wild_rank_is_a_rank() -> None:
    assert RuleSet.from_dict({"variant": "wild", "wild_rank": "10"}).wild_rank == "10"
    for bad in ("1", "JK", "2H", "ten"):
        with pytest.raises(InvalidRules, match="wild_rank"):
            RuleSet.from_dict({"variant": "wild", "wild_rank": bad})


def test_every_problem_inside_rules_names_the_option() -> None:
    # "(decided: every problem inside `rules` has this one code ...)"
    for bad, option in (
        ({"variant": "wild", "swapped_wild": "later"}, "swapped_wild"),
        ({"variant": "wild", "swap": "yes"}, "swap"),
        ({"variant": "knock", "knock_bonus": 1.5}, "knock_bonus"),
        ({"variant": "indian-ish"}, "variant"),
    ):
        with pytest.raises(InvalidRules, match=f"'{option}'"):
            RuleSet.from_dict(bad)


def test_a_variant_s_pack_is_its_packs_of_52_then_its_jokers() -> None:
    # "Pack: `packs` x 52 + `jokers` x `JK`. Reference order: pack 1 in the 52-card
    # order, then pack 2, then the `JK`s."
    wrotham = RuleSet.from_dict({"variant": "wrotham"})
    assert len(wrotham.pack) == 55
    assert wrotham.pack[:52] == pack(1, 0)
    assert wrotham.pack[52:] == (JOKER, JOKER, JOKER)
    assert pack(2, 1)[52:104] == pack(1, 0)


def test_explicit_decks_must_be_permutations_of_the_pack_multiset() -> None:
    rules = RuleSet.from_dict({"variant": "wild"})  # 52 + 2 jokers
    whole = list(rules.pack)
    check_new_game(rules, 2, [list(reversed(whole))])
    with pytest.raises(InvalidDeck, match="54"):
        check_new_game(rules, 2, [whole[:-1]])
    three_jokers = [*whole[:-3], JOKER, JOKER, JOKER]  # 54 cards, one natural short
    with pytest.raises(InvalidDeck, match="JK 3 times"):
        check_new_game(rules, 2, [three_jokers])
    with pytest.raises(InvalidDeck):
        check_new_game(RuleSet(), 2, [[*pack(1, 0)[:-1], JOKER]])


def _another_value(option: str, value: object) -> object:
    others: dict[str, object] = {
        "packs": 2,
        "jokers": 1,
        "ace_value": 10,
        "aces": Aces.LOW.value,
        "hand_size": 8,
        "rummy_bonus": RummyBonus.DOUBLE.value,
        "deals": 3,
    }
    assert others[option] != value
    return others[option]


def test_the_joker_s_code_is_jk_and_it_sorts_last() -> None:
    # "Printed joker: `JK`." "Sort: rank A 2 ... K ..., then suit C D H S, `JK` last."
    assert Card.parse("JK") == JOKER
    assert str(JOKER) == "JK"
    assert sorted_cards([JOKER, Card.parse("KS"), Card.parse("AC")]) == [
        Card.parse("AC"),
        Card.parse("KS"),
        JOKER,
    ]
