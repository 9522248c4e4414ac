"""The lobby offers the bot levels (docs/bots.md "Levels"), in headless Chromium: every
bot seat lists them weakest first, starts at `basic` and says how the chosen level
plays; the house rule `takeover_bot` lists them the same way and says what it does;
and a table made with a `strong` seat and an `expert` takeover is made so.
"""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from service.domain.rule_values import BotLevel
from tests.chromium import OfflinePages
from tests.webclient.table import Player
from tests.webclient.test_play import DESKTOP, QUICK

WEAKEST_FIRST = [level.value for level in BotLevel]
"""The domain's order of the levels, weakest first."""


def _values(player: Player, selector: str) -> list[str]:
    values: list[str] = player.page.locator(f"{selector} option").evaluate_all(
        "options => options.map(o => o.value)"
    )
    return values


def test_every_bot_seat_offers_the_levels_weakest_first_each_explained(
    pages: OfflinePages, server_url: str
) -> None:
    ann = Player(pages.new_page(**DESKTOP), server_url)
    ann.open_lobby()
    ann.page.get_by_label("Players", exact=True).select_option("3")
    for name in ("seat-1", "seat-2"):
        assert _values(ann, f"#{name}") == [*WEAKEST_FIRST, "open"]
        seat = ann.page.locator(f"#{name}")
        expect(seat).to_have_value("basic")
        hint = ann.page.locator(f"#{seat.get_attribute('aria-describedby')}")
        hints = {}
        for choice in [*WEAKEST_FIRST, "open"]:
            seat.select_option(choice)
            hints[choice] = hint.inner_text()
            assert len(hints[choice]) > 20, (name, choice, hints[choice])
        assert len(set(hints.values())) == len(hints), "each choice says something of its own"
        expect(hint).to_contain_text("friend")  # the last choice, an open seat
    # A seat keeps its level when the table grows.
    ann.page.locator("#seat-1").select_option("expert")
    ann.page.get_by_label("Players", exact=True).select_option("4")
    expect(ann.page.locator("#seat-1")).to_have_value("expert")
    expect(ann.page.locator("#seat-3")).to_have_value("basic")


def test_the_takeover_bot_house_rule_offers_the_levels_and_says_what_it_does(
    pages: OfflinePages, server_url: str
) -> None:
    ann = Player(pages.new_page(**DESKTOP), server_url)
    ann.open_lobby()
    ann.page.get_by_text("House rules").click()
    for variant in ("classic", "gin", "indian"):
        ann.page.get_by_label("Game", exact=True).select_option(variant)
        assert _values(ann, "#rule-takeover_bot") == ["", *WEAKEST_FIRST], variant
        hint = ann.page.locator('[data-option="takeover_bot"] .hint')
        expect(hint).to_contain_text("left or timed out")
        expect(hint).to_contain_text("basic")


def test_a_table_with_a_strong_seat_and_an_expert_takeover_is_made_so(
    pages: OfflinePages, server_url: str
) -> None:
    ann = Player(pages.new_page(**DESKTOP), server_url)
    ann.create_table("Ann", others=["strong"], rules={**QUICK, "takeover_bot": "expert"})
    expect(ann.page.locator(".tag", has_text="computer: strong")).to_be_visible()
    seat = ann.seat()
    view = httpx.get(
        f"{server_url}/games/{ann.game_id()}",
        headers={"Authorization": f"Bearer {seat['token']}"},
    ).json()
    assert view["players"][1]["bot"] == "strong"
    assert view["rules"]["takeover_bot"] == "expert"
