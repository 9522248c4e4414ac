"""A client that plays the HTTP service in process, on the in-memory store.

`Api` wraps litestar's TestClient with the calls a client of docs/api.md makes;
`Game` is one game as the tests see it: its id, its tokens, and every
response about it (`log`), so a test can look at all of them afterwards.
Every successful game response is checked on the way for its `ETag`: the version
and who it is shown to (docs/api.md, "HTTP conventions").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
from litestar import Litestar
from litestar.testing import TestClient

from service.domain.cards import FULL_DECK
from tests.apps import bootstrap_test_app
from tests.domain.tables import deck_for

ADMIN_TOKEN = "admin-token-for-the-api-tests"
ADMIN = "admin"
"""`who` for the admin token; None is the public (no token), an int a seat."""
PUBLIC = None

Who = int | str | None
Json = Any


def make_app() -> Litestar:
    return bootstrap_test_app(admin_token=ADMIN_TOKEN).app


def deck(hands: Sequence[str], upcard: str, stock: str = "", dealer: int = 0) -> list[str]:
    """The deck order (card codes) that deals `hands` (one per seat, `"KS 9D 4C"`)
    with `dealer` dealing, then `upcard`, then `stock` top first, then the rest."""
    return [card.code for card in deck_for(hands, upcard, stock, dealer)]


def pack_deck(
    hands: Sequence[str], upcard: str, stock: str = "", dealer: int = 0, *, jokers: int = 0
) -> list[str]:
    """`deck` for a pack of 52 and `jokers` `JK`, where codes may repeat: the hands
    (dealt one card a round from the seat after `dealer`), `upcard`, `stock` top
    first, then whatever of the pack is left, in its reference order."""
    dealt = [hand.split() for hand in hands]
    order = [
        dealt[(dealer + offset) % len(dealt)][round_]
        for round_ in range(len(dealt[0]))
        for offset in range(1, len(dealt) + 1)
    ]
    order += [upcard, *stock.split()]
    pack = [card.code for card in FULL_DECK] + ["JK"] * jokers
    left = Counter(pack) - Counter(order)
    assert not Counter(order) - Counter(pack), "the deal holds only cards of the pack"
    for code in pack:
        if left[code]:
            left[code] -= 1
            order.append(code)
    assert sorted(order) == sorted(pack)
    return order


PAGE_SIZE = 1000
"""The events page size of the tests' app (the default)."""


def tag(version: int, who: Who = PUBLIC, *, after: int | None = None, size: int = PAGE_SIZE) -> str:
    """The `ETag` of what `who` is shown of a game at `version`: a view, or with
    `after` an events page of up to `size` events."""
    caller = "" if who is None else ".admin" if who == ADMIN else f".seat{who}"
    page = "" if after is None else f".after{after}.limit{size}"
    return f'"{version}{caller}{page}"'


def check_etag(response: httpx.Response, who: Who = PUBLIC, *, after: int | None = None) -> None:
    """Every response that shows a game carries its version and who it is shown to as
    a quoted ETag (an events page: and its query)."""
    assert response.headers["etag"] == tag(response.json()["version"], who, after=after)


@dataclass
class Game:
    """One game, as a client sees it."""

    api: Api
    id: str
    tokens: dict[int, str]
    created: Json
    log: list[httpx.Response] = field(default_factory=list)
    """Every response about this game, oldest first (creation and joins included)."""

    def headers(self, who: Who, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        headers = dict(extra or {})
        if who == ADMIN:
            headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        elif isinstance(who, int):
            headers["Authorization"] = f"Bearer {self.tokens[who]}"
        return headers

    def get(self, path: str, who: Who, **params: Any) -> httpx.Response:
        response = self.api.client.get(
            f"/games/{self.id}{path}", headers=self.headers(who), params=params
        )
        self.log.append(response)
        return response

    def view(self, who: Who = PUBLIC) -> Json:
        response = self.get("", who)
        assert response.status_code == 200, response.text
        check_etag(response, who)
        return response.json()

    def events(self, who: Who = PUBLIC, after: int = 0) -> list[Json]:
        response = self.get("/events", who, after=after)
        assert response.status_code == 200, response.text
        check_etag(response, who, after=after)
        events: list[Json] = response.json()["events"]
        return events

    def replay(self, who: Who, version: int) -> Json:
        response = self.get("/replay", who, version=version)
        assert response.status_code == 200, response.text
        check_etag(response, who)
        return response.json()

    def act(
        self, seat: Who, actions: Json, headers: Mapping[str, str] | None = None
    ) -> httpx.Response:
        """POST the actions (one, or a list) for `seat`; any outcome."""
        response = self.api.client.post(
            f"/games/{self.id}/actions", json=actions, headers=self.headers(seat, headers)
        )
        self.log.append(response)
        return response

    def play(self, seat: int, actions: Json) -> Json:
        """Act and expect success: the player's new view."""
        response = self.act(seat, actions)
        assert response.status_code == 200, response.text
        check_etag(response, seat)
        view: Json = response.json()
        return view

    def join(self, name: str, **extra: Any) -> Json:
        response = self.api.client.post(f"/games/{self.id}/players", json={"name": name, **extra})
        self.log.append(response)
        assert response.status_code == 201, response.text
        joined: Json = response.json()
        check_etag(response, joined["seat"])
        self.tokens[joined["seat"]] = joined["token"]
        return joined


class Api:
    """The calls a client of docs/api.md makes."""

    def __init__(self, client: TestClient[Litestar]) -> None:
        self.client = client

    def create(self, by_admin: bool = False, **body: Any) -> Game:
        """Create a game from `body`, as the admin if `by_admin` (who alone may
        choose the deal of a game with open seats)."""
        headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"} if by_admin else {}
        response = self.client.post("/games", json=body, headers=headers)
        assert response.status_code == 201, response.text
        check_etag(response)
        created = response.json()
        game = Game(
            api=self,
            id=created["game_id"],
            tokens={player["seat"]: player["token"] for player in created["players"]},
            created=created,
        )
        game.log.append(response)
        return game


def draw(source: str = "stock") -> Json:
    return {"type": "draw", "source": source}


def meld(cards: str, as_: str | None = None) -> Json:
    body = {"type": "meld", "cards": cards.split()}
    return body if as_ is None else {**body, "as": as_.split()}


def lay_off(card: str, meld_id: str, as_: str | None = None) -> Json:
    body = {"type": "lay_off", "card": card, "meld_id": meld_id}
    return body if as_ is None else {**body, "as": as_}


def swap(meld_id: str, card: str) -> Json:
    return {"type": "swap", "meld_id": meld_id, "card": card}


def knock(card: str) -> Json:
    return {"type": "knock", "card": card}


def discard(card: str) -> Json:
    return {"type": "discard", "card": card}
