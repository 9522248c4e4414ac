"""The rules text of Indian 13-card Rummy, its formats, read sentence by sentence:
points, deals (chips and play-offs), pools (eliminations), and how the deal and
the first turn pass among the seats still in the game; with the Indian column of
the rule-set table (docs/rules.md "Variants", "Indian 13-card Rummy").

Deals are scripted (tests/domain/indian_tables.py): what each seat does, and the
points a submission counts, so the totals are worked out by hand in each test.
"""

from __future__ import annotations

from typing import Any

import pytest

from service.domain.actions import Drop, SubmitGroups
from service.domain.errors import InvalidRules
from service.domain.events import GameFinished, HandDealt, HandEnded, PlayerEliminated
from service.domain.legal import NO_MOVES
from service.domain.rule_values import Aces, Exhausted, Format
from service.domain.rules import RuleSet
from service.domain.state import DealStatus, HandEnding, indian_of
from service.domain.turns import legal_moves
from tests.domain.indian_tables import Does, Plan, indian_rules, play_deal, scripted_game
from tests.domain.tables import STOCK, Game

DECLARES, SUBMITS, LEFT = Does.DECLARES, Does.SUBMITS, Does.IS_LEFT
FIRST, MIDDLE, WRONG = Does.FIRST_DROP, Does.MIDDLE_DROP, Does.WRONG_SHOW


def played(rules: RuleSet, players: int, plan: Plan) -> Game:
    """Every deal of `plan` played out."""
    game, deals = scripted_game(rules, players, plan)
    for deal in deals:
        play_deal(game, deal)
    return game


def results(game: Game) -> list[HandEnded]:
    return [event for event in game.events if isinstance(event, HandEnded)]


def dealt(game: Game) -> list[HandDealt]:
    return [event for event in game.events if isinstance(event, HandDealt)]


def winner(game: Game) -> int:
    finished = [event for event in game.events if isinstance(event, GameFinished)]
    assert len(finished) == 1, "the game is over"
    return finished[0].winner


# --- "Formats (`format`); drops 20/40, under pool_201 25/50" ----------------------------------


@pytest.mark.parametrize(
    ("format_", "drops"),
    [("points", (20, 40)), ("deals", (20, 40)), ("pool_101", (20, 40)), ("pool_201", (25, 50))],
)
def test_drops_cost_20_and_40_and_25_and_50_under_pool_201(
    format_: str, drops: tuple[int, int]
) -> None:
    rules = indian_rules(3, format=format_)
    assert (rules.first_drop, rules.middle_drop) == drops
    assert indian_rules(3, format=format_, first_drop=0, middle_drop=200).middle_drop == 200


# --- "points (default): one deal (void: redeal). Losers score minus their points, the --------
# winner their sum." ------------------------------------------------------------------------------


def test_points_is_the_default_and_one_deal_where_losers_lose_what_the_winner_wins() -> None:
    rules = indian_rules(3)
    assert rules.format is Format.POINTS
    game = played(rules, 3, [(2, {0: (DECLARES, 0), 1: (SUBMITS, 37), 2: (FIRST, 0)})])
    assert results(game)[0].points == (0, 37, 20)
    assert game.table.totals == [57, -37, -20]
    assert (winner(game), game.table.hands_played) == (0, 1)


def test_points_a_last_player_left_wins_the_game_with_the_others_points() -> None:
    game = played(indian_rules(2), 2, [(1, {0: (FIRST, 0), 1: (LEFT, 0)})])
    assert (results(game)[0].how, winner(game), game.table.totals) == (
        HandEnding.LAST_STANDING,
        1,
        [-20, 20],
    )


def test_points_a_void_deal_is_dealt_again_by_the_next_dealer() -> None:
    rules = indian_rules(2, max_turns=2)
    plan: Plan = [
        (1, {0: (LEFT, 0), 1: (LEFT, 0)}),
        (0, {0: (DECLARES, 0), 1: (SUBMITS, 12)}),
    ]
    game = played(rules, 2, plan)
    first, second = results(game)
    assert (first.how, first.points, first.totals) == (HandEnding.TURN_CAP, (0, 0), (0, 0))
    assert [deal.dealer for deal in dealt(game)] == [1, 0]
    assert (second.how, winner(game), game.table.totals) == (HandEnding.DECLARED, 0, [12, -12])


# --- "deals: each starts with full_count x deals chips (its score); losers pay their points --
# to the winner; void deals count. Most chips wins" -----------------------------------------------


@pytest.mark.parametrize(
    ("options", "chips"),
    [({}, 160), ({"deals": 3}, 240), ({"full_count": 50}, 100), ({"deals": 1}, 80)],
)
def test_deals_start_each_player_with_full_count_times_deals_chips(
    options: dict[str, Any], chips: int
) -> None:
    rules = indian_rules(2, format="deals", **options)
    game, _ = scripted_game(rules, 2, [(1, {0: (LEFT, 0), 1: (LEFT, 0)})])
    assert game.table.totals == [chips, chips]


def test_deals_losers_pay_their_points_to_the_winner_and_most_chips_wins() -> None:
    rules = indian_rules(3, format="deals")
    plan: Plan = [
        (2, {0: (DECLARES, 0), 1: (SUBMITS, 37), 2: (FIRST, 0)}),
        (0, {0: (SUBMITS, 10), 1: (MIDDLE, 0), 2: (DECLARES, 0)}),
    ]
    game = played(rules, 3, plan)
    assert [r.totals for r in results(game)] == [(217, 123, 140), (207, 83, 190)]
    assert winner(game) == 0


@pytest.mark.parametrize("void_first", [True, False])
def test_deals_a_void_deal_is_one_of_the_deals(void_first: bool) -> None:
    rules = indian_rules(2, format="deals", max_turns=2)
    void: Any = {0: (LEFT, 0), 1: (LEFT, 0)}
    scored: Any = {0: (SUBMITS, 12), 1: (DECLARES, 0)}
    plan: Plan = [(1, void), (0, scored)] if void_first else [(1, scored), (0, void)]
    game = played(rules, 2, plan)
    hows = [HandEnding.TURN_CAP, HandEnding.DECLARED]
    assert [r.how for r in results(game)] == (hows if void_first else hows[::-1])
    assert (winner(game), game.table.totals, game.table.hands_played) == (1, [148, 172], 2)


# --- "ties play on among the tied only" ----------------------------------------------------------

TIE: Plan = [
    (2, {0: (DECLARES, 0), 1: (SUBMITS, 0), 2: (FIRST, 0)}),  # 180 160 140
    (0, {0: (SUBMITS, 10), 1: (DECLARES, 0), 2: (SUBMITS, 0)}),  # 170 170 140
    (1, {0: (DECLARES, 0), 1: (SUBMITS, 0)}),  # still tied
    (0, {0: (SUBMITS, 2), 1: (DECLARES, 0)}),  # 168 172
]


def test_deals_a_tie_for_the_most_chips_plays_on_among_the_tied_only() -> None:
    game, deals = scripted_game(indian_rules(3, format="deals"), 3, TIE)
    for deal in deals[:2]:
        play_deal(game, deal)
    assert game.table.totals == [170, 170, 140]
    assert not game.table.finished
    assert dealt(game)[-1].seats == (0, 1)
    assert indian_of(game.hand).statuses == [DealStatus.IN, DealStatus.IN, DealStatus.SITTING_OUT]
    assert game.hand.hands[2] == []
    for deal in deals[2:]:
        play_deal(game, deal)
    assert [r.totals for r in results(game)][2:] == [(170, 170, 140), (168, 172, 140)]
    assert [d.seats for d in dealt(game)] == [(0, 1, 2), (0, 1, 2), (0, 1), (0, 1)]
    assert winner(game) == 1


def test_a_seat_sitting_out_a_play_off_cannot_act() -> None:
    game, deals = scripted_game(indian_rules(3, format="deals"), 3, TIE)
    for deal in deals[:2]:
        play_deal(game, deal)
    assert legal_moves(game.table, 2) == NO_MOVES
    for action in (STOCK, Drop(), SubmitGroups(())):
        assert game.refuses(2, action) == "not_in_deal"


def test_the_play_off_is_among_the_tied_players_of_the_deal_before_it() -> None:
    # Deal 3 is among 0 and 1; 2 sits out. Had 2 caught up, it still would not come back:
    # only 0 and 1 play the next deal.
    game, deals = scripted_game(indian_rules(3, format="deals"), 3, TIE)
    for deal in deals[:3]:
        play_deal(game, deal)
    assert dealt(game)[-1].seats == (0, 1)
    ended = results(game)[-1]
    assert ended.statuses is not None
    assert ended.statuses[2] is DealStatus.SITTING_OUT


# --- "pool_101, pool_201: scores add from 0; after a deal a player at or over 101 (201) is -----
# eliminated. The last left wins (a deal winner gains 0, so one remains)." ------------------------

POOL: Plan = [
    (2, {0: (DECLARES, 0), 1: (SUBMITS, 70), 2: (WRONG, 0)}),  # 0 70 80
    (0, {0: (DECLARES, 0), 1: (SUBMITS, 31), 2: (SUBMITS, 20)}),  # 0 101 100: 1 out
    (2, {0: (SUBMITS, 5), 2: (DECLARES, 0)}),  # 5 101 100
]


def test_a_pool_adds_points_from_0_and_eliminates_at_or_over_the_limit() -> None:
    game, deals = scripted_game(indian_rules(3, format="pool_101"), 3, POOL)
    assert game.table.totals == [0, 0, 0]
    play_deal(game, deals[0])
    assert results(game)[0].totals == (0, 70, 80)
    assert results(game)[0].eliminated == ()
    made = play_deal(game, deals[1])
    names = [type(e).__name__ for e in made[-3:]]
    assert names == ["HandEnded", "PlayerEliminated", "HandDealt"]
    assert made[-2] == PlayerEliminated(player=1, score=101)
    assert results(game)[1].totals == (0, 101, 100)
    assert results(game)[1].eliminated == (1,)
    assert game.table.eliminated == [False, True, False]


def test_an_eliminated_seat_is_dealt_no_cards_cannot_act_and_never_comes_back() -> None:
    game, deals = scripted_game(indian_rules(3, format="pool_101"), 3, POOL)
    play_deal(game, deals[0])
    play_deal(game, deals[1])
    assert dealt(game)[-1].seats == (0, 2)
    assert indian_of(game.hand).statuses == [DealStatus.IN, DealStatus.ELIMINATED, DealStatus.IN]
    assert game.hand.hands[1] == []
    assert legal_moves(game.table, 1) == NO_MOVES
    assert game.refuses(1, STOCK) == "not_in_deal"
    play_deal(game, deals[2])
    assert results(game)[2].points == (5, 0, 0)
    assert game.table.totals == [5, 101, 100]
    assert dealt(game)[-1].seats == (0, 2)


def test_pool_201_eliminates_at_201_and_the_last_player_left_wins() -> None:
    rules = indian_rules(2, format="pool_201")
    wrong = {0: (WRONG, 0), 1: (LEFT, 0)}
    game = played(rules, 2, [(1, wrong), (0, wrong), (1, wrong)])
    assert [r.totals for r in results(game)] == [(80, 0), (160, 0), (240, 0)]
    assert [r.eliminated for r in results(game)] == [(), (), (0,)]
    assert (winner(game), game.table.hands_played) == (1, 3)


def test_a_void_deal_in_a_pool_scores_nobody_and_is_dealt_again() -> None:
    rules = indian_rules(2, format="pool_101", max_turns=3)
    plan: Plan = [
        (1, {0: (FIRST, 0), 1: (LEFT, 0)}),  # 20 0
        (0, {0: (LEFT, 0), 1: (MIDDLE, 0)}),  # 1 passes, 0 passes, 1 drops: 20 40
        (1, {0: (LEFT, 0), 1: (LEFT, 0)}),  # void
    ]
    game, deals = scripted_game(rules, 2, plan)
    for deal in deals:
        play_deal(game, deal)
    assert [r.how for r in results(game)] == [
        HandEnding.LAST_STANDING,
        HandEnding.LAST_STANDING,
        HandEnding.TURN_CAP,
    ]
    assert results(game)[2].totals == (20, 40)
    assert (game.table.hand_number, game.table.finished) == (4, False)


# --- "Deal and first turn pass among active seats." ---------------------------------------------


def test_the_deal_and_the_first_turn_pass_among_the_seats_still_in() -> None:
    rules = indian_rules(4, format="pool_101", full_count=120)
    plan: Plan = [
        (0, {0: (DECLARES, 0), 1: (WRONG, 0), 2: (SUBMITS, 0), 3: (SUBMITS, 0)}),  # 1 out
        (2, {0: (DECLARES, 0), 2: (SUBMITS, 0), 3: (WRONG, 0)}),  # 3 out
        (0, {0: (LEFT, 0), 2: (LEFT, 0)}),
    ]
    game, deals = scripted_game(rules, 4, plan)
    starters = []
    for deal in deals[:-1]:
        starters.append(game.hand.turn)
        play_deal(game, deal)
    starters.append(game.hand.turn)
    assert [(d.dealer, d.seats) for d in dealt(game)] == [
        (0, (0, 1, 2, 3)),
        (2, (0, 2, 3)),
        (0, (0, 2)),
    ]
    assert starters == [1, 3, 2]


# --- the Indian column of the rule-set table -----------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("aces", Aces.HIGH_OR_LOW),
        ("hand_size", 13),
        ("exhausted", Exhausted.VOID),
        ("min_natural", 1),
        ("wild_penalty", 0),
        ("ace_value", 10),
    ],
)
def test_the_fixed_options_take_their_one_value(option: str, value: object) -> None:
    rules = indian_rules(3)
    assert getattr(rules, option) == value
    assert getattr(indian_rules(3, **{option: value}), option) == value
    other = {"aces": "low", "exhausted": "score"}.get(option, 7)
    with pytest.raises(InvalidRules, match=option):
        indian_rules(3, **{option: other})


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("melds_per_turn", "one"),
        ("lay_off", "anytime"),
        ("going_out", "discard"),
        ("rummy_bonus", "none"),
        ("scoring", "penalty"),
        ("target", 100),
        ("wild_rank", "2"),
        ("swap", True),
        ("swapped_wild", "free"),
        ("knock_penalty", 10),
        ("knock_bonus", 25),
    ],
)
def test_the_options_marked_unused_are_refused(option: str, value: object) -> None:
    with pytest.raises(InvalidRules, match=option):
        indian_rules(3, **{option: value})


@pytest.mark.parametrize(
    ("option", "low", "high", "default"),
    [("first_drop", 0, 200, 20), ("middle_drop", 0, 200, 40), ("full_count", 1, 200, 80)],
)
def test_the_indian_options_ranges_and_defaults(
    option: str, low: int, high: int, default: int
) -> None:
    assert getattr(indian_rules(3), option) == default
    for fine in (low, high):
        assert getattr(indian_rules(3, **{option: fine}), option) == fine
    for wrong in (low - 1, high + 1):
        with pytest.raises(InvalidRules, match=option):
            indian_rules(3, **{option: wrong})


def test_recycles_default_to_1000_and_the_turn_options_are_any() -> None:
    rules = indian_rules(3)
    assert (rules.recycles, rules.recycle_shuffle, rules.max_turns) == (1000, True, 500)
    changed = indian_rules(3, recycles=0, recycle_shuffle=False, max_turns=9)
    assert (changed.recycles, changed.recycle_shuffle, changed.max_turns) == (0, False, 9)


def test_deals_is_an_option_of_format_deals_only_with_2_by_default() -> None:
    assert indian_rules(3, format="deals").deals == 2
    assert indian_rules(3, format="deals", deals=5).deals == 5
    assert "deals" not in indian_rules(3).to_dict()
    for format_ in ("points", "pool_101", "pool_201"):
        with pytest.raises(InvalidRules, match="deals"):
            indian_rules(3, format=format_, deals=2)
