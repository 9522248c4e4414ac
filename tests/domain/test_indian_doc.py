"""docs/rules.md "Indian 13-card Rummy": its worked examples, read from the page
and played at a table, so the page never drifts from the engine.

Each example follows an HTML comment `<!-- indian-example: NAME -->`; the
hands, the cards drawn, the requests (JSON blocks), each group's kind (the
tables) and the points (in bold) are read from its text. Cards the example
does not name (the other seats' hands, the upcard) come from what is left of
the pack.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from service.domain.actions import Declare, SubmitGroups
from service.domain.cards import Card, Rank
from service.domain.events import Declared, GameFinished, GroupsSubmitted, HandDealt
from service.domain.indian.judge import card_points
from service.domain.rule_values import Format
from service.domain.state import DealStatus, HandEnding, Phase, indian_of
from tests.domain.indian_tables import (
    LIFE_UP_TO,
    Does,
    Shoe,
    indian_deck,
    indian_rules,
    play_deal,
    scripted_game,
)
from tests.domain.tables import STOCK, Game, cards, seated_game

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
PLAYERS = {"Two": 2, "Three": 3}
DASH = "\u2013"
"""The en dash the page writes for "none" in its tables."""


def page() -> str:
    return RULES_DOC.read_text(encoding="utf-8")


def example(name: str) -> str:
    """The text of one worked example: from its marker to the next example or heading."""
    parts = page().split(f"<!-- indian-example: {name} -->\n")
    assert len(parts) == 2, f"docs/rules.md has no one example {name!r}"
    return re.split(r"^<!-- indian-example|^#{1,4} ", parts[1], flags=re.MULTILINE)[0]


def one(pattern: str, text: str) -> str:
    found = re.findall(pattern, text, flags=re.DOTALL)
    assert len(found) == 1, f"{pattern!r}: {found}"
    return str(found[0])


def codes(pattern: str, text: str) -> list[str]:
    """The codes of the one code span `pattern` (a regex ending before the span) names."""
    return one(pattern + r" `([^`]+)`", text).split()


def request(text: str) -> dict[str, Any]:
    block = one(r"```json\n(.*?)\n```", text)
    parsed: dict[str, Any] = json.loads(block)
    return parsed


def groups(request_groups: list[list[str]]) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(cards(group)) for group in request_groups)


def kinds(text: str) -> list[tuple[list[str], str]]:
    """The rows of the example's table of groups: each group's codes and kind."""
    rows = re.findall(r"^\| `([^`]+)` \| [^|]+ \| `(\w+)` \|$", text, flags=re.MULTILINE)
    assert rows, "the example has a table of groups"
    return [(group.split(), kind) for group, kind in rows]


def scores(text: str) -> list[int]:
    return [int(points) for points in re.findall(r"scores \*\*(-?\d+)\*\*", text)]


def shown_kinds(event: Declared | GroupsSubmitted) -> list[tuple[list[str], str]]:
    return [([c.code for c in group.cards], group.kind.value) for group in event.groups]


def the(found: list[Any], kind: type) -> Any:
    matching = [each for each in found if isinstance(each, kind)]
    assert len(matching) == 1, f"one {kind.__name__}: {matching}"
    return matching[0]


def two_seat_game(indicator: str, hand0: list[str], hand1: list[str], drawn: str) -> Game:
    rules = indian_rules(2)
    shoe = Shoe(rules, indicator, [*hand0, *hand1, drawn])
    deck = indian_deck(
        rules,
        {0: hand0, 1: hand1},
        dealer=1,
        upcard=shoe.any_cards(1)[0].code,
        indicator=indicator,
        stock=[drawn],
    )
    return seated_game(rules, 2, 1, (deck,))


def test_the_valid_declaration_is_valid_scores_0_and_the_loser_pays_its_ungrouped_cards() -> None:
    text = example("valid-declaration")
    indicator = one(r"indicator is\s+`(\w+)`", text)
    hand0 = codes(r"Seat 0 holds", text)
    hand1 = codes(r"Seat 1 holds", text)
    drawn = one(r"draws `(\w+)` from the stock", text)
    declare = request(text)
    assert (declare["type"], declare["card"]) == ("declare", drawn)
    game = two_seat_game(indicator, hand0, hand1, drawn)

    assert the(game.act(0, STOCK), object).card == Card.parse(drawn)
    declared = the(game.act(0, Declare(Card.parse(drawn), groups(declare["groups"]))), Declared)
    assert shown_kinds(declared) == kinds(text)
    declarer_points, loser_points = scores(text)
    assert (declared.valid, declared.points) == (True, declarer_points)
    assert game.hand.phase is Phase.SHOW

    submitted = json.loads(one(r"submits `(\[.*?\])`", text))
    made = game.act(1, SubmitGroups(groups(submitted)))
    assert the(made, GroupsSubmitted).points == loser_points
    totals = [int(t) for t in re.findall(r"seat \d\s+\*\*(-?\d+)\*\*", one(r"Totals:(.*)", text))]
    assert game.table.totals == totals
    assert (game.last.how, game.table.winner) == (HandEnding.DECLARED, 0)


def test_the_wrong_show_costs_80_and_the_deal_goes_on_without_it() -> None:
    text = example("wrong-show")
    players = PLAYERS[one(r"(\w+) players", text)]
    dealer = int(one(r"seat (\d) deals", text))
    indicator = one(r"indicator is\s+`(\w+)`", text)
    hand0 = codes(r"Seat 0 holds", text)
    drawn = one(r"draws `(\w+)`", text)
    declare = request(text)
    rules = indian_rules(players)
    shoe = Shoe(rules, indicator, [*hand0, drawn])
    others = {seat: [c.code for c in shoe.any_cards(13)] for seat in range(1, players)}
    deck = indian_deck(
        rules,
        {0: hand0, **others},
        dealer=dealer,
        upcard=shoe.any_cards(1)[0].code,
        indicator=indicator,
        stock=[drawn],
    )
    game = seated_game(rules, players, dealer, (deck,))

    game.act(0, STOCK)
    declared = the(game.act(0, Declare(Card.parse(drawn), groups(declare["groups"]))), Declared)
    assert shown_kinds(declared) == kinds(text)
    assert (declared.valid, declared.points) == (False, scores(text)[0])
    assert game.hand.indian is not None
    assert game.hand.indian.statuses[0].value == one(r"its status is `(\w+)`", text)
    assert (game.hand.turn, game.hand.phase) == (
        int(one(r"seat (\d) plays next", text)),
        Phase.DRAW,
    )
    still_in = [int(s) for s in re.findall(r"\d", one(r"between (seats \d and \d)", text))]
    assert [s for s, st in enumerate(game.hand.indian.statuses) if st is DealStatus.IN] == still_in


def test_the_loser_without_a_pure_sequence_counts_all_13_cards() -> None:
    text = example("no-pure-sequence")
    indicator = one(r"indicator is\s+`(\w+)`", text)
    hand1 = codes(r"seat 1 holds", text)
    submit = request(text)
    assert submit["type"] == "submit_groups"
    rules = indian_rules(2)
    shoe = Shoe(rules, indicator, hand1)
    declaration = shoe.declaration()
    hand0 = [c.code for group in declaration for c in group]
    drawn = shoe.any_cards(1)[0].code
    game = two_seat_game(indicator, hand0, hand1, drawn)
    game.act(0, STOCK)
    game.act(0, Declare(Card.parse(drawn), declaration))

    submitted = the(game.act(1, SubmitGroups(groups(submit["groups"]))), GroupsSubmitted)
    assert shown_kinds(submitted) == kinds(text)
    assert submitted.points == scores(text)[0]
    wild = Rank.parse(Card.parse(indicator).rank.code)
    terms = [int(t) for t in one(r"all 13 cards count, ([\d +\n]+), and", text).split("+")]
    assert sorted(terms) == sorted(card_points(c, wild) for c in cards(hand1))
    assert sum(terms) == submitted.points
    ungrouped = codes(r"only", text)
    would = int(one(r"would have counted \((\d+)\)", text))
    assert sum(card_points(c, wild) for c in cards(ungrouped)) == would


def test_the_deal_example_gives_each_deck_position_its_seat() -> None:
    deal_text = page().split("#### The pack and the deal", 1)[1].split("#### ", 1)[0]
    dealer = int(one(r"Three players, seat (\d) deals", deal_text))
    given = {int(i): int(s) for i, s in re.findall(r"`deck\[(\d+)\]` → seat (\d)", deal_text)}
    rules = indian_rules(3)
    game = seated_game(rules, 3, dealer)
    deck = the(game.events, HandDealt).deck
    for index, seat in given.items():
        assert deck[index] in game.hand.hands[seat]
    flat = " ".join(deal_text.split())
    upcard, indicator, top = (
        int(one(rf"`deck\[(\d+)\]` (?:is )?the {name}", flat))
        for name in ("upcard", "indicator", "top of the stock")
    )
    assert (upcard, indicator, top) == (13 * 3, 13 * 3 + 1, 13 * 3 + 2)
    assert game.hand.discard == [deck[upcard]]
    assert indian_of(game.hand).indicator == deck[indicator]
    assert game.hand.stock[-1] == deck[top]


def test_a_joker_indicator_makes_the_aces_wild() -> None:
    text = example("joker-indicator")
    players = PLAYERS[one(r"(\w+) players", text)]
    dealer = int(one(r"seat (\d) deals", text))
    at = {int(i): code for i, code in re.findall(r"`deck\[(\d+)\]` is `(\w+)`", text)}
    upcard, indicator, top = (at[13 * players], at[13 * players + 1], at[13 * players + 2])
    hand0 = codes(r"it holds", text)
    drawn = one(r"draws `(\w+)`", text)
    declare = request(text)
    rules = indian_rules(players)
    assert rules.packs == 2
    shoe = Shoe(rules, indicator, [*hand0, upcard, top])
    others = {seat: [c.code for c in shoe.any_cards(13)] for seat in range(1, players)}
    deck = indian_deck(
        rules, {0: hand0, **others}, dealer=dealer, upcard=upcard, indicator=indicator, stock=[top]
    )
    game = seated_game(rules, players, dealer, (deck,))
    dealt = the(game.events, HandDealt).deck
    assert {i: dealt[i].code for i in at} == at
    hand = game.hand
    assert (hand.discard, indian_of(hand).indicator, indian_of(hand).wild) == (
        cards([upcard]),
        Card.parse("JK"),
        Rank.ACE,
    )
    assert sorted(c.code for c in hand.hands[0]) == sorted(hand0)
    assert hand.turn == 0

    assert the(game.act(0, STOCK), object).card == Card.parse(drawn) == Card.parse(top)
    declared = the(game.act(0, Declare(Card.parse(drawn), groups(declare["groups"]))), Declared)
    assert shown_kinds(declared) == kinds(text)
    assert (declared.valid, declared.points) == (True, scores(text)[0])
    assert indian_of(game.hand).statuses == [
        DealStatus.DECLARED,
        DealStatus.TO_SUBMIT,
        DealStatus.TO_SUBMIT,
    ]


# --- the pool ----------------------------------------------------------------------------------

SEATS = {"A": 0, "B": 1, "C": 2}
CLAUSE = re.compile(
    r"^([ABC]) (declares|submits (\d+)|drops first|drops in the middle|shows wrongly|is left)"
    r"(.*)$"
)


def roles_of(happened: str) -> dict[int, tuple[Does, int]]:
    """What each seat does in a deal, from the table's "what happened" cell; a
    submission said to have no pure sequence is one that counts over the most a hand
    with one can count here."""
    roles: dict[int, tuple[Does, int]] = {}
    for clause in happened.split(";"):
        found = CLAUSE.match(clause.strip())
        assert found is not None, clause
        name, did, points, rest = found.groups()
        if points is None:
            roles[SEATS[name]] = (Does(did), 0)
        else:
            assert ("no pure sequence" in rest) == (int(points) > LIFE_UP_TO), clause
            roles[SEATS[name]] = (Does.SUBMITS, int(points))
    return roles


def numbers(cell: str) -> list[int | None]:
    return [None if each.strip() == DASH else int(each) for each in cell.split(",")]


def test_the_pool_eliminates_at_101_and_the_last_player_left_wins() -> None:
    text = example("pool")
    options = json.loads(one(r"`(\{\"variant\".*?\})`", text))
    rules = indian_rules(3, **{k: v for k, v in options.items() if k != "variant"})
    assert rules.format is Format.POOL_101
    rows = re.findall(
        r"^\| (\d) \| ([ABC]) \| (.*?) \| (.*?) \| (.*?) \| (.*?) \|$", text, flags=re.MULTILINE
    )
    assert len(rows) == 4
    plan = [(SEATS[dealer], roles_of(happened)) for _, dealer, happened, *_ in rows]
    assert plan[0][0] == SEATS[one(r"([ABC]) deals first", text)]
    game, deals = scripted_game(rules, 3, plan)

    out: set[int] = set()
    for deal, (_, dealer, _, points, totals, eliminated) in zip(deals, rows, strict=True):
        dealt = [e for e in game.events if isinstance(e, HandDealt)][-1]
        assert dealt.dealer == SEATS[dealer]
        assert dealt.seats == tuple(sorted(deal.parts))
        play_deal(game, deal)
        last = game.last
        assert last.statuses is not None
        for seat, expected in enumerate(numbers(points)):
            if expected is None:
                assert seat in out
                assert last.statuses[seat] is DealStatus.ELIMINATED
            else:
                assert last.points[seat] == expected, (dealer, seat)
        assert list(last.totals) == numbers(totals)
        now_out = {SEATS[name.strip()] for name in eliminated.split(",") if name.strip() != DASH}
        assert set(last.eliminated or ()) == now_out
        out |= now_out
    finished = the(game.events, GameFinished)
    assert finished.winner == SEATS[one(r"([ABC]) is the last player\s+left and wins", text)]
