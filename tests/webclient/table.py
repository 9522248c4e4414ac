"""The web client as a person uses it: one `Player` per browser page.

A `Player` clicks what the page shows (the lobby's form, the piles, the cards,
the move buttons) and reads what it says (the status line, the notice, the
results). It never calls the API for its own moves: the page must offer them.
`play_a_turn` is a plain strategy built on that alone: draw, lay every meld
the page suggests, lay off what it can, discard (and pass a Gin Rummy upcard).

Tables with a chosen deal are set up over the API (`seated_game`), as a
tournament organiser would; the page is then given the seat the way it keeps
seats (`sit`).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx
from playwright.sync_api import Locator, Page, expect

from service.domain.rules import RuleSet
from tests.domain.tables import deck_for, starter_deck_for

STEP_MS = 10_000
"""How long one move may take to show (a request, a render)."""

YOUR_TURN = re.compile(r"Your turn")


def label(code: str) -> str:
    """A card as the page writes it ("10♥")."""
    if code == "JK":
        return "Joker"
    return code[:-1] + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[code[-1]]


@dataclass
class Player:
    page: Page
    base: str

    # --- reading the page ---------------------------------------------------------

    @property
    def app(self) -> Locator:
        return self.page.locator("#app")

    def version(self) -> int:
        return int(self.app.get_attribute("data-version") or "0")

    def status(self) -> str:
        return self.page.locator("#status").inner_text()

    def game_status(self) -> str:
        return self.app.get_attribute("data-status") or ""

    def game_id(self) -> str:
        match = re.search(r"[?&]game=([0-9a-f-]+)", self.page.url)
        assert match, self.page.url
        return match.group(1)

    def hand(self) -> list[str]:
        return [
            code
            for code in self.page.locator(".hand button").evaluate_all(
                "buttons => buttons.map(button => button.dataset.card)"
            )
            if code
        ]

    def notice(self) -> Locator:
        return self.page.locator("#notice")

    def my_turn(self) -> bool:
        return bool(YOUR_TURN.search(self.status()))

    def seat(self) -> dict[str, Any]:
        """The seat the page keeps for this game (its token included)."""
        kept = self.page.evaluate(f"localStorage.getItem('rummy.seat.{self.game_id()}')")
        assert kept, "the page keeps a seat for this game"
        seat: dict[str, Any] = json.loads(kept)
        return seat

    # --- waiting ----------------------------------------------------------------------

    def wait_for_version_after(self, version: int) -> None:
        self.page.wait_for_function(
            "v => Number(document.querySelector('#app').dataset.version) > v",
            arg=version,
            timeout=STEP_MS,
        )

    def wait_until_idle(self) -> None:
        """Until the answer to the page's last move is in: the stream may show the
        views after a move (a bot's turns) before the move's own answer arrives, and
        until then the page offers no move (`data-busy`)."""
        self.page.wait_for_function(
            "() => document.querySelector('#app').dataset.busy !== 'true'", timeout=STEP_MS
        )

    # --- acting -----------------------------------------------------------------------

    def open_lobby(self) -> None:
        self.page.goto(f"{self.base}/play")
        expect(self.page.get_by_role("button", name="Create table")).to_be_enabled()

    def create_table(
        self,
        name: str,
        *,
        variant: str = "classic",
        others: Sequence[str] = ("basic",),
        rules: dict[str, Any] | None = None,
        first: bool = True,
    ) -> None:
        """Fill the lobby's form and create the table: `others` each a bot's
        strategy or "open" for a seat a friend takes by the link; the last seat
        deals, so that this player plays `first` (else the shuffle decides)."""
        self.open_lobby()
        self.page.get_by_label("Your name", exact=True).fill(name)
        self.page.get_by_label("Game", exact=True).select_option(variant)
        self.page.get_by_label("Players", exact=True).select_option(str(len(others) + 1))
        for index, other in enumerate(others):
            self.page.get_by_label(f"Seat {index + 2}", exact=True).select_option(other)
        if first:
            self.page.get_by_label("First dealer", exact=True).select_option(str(len(others)))
        if rules:
            self.page.get_by_text("House rules").click()
            for option, value in rules.items():
                control = self.page.locator(f"#rule-{option}")
                if control.evaluate("element => element.tagName") == "SELECT":
                    control.select_option(str(value).lower() if isinstance(value, bool) else value)
                else:
                    control.fill(str(value))
        self.page.get_by_role("button", name="Create table").click()
        self.page.wait_for_url(re.compile(r"/play\?game="))
        self.page.wait_for_selector("#app[data-version]")

    def click(self, name: str | re.Pattern[str]) -> None:
        """Click a button and wait for the game to move on."""
        before = self.version()
        self.page.get_by_role("button", name=name).first.click()
        self.wait_for_version_after(before)

    def draw(self, source: str = "stock") -> None:
        self.click(
            re.compile(
                "^Draw from the stock$|^Second card from the stock$"
                if source == "stock"
                else "^Take "
            )
        )

    def select(self, *cards: str) -> None:
        """Select `cards` in the hand (and nothing else)."""
        # One at a time: each click draws the hand again.
        pressed = self.page.locator(".hand button[aria-pressed=true]")
        while pressed.count():
            pressed.first.click()
        taken: dict[str, int] = {}
        for code in cards:
            nth = taken.get(code, 0)
            taken[code] = nth + 1
            self.page.locator(f'.hand button[data-card="{code}"]').nth(nth).click()

    def move_buttons(self) -> list[str]:
        return [text.strip() for text in self.page.locator(".moves > button").all_inner_texts()]

    def standings(self) -> list[str]:
        """The final standings, best first, as seat numbers and scores."""
        return [
            f"{item.get_attribute('data-seat')}: {item.inner_text().rsplit(':', 1)[1].strip()}"
            for item in self.page.locator(".game-over .standings li").all()
        ]

    def continue_after_result(self) -> None:
        self.page.locator(".result button").click()

    def group(self, *cards: str) -> None:
        """Put `cards` aside as a group (a concealed going out, a declaration)."""
        self.select(*cards)
        self.page.get_by_role("button", name=re.compile("^Group ")).click()


def play_a_turn(player: Player) -> None:
    """Draw, lay every meld the page suggests, lay off what it offers, discard:
    each by the page's own buttons."""
    player.wait_until_idle()
    if player.page.locator("[data-focus=pass]").count():
        # Gin Rummy's upcard offer: pass it (the stock comes next, or the other's turn).
        player.click("Pass")
        return None
    if player.page.locator("[data-focus=draw-stock]").count():
        player.draw()
    elif player.page.locator("[data-focus=draw-pile]").count():
        player.draw("discard")
    while player.game_status() == "playing" and player.my_turn():
        if player.page.locator(".suggestions button").count() == 0:
            break
        player.page.locator(".suggestions summary").click()
        player.click(re.compile("^Meld "))
    if not (player.game_status() == "playing" and player.my_turn()):
        return
    on_table = player.page.locator(".melds li").count()
    for card in reversed(player.hand()) if on_table else []:
        player.select(card)
        if player.page.get_by_role("button", name=re.compile("^Lay off ")).count():
            player.click(re.compile("^Lay off "))
            return play_a_turn(player)
    for card in reversed(player.hand()):
        player.select(card)
        if player.page.get_by_role("button", name=re.compile("^Discard ")).count():
            player.click(re.compile("^Discard "))
            return None
    # A file of its own: xdist workers and other runs may fail at the same time.
    handle, shot = tempfile.mkstemp(prefix="rummy-no-discard-", suffix=".png")
    os.close(handle)
    player.page.screenshot(path=shot, full_page=True)
    raise AssertionError(
        f"no card to discard in {player.hand()}: {player.move_buttons()}: "
        f"{player.status()} (the page: {shot})"
    )


def play_to_the_end(players: Sequence[Player], seconds: float = 60.0) -> None:
    """Play every page's turns until its game is finished."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        acted = False
        for player in players:
            if player.page.locator(".result button").count():
                player.continue_after_result()
                acted = True
            if player.game_status() == "playing" and player.my_turn():
                play_a_turn(player)
                acted = True
        if all(player.game_status() == "finished" for player in players):
            return
        if not acted:
            players[0].page.wait_for_timeout(50)
    raise AssertionError(f"the game did not end in {seconds} s: {[p.status() for p in players]}")


# --- tables set up over the API ------------------------------------------------------


def dealt(
    rules: dict[str, Any],
    hands: Sequence[str],
    upcard: str,
    stock: str = "",
    dealer: int = 0,
) -> list[str]:
    """The deck order that deals `hands` (one per seat, "7H 8H 9H"), then `upcard`,
    then `stock` (top first), then the rest of the rules' pack. For a deal with no
    upcard (Wrotham), `upcard` is the starter's extra card."""
    pack = RuleSet.from_dict(rules).pack
    seats = [hand.split() for hand in hands]
    starter = (dealer + 1) % len(seats)
    if rules.get("variant") == "wrotham":
        seats[starter].append(upcard)
        order = starter_deck_for(seats, stock.split(), dealer, pack)
    else:
        order = deck_for(seats, upcard, stock.split(), dealer, pack)
    return [card.code for card in order]


def seated_game(base: str, body: dict[str, Any]) -> dict[str, Any]:
    """A game created over the API (every seat named, so the deal may be chosen)."""
    created = httpx.post(f"{base}/games", json=body, timeout=10)
    assert created.status_code == 201, created.text
    answer: dict[str, Any] = created.json()
    return answer


def sit(player: Player, game_id: str, seat: int, name: str, token: str) -> None:
    """Give the page a seat as it keeps one, and open the game."""
    player.page.goto(f"{player.base}/play/assets/icon.svg")
    record = {
        "gameId": game_id,
        "seat": seat,
        "name": name,
        "token": token,
        "since": "2026-01-01T00:00:00Z",
    }
    player.page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"rummy.seat.{game_id}", json.dumps(record)],
    )
    player.page.goto(f"{player.base}/play?game={game_id}")
    player.page.wait_for_selector("#app[data-version]")


@dataclass
class Opponent:
    """A player at the same table over plain HTTP (not a page): it takes a seat
    and plays draw-and-discard turns from its view's `legal`."""

    base: str
    game_id: str
    token: str

    @classmethod
    def join(cls, base: str, game_id: str, name: str) -> Opponent:
        joined = httpx.post(f"{base}/games/{game_id}/players", json={"name": name}, timeout=10)
        assert joined.status_code == 201, joined.text
        return cls(base, game_id, joined.json()["token"])

    def view(self) -> dict[str, Any]:
        answer = httpx.get(f"{self.base}/games/{self.game_id}", headers=self._bearer(), timeout=10)
        assert answer.status_code == 200, answer.text
        view: dict[str, Any] = answer.json()
        return view

    def play_a_turn(self) -> str:
        """Draw from the stock and discard the last card it may; the card discarded."""
        view = self.view()
        assert view["turn"] == view["my_seat"], "its turn"
        drawn = self._act({"type": "draw", "source": "stock"})
        card: str = drawn["legal"]["discard"][-1]
        self._act({"type": "discard", "card": card})
        return card

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """One action of this seat's (it must be accepted); the view after it."""
        return self._act(action)

    def _act(self, action: dict[str, Any]) -> dict[str, Any]:
        answer = httpx.post(
            f"{self.base}/games/{self.game_id}/actions",
            json=action,
            headers=self._bearer(),
            timeout=10,
        )
        assert answer.status_code == 200, answer.text
        view: dict[str, Any] = answer.json()
        return view

    def _bearer(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


PENALTY_RULES = {"hand_size": 4, "scoring": "penalty", "deals": 1}
"""One hand, scored against: each other player adds their own hand, the lowest total wins."""
PENALTY_HANDS = ("7H 8H 9H KS", "2C 4D 6S 8C", "3C 5D QC JD")
"""Ann's, then two bots' holding 20 and 28: Ann goes rummy on her first turn (the
bots add twice their hands, 40 and 56), so the standings are Ann, Bot 2, Bot 3."""


def a_finished_game(base: str) -> dict[str, Any]:
    """Three seats, Ann (seat 0, first to play) and two bots, played to the end over
    HTTP: Ann draws 10H, melds 7H-10H and discards KS, rummy in one hand of
    `PENALTY_RULES`. The creation's answer (Ann's token included)."""
    created = seated_game(
        base,
        {
            "players": [
                {"name": "Ann"},
                {"name": "Bot 2", "bot": "basic"},
                {"name": "Bot 3", "bot": "basic"},
            ],
            "rules": PENALTY_RULES,
            "dealer": 2,
            "decks": [dealt(PENALTY_RULES, PENALTY_HANDS, "QD", "10H", dealer=2)],
        },
    )
    ann = Opponent(base, created["game_id"], created["players"][0]["token"])
    ann._act({"type": "draw", "source": "stock"})
    ann._act({"type": "meld", "cards": ["7H", "8H", "9H", "10H"]})
    finished = ann._act({"type": "discard", "card": "KS"})
    assert finished["status"] == "finished", finished
    assert [player["score"] for player in finished["players"]] == [0, 40, 56]
    return created
