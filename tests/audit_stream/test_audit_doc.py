"""docs/audit.md and the code agree: its reference chain checker and its worked
examples."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from service.audit.chain import canonical, genesis, link
from service.bootstrap import open_games
from service.config import Settings, Store
from service.domain.cards import Rank, parse_cards
from service.domain.indian.judge import judge
from service.projections.audit_export import audit_export
from tests.audit_stream.games import new_game, play

DOC = Path(__file__).resolve().parents[2] / "docs" / "audit.md"


def _block(marker: str) -> str:
    """The fenced block right after the HTML comment that starts with `marker`."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(re.escape(marker) + r"[^\n]*\n```[a-z]*\n(.*?)\n```", text, re.DOTALL)
    assert found is not None, f"docs/audit.md has no block after {marker!r}"
    return found.group(1)


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec(compile(_block("<!-- reference-chain"), str(DOC), "exec"), namespace)
    return namespace


@pytest.fixture(scope="module")
def export() -> dict[str, Any]:
    games = open_games(Settings(store=Store.MEMORY))
    game_id, _ = new_game(games, client_seeds=('Zoë "Z"\n', "🂡"))
    play(games, game_id)
    parsed: dict[str, Any] = json.loads(
        msgspec.json.encode(audit_export(str(game_id), games.events_after(game_id)))
    )
    return parsed


def test_the_reference_checker_accepts_a_real_export(
    reference: dict[str, Any], export: dict[str, Any]
) -> None:
    assert reference["first_broken_link"](export) is None


def test_the_reference_checker_finds_the_same_broken_links(
    reference: dict[str, Any], export: dict[str, Any]
) -> None:
    check = reference["first_broken_link"]
    changed = copy.deepcopy(export)
    changed["events"][7]["data"]["card"] = "ZZ"
    assert check(changed) == 8
    dropped = copy.deepcopy(export)
    del dropped["events"][3]
    assert check(dropped) == 4
    head = copy.deepcopy(export)
    head["chain"]["head"] = "0" * 64
    assert check(head) == len(export["events"]) + 1


def test_the_reference_canonical_form_is_the_codes(
    reference: dict[str, Any], export: dict[str, Any]
) -> None:
    for event in export["events"]:
        content = {name: value for name, value in event.items() if name != "hash"}
        assert reference["canonical"](content) == canonical(content)


def test_the_worked_example_is_what_the_code_computes() -> None:
    example = json.loads(_block("<!-- worked-chain: the events"))
    stated = dict(
        line.split(": ", 1) for line in _block("<!-- worked-chain: the canonical").splitlines()
    )
    previous = genesis(example["game_id"])
    assert stated["genesis"] == previous
    for event in example["events"]:
        linked = link(event, previous)
        content = {name: value for name, value in linked.items() if name != "hash"}
        number = event["version"]
        assert stated[f"canonical {number}"] == canonical(content).decode("utf-8")
        assert stated[f"hash {number}"] == linked["hash"]
        previous = linked["hash"]


# --- the worked knock count -------------------------------------------------------------------


@pytest.fixture(scope="module")
def knock_reference() -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec(compile(_block("<!-- reference-knock-count"), str(DOC), "exec"), namespace)
    return namespace


def _knock_section() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text.split("## Worked knock count", 1)[1].split("\n## ", 1)[0]


def test_the_reference_knock_count_gives_the_worked_example(
    knock_reference: dict[str, Any],
) -> None:
    section = _knock_section()
    held = re.search(r"holds eleven cards:\s+`([^`]+)`, and knocks with `(\w+)`", section)
    assert held is not None
    hand = held.group(1).split()
    knock_card = held.group(2)
    assert len(hand) == 11
    hand.remove(knock_card)
    count, unmatched, melds = knock_reference["knock_count"](hand)
    assert f"**{count}**" in section
    assert f"`unmatched` `{json.dumps(unmatched)}`" in " ".join(section.split())
    shown = sorted(" ".join(meld) for meld in melds)
    assert shown == ["3C 3D 3H 3S", "AD AH AS"]
    # Worked by hand: the four threes and the three aces leave 2 + 5 + 7.
    assert (count, unmatched) == (14, ["2D", "5D", "7D"])
    # Every row of the doc's table of arrangements has the count of its cards.
    value = knock_reference["value"]
    rows = re.findall(r"^   \| `[^|]+\| `([^`]+)`[^|]*\| (\d+) \|$", section, re.M)
    assert len(rows) == 5
    for left, printed in rows:
        assert sum(value(card) for card in left.split()) == int(printed), left


@pytest.mark.parametrize("aces", ["low", "high_or_low", "around_the_corner"])
def test_the_reference_melds_are_the_rules_melds(
    knock_reference: dict[str, Any], aces: str
) -> None:
    # Checked against the service's own judge on every 3-card hand and a spread of
    # longer runs and sets: the reference is what docs/rules.md calls a meld.
    from itertools import combinations

    from service.domain.cards import FULL_DECK
    from service.domain.melds import is_meld
    from service.domain.rule_values import Aces

    is_reference = knock_reference["is_meld"]
    hands = [list(three) for three in combinations(FULL_DECK, 3)]
    hands += [list(FULL_DECK[start : start + n]) for n in (4, 5, 13) for start in range(0, 40)]
    hands += [[FULL_DECK[12], *FULL_DECK[:n]] for n in (2, 3)]  # K A 2 (3) of clubs
    for hand in hands:
        codes = [card.code for card in hand]
        assert is_reference(codes, aces) == is_meld(hand, Aces(aces)), codes


def test_the_worked_indian_grouping_is_what_the_judge_finds() -> None:
    """docs/audit.md's worked Indian grouping: its kinds and points, and the count
    of the same hand shown without its second sequence, are the judge's."""
    found = re.search(
        r"```json indian-grouping\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.DOTALL
    )
    assert found is not None, "docs/audit.md has no indian-grouping block"
    worked = json.loads(found.group(1))
    wild = Rank.parse(worked["wild_rank"])
    hand = parse_cards(worked["hand"])
    groups = [parse_cards(group) for group in worked["groups"]]
    shown, points = judge(hand, groups, wild, 80)
    assert [kind.value for kind in shown.kinds] == worked["kinds"]
    assert points == worked["points"]
    _, without = judge(hand, [groups[0], groups[2]], wild, 80)
    assert (
        f"= {without}" in DOC.read_text(encoding="utf-8").split("## Worked Indian grouping", 1)[1]
    )
