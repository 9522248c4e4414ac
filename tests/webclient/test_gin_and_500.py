"""Gin Rummy and 500 Rum in the web client (docs/rules.md "Gin Rummy", "500 Rum").

Ann plays in headless Chromium by what the page offers; Bob plays over HTTP,
each of his moves written out, so the table is the same on every run (the deck
is chosen with the API's `decks`). The expected counts and scores are worked
out here by hand from the rules, not read from the server.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, expect

from tests.chromium import OfflinePages, offline_pages
from tests.webclient.table import (
    Opponent,
    Player,
    dealt,
    label,
    play_a_turn,
    play_to_the_end,
    seated_game,
    sit,
)
from tests.webclient.test_accessibility import axe_source, violations
from tests.webclient.test_play import focused, tab_to

__all__ = ["axe_source"]  # a fixture of this module's tests

# The page's policy lets in this server's scripts only: axe-core is injected past it.
DESKTOP = {"viewport": {"width": 1280, "height": 800}, "bypass_csp": True}
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
    "bypass_csp": True,
}

GIN_VALUES = {"A": 1, "J": 10, "Q": 10, "K": 10}
RUM500_VALUES = {"A": 15, "J": 10, "Q": 10, "K": 10}


def _fits(player: Player, where: str) -> None:
    """The page does not scroll sideways (a phone's wide table scrolls inside itself)."""
    # Against the device's width: a phone's browser widens its layout to fit what overflows.
    viewport = player.page.viewport_size
    assert viewport
    width = player.page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"{where}: the page is {width} px wide: {viewport}"


def _value(code: str, table: dict[str, int]) -> int:
    rank = code[:-1]
    return table.get(rank) or int(rank)


def _two_humans(
    rules: dict[str, Any], ann: str, bob: str, upcard: str, stock: str
) -> dict[str, Any]:
    """The creation body: Ann (seat 0, first to play) and Bob (seat 1, the dealer),
    both people, dealt `ann` and `bob`, then `upcard`, then `stock`."""
    return {
        "players": [{"name": "Ann"}, {"name": "Bob"}],
        "rules": rules,
        "dealer": 1,
        "decks": [dealt(rules, [ann, bob], upcard, stock, dealer=1)],
    }


# --- Gin Rummy -----------------------------------------------------------------------

GIN = {"variant": "gin", "target": 10}
"""The first hand's score reaches the target: the game ends with it, bonuses and all."""
ANN_GIN = "3C 3D 3H 7S 8S 9S JH QH KH 2D"
BOB_GIN = "10S 5D 5C 5H AC AD 4H 6D 8D 9D"
"""docs/rules.md's worked Gin Rummy hand: Ann knocks with 4C (deadwood 2D = 2); Bob melds the
fives, lays 10S off on Ann's 7S 8S 9S and keeps A A 4 6 8 9 = 29: Ann scores 27."""
GIN_UPCARD = "QC"
GIN_STOCK = "6C KD 4C"
"""Ann draws 6C (and lets it go), Bob draws KD (and lets it go), Ann draws 4C."""


def test_a_gin_hand_from_the_upcard_offer_to_a_knock_and_its_lay_offs(
    browser: Browser, server_url: str, axe_source: Path, artifacts: Path
) -> None:
    created = seated_game(server_url, _two_humans(GIN, ANN_GIN, BOB_GIN, GIN_UPCARD, GIN_STOCK))
    game_id = created["game_id"]
    bob = Opponent(server_url, game_id, created["players"][1]["token"])
    with offline_pages(browser, server_url) as pages:
        ann = Player(pages.new_page(**DESKTOP), server_url)
        sit(ann, game_id, 0, "Ann", created["players"][0]["token"])

        # The upcard is offered to Ann, the non-dealer: take it or pass, no stock draw.
        expect(ann.page.locator("#status")).to_have_text(
            f"Hand 1. Your turn: take the upcard {label(GIN_UPCARD)}, or pass."
        )
        expect(ann.page.locator(".knock-limit")).to_have_text("Knock limit 10")
        # Gin has no melds on the table: no empty panel for them.
        expect(ann.page.locator(".melds")).to_have_count(0)
        assert ann.page.locator("[data-focus=draw-stock]").count() == 0
        expect(ann.page.get_by_role("button", name=f"Take {label(GIN_UPCARD)}")).to_be_visible()
        ann.click("Pass")
        expect(ann.page.locator("#status")).to_have_text(
            f"Hand 1. Bob may take the upcard {label(GIN_UPCARD)} or pass."
        )
        bob.act({"type": "pass"})

        # Both passed: Ann's turn opens with the stock, the pile is not offered.
        expect(ann.page.locator("#status")).to_have_text("Hand 1. Your turn: draw from the stock.")
        assert ann.page.locator("[data-focus=draw-pile]").count() == 0
        expect(ann.page.locator(".log")).to_contain_text("Bob passed on the upcard.")
        ann.draw()
        ann.select("6C")
        ann.click(f"Discard {label('6C')}")
        bob.act({"type": "draw", "source": "stock"})
        bob.act({"type": "discard", "card": "KD"})

        expect(ann.page.locator("#status")).to_contain_text("Hand 1. Your turn: draw")
        # Under the top (KD) the cards thrown face up before it, newest first.
        expect(ann.page.locator(".pile-below")).to_have_text(
            f"under it: {label('6C')} {label(GIN_UPCARD)}"
        )
        ann.draw()
        # The server's least deadwood of all eleven: 2D and 4C, 6.
        expect(ann.page.locator(".server-deadwood")).to_have_attribute("data-deadwood", "6")
        ann.select("4C")
        arrangement = ann.page.get_by_role("group", name=re.compile("^Knocking with 4♣"))
        expect(arrangement.locator(".deadwood")).to_have_attribute("data-count", "2")
        shown = arrangement.locator(".arranged .card").evaluate_all(
            "cards => cards.map(card => card.dataset.card)"
        )
        assert sorted(shown) == sorted(set(ANN_GIN.split()) - {"2D"})
        assert violations(ann.page) == []
        ann.page.screenshot(path=artifacts / "gin-knock-desktop.png", full_page=True)
        ann.click(f"Knock with {label('4C')}")

        # The hand's result: both arrangements, Bob's lay-off, the scores.
        result = ann.page.locator('.result[data-hand="1"]')
        expect(result).to_contain_text("Hand 1 is over")
        expect(result.locator(".how")).to_contain_text(
            "Ann (you) knocked with 4♣ face down. Ann (you) scores 27."
        )
        assert violations(ann.page) == []
        ann.page.screenshot(path=artifacts / "gin-result-desktop.png", full_page=True)
        expect(ann.page.locator(".log")).to_contain_text("Hand 1 ended: Ann (you) knocked.")
        bob_row = result.locator('tr[data-seat="1"]')
        expect(bob_row.locator(".laid-off-cards li")).to_have_text(
            f"{label('10S')} on {label('7S')} {label('8S')} {label('9S')}"
        )
        left = ["AC", "AD", "4H", "6D", "8D", "9D"]
        count = sum(_value(code, GIN_VALUES) for code in left)
        assert count == 29
        dead = bob_row.locator(".deadwood-cards .card").evaluate_all(
            "cards => cards.map(card => card.dataset.card)"
        )
        assert sorted(dead) == sorted(left)
        expect(bob_row.locator("td.number").first).to_have_text(str(count))
        ann_row = result.locator('tr[data-seat="0"]')
        expect(ann_row.locator("td.number").nth(1)).to_have_text(str(count - 2))

        # 27 reaches the target of 10: the game ends. Ann won the one hand, so
        # the box (25 a hand) and the game bonus (100) add, and the shutout
        # doubles her total.
        expect(ann.page.locator("#app")).to_have_attribute("data-status", "finished")
        final = ann.page.locator(".game-over .final-result")
        ann_final = final.locator('tr[data-seat="0"]')
        expect(ann_final.locator("td").nth(0)).to_have_text("1")
        expect(ann_final.locator("td").nth(1)).to_have_text("25")
        expect(ann_final.locator("td").nth(2)).to_have_text("100")
        expect(ann_final.locator("td").nth(3)).to_have_text("doubled")
        expect(ann_final.locator("td").nth(4)).to_have_text(str((27 + 25 + 100) * 2))
        expect(final.locator('tr[data-seat="1"] td').nth(0)).to_have_text("0")
        # The page's own check of the audit export agrees with what it shows.
        expect(ann.page.locator(".game-over .checks")).to_have_attribute("data-verified", "true")


OKLAHOMA = {"variant": "gin", "oklahoma": True, "target": 10}
ANN_BIG = "AC 2C 3C 4C 4D 4H 7S 8S 9S 10S"
BOB_BIG = "KD QC JH 9D 7H 6C 5D 3H 2S AH"
"""Bob's ten make no meld; the upcard 4S completes Ann's fours: big gin."""


def test_a_gin_player_takes_the_upcard_and_goes_big_gin_in_a_doubled_oklahoma_hand(
    browser: Browser, server_url: str, axe_source: Path
) -> None:
    created = seated_game(server_url, _two_humans(OKLAHOMA, ANN_BIG, BOB_BIG, "4S", ""))
    with offline_pages(browser, server_url) as pages:
        ann = Player(pages.new_page(**PHONE), server_url)
        sit(ann, created["game_id"], 0, "Ann", created["players"][0]["token"])

        # Oklahoma: the upcard's value is the hand's knock limit, a spade doubles it.
        expect(ann.page.locator(".knock-limit")).to_have_text("Knock limit 4")
        expect(ann.page.locator(".doubled")).to_be_visible()
        ann.click(f"Take {label('4S')}")
        expect(ann.page.locator("#status")).to_contain_text("or go big gin")
        arrangement = ann.page.get_by_role("group", name="Big gin shows")
        expect(arrangement.locator(".deadwood")).to_have_attribute("data-count", "0")
        expect(arrangement.locator(".arranged .card")).to_have_count(11)
        _fits(ann, "big gin's arrangement on a phone")
        assert violations(ann.page) == []
        ann.click(re.compile("^Big gin"))

        result = ann.page.locator('.result[data-hand="1"]')
        # Bob may lay nothing off after big gin: all his cards count.
        bob_row = result.locator('tr[data-seat="1"]')
        expect(bob_row.locator(".laid-off-cards li")).to_have_count(0)
        count = sum(_value(code, GIN_VALUES) for code in BOB_BIG.split())
        assert count == 63
        expect(bob_row.locator("td.number").first).to_have_text(str(count))
        points = (31 + count) * 2  # the big gin bonus and Bob's count, doubled by the spade
        expect(result.locator(".how")).to_contain_text(
            f"Ann (you) went big gin. Ann (you) scores {points}."
        )
        expect(result.locator('tr[data-seat="0"] td.number').nth(1)).to_have_text(str(points))
        total = ann.page.locator('.game-over .final-result tr[data-seat="0"] td').nth(4)
        expect(total).to_have_text(str((points + 25 + 100) * 2))
        _fits(ann, "gin's results on a phone")

        # The replay shows the hand's terms and, at its end, the same result.
        ann.page.get_by_role("link", name="Watch the replay").click()
        expect(ann.page.locator("#replay-counter")).to_contain_text("Move 1 of")
        ann.page.keyboard.press("End")
        expect(ann.page.locator(".result .how")).to_contain_text("Ann went big gin.")
        ann.page.keyboard.press("Home")
        ann.page.keyboard.press("ArrowRight")  # the deal: the hand's terms are shown
        expect(ann.page.locator("#replay-counter")).to_contain_text("Move 2 of")
        expect(ann.page.locator(".knock-limit")).to_have_text("Knock limit 4")


def test_a_gin_game_against_the_bot_is_played_to_the_end_and_its_audit_verifies(
    pages: OfflinePages, server_url: str
) -> None:
    ann = Player(pages.new_page(**DESKTOP), server_url)
    ann.create_table("Ann", variant="gin", others=["basic"], rules={"target": 10})
    # A hand opens with the upcard offer: the entry after its deal is a pass, or the
    # upcard taken (the deal is random: the bot, offered it first, may take it). Read
    # on the first hand, while its deal is still in the log (a long game scrolls it off).
    expect(ann.page.locator("#status")).to_contain_text("Your turn")
    dealt_entry = ann.page.locator(".log li", has_text="was dealt")
    expect(dealt_entry).to_have_count(1)
    offer = dealt_entry.locator("xpath=following-sibling::li[1]")
    if offer.count() == 0:
        # Ann, not the dealer, is offered the upcard first: she passes.
        expect(ann.page.locator("[data-focus=pass]")).to_have_count(1)
        play_a_turn(ann)
    expect(offer).to_have_text(re.compile(r"passed on the upcard|took \S+ from the pile"))
    # Ann passes every upcard and never knocks: the bot's play ends the game.
    play_to_the_end([ann])
    expect(ann.page.locator(".game-over .final-result tbody tr")).to_have_count(2)
    expect(ann.page.locator(".game-over .checks")).to_have_attribute("data-verified", "true")


# --- 500 Rum --------------------------------------------------------------------------

RUM500 = {"variant": "rummy500", "max_turns": 3}
"""Two players, 13 cards each; the hand ends after its third turn (Ann's second)."""
ANN_500 = "8H 9H KS 4C 6D 10S QD 3S 5C JC AD 7C 9S"
BOB_500 = "2C 3D 5H 6H JD QH KH AC 10C 4S 5S 8D 8C"
R500_UPCARD = "7H"
R500_STOCK = "4D 6S"
"""Ann draws 4D and discards KS; Bob draws 6S and discards 2C; the pile is then
7H KS 2C (bottom first): taking 3 calls 7H, which melds with Ann's 8H 9H; taking
2 would call KS, which nothing of Ann's melds with."""


def _first_turns(ann: Player, bob: Opponent) -> None:
    """Ann draws 4D and discards KS, Bob draws 6S and discards 2C: the pile is 7H KS 2C."""
    expect(ann.page.locator("#status")).to_contain_text("Hand 1. Your turn: draw")
    ann.draw()
    ann.select("KS")
    ann.click(f"Discard {label('KS')}")
    bob.act({"type": "draw", "source": "stock"})
    bob.act({"type": "discard", "card": "2C"})
    expect(ann.page.locator("#status")).to_have_text(
        "Hand 1. Your turn: draw from the stock or take from the pile."
    )


def test_a_500_rum_player_takes_from_deep_in_the_spread_pile_and_melds_the_called_card(
    browser: Browser, server_url: str, axe_source: Path, artifacts: Path
) -> None:
    created = seated_game(
        server_url, _two_humans(RUM500, ANN_500, BOB_500, R500_UPCARD, R500_STOCK)
    )
    game_id = created["game_id"]
    bob = Opponent(server_url, game_id, created["players"][1]["token"])
    with offline_pages(browser, server_url) as pages:
        # The dark colour scheme here (the gin tests' pages are light): axe checks both.
        ann = Player(pages.new_page(**PHONE, color_scheme="dark"), server_url)
        sit(ann, game_id, 0, "Ann", created["players"][0]["token"])
        _first_turns(ann, bob)

        # The whole pile is spread, bottom first; the page offers the depths `legal` allows.
        spread = ann.page.locator(".spread-cards li")
        expect(spread).to_have_count(3)
        assert spread.evaluate_all("items => items.map(i => i.dataset.card)") == ["7H", "KS", "2C"]
        expect(ann.page.locator('.spread-cards li[data-depth="1"] button')).to_contain_text("Take")
        expect(ann.page.locator('.spread-cards li[data-depth="2"] button')).to_have_count(0)
        deep = ann.page.locator('.spread-cards li[data-depth="3"] button')
        expect(deep).to_contain_text("Take from here")
        expect(deep).to_have_accessible_name(
            re.compile(r"^Take from here: 3 cards, down to the 7 of hearts")
        )
        before = ann.version()
        deep.click()
        ann.wait_for_version_after(before)

        # The called card is marked in the hand until it is used.
        expect(ann.page.locator(".hand .card-button.called")).to_have_attribute("data-card", "7H")
        expect(ann.page.locator("#status")).to_have_text(
            f"Hand 1. Your turn: meld or lay off {label('7H')}, the card you called, then discard."
        )
        assert violations(ann.page) == []
        ann.page.screenshot(path=artifacts / "rum500-called-phone.png", full_page=True)
        _fits(ann, "500's spread pile and called card on a phone")
        assert sorted(ann.hand()) == sorted(
            [*(set(ANN_500.split()) - {"KS"}), "4D", "7H", "KS", "2C"]
        )
        expect(ann.page.locator(".log")).to_contain_text(
            f"Ann (you) took 3 cards from the pile: {label('7H')} {label('KS')} {label('2C')}."
        )
        ann.select("7H", "8H", "9H")
        ann.click(f"Meld {label('7H')} {label('8H')} {label('9H')}")
        expect(ann.page.locator(".hand .card-button.called")).to_have_count(0)
        melded = 7 + 8 + 9
        expect(ann.page.locator('.player[data-seat="0"] .melded')).to_have_text(
            f"put down: {melded}"
        )
        # Whoever watches sees the cards Ann took from the pile and still holds.
        watcher = Player(pages.new_page(**PHONE), server_url)
        watcher.page.goto(f"{server_url}/play?game={game_id}")
        expect(watcher.page.locator('.player[data-seat="0"] .known')).to_have_text(
            f"holds {label('KS')} {label('2C')}"
        )
        expect(ann.page.locator(".player .known")).to_have_count(0)  # not her own

        # The third turn ends the hand (`max_turns`): each seat's points put down,
        # less what is left in its hand, ace 15.
        ann.select("KS")
        ann.click(f"Discard {label('KS')}")
        result = ann.page.locator('.result[data-hand="1"]')
        expect(result).to_contain_text("Hand 1 is over")
        assert violations(ann.page) == []
        ann.page.screenshot(path=artifacts / "rum500-result-phone.png", full_page=True)
        _fits(ann, "500's result on a phone")
        held = sorted((set(ANN_500.split()) | {"4D", "2C"}) - {"KS", "8H", "9H"})
        ann_row = result.locator('tr[data-seat="0"]')
        expect(ann_row.locator(".melded")).to_have_text(str(melded))
        shown = ann_row.locator(".in-hand .card").evaluate_all(
            "cards => cards.map(card => card.dataset.card)"
        )
        assert sorted(shown) == held
        points = melded - sum(_value(code, RUM500_VALUES) for code in held)
        expect(ann_row.locator("td.number").nth(1)).to_have_text(str(points))
        bob_held = sorted((set(BOB_500.split()) | {"6S"}) - {"2C"})
        bob_row = result.locator('tr[data-seat="1"]')
        expect(bob_row.locator(".melded")).to_have_text("0")
        expect(bob_row.locator("td.number").nth(1)).to_have_text(
            str(-sum(_value(code, RUM500_VALUES) for code in bob_held))
        )


# --- the lobby ------------------------------------------------------------------------


def test_the_new_table_form_offers_both_variants_and_their_options(
    pages: OfflinePages, server_url: str
) -> None:
    ann = Player(pages.new_page(**DESKTOP), server_url)
    ann.create_table(
        "Ann", variant="gin", others=["basic"], rules={"knock_limit": 5, "big_gin_bonus": "none"}
    )
    view = httpx.get(f"{server_url}/games/{ann.game_id()}", timeout=10).json()
    assert view["variant"] == "gin"
    # "none" is big gin off (null), not the default 31.
    assert (view["rules"]["knock_limit"], view["rules"]["big_gin_bonus"]) == (5, None)
    expect(ann.page.locator(".knock-limit")).to_have_text("Knock limit 5")

    bea = Player(pages.new_page(**DESKTOP), server_url)
    bea.create_table("Bea", variant="rummy500", others=["basic", "basic"], rules={"target": 200})
    view = httpx.get(f"{server_url}/games/{bea.game_id()}", timeout=10).json()
    assert (view["variant"], view["rules"]["target"], len(view["players"])) == ("rummy500", 200, 3)
    expect(bea.page.locator("#status")).to_contain_text("Hand 1. Your turn: draw")
    # Three players: seven cards each.
    assert len(bea.hand()) == 7


def test_a_500_rum_player_takes_from_depth_and_melds_with_the_keyboard_alone(
    browser: Browser, server_url: str
) -> None:
    created = seated_game(
        server_url, _two_humans(RUM500, ANN_500, BOB_500, R500_UPCARD, R500_STOCK)
    )
    bob = Opponent(server_url, created["game_id"], created["players"][1]["token"])
    with offline_pages(browser, server_url) as pages:
        ann = Player(pages.new_page(**DESKTOP), server_url)
        sit(ann, created["game_id"], 0, "Ann", created["players"][0]["token"])
        _first_turns(ann, bob)
        keys = ann.page.keyboard

        before = ann.version()
        tab_to(
            ann,
            "Take from here: 3 cards, down to the 7 of hearts, "
            "which you must meld or lay off this turn",
        )
        keys.press("Enter")
        ann.wait_for_version_after(before)
        # The keyboard is back on the hand; the arrow keys reach the called card.
        for card in ("7 of hearts", "8 of hearts", "9 of hearts"):
            for _ in range(16):
                if focused(ann).startswith(card):
                    break
                keys.press("ArrowRight")
            assert focused(ann).startswith(card), focused(ann)
            keys.press("Space")
        before = ann.version()
        tab_to(ann, f"Meld {label('7H')} {label('8H')} {label('9H')}")
        keys.press("Enter")
        ann.wait_for_version_after(before)
        expect(ann.page.locator(".hand .card-button.called")).to_have_count(0)
        expect(ann.page.locator('.melds li[data-meld] .card[data-card="7H"]')).to_have_count(1)
