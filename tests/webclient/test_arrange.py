"""The web client's Gin Rummy arrangement (static/arrange.js) against the service's.

Before a knock the page shows the knocker's arrangement and sends it as the
knock's `melds`: its count must be the least deadwood, the one the server's own
search finds (`knock.arrange`, Knock Rummy's count under aces low: A 1, J Q K 10,
which docs/rules.md "Gin Rummy" names as gin's), and each meld it shows must be
one the rules allow. The module runs in node, as the browser runs it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain import knock, melds
from service.domain.cards import FULL_DECK, Card
from service.domain.rule_values import Aces
from service.domain.rules import RuleSet
from service.webclient.served import FILES
from tests.clients.tools import run, unavailable

ACES_LOW = RuleSet.from_dict({"variant": "knock", "aces": "low"})

SCRIPT = """
const { arrange } = await import("./arrange.js");
const hands = JSON.parse(process.argv[2]);
console.log(JSON.stringify(hands.map((hand) => arrange(hand))));
"""

HANDS = st.lists(
    st.lists(st.sampled_from(FULL_DECK), min_size=10, max_size=11, unique=True),
    min_size=40,
    max_size=40,
)
"""Batches of hands of ten or eleven cards (before and after the draw)."""


def _module_dir(folder: Path) -> Path:
    """`folder` with arrange.js and the modules it imports, runnable by node."""
    if shutil.which("node") is None:
        unavailable("node is not installed")
    for name in ("arrange.js", "cards.js", "dom.js"):
        shutil.copy(FILES / name, folder / name)
    (folder / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    (folder / "run.mjs").write_text(SCRIPT, encoding="utf-8")
    return folder


def _arranged(folder: Path, hands: list[list[Card]]) -> list[dict[str, Any]]:
    codes = [[card.code for card in hand] for hand in hands]
    answer = run(["node", folder / "run.mjs", json.dumps(codes)], cwd=folder)
    assert answer.returncode == 0, answer.stderr
    arranged: list[dict[str, Any]] = json.loads(answer.stdout)
    return arranged


def test_the_pages_arrangement_has_the_servers_least_deadwood_in_valid_melds(
    tmp_path: Path,
) -> None:
    folder = _module_dir(tmp_path)

    @settings(max_examples=25, deadline=None)
    @given(HANDS)
    def check(hands: list[list[Card]]) -> None:
        for hand, shown in zip(hands, _arranged(folder, hands), strict=True):
            server = knock.arrange(hand, ACES_LOW)
            assert shown["count"] == server.count, (hand, shown, server)
            allowed = {
                frozenset(card.code for card in meld)
                for meld in melds.possible_melds(hand, Aces.LOW)
            }
            assert all(frozenset(meld) in allowed for meld in shown["melds"]), (hand, shown)
            used = [code for meld in shown["melds"] for code in meld]
            assert len(used) == len(set(used)), "the melds are disjoint"
            assert sorted(shown["deadwood"]) == sorted({card.code for card in hand} - set(used))

    check()
