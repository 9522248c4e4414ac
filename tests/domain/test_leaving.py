"""docs/rules.md "Leaving and turn clocks", sentence by sentence, on the domain's
tables: the four options, a timeout and its count, the takeover, a leave, a
resignation, a forfeit in the Western variants and in each Indian format, and the
time bank."""

from __future__ import annotations

from collections import Counter

import pytest

from service.domain.actions import Declare, Discard, Draw, Drop, Meld, SubmitGroups
from service.domain.cards import Card, Rank
from service.domain.changes import apply
from service.domain.errors import (
    GameNotStarted,
    GameOver,
    IllegalMove,
    InvalidRules,
    NotYourTurn,
    SeatLeft,
    WrongPhase,
)
from service.domain.events import (
    Event,
    GameFinished,
    GroupsSubmitted,
    HandDealt,
    PlayerEliminated,
    PlayerLeft,
    TimeBankUsed,
    TurnTimedOut,
)
from service.domain.flow import settle
from service.domain.indian.groupings import best_grouping
from service.domain.knock import pot
from service.domain.leaving import (
    bank_problem,
    decide_bank_use,
    decide_leave,
    decide_timeout,
    leave_problem,
    seats_timing_out,
    timeout_problem,
    turn_key,
)
from service.domain.rule_values import Abandon, Exhausted
from service.domain.rules import CLASSIC, RuleSet
from service.domain.scoring import game_winner, points_for_values
from service.domain.state import (
    DealStatus,
    DropKind,
    LeaveReason,
    Phase,
    Source,
    Status,
    Table,
    indian_of,
)
from tests.domain.indian_tables import groups_of, indian_game, indian_rules
from tests.domain.tables import Game, card, cards, new_game, seated_game

STOCK = Draw(Source.STOCK)


def rules(**options: object) -> RuleSet:
    return RuleSet.from_dict(options)


def record(game: Game, made: list[Event]) -> list[Event]:
    """Apply what the rules decided, then what follows by itself, as the service does."""
    for event in made:
        apply(game.table, event)
        game.events.append(event)
    following: list[Event] = []

    def keep(event: Event) -> None:
        apply(game.table, event)
        following.append(event)

    settle(game.table, game.decks, keep)
    game.events.extend(following)
    return [*made, *following]


def leave(game: Game, seat: int, *, resign: bool = False) -> list[Event]:
    return record(game, decide_leave(game.table, seat, game.decks, resign=resign))


def time_out(game: Game, seat: int) -> list[Event]:
    return record(game, decide_timeout(game.table, seat, game.decks))


def turn(game: Game, seat: int) -> None:
    """A plain turn by `seat` itself: draw, then discard the card drawn."""
    game.act(seat, STOCK)
    game.act(seat, Discard(game.hand.hands[seat][-1]))


def pack_kept(game: Game) -> bool:
    assert game.table.hand is not None
    return Counter(game.table.hand.cards()) == Counter(game.table.rules.pack)


# --- the options ----------------------------------------------------------------------


def test_the_options_default_to_no_clock_three_timeouts_and_the_bot() -> None:
    assert CLASSIC.turn_seconds is None
    assert CLASSIC.timeouts_before_takeover == 3
    assert CLASSIC.abandon is Abandon.BOT


def test_left_out_they_are_not_stored_but_views_show_them() -> None:
    assert "turn_seconds" not in CLASSIC.to_dict()
    assert CLASSIC.shown()["turn_seconds"] is None
    assert CLASSIC.shown()["timeouts_before_takeover"] == 3
    assert CLASSIC.shown()["abandon"] == "bot"
    given = rules(turn_seconds=60, abandon="forfeit")
    assert given.to_dict()["turn_seconds"] == 60
    assert RuleSet.from_dict(given.to_dict()) == given


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("turn_seconds", 4),
        ("turn_seconds", 86_401),
        ("timeouts_before_takeover", 0),
        ("timeouts_before_takeover", 101),
        ("abandon", "vanish"),
    ],
)
def test_a_value_out_of_range_is_invalid_rules_naming_the_option(
    option: str, value: object
) -> None:
    with pytest.raises(InvalidRules, match=option):
        RuleSet.from_dict({option: value})


@pytest.mark.parametrize("variant", ["classic", "wild", "knock", "wrotham", "indian"])
def test_every_variant_has_the_three_options(variant: str) -> None:
    options = {"variant": variant, "turn_seconds": 5, "timeouts_before_takeover": 100}
    built = RuleSet.from_dict(options, players=2)
    assert built.turn_seconds == 5
    assert built.timeouts_before_takeover == 100


def test_every_variant_may_forfeit_at_any_number_of_seats() -> None:
    rules(abandon="forfeit").check_players(6)
    indian_rules(4, abandon="forfeit").check_players(4)


# --- a timeout ------------------------------------------------------------------------


def test_a_timeout_needs_a_clock() -> None:
    game = seated_game(CLASSIC, 2)
    assert isinstance(timeout_problem(game.table, game.hand.turn), WrongPhase)


def test_only_the_seat_the_game_waits_for_times_out() -> None:
    game = seated_game(rules(turn_seconds=30), 2)
    waiting = game.hand.turn
    assert timeout_problem(game.table, waiting) is None
    assert isinstance(timeout_problem(game.table, 1 - waiting), NotYourTurn)


def test_a_timeout_counts_the_seats_timeouts_in_a_row() -> None:
    game = seated_game(rules(turn_seconds=30), 2)
    seat = game.hand.turn
    assert time_out(game, seat) == [TurnTimedOut(player=seat, timeouts=1)]
    assert game.table.timeouts[seat] == 1


def test_the_moves_the_clock_makes_do_not_reset_the_count() -> None:
    game = seated_game(rules(turn_seconds=30), 2)
    seat = game.hand.turn
    time_out(game, seat)
    turn(game, seat)  # as the clock's bot would, after the timeout
    assert game.table.timeouts[seat] == 1
    other = game.hand.turn
    turn(game, other)
    time_out(game, seat)
    assert game.table.timeouts[seat] == 2, "in a row: the other seat's turn between"


def test_the_count_goes_back_to_zero_when_the_seat_ends_a_turn_itself() -> None:
    game = seated_game(rules(turn_seconds=30), 2)
    seat = game.hand.turn
    time_out(game, seat)
    turn(game, seat)
    turn(game, game.hand.turn)
    game.act(seat, STOCK)
    assert game.table.timeouts[seat] == 1, "a draw alone ends no turn"
    game.act(seat, Discard(game.hand.hands[seat][-1]))
    assert game.table.timeouts[seat] == 0


def test_the_timeout_that_reaches_the_limit_abandons_the_seat_to_the_bot() -> None:
    game = seated_game(rules(turn_seconds=30, timeouts_before_takeover=2), 2)
    seat = game.hand.turn
    time_out(game, seat)
    turn(game, seat)
    turn(game, game.hand.turn)
    made = time_out(game, seat)
    assert made[:2] == [
        TurnTimedOut(player=seat, timeouts=2),
        PlayerLeft(player=seat, reason=LeaveReason.TIMED_OUT, replaced=True),
    ]
    assert game.table.left[seat]
    assert not game.table.forfeited[seat]
    assert game.table.status is Status.PLAYING, "the bot plays the seat on"


def test_a_takeover_under_forfeit_forfeits() -> None:
    game = seated_game(rules(turn_seconds=30, timeouts_before_takeover=1, abandon="forfeit"), 2)
    seat = game.hand.turn
    made = time_out(game, seat)
    assert made[1] == PlayerLeft(player=seat, reason=LeaveReason.TIMED_OUT, replaced=False)
    assert made[2] == GameFinished(winner=1 - seat, totals=(0, 0))


def test_a_seat_that_left_has_no_clock() -> None:
    game = seated_game(rules(turn_seconds=30), 3)
    seat = game.hand.turn
    leave(game, seat)
    assert isinstance(timeout_problem(game.table, seat), SeatLeft)


def test_one_clock_covers_the_whole_turn_and_the_next_turn_has_its_own() -> None:
    game = seated_game(rules(turn_seconds=30), 2)
    seat = game.hand.turn
    started = turn_key(game.table)
    game.act(seat, STOCK)
    assert turn_key(game.table) == started
    game.act(seat, Discard(game.hand.hands[seat][-1]))
    assert turn_key(game.table) != started


# --- leaving and resigning ----------------------------------------------------------


def test_nobody_leaves_before_the_start_or_after_the_end() -> None:
    waiting = Table(rules=CLASSIC, seat_count=2, seated=[True, False])
    assert isinstance(leave_problem(waiting, 0), GameNotStarted)
    game = seated_game(CLASSIC, 2)
    leave(game, 0, resign=True)
    assert isinstance(leave_problem(game.table, 1), GameOver)


def test_a_seat_leaves_once() -> None:
    game = seated_game(CLASSIC, 3)
    leave(game, 1)
    with pytest.raises(SeatLeft):
        decide_leave(game.table, 1, game.decks, resign=False)


def test_a_leave_under_bot_hands_the_seat_to_the_bot_with_its_cards() -> None:
    game = seated_game(CLASSIC, 2)
    held = list(game.hand.hands[1])
    made = leave(game, 1)
    assert made == [PlayerLeft(player=1, reason=LeaveReason.LEFT, replaced=True)]
    assert game.table.left[1]
    assert not game.table.forfeited[1]
    assert game.hand.hands[1] == held


def test_a_resignation_forfeits_at_two_seats_whatever_abandon_says() -> None:
    game = seated_game(CLASSIC, 2)
    totals_before = tuple(game.table.totals)
    made = leave(game, 0, resign=True)
    assert made == [
        PlayerLeft(player=0, reason=LeaveReason.RESIGNED, replaced=False),
        GameFinished(winner=1, totals=totals_before),
    ]
    assert game.table.forfeited[0]
    assert pack_kept(game), "the hand in play is not scored; its cards stay where they lie"


def test_a_leave_under_forfeit_forfeits_and_the_other_seat_wins() -> None:
    game = seated_game(rules(abandon="forfeit"), 2)
    made = leave(game, 1)
    assert made[0] == PlayerLeft(player=1, reason=LeaveReason.LEFT, replaced=False)
    assert game.table.winner == 0


def test_a_resignation_forfeits_whatever_abandon_says_and_the_others_play_on() -> None:
    game = seated_game(CLASSIC, 3)
    made = leave(game, 2, resign=True)
    assert made == [PlayerLeft(player=2, reason=LeaveReason.RESIGNED, replaced=False)]
    assert game.table.forfeited[2]
    assert game.table.status is Status.PLAYING


# --- a forfeit in the other variants ------------------------------------------------------

NO_BONUS = RuleSet.from_dict({"rummy_bonus": "none", "hand_size": 3})
"""Three cards each, so a hand is gone out of in one turn, and no rummy bonus."""


def three_seats() -> Game:
    """Ann deals; Bob (seat 1) moves first and can go out with his run; Cy is seat 2."""
    return new_game(["KD QD JD", "AS 2S 3S", "KC QC 9H"], "5H", "7D 8D", rules=NO_BONUS)


def test_a_forfeiter_s_turn_passes_on_and_it_takes_no_more() -> None:
    game = three_seats()
    assert game.hand.turn == 1
    leave(game, 1, resign=True)
    assert game.hand.turn == 2
    turn(game, 2)
    assert game.hand.turn == 0
    turn(game, 0)
    assert game.hand.turn == 2, "seat 1 is passed over"
    assert pack_kept(game)


def test_a_forfeiter_s_hand_counts_against_it_unshown_and_the_winner_collects_it() -> None:
    game = three_seats()
    leave(game, 2, resign=True)
    game.act(1, STOCK, Meld(tuple(cards("AS 2S 3S"))), Discard(card("7D")))
    result = game.last
    assert result.out_seat == 1
    assert result.points == (0, 30 + 29, 0), "KD QD JD, and Cy's KC QC 9H"
    assert result.values[2] == 29
    assert result.remaining[2] == (), "set aside face down: never shown"
    assert result.remaining[0] == tuple(cards("KD QD JD"))


def test_later_hands_are_dealt_among_the_seats_still_in() -> None:
    game = three_seats()
    leave(game, 2, resign=True)
    game.act(1, STOCK, Meld(tuple(cards("AS 2S 3S"))), Discard(card("7D")))
    dealt = next(event for event in reversed(game.events) if isinstance(event, HandDealt))
    assert dealt.seats == (0, 1)
    assert dealt.dealer == 1, "the deal passes on to the next seat still in"
    assert game.hand.hands[2] == []
    assert [len(held) for held in game.hand.hands[:2]] == [3, 3]
    assert game.hand.turn == 0
    assert pack_kept(game)


def test_a_forfeiter_never_wins_a_hand_nor_the_game() -> None:
    # A hand nobody goes out of: the forfeiter's lower count does not win it.
    assert points_for_values([30, 20, 5], RuleSet(exhausted=Exhausted.SCORE), out=(2,)) == [
        0,
        10,
        0,
    ]
    # A knock: the forfeiter neither undercuts nor wins, and pays what it is over.
    settled = pot([9, 4, 2], 1, penalty=10, bonus=25, out=(2,))
    assert (settled.undercut, settled.winners, settled.pot) == (False, (1,), 5)
    # The game: the best total among the seats still in.
    assert game_winner([90, 100, 120], 3, RuleSet(), out=(2,)) == 1


def test_a_game_forfeited_down_to_one_seat_ends_and_it_wins() -> None:
    game = seated_game(CLASSIC, 3)
    leave(game, 0, resign=True)
    made = leave(game, 2, resign=True)
    assert made[-1] == GameFinished(winner=1, totals=(0, 0, 0))


# --- Indian forfeits --------------------------------------------------------------------


def indian(players: int, **options: object) -> Game:
    return seated_game(indian_rules(players, abandon="forfeit", **options), players, dealer=0)


def test_indian_a_forfeit_before_drawing_is_a_first_drop_its_cards_set_aside() -> None:
    game = indian(3)
    seat = game.hand.turn
    held = list(game.hand.hands[seat])
    made = leave(game, seat)
    assert made[0] == PlayerLeft(
        player=seat, reason=LeaveReason.LEFT, replaced=False, drop=DropKind.FIRST, points=20
    )
    assert game.hand.hands[seat] == []
    assert Counter(held) <= Counter(game.hand.out_of_play)
    assert game.hand.indian is not None
    assert game.hand.indian.statuses[seat] is DealStatus.DROPPED
    assert game.hand.turn != seat, "its turn passes on"
    assert pack_kept(game)


def test_indian_a_forfeit_after_drawing_is_a_middle_drop() -> None:
    game = indian(3)
    seat = game.hand.turn
    game.act(seat, STOCK)
    game.act(seat, Discard(game.hand.hands[seat][-1]))
    made = leave(game, seat, resign=True)
    assert made[0] == PlayerLeft(
        player=seat, reason=LeaveReason.RESIGNED, replaced=False, drop=DropKind.MIDDLE, points=40
    )


def test_indian_a_forfeit_out_of_turn_leaves_the_turn_where_it_is() -> None:
    game = indian(3)
    to_act = game.hand.turn
    other = next(seat for seat in range(3) if seat != to_act)
    leave(game, other)
    assert game.hand.turn == to_act


def test_indian_a_seat_out_of_the_deal_scores_nothing_more_this_deal() -> None:
    game = indian(3)
    seat = game.hand.turn
    game.act(seat, Drop())
    made = leave(game, seat)
    assert made == [PlayerLeft(player=seat, reason=LeaveReason.LEFT, replaced=False)]
    assert indian_of(game.hand).deal_points[seat] == 20


def test_indian_with_one_seat_left_in_the_game_it_wins() -> None:
    game = indian(2)
    loser = game.hand.turn
    leave(game, loser, resign=True)
    assert game.table.winner == 1 - loser
    assert game.table.finished


def test_indian_pools_eliminate_a_forfeiter_whatever_its_score() -> None:
    game = indian(3, format="pool_101")
    seat = game.hand.turn
    made = leave(game, seat)
    # The deal plays on between the two others; end it by their drops.
    while not any(isinstance(event, PlayerEliminated) for event in made):
        made = _drop_or_finish(game)
    assert game.table.eliminated[seat]
    assert game.table.totals[seat] < 101


def test_indian_deals_a_forfeiter_sits_out_every_later_deal() -> None:
    game = indian(3, format="deals", deals=3)
    seat = game.hand.turn
    leave(game, seat)
    first = game.hand.number
    while game.table.hand is not None and game.hand.number == first:
        _drop_or_finish(game)
    assert game.table.hand is not None
    assert game.hand.indian is not None
    assert game.hand.indian.statuses[seat] is DealStatus.SITTING_OUT
    assert game.hand.hands[seat] == []


def test_indian_in_the_show_a_forfeiter_s_best_grouping_is_submitted() -> None:
    game, declarer, other = _show(3)
    best = best_grouping(game.hand.hands[other], _wild(game), 80)
    made = leave(game, other)
    assert made[0] == PlayerLeft(player=other, reason=LeaveReason.LEFT, replaced=False)
    assert isinstance(made[1], GroupsSubmitted)
    assert made[1].points == best.points
    with pytest.raises(WrongPhase):
        decide_leave(game.table, declarer, game.decks, resign=False)


def test_indian_the_show_has_one_clock_for_every_seat_still_to_show() -> None:
    game, declarer, first = _show(3, turn_seconds=30)
    clock = turn_key(game.table)
    assert timeout_problem(game.table, first) is None
    assert isinstance(timeout_problem(game.table, declarer), NotYourTurn)
    grouping = best_grouping(game.hand.hands[first], _wild(game), 80)
    game.act(first, SubmitGroups(grouping.groups))
    second = game.hand.to_act()
    assert second not in (first, declarer)
    assert timeout_problem(game.table, second) is None
    assert turn_key(game.table) == clock, "the same clock: the show's"


def test_a_turn_s_clock_times_out_the_seat_whose_turn_it_is_alone() -> None:
    game = seated_game(rules(turn_seconds=30, time_bank_seconds=60), 2)
    seat = game.hand.turn
    assert seats_timing_out(game.table, seat, [False, False], lambda _: True) == [seat]


def test_indian_the_show_s_clock_times_out_each_person_to_show_whose_bank_is_spent() -> None:
    game, declarer, first = _show(3, **BANKED)
    second = next(seat for seat in range(3) if seat not in (declarer, first))
    people = [False, False, False]
    assert seats_timing_out(game.table, first, people, lambda _: True) == sorted((first, second))
    assert seats_timing_out(game.table, first, people, lambda seat: seat == second) == [second]
    bots = [seat == second for seat in range(3)]
    assert seats_timing_out(game.table, first, bots, lambda _: True) == [first], "a bot shows"
    game.act(first, SubmitGroups(best_grouping(game.hand.hands[first], _wild(game), 80).groups))
    assert seats_timing_out(game.table, first, people, lambda _: True) == [second]


def _wild(game: Game) -> Rank:
    assert game.hand.indian is not None
    return game.hand.indian.wild


def _drop_or_finish(game: Game) -> list[Event]:
    """The seat to act drops (ending the deal once one seat is left)."""
    before = len(game.events)
    game.act(game.hand.turn, Drop())
    return game.events[before:]


def _show(players: int, **options: object) -> tuple[Game, int, int]:
    """A deal in its show: the seat to act declared validly (its hand replaced by one
    that declares: the test plants it), the next seat still to show."""
    hands = [
        "AS 2S 3S 4H 5H 6H 7C 8C 9C 10D JD QD 5C",
        "2C 3C 4C 5D 6D 7D 8H 9H 10H JS QS KS 9D",
        "3H 4D 6S 7S 8S 9S 10S JH QH KH AD 2D 3D",
    ][:players]
    game = indian_game(
        hands, stock="KD", upcard="AH", rules=indian_rules(players, abandon="forfeit", **options)
    )
    declarer = game.hand.turn
    game.act(declarer, STOCK)
    game.act(
        declarer,
        Declare(
            Card.parse("5C"),
            groups_of("AS 2S 3S", "4H 5H 6H", "7C 8C 9C", "10D JD QD KD"),
        ),
    )
    assert game.hand.phase is Phase.SHOW, "the planted hand declares validly"
    other = game.hand.to_act()
    return game, declarer, other


# --- the time bank ----------------------------------------------------------------------

BANKED = {"turn_seconds": 30, "time_bank_seconds": 60}


def spend(game: Game, seat: int, seconds: int) -> list[Event]:
    return record(game, decide_bank_use(game.table, seat, seconds))


def test_the_bank_defaults_to_none_is_not_stored_but_views_show_it() -> None:
    assert CLASSIC.time_bank_seconds == 0
    assert "time_bank_seconds" not in rules(turn_seconds=30).to_dict()
    assert CLASSIC.shown()["time_bank_seconds"] == 0
    given = rules(**BANKED)
    assert given.to_dict()["time_bank_seconds"] == 60
    assert RuleSet.from_dict(given.to_dict()) == given


@pytest.mark.parametrize("value", [-1, 601])
def test_a_bank_out_of_range_is_invalid_rules_naming_it(value: int) -> None:
    with pytest.raises(InvalidRules, match="time_bank_seconds"):
        rules(turn_seconds=30, time_bank_seconds=value)


def test_a_bank_without_a_clock_is_invalid_rules_naming_it() -> None:
    with pytest.raises(InvalidRules, match=r"time_bank_seconds.*turn_seconds"):
        rules(time_bank_seconds=30)
    assert rules(time_bank_seconds=0).time_bank_seconds == 0, "0 is no bank"


@pytest.mark.parametrize("variant", ["classic", "wild", "boathouse", "knock", "wrotham", "indian"])
def test_every_variant_with_a_clock_may_have_a_bank(variant: str) -> None:
    built = RuleSet.from_dict({"variant": variant, **BANKED, "time_bank_seconds": 600}, players=2)
    assert built.time_bank_seconds == 600


def test_every_seat_starts_with_the_whole_bank() -> None:
    game = seated_game(rules(**BANKED), 3)
    assert game.table.bank_left == [60, 60, 60]


def test_the_seat_to_act_spends_its_bank_and_it_is_never_refilled() -> None:
    game = seated_game(rules(**BANKED), 2)
    seat = game.hand.turn
    assert spend(game, seat, 12) == [TimeBankUsed(player=seat, seconds=12)]
    assert game.table.bank_left[seat] == 48
    turn(game, seat)
    turn(game, 1 - seat)
    assert game.table.bank_left[seat] == 48, "a new turn, its own or another's: no refill"
    assert game.table.bank_left[1 - seat] == 60


def test_a_bank_is_spent_a_whole_second_at_least_and_never_below_zero() -> None:
    game = seated_game(rules(**BANKED), 2)
    seat = game.hand.turn
    for seconds in (0, -5, 61):
        with pytest.raises(IllegalMove):
            decide_bank_use(game.table, seat, seconds)
    spend(game, seat, 60)
    with pytest.raises(IllegalMove, match="0 s of its time bank left"):
        decide_bank_use(game.table, seat, 1)


def test_only_the_seat_the_game_waits_for_spends_and_only_with_a_bank() -> None:
    game = seated_game(rules(**BANKED), 2)
    assert isinstance(bank_problem(game.table, 1 - game.hand.turn, 5), NotYourTurn)
    unbanked = seated_game(rules(turn_seconds=30), 2)
    assert isinstance(bank_problem(unbanked.table, unbanked.hand.turn, 5), WrongPhase)


def test_a_seat_times_out_only_once_its_bank_is_spent() -> None:
    game = seated_game(rules(**BANKED), 2)
    seat = game.hand.turn
    assert isinstance(timeout_problem(game.table, seat), WrongPhase)
    spend(game, seat, 59)
    assert isinstance(timeout_problem(game.table, seat), WrongPhase)
    spend(game, seat, 1)
    assert timeout_problem(game.table, seat) is None
    assert time_out(game, seat)[0] == TurnTimedOut(player=seat, timeouts=1)


def test_indian_each_seat_to_show_spends_its_own_bank() -> None:
    game, declarer, first = _show(3, **BANKED)
    second = next(seat for seat in range(3) if seat not in (declarer, first))
    spend(game, first, 60)
    assert timeout_problem(game.table, first) is None
    assert isinstance(timeout_problem(game.table, second), WrongPhase), "its bank is whole"
    spend(game, second, 7)
    assert game.table.bank_left[second] == 53
