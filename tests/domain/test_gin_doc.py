"""docs/rules.md "Gin Rummy": its worked hands, read from the page and played at a
table, so the page never drifts from the engine.

Each hand follows an HTML comment `<!-- gin-example: NAME -->`: the upcard, the
knocker's ten cards and its draw, the knock card (or none: big gin), the
defender's ten cards, the cards it lays off, K and D (in bold after `K =` and
`D =`), how the hand ends (the code span naming it) and the score (the last
number in bold). The knocker is the non-dealer; both players pass the upcard; the
knocker draws from the stock and knocks. The end-of-game paragraph is checked
from the same page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from service.domain.actions import Knock, Pass
from service.domain.events import GameFinished, HandEnded
from service.domain.rules import RuleSet
from service.domain.state import HandEnding
from tests.domain.tables import Game, card, new_game

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
KNOCKER, DEFENDER = 0, 1


def page() -> str:
    return RULES_DOC.read_text(encoding="utf-8")


def names() -> list[str]:
    return re.findall(r"^<!-- gin-example: (.+) -->$", page(), flags=re.MULTILINE)


def example(name: str) -> str:
    parts = page().split(f"<!-- gin-example: {name} -->\n")
    assert len(parts) == 2, f"docs/rules.md has no one gin example {name!r}"
    return " ".join(re.split(r"\n\n", parts[1])[0].split())


def one(pattern: str, text: str) -> str:
    found = re.findall(pattern, text)
    assert len(found) == 1, f"{pattern!r}: {found}"
    return str(found[0])


def play(text: str, **options: Any) -> tuple[Game, list[Any]]:
    given = re.findall(r"`(\{[^`]+\})`", text)
    rules = RuleSet.from_dict(
        {"variant": "gin", **(json.loads(given[0]) if given else {}), **options}, players=2
    )
    knocker = one(r"knocker holds `([^`]+)`", text)
    drawn = one(r"and draws `(\w+)`", text)
    defender = one(r"defender holds `([^`]+)`", text)
    upcard = one(r"upcard `(\w+)`", text.replace("Upcard", "upcard"))
    # The defender deals, so the knocker is offered the upcard first.
    game = new_game([knocker, defender], upcard, drawn, dealer=DEFENDER, rules=rules)
    game.act(KNOCKER, Pass())
    game.act(DEFENDER, Pass())
    game.draw(KNOCKER)
    if "knocks without a card" in text:
        made = game.act(KNOCKER, Knock(None))
    else:
        made = game.act(KNOCKER, Knock(card(one(r"knocks with `(\w+)`", text))))
    return game, made


@pytest.mark.parametrize("name", names())
def test_each_worked_hand_plays_as_the_page_says(name: str) -> None:
    text = example(name)
    _, made = play(text)
    ended = next(event for event in made if isinstance(event, HandEnded))
    how = one(r"`(knock|gin|big_gin|undercut)`", text)
    assert ended.how is HandEnding(how)
    assert ended.counts == (
        int(one(r"K = \*\*(\d+)\*\*", text)),
        int(one(r"D = \*\*(\d+)\*\*", text)),
    )
    laid = re.findall(r"lays off `([^`]+)`", text)
    assert ended.laid_off is not None
    assert [each.card.code for each in ended.laid_off[DEFENDER]] == (
        laid[0].split() if laid else []
    )
    score = int(re.findall(r"\*\*(\d+)\*\*", text)[-1])
    scorer = DEFENDER if how == "undercut" else KNOCKER
    assert ended.points[scorer] == score
    assert ended.points[1 - scorer] == 0


def test_there_are_worked_hands_of_every_kind() -> None:
    kinds = {one(r"`(knock|gin|big_gin|undercut)`", example(name)) for name in names()}
    assert kinds == {"knock", "gin", "big_gin", "undercut"}


def test_the_end_of_a_game_is_as_the_page_says() -> None:
    text = " ".join(page().split("**The end of a game**", 1)[1].split("\n\n")[0].split())
    target = int(one(r"with `target` (\d+)", text))
    _, made = play(example("the rules' hand"), target=target)
    finished = made[-1]
    assert isinstance(finished, GameFinished)
    assert finished.winner == KNOCKER
    found = re.findall(r"= (\d+), the defender's (\d+)", text)
    assert len(found) == 1
    winner, loser = found[0]
    assert finished.totals == (int(winner), int(loser))
