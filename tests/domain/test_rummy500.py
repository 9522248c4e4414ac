"""500 Rum (docs/rules.md "500 Rum"): its preset, the spread pile and `count`, the
called card, meld credit with its ace values, the hand's score and end. Each rule is
played at a table (`tests.domain.tables`); the credit is checked against sums
written out by hand."""

from __future__ import annotations

import pytest

from service.domain.actions import Discard, Draw, LayOff, Meld
from service.domain.changes import apply
from service.domain.errors import InvalidRules, InvalidSeating
from service.domain.events import CardDrawn, HandEnded
from service.domain.leaving import decide_leave
from service.domain.rules import RuleSet
from service.domain.setup import check_new_game
from service.domain.state import HandEnding, Source
from service.domain.turns import action_problem, legal_moves
from tests.domain.tables import STOCK, Game, card, cards, dealt_table, new_game


def r500(players: int, **options: object) -> RuleSet:
    return RuleSet.from_dict({"variant": "rummy500", **options}, players=players)


def pile(n: int) -> Draw:
    return Draw(Source.DISCARD, n)


# --- the preset -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "packs", "hand_size"),
    [(2, 1, 13), (3, 1, 7), (4, 1, 7), (5, 2, 7), (8, 2, 7)],
)
def test_the_pack_and_the_hand_follow_the_seats(players: int, packs: int, hand_size: int) -> None:
    rules = r500(players)
    check_new_game(rules, players)
    assert (rules.packs, rules.hand_size, rules.target) == (packs, hand_size, 500)
    assert rules.to_dict()["aces"] == "high_or_low"


@pytest.mark.parametrize(
    ("players", "options", "named"),
    [
        (3, {"packs": 2}, "packs"),
        (6, {"packs": 1}, "packs"),
        (2, {"hand_size": 7}, "hand_size"),
        (4, {"hand_size": 13}, "hand_size"),
        (3, {"aces": "low"}, "aces"),
        (3, {"melds_per_turn": "one"}, "melds_per_turn"),
        (3, {"lay_off": "after_own_meld"}, "lay_off"),
        (3, {"recycles": 0}, "recycles"),
        (3, {"rummy_bonus": "none"}, "rummy_bonus"),
        (3, {"scoring": "penalty"}, "scoring"),
        (3, {"deals": 3}, "deals"),
        (3, {"target": 99}, "target"),
        (3, {"target": 1001}, "target"),
        (3, {"ace_value": 1}, "ace_value"),
    ],
)
def test_every_other_option_is_refused(
    players: int, options: dict[str, object], named: str
) -> None:
    with pytest.raises(InvalidRules, match=named):
        check_new_game(r500(players, **options), players)


def test_going_out_and_target_take_their_values() -> None:
    rules = r500(3, going_out="discard", target=100)
    check_new_game(rules, 3)
    assert (rules.going_out.value, rules.target) == ("discard", 100)


def test_eight_seats_only_in_500_rum() -> None:
    check_new_game(r500(8), 8)
    with pytest.raises(InvalidSeating):
        check_new_game(r500(8), 9)
    with pytest.raises(InvalidSeating):
        check_new_game(RuleSet.from_dict({}, players=7), 7)


# --- `count`: one shared refusal for every engine ----------------------------------------


@pytest.mark.parametrize("variant", ["classic", "wild", "boathouse", "knock", "indian", "gin"])
def test_a_count_above_one_is_not_in_the_other_variants(variant: str) -> None:
    table, _ = dealt_table(variant, "count")
    assert table.hand is not None
    seat = table.hand.turn
    problem = action_problem(table, seat, pile(2))
    assert problem is not None
    assert problem.code == "not_in_variant"
    assert action_problem(table, seat, Draw(Source.DISCARD, 1)) is None


def test_a_stock_draw_takes_one_card_in_500_rum_too() -> None:
    table, _ = dealt_table("rummy500", "count")
    assert table.hand is not None
    problem = action_problem(table, table.hand.turn, Draw(Source.STOCK, 2))
    assert problem is not None
    assert problem.code == "not_in_variant"


# --- the spread pile ------------------------------------------------------------------------

# Three players, dealer 0: seat 1 plays first. Seats 1 and 2 and 0 each draw the stock's
# top card and throw it, so the pile is, bottom first: the upcard 9D, then 4S, QC, 10H.
HANDS = [
    "2C 3C 7D 8D KS KH 6C",  # seat 0
    "5H 6H 7H JS JH 2D 9S",  # seat 1
    "AD AC 3H 3S 8C 10C 5C",  # seat 2
]


def three_player_pile(**options: object) -> Game:
    game = new_game(HANDS, "9D", "4S QC 10H 2S 4D", rules=r500(3, **options))
    for seat, code in ((1, "4S"), (2, "QC"), (0, "10H")):
        game.turn(seat, code)
    return game


def test_the_pile_is_spread_and_a_draw_takes_the_top_count_in_pile_order() -> None:
    game = three_player_pile()
    assert game.hand.discard == cards("9D 4S QC 10H")
    # Seat 1 takes QC and 10H: 10H is not the called card; QC is, and it cannot be used
    # (no queen and no run in clubs near it): refused. Taking 4 calls 9D, which melds
    # with 7D 8D? No: seat 1 holds neither. 10H alone is always allowed.
    assert game.refuses(1, pile(2)) == "pile_card_unusable"
    assert game.refuses(1, pile(5)) == "pile_too_short"
    assert legal_moves(game.table, 1).pile_counts == (1,)
    made = game.act(1, pile(1))
    assert made == [CardDrawn(seat=1, source=Source.DISCARD, card=card("10H"))]
    # A card just taken from the pile may go straight back (it is no called card).
    game.discard(1, "10H")


def test_a_deep_draw_must_use_the_called_card_before_the_turn_ends() -> None:
    game = three_player_pile()
    game.turn(1, "2D")  # draws 2S; the pile is now 9D 4S QC 10H 2D
    # Seat 2 holds 3H 3S: taking 4 cards calls 4S (with QC 10H 2D); no meld holds 4S
    # (3S and 5S? it has no 5S; no fours): refused. Seat 2 cannot use 9D either.
    assert legal_moves(game.table, 2).pile_counts == (1,)
    game.turn(2, "8C")  # draws 4D; pile 9D 4S QC 10H 2D 8C
    # Seat 0 holds 7D 8D: taking all six calls 9D, which melds as 7D 8D 9D.
    counts = legal_moves(game.table, 0).pile_counts
    assert counts == (1, 6)
    drawn = game.act(0, pile(6))
    assert drawn == [
        CardDrawn(
            seat=0,
            source=Source.DISCARD,
            card=card("9D"),
            count=6,
            cards=tuple(cards("9D 4S QC 10H 2D 8C")),
        )
    ]
    assert game.hand.discard == []
    assert game.hand.spread is not None
    assert game.hand.spread.called == card("9D")
    assert game.refuses(0, Discard(card("KS"))) == "taken_card_unused"
    # Melding 2C 3C 2D? Not a meld. A meld that does not use 9D but leaves it usable is
    # fine; one that spends 8D would strand it: refused.
    assert game.refuses(0, Meld(tuple(cards("8C 8D 8D")))) in ("card_not_in_hand", "invalid_meld")
    game.meld(0, "7D 8D 9D")
    assert game.hand.spread.called is None
    game.discard(0, "KS")


def test_a_play_may_not_leave_the_called_card_unusable() -> None:
    hands = ["2C 3C 4C 7D 8D KS KH", "5H 6H 7H JS JH 2D 9S", "AD AC 3H 3S 8C 10C 5C"]
    game = new_game(hands, "9C", "4S QC 10H 2S 4D", rules=r500(3))
    game.turn(1, "4S")
    # Seat 2 passes; seat 0 then calls 9C under 4S: usable only in a run... it holds
    # 2C 3C 4C (no 8C): unusable. Seat 2's 8C 10C make 8C 9C 10C: allowed.
    assert legal_moves(game.table, 2).pile_counts == (1, 2)
    game.act(2, pile(2))
    assert game.hand.spread is not None
    assert game.hand.spread.called == card("9C")
    assert legal_moves(game.table, 2).discard == ()
    # Melding its clubs another way (none here) would strand it; laying 10C nowhere is
    # no move; the one way out is the run.
    assert game.refuses(2, Discard(card("AD"))) == "taken_card_unused"
    game.meld(2, "8C 9C 10C")
    game.discard(2, "4S")


def test_a_meld_that_spends_what_the_called_card_needs_is_refused() -> None:
    hands = ["4C 5C 4D 4H 8D KS KH", "5H 6H 7H JS JH 2D 9S", "AD AC 3H 3S 8C 10C QD"]
    game = new_game(hands, "6C", "4S QC 10H 2S 9D", rules=r500(3))
    game.turn(1, "4S")
    game.turn(2, "QD")
    # Seat 0 calls 6C (taking 6C 4S QD): 4C 5C 6C melds it.
    game.act(0, pile(3))
    # 4C 4D 4H would leave 5C 6C and no clubs on the table: 6C unusable, refused.
    assert game.refuses(0, Meld(tuple(cards("4C 4D 4H")))) == "taken_card_unused"
    # 4D 4H 4S leaves 4C 5C 6C: allowed.
    offered = legal_moves(game.table, 0).melds
    assert {"4C", "4D", "4H"} not in [{c.code for c in m} for m in offered]
    game.meld(0, "4D 4H 4S")
    assert game.refuses(0, Discard(card("KS"))) == "taken_card_unused"
    game.meld(0, "4C 5C 6C")
    game.discard(0, "KS")


def test_a_chain_of_lay_offs_may_reach_the_called_card() -> None:
    hands = ["2C 3C 4C 5C 8D KS KH", "5H 6H 7H JS JH 2D 9S", "AD AC 3H 3S 8C 10C QD"]
    game = new_game(hands, "6C", "4S QC 10H 2S 4D", rules=r500(3))
    game.turn(1, "4S")
    game.turn(2, "QD")
    game.act(0, pile(3))
    # 2C 3C 4C on the table, then 5C and 6C laid off: the chain uses the called card.
    game.meld(0, "2C 3C 4C")
    assert game.refuses(0, Discard(card("KS"))) == "taken_card_unused"
    game.lay_off(0, "5C", "h1-m1")
    game.lay_off(0, "6C", "h1-m1")
    game.discard(0, "KS")


# --- credit, values, scores -----------------------------------------------------------------


def test_an_ace_at_the_low_end_of_a_run_counts_one_and_high_fifteen() -> None:
    hands = ["2S 3S 4S QH KH 7D 7C", "5H 6H 7H JS JH 2D 9S", "AS AH 3H 3D 8C 10C QD"]
    game = new_game(hands, "9C", "4D 5D 6D 10D JD", rules=r500(3))
    game.act(1, STOCK, Discard(card("4D")))
    game.act(2, STOCK, Discard(card("5D")))
    game.act(0, STOCK, Meld(tuple(cards("2S 3S 4S"))), Discard(card("6D")))
    game.act(1, STOCK, Discard(card("10D")))
    game.act(2, STOCK, LayOff(card("AS"), "h1-m1"), Discard(card("JD")))
    meld = game.hand.melds[0]
    assert meld.cards == cards("AS 2S 3S 4S")
    from service.domain.rummy500.credit import credits

    # Seat 0 put down 2 + 3 + 4; seat 2 the low ace, 1.
    assert credits(game.hand.melds, 3, game.table.rules) == [9, 0, 1]


def test_the_rules_page_example_scores() -> None:
    """The rules' three-player example: A scores 24, B 45 (values written out by hand)."""
    from service.domain.melds import MeldKind, TableMeld
    from service.domain.rummy500.credit import hand_points

    def meld(codes: str, owner: int, kind: MeldKind, laid: list[tuple[str, int]] = []) -> TableMeld:  # noqa: B006
        return TableMeld(
            id=codes,
            kind=kind,
            cards=cards(codes),
            owner=owner,
            laid_off=[(card(code), seat) for code, seat in laid],
        )

    a, b, c = 0, 1, 2
    table_melds = [
        meld("7H 8H 9H", a, MeldKind.RUN),
        meld("JS QS KS AS", c, MeldKind.RUN, [("AS", a)]),
        meld("5D 5S 5H", b, MeldKind.SET),
        meld("9C 10C JC", b, MeldKind.RUN),
        meld("AC 2C 3C 4C", c, MeldKind.RUN, [("AC", b)]),
    ]
    hands = [cards("KD 2D 3S"), [], cards("6D")]
    melded, held, points = hand_points(table_melds, hands, r500(3))
    assert melded[a] == 7 + 8 + 9 + 15
    assert held[a] == 10 + 2 + 3
    assert points[a] == 24
    assert melded[b] == 15 + 9 + 10 + 10 + 1
    assert points[b] == 45
    assert melded[c] == 10 + 10 + 10 + 2 + 3 + 4
    assert held[c] == 6


def test_a_hand_ends_when_a_turn_ends_with_the_stock_empty() -> None:
    table, decks = dealt_table("rummy500", "stock")
    game = Game(table, decks)
    hand = game.hand
    number = hand.number
    while table.hand is not None and table.hand.number == number:
        seat = table.hand.turn
        stock_top = table.hand.stock[-1]
        made = game.act(seat, STOCK, Discard(stock_top))
    ended = [event for event in made if isinstance(event, HandEnded)]
    assert len(ended) == 1
    assert ended[0].how is HandEnding.EXHAUSTED
    result = ended[0]
    assert result.melded == (0, 0)
    assert result.points == tuple(-value for value in result.values)
    # 13 each and the upcard from 52: 25 turns of the stock.
    assert game.table.hands_played == 1
    assert len(made) >= 3


def test_going_out_any_melds_out_without_a_discard_discard_needs_one() -> None:
    hands = ["2S 3S 4S 5S 6S 7S 8S", "5H 6H 7H JS JH 2D 9H", "AS AH 3H 3D 8C 10C QD"]
    for going_out, out in (("any", True), ("discard", False)):
        game = new_game(hands, "9C", "9S 4D 10D JD", dealer=2, rules=r500(3, going_out=going_out))
        # Seat 0 plays first: 2S..9S is all its hand.
        if out:
            game.act(0, STOCK, Meld(tuple(cards("2S 3S 4S 5S 6S 7S 8S 9S"))))
            assert game.last.out_seat == 0
            assert game.last.how is HandEnding.OUT
            assert game.last.melded is not None
            assert game.last.melded[0] == sum(range(2, 10))
        else:
            game.act(0, STOCK)
            assert game.refuses(0, Meld(tuple(cards("2S 3S 4S 5S 6S 7S 8S 9S")))) == (
                "must_discard_last"
            )
            game.act(0, Meld(tuple(cards("2S 3S 4S 5S 6S 7S 8S"))), Discard(card("9S")))
            assert game.last.out_seat == 0


def test_a_forfeiters_cards_count_against_it_and_its_credit_stays() -> None:
    hands = ["2S 3S 4S QH KH 7D 7C", "5H 6H 7H JS JH 2D 9S", "AS AH 3H 3D 8C 10C QD"]
    rules = r500(3, abandon="forfeit", max_turns=4)
    game = new_game(hands, "9C", "4D 5D 6D 10D JD 2C", rules=rules)
    game.act(1, STOCK, Meld(tuple(cards("5H 6H 7H"))), Discard(card("4D")))
    for event in decide_leave(game.table, 1, game.decks, resign=True):
        apply(game.table, event)
    assert game.table.forfeited[1]
    # Seats 2 and 0 play on, seat 1 skipped, until the turn cap ends the hand.
    game.act(2, STOCK, Discard(card("5D")))
    game.act(0, STOCK, Meld(tuple(cards("2S 3S 4S"))), Discard(card("6D")))
    game.act(2, STOCK, Discard(card("10D")))
    result = game.last
    assert result.how is HandEnding.TURN_CAP
    # Seat 1 put down 5 + 6 + 7 and holds JS JH 2D 9S (31), face down in the result.
    assert result.melded == (9, 18, 0)
    assert result.values[1] == 10 + 10 + 2 + 9
    assert result.points[1] == 18 - 31
    assert result.remaining[1] == ()
