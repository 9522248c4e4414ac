"""The caps on a game's length (docs/rules.md "Caps"): each variant's bounds on
`target`, `deals`, `max_turns`, `max_hands` and `max_events`, checked when a game is
created only (a stored game with more loads and plays as it was made), and the
abort at `max_hands` and `max_events` (`game_aborted`, `by: "cap"`), decided by the
flow where a request is never cut in two, the same on replay."""

from __future__ import annotations

from typing import Any

import pytest

from service.domain.actions import Action, Discard, Draw, Pass
from service.domain.changes import apply
from service.domain.decks import SeededDecks
from service.domain.errors import GameOver, InvalidRules
from service.domain.events import CardDiscarded, Event, GameAborted, HandDealt, HandEnded
from service.domain.flow import decide_join, next_event
from service.domain.leaving import decide_timeout, leave_problem
from service.domain.play import play, start
from service.domain.presets import CAP_DEFAULTS, VARIANTS
from service.domain.rule_values import Variant
from service.domain.rules import RuleSet
from service.domain.setup import check_new_game, check_playable
from service.domain.state import AbortedBy, HandEnding, Phase, Source, Status, Table
from service.domain.turns import action_problem, legal_moves

CAPPED = [
    pytest.param(variant, option, bounds, id=f"{variant.value}-{option}")
    for variant, preset in VARIANTS.items()
    for option, bounds in preset.caps.items()
]


def _players(variant: Variant) -> int:
    # Three where the variant seats three, else its most (Boathouse, Gin: two).
    return min(3, VARIANTS[variant].players[1])


def _rules(variant: Variant, option: str, value: int) -> dict[str, Any]:
    data: dict[str, Any] = {"variant": variant.value, option: value}
    if option == "deals" and variant is Variant.INDIAN:
        data["format"] = "deals"
    return data


@pytest.mark.parametrize(("variant", "option", "bounds"), CAPPED)
def test_a_new_game_past_a_cap_is_refused_naming_the_option(
    variant: Variant, option: str, bounds: tuple[int, int]
) -> None:
    low, high = bounds
    players = _players(variant)
    check_new_game(RuleSet.from_dict(_rules(variant, option, high), players=players), players)
    for wrong in (high + 1, low - 1):
        if wrong < 1:
            continue  # below 1 the rule set itself is refused (next test)
        rules = RuleSet.from_dict(_rules(variant, option, wrong), players=players)
        with pytest.raises(InvalidRules, match=f"'{option}' is {low} to {high}"):
            check_new_game(rules, players)


@pytest.mark.parametrize("option", list(CAP_DEFAULTS))
def test_a_cap_below_one_is_no_rule_set_at_all(option: str) -> None:
    with pytest.raises(InvalidRules, match=option):
        RuleSet.from_dict({option: 0})


def test_the_caps_fit_a_game_s_own_ranges() -> None:
    for variant, preset in VARIANTS.items():
        for option, (low, high) in preset.caps.items():
            assert option in preset.used, (variant, option)
            assert option not in preset.fixed, (variant, option)
            assert 1 <= low <= high
        default = RuleSet.from_dict({"variant": variant.value}, players=_players(variant))
        for option, value in CAP_DEFAULTS.items():
            low, high = preset.caps[option]
            assert getattr(default, option) == value
            assert low <= value <= high


def test_a_new_game_takes_the_default_caps_and_stores_them() -> None:
    rules = RuleSet.from_dict({}, players=2)
    assert (rules.max_hands, rules.max_events) == (200, 20_000)
    assert rules.to_dict()["max_hands"] == 200
    assert RuleSet.from_dict(rules.to_dict()) == rules, "stored, it reads back the same"


def test_rules_stored_before_the_caps_have_none_and_keep_their_form() -> None:
    stored = RuleSet().to_dict()
    assert "max_hands" not in stored
    assert "max_events" not in stored
    read = RuleSet.from_dict(stored)
    assert (read.max_hands, read.max_events) == (None, None)
    assert read.to_dict() == stored


def test_a_stored_game_over_today_s_caps_loads_and_plays() -> None:
    # The defect's game: a target of 100,000 (and more turns a hand than allowed now).
    stored = {**RuleSet().to_dict(), "target": 100_000, "max_turns": 5_000}
    rules = RuleSet.from_dict(stored)  # as a stored game is read back
    check_playable(rules, 2)  # what the verifier asks of it
    with pytest.raises(InvalidRules, match="'target' is 1 to 1000"):
        check_new_game(rules, 2)
    table, made = _play(rules, 2, moves=40)
    assert table.status is Status.PLAYING
    assert not any(isinstance(event, GameAborted) for event in made)


def _move(table: Table) -> tuple[int, Action]:
    """Draw from the stock and discard the first card offered: no hand goes out, so
    only the caps (or a stock run out) end it."""
    hand = table.hand
    assert hand is not None
    seat = hand.to_act()
    moves = legal_moves(table, seat)
    if moves.can_pass:  # Gin's upcard offer: pass, so the stock opens
        return seat, Pass()
    if moves.draw:
        return seat, Draw(Source.STOCK)
    return seat, Discard(moves.discard[0])


def _play(rules: RuleSet, players: int, moves: int = 10_000) -> tuple[Table, list[Event]]:
    table = Table(rules=rules, seat_count=players, seated=[True] * players)
    decks = SeededDecks(seed="caps", client_seeds=("",) * players, pack=rules.pack)
    made = start(table, decks)
    for _ in range(moves):
        if table.status is not Status.PLAYING:
            break
        seat, action = _move(table)
        made += play(table, seat, [action], decks)
    return table, made


def _replayed(rules: RuleSet, players: int, made: list[Event]) -> Table:
    table = Table(rules=rules, seat_count=players, seated=[True] * players)
    for event in made:
        apply(table, event)
    return table


@pytest.mark.parametrize("variant", list(Variant))
def test_a_game_that_deals_max_hands_without_a_winner_is_aborted(variant: Variant) -> None:
    players = _players(variant)
    rules = RuleSet.from_dict(
        {"variant": variant.value, "max_hands": 2, "max_turns": 4}, players=players
    )
    table, made = _play(rules, players)

    assert table.status is Status.ABORTED
    assert table.winner is None
    assert table.hand is None
    assert made[-1] == GameAborted(
        by=AbortedBy.CAP, reason="max_hands: the cap of 2 hands dealt is reached without a winner."
    )
    assert isinstance(made[-2], HandEnded)
    # Gin calls a capped hand void, as it calls every hand that ends unscored.
    capped = HandEnding.VOID if variant is Variant.GIN else HandEnding.TURN_CAP
    assert made[-2].how is capped
    assert [event.hand_number for event in made if isinstance(event, HandDealt)] == [1, 2]
    replayed = _replayed(rules, players, made)
    assert (replayed.status, replayed.totals, replayed.events) == (
        Status.ABORTED,
        table.totals,
        len(made),
    )


def test_max_turns_ends_the_hand_and_the_game_plays_on() -> None:
    # docs/rules.md: at `max_turns` the hand ends as if the stock ran out; not a cap abort.
    rules = RuleSet.from_dict({"max_turns": 2}, players=2)
    table, made = _play(rules, 2, moves=8)
    ended = [event for event in made if isinstance(event, HandEnded)]
    assert ended
    assert all(event.how is HandEnding.TURN_CAP for event in ended)
    assert table.status is Status.PLAYING
    assert not any(isinstance(event, GameAborted) for event in made)


@pytest.mark.parametrize("variant", [Variant.CLASSIC, Variant.KNOCK, Variant.INDIAN])
def test_a_game_that_holds_max_events_is_aborted_before_the_next_turn(variant: Variant) -> None:
    rules = RuleSet.from_dict({"variant": variant.value, "max_events": 100}, players=2)
    table, made = _play(rules, 2)

    assert table.status is Status.ABORTED
    aborted = made[-1]
    assert isinstance(aborted, GameAborted)
    assert aborted.by is AbortedBy.CAP
    held = len(made)  # the creation and every event before the abort
    assert aborted.reason == f"max_events: the game holds {held} events (its cap: 100)."
    assert held >= 100
    # Not one turn later than needed: the game before the abort's turn held fewer.
    before = _replayed(rules, 2, made[:-1])
    assert before.hand is not None
    assert before.hand.phase is Phase.DRAW
    turn_start = max(
        index for index, event in enumerate(made[:-1]) if isinstance(event, CardDiscarded)
    )
    if made[turn_start + 1 : -1]:
        assert all(isinstance(event, HandEnded | HandDealt) for event in made[turn_start + 1 : -1])
    earlier_starts = [
        index + 1
        for index, event in enumerate(made[:turn_start])
        if isinstance(event, CardDiscarded)
    ]
    assert earlier_starts
    assert earlier_starts[-1] + 1 < 100


def test_an_aborted_game_takes_no_move_join_leave_or_timeout() -> None:
    rules = RuleSet.from_dict({"max_hands": 1, "max_turns": 2, "turn_seconds": 30}, players=2)
    table, made = _play(rules, 2)
    assert isinstance(made[-1], GameAborted)
    decks = SeededDecks(seed="caps", client_seeds=("", ""), pack=rules.pack)

    assert next_event(table, decks) is None
    for seat in (0, 1):
        assert isinstance(action_problem(table, seat, Draw(Source.STOCK)), GameOver)
        assert isinstance(leave_problem(table, seat), GameOver)
        with pytest.raises(Exception, match="does not wait"):
            decide_timeout(table, seat, decks)
        assert not legal_moves(table, seat).draw
    with pytest.raises(GameOver):
        decide_join(table)
