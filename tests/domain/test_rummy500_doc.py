"""docs/rules.md "500 Rum": its worked examples, read from the page and played at
a table, so the page never drifts from the engine.

Each example follows an HTML comment `<!-- rummy500-example: NAME -->`; its hands,
pile, requests (a JSON block), refusals and scores (in bold) are read from its
text. Cards the example does not name come from what is left of the pack.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from service.domain.actions import Action, Discard, Draw, LayOff, Meld
from service.domain.cards import FULL_DECK, Card
from service.domain.errors import UnknownCard
from service.domain.rules import RuleSet
from service.domain.state import HandEnding, Source
from service.domain.turns import action_problem, legal_moves
from tests.domain.tables import STOCK, Game, card, cards, new_game

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def example(name: str) -> str:
    parts = RULES_DOC.read_text(encoding="utf-8").split(f"<!-- rummy500-example: {name} -->\n")
    assert len(parts) == 2, f"docs/rules.md has no one example {name!r}"
    return re.split(r"^<!-- rummy500-example|^#{1,4} ", parts[1], flags=re.MULTILINE)[0]


def spans(text: str) -> list[str]:
    """The example's code spans that are card lists, in order."""
    found = re.findall(r"`([^`]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
    return [" ".join(span.split()) for span in found if all(map(_is_code, span.split()))]


def _is_code(code: str) -> bool:
    try:
        Card.parse(code)
    except UnknownCard:
        return False
    return True


def action(body: dict[str, Any]) -> Action:
    match body["type"]:
        case "draw":
            return Draw(Source(body["source"]), body.get("count", 1))
        case "meld":
            return Meld(tuple(cards(body["cards"])))
        case "discard":
            return Discard(card(body["card"]))
    raise AssertionError(body)


def rest(*taken: list[Card], count: int) -> list[str]:
    """`count` codes of the pack that none of `taken` holds, in pack order."""
    used = {c for group in taken for c in group}
    return [c.code for c in FULL_DECK if c not in used][:count]


def test_calling_a_card() -> None:
    text = example("called-card")
    held = cards(spans(text)[0])
    pile = cards(spans(text)[1])
    players = WORDS[re.search(r"(\w+) players", text, flags=re.IGNORECASE)[1].lower()]  # type: ignore[index]
    # The others' hands from the rest of the pack; the pile is built by the turns
    # before seat 0's: each draws the next pile card from the stock and throws it.
    others = rest(held, pile, count=7 * (players - 1))
    hands = [" ".join(c.code for c in held)] + [
        " ".join(others[7 * n : 7 * n + 7]) for n in range(players - 1)
    ]
    spare = rest(held, pile, cards(" ".join(others)), count=5)
    game = new_game(
        hands,
        pile[0].code,
        [c.code for c in pile[1:]] + spare,
        rules=RuleSet.from_dict({"variant": "rummy500"}, players=players),
    )
    seat = 1
    for drawn in pile[1:]:
        game.act(seat, STOCK, Discard(drawn))
        seat = (seat + 1) % players
    assert seat == 0
    assert game.hand.discard == pile
    # The refusals the page names.
    refused = re.search(r"Taking (\w+) \(`(\w+)` the deepest\) is refused with\s+`(\w+)`", text)
    assert refused is not None
    count = WORDS[refused[1]]
    assert game.hand.discard[-count] == card(refused[2])
    problem = action_problem(game.table, 0, Draw(Source.DISCARD, count))
    assert problem is not None
    assert problem.code == refused[3]
    assert count not in legal_moves(game.table, 0).pile_counts
    block = re.search(r"```json\n(.*?)\n```", text, re.S)
    assert block is not None
    request = [action(body) for body in json.loads(block[1])]
    game.act(0, request[0])
    unused = re.search(r"the discard is\s+refused with `(\w+)`", text)
    assert unused is not None
    assert game.refuses(0, request[-1]) == unused[1]
    game.act(0, *request[1:])
    # Its turn is over: seat 1 is to draw, and the pile is only the card thrown.
    assert game.hand.turn == 1
    assert game.hand.discard == [request[-1].card]  # type: ignore[union-attr]


def test_a_hands_scores() -> None:
    text = example("scores")
    (a_run, a_lay, c_run, a_holds, b_set, b_run, b_lay, c_low, _, _, c_holds) = spans(text)
    scores = [int(points) for points in re.findall(r"scores \*\*(-?\d+)\*\*", text)]
    a, b, c = 0, 1, 2
    held = cards(a_holds)
    # C deals, so A plays first. Each draws from the stock and throws what it drew.
    hands = [
        f"{a_run} {a_lay} {a_holds}",
        f"{b_set} {b_run} {b_lay}",
        f"{c_run} {c_low} {c_holds}",
    ]
    named = cards(" ".join(hands))
    stock = rest(named, count=5)
    game: Game = new_game(
        hands,
        rest(named, cards(" ".join(stock)), count=1)[0],
        stock,
        dealer=c,
        rules=RuleSet.from_dict({"variant": "rummy500"}, players=3),
    )
    draws = iter(cards(" ".join(stock)))
    game.act(a, STOCK, Meld(tuple(cards(a_run))), Discard(next(draws)))
    game.act(b, STOCK, Meld(tuple(cards(b_set))), Meld(tuple(cards(b_run))), Discard(next(draws)))
    game.act(c, STOCK, Meld(tuple(cards(c_run))), Meld(tuple(cards(c_low))), Discard(next(draws)))
    spades, clubs = (meld.id for meld in game.hand.melds if meld.owner == c)
    game.act(a, STOCK, LayOff(card(a_lay), spades), Discard(next(draws)))
    assert Counter(game.hand.hands[a]) == Counter(held)
    game.act(b, STOCK, LayOff(card(b_lay), clubs), Discard(next(draws)))
    result = game.last
    assert (result.how, result.out_seat) == (HandEnding.OUT, b)
    assert list(result.points) == scores
