"""The web client passes axe-core's accessibility rules in Chromium: no serious or
critical violation on the lobby, a table waiting for players, a table in play
(the wild chooser open; a card selected, a meld on the table), a hand's result,
a finished game, and the replay viewer, in the light and the dark colour scheme.

axe-core is pinned in tests/clients/package.json (installed by `npm ci` there, as
.ci/run does) and injected into the page; the page's Content-Security-Policy
allows this server's scripts only, so the test's browser context bypasses it
(only for the injected script: the page is served with its policy as ever).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.chromium import offline_pages
from tests.clients.tools import NODE_MODULES, unavailable
from tests.webclient.table import Player, a_finished_game, seated_game, sit
from tests.webclient.test_play import DESKTOP, PHONE, VARIANT_GAMES, _body

AXE = NODE_MODULES / "axe-core" / "axe.min.js"
SERIOUS = {"serious", "critical"}

RUN_AXE = """
async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.map((node) => ({target: node.target, summary: node.failureSummary})),
  }));
}
"""


def violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on `page` as it is now."""
    if page.evaluate("typeof axe") == "undefined":
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(RUN_AXE)
    return [violation for violation in found if violation["impact"] in SERIOUS]


def check(page: Page, where: str, seen: dict[str, list[dict[str, Any]]]) -> None:
    seen[where] = violations(page)


@pytest.fixture
def axe_source() -> Path:
    if not AXE.exists():
        unavailable(f"axe-core is not installed: run `npm ci` in {NODE_MODULES.parent.name}")
    return AXE


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_or_critical_accessibility_violation(
    browser: Browser, server_url: str, axe_source: Path, scheme: str
) -> None:
    seen: dict[str, list[dict[str, Any]]] = {}
    options = {**DESKTOP, "bypass_csp": True, "color_scheme": scheme}
    with offline_pages(browser, server_url, refused=[409]) as pages:
        # The lobby, its house rules open.
        lobby = Player(pages.new_page(**options), server_url)
        lobby.open_lobby()
        lobby.page.get_by_text("House rules").click()
        expect(lobby.page.get_by_role("region", name="Open tables")).to_have_attribute(
            "aria-busy", "false"
        )
        check(lobby.page, "lobby", seen)
        # A table waiting for a player: its join link.
        lobby.create_table("Ann", others=["open"], rules={"hand_size": 3, "deals": 1})
        expect(lobby.page.get_by_label("Join link")).to_be_visible()
        check(lobby.page, "a table waiting for players", seen)

        # A wild table in play: a meld on the table, a card selected, its moves offered.
        game = next(game for game in VARIANT_GAMES if game.name == "wild")
        created = seated_game(server_url, _body(game))
        ann = Player(pages.new_page(**options), server_url)
        sit(ann, created["game_id"], 0, "Ann", created["players"][0]["token"])
        check(ann.page, "table, the draw", seen)
        ann.draw()
        # The wild chooser: 5H 6H JK read two ways.
        ann.select("5H", "6H", "JK")
        ann.page.get_by_role("button", name="Meld 5♥ 6♥ Joker").click()
        expect(ann.page.get_by_role("dialog")).to_be_visible()
        check(ann.page, "the wild chooser", seen)
        ann.page.get_by_role("dialog").get_by_role("button", name="Cancel").click()
        ann.select("5H", "6H", "7H")
        ann.click("Meld 5♥ 6♥ 7♥")
        ann.select("4H")
        ann.click(re.compile("^Lay off 4♥ on "))
        ann.select("JK")
        expect(
            ann.page.get_by_role("button", name=re.compile("^Lay off Joker as 8♥"))
        ).to_be_visible()
        check(ann.page, "table, a card selected", seen)

        # The hand's result.
        ann.click(re.compile("^Lay off Joker as 8♥ on "))
        ann.select("KS")
        ann.click("Discard K♠")
        expect(ann.page.locator('.result[data-hand="1"]')).to_be_visible()
        check(ann.page, "a hand's result", seen)

        # A finished game, on a phone too, and its replay.
        finished = a_finished_game(server_url)
        winner = Player(
            pages.new_page(**{**PHONE, "bypass_csp": True, "color_scheme": scheme}), server_url
        )
        sit(winner, finished["game_id"], 0, "Ann", finished["players"][0]["token"])
        expect(winner.page.locator(".game-over .checks")).to_have_attribute("data-verified", "true")
        check(winner.page, "the game's result", seen)
        winner.page.get_by_role("link", name="Watch the replay").click()
        expect(winner.page.locator("#replay-counter")).to_contain_text("Move 1 of")
        winner.page.get_by_label("View from").select_option(label="Ann's seat")
        winner.page.keyboard.press("End")
        expect(winner.page.locator(".replay .standings, .game-over .standings")).to_be_visible()
        check(winner.page, "the replay", seen)

    found = {where: problems for where, problems in seen.items() if problems}
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)
