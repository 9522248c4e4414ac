"""The web client (/play) in headless Chromium, against a live `rummy serve`.

Each test plays as people do, by clicking what the page offers; every page
may reach the server only and must log no console error (tests/chromium.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.chromium import OfflinePages, offline_pages
from tests.faults.proxy import FaultProxy
from tests.webclient.table import (
    Opponent,
    Player,
    dealt,
    label,
    play_to_the_end,
    seated_game,
    sit,
)

QUICK = {"hand_size": 3, "deals": 2, "max_turns": 8, "exhausted": "score"}
"""House rules of a short game: three cards each, two deals (more only on a tie),
a hand that nobody goes out of ends at its eighth turn and is scored."""


DROPPED = (
    "ERR_CONNECTION_REFUSED",
    "ERR_CONNECTION_RESET",
    "ERR_EMPTY_RESPONSE",
    "ERR_CONNECTION_CLOSED",
)
"""What Chromium logs for requests of the page while its server is out of reach."""

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def test_a_game_against_a_bot_is_played_to_the_end_and_its_audit_verifies(
    pages: OfflinePages, server_url: str, artifacts: Path
) -> None:
    ann = Player(pages.new_page(**DESKTOP), server_url)
    ann.create_table("Ann", others=["basic"], rules=QUICK)
    expect(ann.page.locator("#status")).to_have_text(
        re.compile(r"^Hand 1. Your turn: draw from the stock or take \S+ from the pile.$")
    )
    ann.page.screenshot(path=artifacts / "first-turn-desktop.png", full_page=True)

    play_to_the_end([ann])

    over = ann.page.locator(".game-over")
    expect(over).to_contain_text("Game over")
    checks = over.locator(".checks")
    expect(checks).to_have_attribute("data-verified", "true")
    expect(checks).to_contain_text("Hash chain")
    expect(checks).to_contain_text("Seed")
    link = over.get_by_role("link", name="download the audit export")
    assert link.get_attribute("href") == f"/games/{ann.game_id()}/audit"
    ann.page.screenshot(path=artifacts / "game-over-desktop.png", full_page=True)


def test_two_people_play_each_other_through_the_join_link(
    pages: OfflinePages, server_url: str
) -> None:
    ann = Player(pages.new_page(**DESKTOP), server_url)
    ann.create_table("Ann", others=["open"], rules={**QUICK, "deals": 1})
    expect(ann.page.locator("#status")).to_have_text("Waiting for 1 more player.")
    link = ann.page.get_by_label("Join link").input_value()
    assert link == f"{server_url}/play?game={ann.game_id()}"

    bob = Player(pages.new_page(**PHONE), server_url)  # another browser, as on another machine
    bob.page.goto(link)
    bob.page.get_by_label("Your name").fill("Bob")
    bob.page.get_by_role("button", name="Take a seat").click()
    expect(bob.page.locator("#status")).to_have_text("Hand 1. Ann's turn.")
    # Ann's page learns from the stream that Bob sat down and the hand is dealt.
    expect(ann.page.locator("#status")).to_contain_text("Hand 1. Your turn")
    expect(ann.page.locator(".players")).to_contain_text("Bob")
    assert (bob.seat()["seat"], bob.seat()["name"]) == (1, "Bob")

    # A third browser opens the link once the seats are taken: it watches.
    watcher = Player(pages.new_page(**DESKTOP), server_url)
    watcher.page.goto(link)
    expect(watcher.page.locator("#me")).to_have_text("You are watching this game.")
    assert watcher.page.locator(".hand, .join").count() == 0

    play_to_the_end([ann, bob])
    expect(watcher.page.locator(".game-over .checks")).to_have_attribute("data-verified", "true")

    for player in (ann, bob):
        expect(player.page.locator(".game-over .checks")).to_have_attribute("data-verified", "true")
    assert ann.standings() == bob.standings() == watcher.standings()


def test_a_reload_mid_turn_and_a_dropped_connection_resume_the_game(
    browser: Browser, server_url: str
) -> None:
    # The page reaches the server through a proxy the test can take down.
    server = urlsplit(server_url)
    assert server.hostname
    assert server.port
    with (
        FaultProxy((server.hostname, server.port)) as proxy,
        offline_pages(browser, f"http://127.0.0.1:{proxy.port}", refused=DROPPED) as pages,
    ):
        ann = Player(pages.new_page(**DESKTOP), f"http://127.0.0.1:{proxy.port}")
        ann.create_table("Ann", others=["open"], rules={"hand_size": 7})
        bob = Opponent.join(server_url, ann.game_id(), "Bob")
        expect(ann.page.locator("#status")).to_contain_text("Your turn: draw")

        ann.draw()
        hand = ann.hand()
        assert len(hand) == 8
        ann.page.reload()
        expect(ann.page.locator("#status")).to_have_text(
            "Hand 1. Your turn: meld or lay off if you like, then discard."
        )
        assert ann.hand() == hand, "the same hand, in the middle of the same turn"
        expect(ann.page.locator("#connection")).to_have_text("live")
        expect(ann.page.locator(".log")).to_contain_text("Ann (you) drew a card from the stock")

        ann.select(hand[-1])
        ann.click(f"Discard {label(hand[-1])}")
        # Bob plays over HTTP; the reloaded page hears of it from its new stream.
        discarded = bob.play_a_turn()
        expect(ann.page.locator("#status")).to_contain_text("Your turn: draw")
        expect(ann.page.locator(".pile.discard .card")).to_have_attribute("data-card", discarded)

        # The connection drops while Bob plays on: the page says so, then catches up.
        ann.draw()
        ann.select(ann.hand()[0])
        ann.click(re.compile("^Discard "))
        proxy.down()
        expect(ann.page.locator("#connection")).to_have_text("reconnecting…")
        discarded = bob.play_a_turn()
        proxy.up()
        expect(ann.page.locator("#connection")).to_have_text("live", timeout=15_000)
        expect(ann.page.locator(".pile.discard .card")).to_have_attribute("data-card", discarded)
        expect(ann.page.locator("#status")).to_contain_text("Your turn: draw")
        expect(ann.page.locator(".log")).to_contain_text(f"Bob discarded {label(discarded)}.")


# --- one game of each variant, to its first hand result ------------------------------


@dataclass(frozen=True)
class VariantGame:
    """A two-seat table of one variant, Ann against a bot, with a chosen deal, and
    Ann's moves by the page up to the end of the first hand."""

    name: str
    rules: dict[str, Any]
    ann: str
    bot: str
    upcard: str
    """The upcard; in Wrotham, which deals none, Ann's eighth card."""
    stock: str
    play: Callable[[Player], None]
    ended: str
    """How the page says the first hand ended."""
    refused: tuple[int, ...] = ()
    """Statuses Ann's moves meet on purpose (a 409 the page answers)."""


def _classic(ann: Player) -> None:
    ann.draw()
    ann.select("7H", "8H", "9H", "10H")
    ann.click("Meld 7♥ 8♥ 9♥ 10♥")
    ann.select("KS")
    ann.click("Discard K♠")


def _wild(ann: Player) -> None:
    ann.draw()
    # 5♥ 6♥ and a joker read two ways: the server asks, the page offers both readings.
    ann.select("5H", "6H", "JK")
    ann.page.get_by_role("button", name="Meld 5♥ 6♥ Joker").click()
    chooser = ann.page.get_by_role("dialog")
    expect(chooser).to_contain_text("What do the wild cards stand for?")
    # In the player's words, not the API's ("say what each wild stands for with `as`").
    expect(chooser).to_contain_text("Choose the card each wild stands for.")
    expect(chooser).not_to_contain_text("`as`")
    expect(chooser.get_by_role("button", name=re.compile("Joker as 4♥"))).to_be_visible()
    ann.click(re.compile("Joker as 7♥"))
    ann.select("7H")
    ann.click("Swap 7♥ for the Joker in your run")
    ann.select("4H")
    ann.click(re.compile("^Lay off 4♥ on "))
    ann.select("JK")
    expect(
        ann.page.get_by_role("button", name=re.compile("^Lay off Joker as 3♥ on "))
    ).to_be_visible()
    ann.click(re.compile("^Lay off Joker as 8♥ on "))
    ann.select("KS")
    ann.click("Discard K♠")


def _boathouse(ann: Player) -> None:
    ann.draw("discard")
    expect(ann.page.locator("#status")).to_contain_text("take a second card")
    ann.draw()  # the pile is empty: the stock only
    expect(ann.page.locator("#status")).to_contain_text("you can go out")
    ann.group("7H", "8H", "9H", "10H")
    ann.group("KS", "KD", "KC")
    ann.click("Go out")


def _knock(ann: Player) -> None:
    ann.draw()
    ann.select("KS")
    ann.click("Knock with K♠")


def _wrotham(ann: Player) -> None:
    # The starter holds eight and opens without a draw.
    expect(ann.page.locator("#status")).to_have_text(
        "Hand 1. Your turn: meld or lay off if you like, then discard."
    )
    assert ann.page.locator("[data-focus=draw-stock]").count() == 0
    ann.select("7H", "8H", "9H", "10H")
    ann.click("Meld 7♥ 8♥ 9♥ 10♥")
    ann.select("KS", "KD", "KC")
    ann.click(re.compile("^Meld K"))
    ann.select("2C")
    ann.click("Discard 2♣")


BOT_HAND = "2C 4D 6S 8C 10S"
DECLARING = "5S 6S 7S 9H 10H JK QC QD QS 2C 2D 2H KD"
"""An Indian hand that declares once it draws 8H (sevens wild, by the indicator 7C):
a pure sequence, a sequence with the joker, two sets, and KD to finish."""
NOT_DECLARING = "AC 3D 4D 5D 6C 8C 9C KC KH 4S 10S JS AD"


def _indian_declares(ann: Player) -> None:
    wild = ann.page.locator(".pile.wild")
    expect(wild.locator(".card")).to_have_attribute("data-card", "7C")  # the indicator
    ann.draw()
    expect(ann.page.locator(".groups h3")).to_have_text("Your declaration: group all but one card")
    for group in (
        ("5S", "6S", "7S"),
        ("8H", "9H", "10H", "JK"),
        ("QC", "QD", "QS"),
        ("2C", "2D", "2H"),
    ):
        ann.group(*group)
    ann.click("Declare: finish with K♦")
    # The bot shows its groups at once, and the deal is over: the result shows the groups.
    mine = ann.page.locator('.result tr[data-seat="0"]')
    expect(mine).to_contain_text("pure sequence")
    expect(mine).to_contain_text("declared")


def _indian_shows(ann: Player) -> None:
    ann.draw()
    ann.select("KC")
    ann.click("Discard K♣")  # no use to the bot: it draws 8H and declares
    expect(ann.page.locator("#status")).to_have_text(
        "Hand 1. Show your groups: arrange them and submit."
    )
    expect(ann.page.locator(".shows")).to_contain_text("Bot: valid declaration")
    ann.group("3D", "4D", "5D")
    ann.click("Submit 1 group")


def _indian_drops(ann: Player) -> None:
    ann.page.get_by_role("button", name="Drop (20 points)").click()
    ann.click("Yes, drop for 20 points")


VARIANT_GAMES = [
    VariantGame(
        "classic",
        {"hand_size": 4},
        "7H 8H 9H KS",
        "2C 4D 6S 8C",
        "QD",
        "10H",
        _classic,
        "Ann (you) went out in one turn: rummy!",
    ),
    VariantGame(
        "wild",
        {"variant": "wild", "hand_size": 5},
        "5H 6H 7H KS JK",
        BOT_HAND,
        "QD",
        "4H",
        _wild,
        "Ann (you) went out in one turn: rummy!",
        refused=(409,),
    ),
    VariantGame(
        "boathouse",
        {"variant": "boathouse", "hand_size": 5},
        "7H 8H 9H KS KD",
        BOT_HAND,
        "KC",
        "10H",
        _boathouse,
        "Ann (you) went out.",
    ),
    VariantGame(
        "knock",
        {"variant": "knock", "hand_size": 4},
        "7H 8H 9H KS",
        "2C 4D 6S 8C",
        "QD",
        "10H",
        _knock,
        "Ann (you) knocked with K♠ face down; the pot is ",
    ),
    VariantGame(
        "wrotham",
        {"variant": "wrotham"},
        "7H 8H 9H 10H KS KD KC",
        "3C 4D 6S 8C 10S QD 5D",
        "2C",
        "",
        _wrotham,
        "Ann (you) went out in one turn: rummy!",
    ),
    VariantGame(
        "indian",
        {"variant": "indian", "packs": 1, "jokers": 1},
        DECLARING,
        NOT_DECLARING,
        "KS",
        "7C 8H",
        _indian_declares,
        "Ann (you) declared.",
    ),
    VariantGame(
        "indian-show",
        {"variant": "indian", "packs": 1, "jokers": 1},
        NOT_DECLARING,
        DECLARING,
        "KS",
        "7C 4C 8H",
        _indian_shows,
        "Bot declared.",
    ),
    VariantGame(
        "indian-drop",
        {"variant": "indian", "packs": 1, "jokers": 1},
        NOT_DECLARING,
        DECLARING,
        "KS",
        "7C 4C 8H",
        _indian_drops,
        "Bot was the last left in the deal.",
    ),
]
"""One table per variant (Indian: a declaration, a show after the bot's, a drop); a
new variant adds its row."""


def _body(game: VariantGame) -> dict[str, Any]:
    """The game over the API: Ann in seat 0 plays first (the bot deals), from the deal."""
    return {
        "players": [{"name": "Ann"}, {"name": "Bot", "bot": "basic"}],
        "rules": game.rules,
        "dealer": 1,
        "decks": [dealt(game.rules, [game.ann, game.bot], game.upcard, game.stock, dealer=1)],
    }


@pytest.mark.parametrize("game", VARIANT_GAMES, ids=lambda game: game.name)
def test_each_variant_is_played_by_its_own_moves_to_its_first_hand_result(
    game: VariantGame, browser: Browser, server_url: str
) -> None:
    created = seated_game(server_url, _body(game))
    with offline_pages(browser, server_url, refused=game.refused) as pages:
        ann = Player(pages.new_page(**DESKTOP), server_url)
        sit(ann, created["game_id"], 0, "Ann", created["players"][0]["token"])
        expect(ann.page.locator("#status")).to_contain_text("Hand 1. Your turn")

        game.play(ann)

        result = ann.page.locator('.result[data-hand="1"]')
        expect(result).to_contain_text("Hand 1 is over")
        expect(result.locator(".how")).to_contain_text(game.ended)


def test_a_move_the_server_refuses_is_shown_in_its_words_and_changes_nothing(
    browser: Browser, server_url: str
) -> None:
    # Boathouse: a going out is judged whole by the server; the page cannot tell a
    # wrong grouping, the server can.
    game = next(game for game in VARIANT_GAMES if game.name == "boathouse")
    created = seated_game(server_url, _body(game))
    game_id, token = created["game_id"], created["players"][0]["token"]
    with offline_pages(browser, server_url, refused=[409]) as pages:
        ann = Player(pages.new_page(**DESKTOP), server_url)
        sit(ann, game_id, 0, "Ann", token)
        ann.draw("discard")
        ann.draw()
        before = ann.version()
        ann.group("KS", "KD", "10H")
        ann.group("7H", "8H", "9H", "KC")
        ann.page.get_by_role("button", name="Go out").click()

        notice = ann.page.locator("#notice")
        expect(notice).to_be_visible()
        # The same request over HTTP (the cards in the hand's order, as the page sends
        # them) is refused the same way: a refusal changes nothing.
        refused = httpx.post(
            f"{server_url}/games/{game_id}/actions",
            json=[
                {"type": "meld", "cards": ["10H", "KD", "KS"]},
                {"type": "meld", "cards": ["7H", "8H", "9H", "KC"]},
            ],
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert refused.status_code == 409
        problem = refused.json()
        expect(notice).to_have_attribute("data-code", problem["code"])
        expect(notice.locator(".title")).to_have_text(problem["title"])
        expect(notice.locator(".detail")).to_have_text(problem["detail"])
        assert ann.version() == before, "nothing was played"

        # Put right, the same going out passes.
        ann.page.get_by_role("button", name="Ungroup").first.click()
        ann.page.get_by_role("button", name="Ungroup").first.click()
        ann.group("7H", "8H", "9H", "10H")
        ann.group("KS", "KD", "KC")
        ann.click("Go out")
        expect(notice).to_be_hidden()
        expect(ann.page.locator('.result[data-hand="1"] .how')).to_have_text("Ann (you) went out.")


def test_a_turn_is_played_with_the_keyboard_alone(browser: Browser, server_url: str) -> None:
    game = next(game for game in VARIANT_GAMES if game.name == "classic")
    created = seated_game(server_url, _body(game))
    with offline_pages(browser, server_url) as pages:
        ann = Player(pages.new_page(**DESKTOP), server_url)
        sit(ann, created["game_id"], 0, "Ann", created["players"][0]["token"])
        keys = ann.page.keyboard

        before = ann.version()
        tab_to(ann, "Draw from the stock")
        keys.press("Enter")
        ann.wait_for_version_after(before)
        # The drawn card is in the hand, and the keyboard is on the hand's first card.
        assert focused(ann) == "7 of hearts"
        for _ in range(3):
            keys.press("Space")
            keys.press("ArrowRight")
        keys.press("Space")
        before = ann.version()
        tab_to(ann, "Meld 7♥ 8♥ 9♥ 10♥")
        keys.press("Enter")
        ann.wait_for_version_after(before)
        assert focused(ann) == "K, king of spades"
        keys.press("Space")
        tab_to(ann, "Discard K♠")
        keys.press("Enter")
        expect(ann.page.locator('.result[data-hand="1"] .how')).to_have_text(game.ended)


HOLD_MOVE_ANSWERS = """
window.heldAnswers = [];
const sendFetch = window.fetch.bind(window);
window.fetch = (input, init) => {
  const answer = sendFetch(input, init);
  if (init?.method !== "POST" || !String(input).endsWith("/actions")) return answer;
  const held = (response) =>
    new Promise((release) => window.heldAnswers.push(() => release(response)));
  return answer.then(held);
};
"""
"""A page script that holds each move's answer until the test releases it, so the
stream's view of the move arrives first (as it may on a slow network)."""


def test_a_card_selected_before_the_moves_answer_arrives_stays_selected(
    browser: Browser, server_url: str
) -> None:
    game = next(game for game in VARIANT_GAMES if game.name == "classic")
    created = seated_game(server_url, _body(game))
    with offline_pages(browser, server_url) as pages:
        page = pages.new_page(**DESKTOP)
        page.add_init_script(HOLD_MOVE_ANSWERS)
        ann = Player(page, server_url)
        sit(ann, created["game_id"], 0, "Ann", created["players"][0]["token"])

        ann.draw()  # shown by the stream's view: the answer is held
        page.wait_for_function("() => window.heldAnswers.length === 1")
        king = page.locator('.hand button[data-card="KS"]')
        king.click()
        expect(king).to_have_attribute("aria-pressed", "true")
        page.evaluate("() => window.heldAnswers.shift()()")
        expect(ann.app).to_have_attribute("data-busy", "false")
        expect(king).to_have_attribute("aria-pressed", "true")
        expect(page.get_by_role("button", name="Discard K♠")).to_be_visible()


def focused(player: Player) -> str:
    """The accessible name of the focused element, roughly: its aria-label or text."""
    name: str = player.page.evaluate(
        "() => document.activeElement?.getAttribute('aria-label')"
        " ?? document.activeElement?.textContent ?? ''"
    )
    return name.strip()


def tab_to(player: Player, name: str, presses: int = 40) -> None:
    """Press Tab until the control named `name` has the focus (once the page shows it:
    a control a click makes appears after the page renders again)."""
    player.page.wait_for_function(
        "name => [...document.querySelectorAll('button, [tabindex], input, select, a')]"
        ".some(e => (e.getAttribute('aria-label') ?? e.textContent ?? '').trim() === name)",
        arg=name,
    )
    for _ in range(presses):
        if focused(player) == name:
            return
        player.page.keyboard.press("Tab")
    raise AssertionError(f"no control named {name!r} is reached by Tab")


def test_the_table_fits_a_phone_and_a_desktop(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    # docs/play.png, the README's picture, is this test's table-desktop.png. A minute's
    # turn clock: its countdown fits the topline too.
    game = VariantGame(
        "wild",
        {"variant": "wild", "hand_size": 8, "turn_seconds": 60},
        "4H 5H 6H 7H 9C 10C QS JK",
        "2C 3D 5S 8D 9S JD KC AD",
        "QD",
        "KS",
        _wild,
        "",
    )
    created = seated_game(server_url, _body(game))
    game_id, token = created["game_id"], created["players"][0]["token"]
    with offline_pages(browser, server_url) as pages:
        desktop = Player(pages.new_page(**DESKTOP), server_url)
        phone = Player(pages.new_page(**PHONE), server_url)
        for player in (desktop, phone):
            sit(player, game_id, 0, "Ann", token)
        desktop.draw()
        desktop.select("4H", "5H", "6H", "7H")
        desktop.click("Meld 4♥ 5♥ 6♥ 7♥")
        # The phone's page follows the game on its own stream.
        expect(phone.page.locator(".melds li")).to_have_count(1)
        for player in (desktop, phone):
            player.select("JK")
            expect(
                player.page.get_by_role("button", name=re.compile("^Lay off Joker as 8♥"))
            ).to_be_visible()

        for player, name in ((desktop, "desktop"), (phone, "phone")):
            expect(player.page.locator("#countdown")).to_have_text(
                re.compile(r"^Your time: \d\d s$")
            )
            player.page.screenshot(path=artifacts / f"table-{name}.png", full_page=True)
            # Against the device's width too: a phone's browser widens its layout (and
            # innerWidth) to fit whatever overflows.
            device = player.page.viewport_size
            assert device
            width = player.page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
            assert width[0] <= width[1] <= device["width"], (
                f"the {name} page scrolls sideways: {width}"
            )
            for card in player.page.locator(".hand button").all():
                box = card.bounding_box()
                assert box, name
                assert 0 <= box["x"] <= box["x"] + box["width"] <= width[1], name


def test_an_open_table_is_listed_in_the_lobby_and_joined_with_a_click(
    pages: OfflinePages, server_url: str
) -> None:
    ann = Player(pages.new_page(**DESKTOP), server_url)
    ann.create_table("Ann", others=["open"], rules={**QUICK, "deals": 1})
    listed = ann.game_id()
    # Another table, its "List in the lobby" unchecked: joined by its link only.
    cleo = Player(pages.new_page(**DESKTOP), server_url)
    cleo.open_lobby()
    cleo.page.get_by_label("Your name", exact=True).fill("Cleo")
    cleo.page.get_by_label("Seat 2", exact=True).select_option("open")
    cleo.page.get_by_label("List in the lobby", exact=True).uncheck()
    cleo.page.get_by_role("button", name="Create table").click()
    cleo.page.wait_for_url(re.compile(r"/play\?game="))
    unlisted = cleo.game_id()

    bob = Player(pages.new_page(**PHONE), server_url)
    bob.open_lobby()
    tables = bob.page.get_by_role("region", name="Open tables")
    row = tables.locator(f'li[data-game="{listed}"]')
    expect(row).to_contain_text("Classic, 2 players")
    expect(row).to_contain_text("1 open seat")
    expect(row).to_contain_text("with Ann")
    assert tables.locator(f'li[data-game="{unlisted}"]').count() == 0
    # Ann's own browser lists her table as hers, with no second seat to take.
    ann.open_lobby()
    own = ann.page.get_by_role("region", name="Open tables").locator(f'li[data-game="{listed}"]')
    expect(own.get_by_role("link", name="your seat, Ann")).to_have_attribute(
        "href", f"/play?game={listed}"
    )
    assert own.get_by_role("button").count() == 0
    ann.page.goto(f"{server_url}/play?game={listed}")
    ann.page.wait_for_selector("#app[data-version]")
    bob.page.get_by_label("Your name", exact=True).fill("Bob")
    row.get_by_role("button", name="Join Classic, 2 players with Ann").click()

    bob.page.wait_for_url(re.compile(rf"/play\?game={listed}$"))
    expect(bob.page.locator("#status")).to_have_text("Hand 1. Ann's turn.")
    assert (bob.seat()["seat"], bob.seat()["name"]) == (1, "Bob")
    expect(ann.page.locator(".players")).to_contain_text("Bob")
    # Its last seat taken, the table has left the lobby.
    bob.open_lobby()
    expect(bob.page.get_by_role("region", name="Open tables")).to_have_attribute(
        "aria-busy", "false"
    )
    assert bob.page.locator(f'li[data-game="{listed}"]').count() == 0
