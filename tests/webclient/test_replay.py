"""The replay viewer (/play?game=<id>&replay) in Chromium: a finished game stepped
through move by move with the keyboard, from the public's view, each seat's and
the admin's, every view the server's own (`replay?version=&seat=`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.chromium import OfflinePages
from tests.webclient.conftest import ADMIN_TOKEN
from tests.webclient.table import (
    PENALTY_HANDS,
    Opponent,
    Player,
    a_finished_game,
    seated_game,
    sit,
)
from tests.webclient.test_play import DESKTOP, PHONE, VARIANT_GAMES, _body

DEALT = 2
"""The version of the first deal (the game created with every seat named, then dealt)."""


def shown_hands(page: Page) -> dict[int, list[str]]:
    """The hands the viewer shows, by seat."""
    hands: dict[int, list[str]] = {}
    for row in page.locator(".replay-hands li").all():
        seat = int(row.get_attribute("data-seat") or "-1")
        hands[seat] = row.locator(".card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    return hands


def server_view(base: str, game_id: str, version: int, seat: int | None = None) -> Any:
    params: dict[str, Any] = {"version": version}
    if seat is not None:
        params["seat"] = seat
    answer = httpx.get(f"{base}/games/{game_id}/replay", params=params, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_finished_game_is_stepped_through_from_each_seat_with_the_keyboard(
    pages: OfflinePages, server_url: str, artifacts: Path
) -> None:
    created = a_finished_game(server_url)
    game_id = created["game_id"]
    last = httpx.get(f"{server_url}/games/{game_id}", timeout=10).json()["version"]

    # Ann's page of the finished game links to its replay.
    ann = Player(pages.new_page(**DESKTOP), server_url)
    sit(ann, game_id, 0, "Ann", created["players"][0]["token"])
    ann.page.get_by_role("link", name="Watch the replay").click()
    page = ann.page
    page.wait_for_url(re.compile(r"&replay"))
    counter, said = page.locator("#replay-counter"), page.locator("#replay-event")
    expect(counter).to_have_text(f"Move 1 of {last}")
    expect(said).to_have_text("The table was set.")
    keys = page.keyboard

    keys.press("ArrowRight")
    expect(counter).to_have_text(f"Move {DEALT} of {last}")
    expect(said).to_have_text("Hand 1 was dealt by Bot 3; the upcard is Q♦.")
    # The public sees no hand; each seat its own and no other, as the server shows it.
    expect(page.locator(".hands")).to_contain_text("The public sees no hand")
    for seat, name in enumerate(["Ann", "Bot 2", "Bot 3"]):
        page.get_by_label("View from").select_option(label=f"{name}'s seat")
        expect(page.locator(".replay-hands li")).to_have_count(1)
        expect(page.locator(".replay-hands")).to_contain_text(name)
        assert shown_hands(page) == {seat: server_view(server_url, game_id, DEALT, seat)["my_hand"]}
        assert sorted(shown_hands(page)[seat]) == sorted(PENALTY_HANDS[seat].split())
    assert "seat=2" in page.url
    assert f"version={DEALT}" in page.url

    # Ann's turn, a move at a time, from Bot 3's seat: her drawn card stays hidden.
    page.locator("#replay-stage").click()  # the keys work wherever the focus is on the page
    keys.press("ArrowRight")
    expect(said).to_have_text("Ann drew a card from the stock.")
    keys.press("ArrowRight")
    expect(said).to_have_text("Ann laid a run: 7♥ 8♥ 9♥ 10♥.")
    keys.press("ArrowRight")
    expect(said).to_have_text("Ann discarded K♠.")
    keys.press("ArrowLeft")
    expect(said).to_have_text("Ann laid a run: 7♥ 8♥ 9♥ 10♥.")
    expect(page.locator(".melds")).to_contain_text("Ann: run")

    # The end: every hand face up in the hand's result, and the standings.
    keys.press("End")
    expect(counter).to_have_text(f"Move {last} of {last}")
    result = page.locator(".result")
    expect(result.locator("tbody tr")).to_have_count(3)
    for seat in (1, 2):
        row = result.locator(f'tr[data-seat="{seat}"]')
        codes = row.locator(".card").evaluate_all("cards => cards.map(c => c.dataset.card)")
        assert sorted(codes) == sorted(PENALTY_HANDS[seat].split())
    standings = page.locator(".game-over .standings li")
    expect(standings).to_have_text(["Ann: 0", "Bot 2: 40", "Bot 3: 56"])
    page.screenshot(path=artifacts / "replay-end.png", full_page=True)

    keys.press("Home")
    expect(counter).to_have_text(f"Move 1 of {last}")
    # Space plays, a move a second, and pauses.
    keys.press("Space")
    expect(counter).to_have_text(f"Move 2 of {last}", timeout=5_000)
    keys.press("Space")
    expect(page.get_by_role("button", name="Play", exact=True)).to_have_attribute(
        "aria-pressed", "false"
    )

    # The address keeps the move and the seat: a reload shows the same.
    shown = page.url
    page.reload()
    expect(page.locator("#replay-counter")).to_have_text(re.compile(rf"^Move \d+ of {last}$"))
    assert page.url == shown


def test_the_admin_token_shows_every_hand_at_every_move(
    pages: OfflinePages, server_url: str
) -> None:
    created = a_finished_game(server_url)
    game_id = created["game_id"]
    page = pages.new_page(**PHONE)  # a stranger's phone: no seat in this browser
    page.goto(f"{server_url}/play?game={game_id}&replay&version={DEALT}")
    expect(page.locator("#replay-counter")).to_contain_text(f"Move {DEALT} of ")
    page.get_by_text("Admin: every hand").click()
    page.get_by_label("Admin token").fill(ADMIN_TOKEN)
    page.get_by_role("button", name="Show every hand").click()
    expect(page.locator(".replay-hands li")).to_have_count(3)
    assert {seat: sorted(cards) for seat, cards in shown_hands(page).items()} == {
        seat: sorted(hand.split()) for seat, hand in enumerate(PENALTY_HANDS)
    }
    expect(page.get_by_label("View from")).to_have_value("admin")
    # The admin's events name the card drawn from the stock.
    page.get_by_role("button", name="Forward", exact=True).click()
    expect(page.locator("#replay-event")).to_have_text("Ann drew a card from the stock (10♥).")
    # The token is never put in the address.
    assert ADMIN_TOKEN not in page.url


def test_a_game_in_play_has_no_replay_yet(pages: OfflinePages, server_url: str) -> None:
    created = seated_game(
        server_url,
        {"players": [{"name": "Ann"}, {"name": "Bot", "bot": "basic"}], "dealer": 1},
    )
    page = pages.new_page(**DESKTOP)
    page.goto(f"{server_url}/play?game={created['game_id']}&replay")
    expect(page.locator("#app")).to_contain_text("This game is still being played")
    page.get_by_role("link", name="Back to the game").click()
    page.wait_for_selector("#app[data-version]")


def test_an_indian_deal_is_replayed_with_its_shows(pages: OfflinePages, server_url: str) -> None:
    game = next(game for game in VARIANT_GAMES if game.name == "indian")
    created = seated_game(server_url, _body(game))
    game_id = created["game_id"]
    ann = Opponent(server_url, game_id, created["players"][0]["token"])
    ann._act({"type": "draw", "source": "stock"})
    groups = [["5S", "6S", "7S"], ["8H", "9H", "10H", "JK"], ["QC", "QD", "QS"], ["2C", "2D", "2H"]]
    over = ann._act({"type": "declare", "card": "KD", "groups": groups})
    assert over["status"] == "finished", "one deal of format points: the bot shows, it ends"
    events = httpx.get(f"{server_url}/games/{game_id}/events", timeout=10).json()["events"]
    declared = next(event["version"] for event in events if event["type"] == "declared")

    page = pages.new_page(**DESKTOP)
    page.goto(f"{server_url}/play?game={game_id}&replay&version={declared}")
    expect(page.locator("#replay-event")).to_have_text("Ann declared.")
    expect(page.locator(".shows")).to_contain_text("Ann: valid declaration")
    page.keyboard.press("End")
    mine = page.locator('.result tr[data-seat="0"]')
    expect(mine).to_contain_text("pure sequence")
    expect(mine).to_contain_text("declared")
