"""The web client and the turn clocks, leaving and resigning (docs/rules.md
"Leaving and turn clocks"), in headless Chromium against a live `rummy serve`
whose clock keeper fires the deadlines (RUMMY_CLOCKS is on by default).

The countdown is read from what the page shows (`#countdown`, its text and its
`data-seconds`); nothing here asserts how fast anything happens, only that the
page shows what the server did.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.chromium import OfflinePages
from tests.webclient.table import Opponent, Player, dealt, label, seated_game, sit
from tests.webclient.test_play import DECLARING, NOT_DECLARING

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
QUICK = {"hand_size": 3, "deals": 2, "max_turns": 8, "exhausted": "score"}
"""A short game (as in test_play): three cards each, two deals, eight turns a hand."""
CLOCK_MS = 12_000
"""How long the page may take to show a timeout: the shortest clock (5 s), the
keeper's poll (1 s) and the stream's delivery, with room to spare."""


def _countdown(player: Player) -> tuple[int, bool]:
    """The seconds the countdown shows and whether it is marked urgent, read at once."""
    seconds, urgent = player.page.evaluate(
        "() => { const shown = document.querySelector('#countdown');"
        " return [Number(shown.dataset.seconds), shown.classList.contains('urgent')]; }"
    )
    return int(seconds), bool(urgent)


def _ann_against_a_bot(server_url: str, rules: dict[str, Any]) -> dict[str, Any]:
    """Ann in seat 0 plays first (the bot deals), from a deal where nobody can
    meld in the first turns: whatever the bot does, each turn is a draw and a
    discard."""
    return seated_game(
        server_url,
        {
            "players": [{"name": "Ann"}, {"name": "Bot", "bot": "basic"}],
            "rules": rules,
            "dealer": 1,
            "decks": [dealt(rules, ["2C 7D QS", "3H 8S KD"], "5C", "9H JC 4D 10S 6S", dealer=1)],
        },
    )


def test_a_person_who_never_moves_sees_the_countdown_run_out_and_the_bot_move_for_her(
    pages: OfflinePages, server_url: str, artifacts: Path
) -> None:
    created = _ann_against_a_bot(server_url, {**QUICK, "turn_seconds": 5})
    game_id, token = created["game_id"], created["players"][0]["token"]
    ann = Player(pages.new_page(**DESKTOP), server_url)
    sit(ann, game_id, 0, "Ann", token)

    countdown = ann.page.locator("#countdown")
    expect(countdown).to_be_visible()
    expect(countdown).to_have_text(re.compile(r"^Your time: [1-5] s$"))
    expect(countdown).to_have_attribute("data-seat", "0")
    first, urgent = _countdown(ann)
    assert 1 <= first <= 5
    assert urgent, "a 5 s clock is all in its last 10 s"
    ann.page.wait_for_function(
        "first => Number(document.querySelector('#countdown')?.dataset.seconds) < first",
        arg=first,
    )

    # The keeper fires the deadline: the stream brings the timeout and the bot's
    # move for Ann, then the bot's own turn, and it is Ann's turn again.
    log = ann.page.locator(".log")
    expect(log).to_contain_text(
        "Ann (you) ran out of time; the bot moved for you (1 of 3 in a row).", timeout=CLOCK_MS
    )
    expect(log).to_contain_text("Ann (you) discarded")
    expect(log).to_contain_text("Bot discarded")
    expect(ann.page.locator('.player[data-seat="0"] .timeouts')).to_have_text("1 timeout of 3")
    expect(ann.page.locator("#status")).to_contain_text("Your turn: draw")
    # A new turn, a new clock: the countdown starts again.
    expect(countdown).to_have_text(re.compile(r"^Your time: [1-5] s$"))
    ann.page.screenshot(path=artifacts / "timed-out-desktop.png", full_page=True)

    view = httpx.get(
        f"{server_url}/games/{game_id}", headers={"Authorization": f"Bearer {token}"}, timeout=10
    ).json()
    assert view["players"][0]["timeouts"] == 1
    assert ann.version() == view["version"], "the page shows the game as it stands"


def test_a_twenty_second_clock_is_chosen_in_the_form_and_counts_down_for_each_seat(
    pages: OfflinePages, server_url: str
) -> None:
    ann = Player(pages.new_page(**DESKTOP), server_url)
    # Ann's computer is an hour fast: the page counts by the server's clock all the same
    # (uncorrected, every deadline would have passed: "time is up").
    ann.page.clock.set_system_time(time.time() + 3600)
    ann.open_lobby()
    ann.page.get_by_text("House rules").click()
    field = ann.page.get_by_label("Turn seconds", exact=True)
    # The form reads the option from the OpenAPI document, with its bounds.
    assert (field.get_attribute("min"), field.get_attribute("max")) == ("5", "86400")
    ann.create_table("Ann", others=["open"], rules={"turn_seconds": 20, "hand_size": 7})
    bob = Opponent.join(server_url, ann.game_id(), "Bob")
    assert bob.view()["rules"]["turn_seconds"] == 20

    countdown = ann.page.locator("#countdown")
    expect(countdown).to_have_text(re.compile(r"^Your time: (20|1\d) s$"))
    seconds, urgent = _countdown(ann)
    assert seconds > 10
    assert not urgent, "urgent in the last 10 s only"
    ann.draw()
    ann.select(ann.hand()[-1])
    ann.click(re.compile("^Discard "))
    # Bob's turn: Ann's page counts down for him.
    expect(countdown).to_have_attribute("data-seat", "1")
    expect(countdown).to_have_text(re.compile(r"^Bob: (20|1\d) s$"))


def test_a_player_who_leaves_is_replaced_by_the_bot_and_watches_it_finish_the_game(
    pages: OfflinePages, server_url: str, artifacts: Path
) -> None:
    created = seated_game(
        server_url,
        {
            "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy", "bot": "basic"}],
            "rules": QUICK,
            "dealer": 2,
            # Nobody melds in the first round, so the bot's turn for Ann passes to Bob.
            "decks": [dealt(QUICK, ["2C 7D QS", "3H 8S KD", "4C 9D JH"], "5S", "6H 10C AD", 2)],
        },
    )
    game_id = created["game_id"]
    tokens = [seat["token"] for seat in created["players"]]
    ann = Player(pages.new_page(**DESKTOP), server_url)
    sit(ann, game_id, 0, "Ann", tokens[0])
    expect(ann.page.locator("#status")).to_contain_text("Your turn: draw")
    expect(ann.page.locator("#countdown")).to_be_hidden()  # no turn_seconds, no clock

    before = ann.version()
    ann.page.get_by_role("button", name="Leave table").click()
    dialog = ann.page.get_by_role("dialog")
    expect(dialog).to_contain_text("replaced by the server's bot")
    dialog.get_by_role("button", name="Yes, leave the table").click()
    ann.wait_for_version_after(before)

    mine = ann.page.locator('.player[data-seat="0"]')
    expect(mine).to_contain_text("left — played by bot")
    # The bot played Ann's turn, Bob's is next; Ann's page reads on, and offers nothing.
    expect(ann.page.locator("#status")).to_have_text(
        re.compile(r"^Hand 1\. You left the table: the bot plays your seat\. Bob is to play\.$")
    )
    expect(ann.page.locator(".log")).to_contain_text(
        "Ann (you) left the table; the bot plays on for you."
    )
    assert ann.page.locator(".hand .card").count() == 3
    assert ann.page.locator("#me button, .piles button").count() == 0
    ann.page.screenshot(path=artifacts / "left-desktop.png", full_page=True)

    bob = Opponent(server_url, game_id, tokens[1])
    discarded = bob.play_a_turn()
    expect(ann.page.locator(".log")).to_contain_text(f"Bob discarded {label(discarded)}.")
    left = httpx.post(
        f"{server_url}/games/{game_id}/leave",
        json={"resign": False},
        headers={"Authorization": f"Bearer {tokens[1]}", "Idempotency-Key": "bob-leaves"},
        timeout=10,
    )
    assert left.status_code == 200, left.text
    # Three bots now: they play the game to its end, and Ann's page shows it.
    expect(ann.page.locator(".game-over")).to_contain_text("Game over")
    expect(ann.page.locator('.player[data-seat="1"]')).to_contain_text("left — played by bot")
    expect(ann.page.locator(".log")).to_contain_text(
        "Bob left the table; the bot plays on for them."
    )
    expect(ann.page.locator(".game-over .checks")).to_have_attribute("data-verified", "true")


def test_a_resignation_at_two_seats_ends_the_game_and_the_other_seat_wins(
    pages: OfflinePages, server_url: str
) -> None:
    created = _ann_against_a_bot(server_url, {**QUICK, "abandon": "bot"})
    ann = Player(pages.new_page(**DESKTOP), server_url)
    sit(ann, created["game_id"], 0, "Ann", created["players"][0]["token"])

    ann.page.get_by_role("button", name="Resign").click()
    dialog = ann.page.get_by_role("dialog")
    # A resignation is a forfeit whatever `abandon` says.
    expect(dialog).to_contain_text("You concede the game")
    expect(dialog).to_contain_text("the game ends now and Bot wins")
    dialog.get_by_role("button", name="Yes, resign").click()

    expect(ann.page.locator("#status")).to_have_text("Game over: Bot won.")
    expect(ann.page.locator('.player[data-seat="0"]')).to_contain_text("forfeited")
    expect(ann.page.locator(".log")).to_contain_text("Ann (you) resigned.")
    expect(ann.page.locator(".game-over .checks")).to_have_attribute("data-verified", "true")
    assert ann.page.get_by_role("button", name=re.compile("^(Leave table|Resign)$")).count() == 0


def test_leaving_under_abandon_forfeit_says_so_before_and_after(
    pages: OfflinePages, server_url: str
) -> None:
    created = seated_game(
        server_url,
        {
            "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy", "bot": "basic"}],
            "rules": {**QUICK, "abandon": "forfeit"},
            "dealer": 2,
        },
    )
    ann = Player(pages.new_page(**DESKTOP), server_url)
    sit(ann, created["game_id"], 0, "Ann", created["players"][0]["token"])

    ann.page.get_by_role("button", name="Leave table").click()
    dialog = ann.page.get_by_role("dialog")
    expect(dialog).to_contain_text("a player who leaves forfeits")
    assert "the game ends now" not in dialog.inner_text(), "two seats are still in"
    dialog.get_by_role("button", name="Yes, leave the table").click()

    expect(ann.page.locator('.player[data-seat="0"]')).to_contain_text("forfeited")
    expect(ann.page.locator(".log")).to_contain_text("Ann (you) left the table and forfeits.")
    expect(ann.page.locator("#me")).to_contain_text("You left this table and forfeited")
    expect(ann.page.locator("#status")).to_contain_text("You left the table: you forfeited.")


def test_an_indian_declarer_is_offered_no_leave_while_its_declaration_is_shown(
    pages: OfflinePages, server_url: str
) -> None:
    # Ann (the page) declares; Bob, a person over HTTP, has yet to show: the deal is
    # all but Ann's, and the server refuses her leave until the show is over
    # (409 wrong_phase), so the page offers none. Bob, still to show, may leave.
    rules = {"variant": "indian", "packs": 1, "jokers": 1}
    created = seated_game(
        server_url,
        {
            "players": [{"name": "Ann"}, {"name": "Bob"}],
            "rules": rules,
            "dealer": 1,
            "decks": [dealt(rules, [DECLARING, NOT_DECLARING], "KS", "7C 8H", dealer=1)],
        },
    )
    game_id = created["game_id"]
    ann_token, bob_token = (seat["token"] for seat in created["players"])
    ann = Player(pages.new_page(**DESKTOP), server_url)
    sit(ann, game_id, 0, "Ann", ann_token)
    expect(ann.page.get_by_role("button", name="Leave table")).to_be_visible()

    with_declaration = ann.page.locator(".shows")
    ann.draw()
    for group in (("5S", "6S", "7S"), ("8H", "9H", "10H", "JK"), ("QC", "QD", "QS")):
        ann.group(*group)
    ann.group("2C", "2D", "2H")
    ann.click("Declare: finish with K♦")
    expect(with_declaration).to_be_visible()
    expect(ann.page.get_by_role("button", name="Leave table")).to_have_count(0)
    expect(ann.page.get_by_role("button", name="Resign")).to_have_count(0)
    refused = httpx.post(
        f"{server_url}/games/{game_id}/leave",
        json={"resign": False},
        headers={"Authorization": f"Bearer {ann_token}"},
        timeout=10,
    )
    assert refused.status_code == 409, refused.text
    assert refused.json()["code"] == "wrong_phase"
    bob = httpx.get(
        f"{server_url}/games/{game_id}",
        headers={"Authorization": f"Bearer {bob_token}"},
        timeout=10,
    ).json()
    assert bob["phase"] == "show"
    assert bob["players"][1]["status"] == "to_submit"


def test_the_clock_takes_a_silent_seat_over_after_its_timeouts_in_a_row(
    pages: OfflinePages, server_url: str
) -> None:
    # One timeout in a row takes the seat over: under `abandon: bot` the server's bot
    # plays Ann's seat on and, against a bot, the game plays out to its end.
    rules = {**QUICK, "turn_seconds": 5, "timeouts_before_takeover": 1}
    created = _ann_against_a_bot(server_url, rules)
    ann = Player(pages.new_page(**DESKTOP), server_url)
    sit(ann, created["game_id"], 0, "Ann", created["players"][0]["token"])
    expect(ann.page.locator("#countdown")).to_be_visible()

    log = ann.page.locator(".log")
    expect(log).to_contain_text(
        "Ann (you) ran out of time too often; the bot plays on for you.", timeout=CLOCK_MS
    )
    expect(ann.page.locator('.player[data-seat="0"]')).to_contain_text("left — played by bot")
    expect(ann.page.locator(".game-over")).to_contain_text("Game over")
    expect(ann.page.get_by_role("button", name="Leave table")).to_have_count(0)


def test_under_forfeit_the_clock_s_takeover_ends_a_two_seat_game(
    pages: OfflinePages, server_url: str
) -> None:
    rules = {**QUICK, "turn_seconds": 5, "timeouts_before_takeover": 1, "abandon": "forfeit"}
    created = _ann_against_a_bot(server_url, rules)
    ann = Player(pages.new_page(**DESKTOP), server_url)
    sit(ann, created["game_id"], 0, "Ann", created["players"][0]["token"])

    log = ann.page.locator(".log")
    expect(log).to_contain_text("Ann (you) ran out of time (1 of 1 in a row).", timeout=CLOCK_MS)
    expect(log).to_contain_text("Ann (you) ran out of time too often and forfeits.")
    expect(ann.page.locator("#status")).to_have_text("Game over: Bot won.")
    expect(ann.page.locator('.player[data-seat="0"]')).to_contain_text("forfeited")
