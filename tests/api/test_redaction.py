"""Redaction: across many random games, nobody learns more than at a real table.

Random games over HTTP (2 to 4 players, random house rules that keep them
short, named players or open seats), each seat choosing at random among the
`legal` moves of its own view. Every response is kept. Afterwards the admin
event log is read and `track` (written from docs/rules.md and docs/api.md alone: it
deals the deck itself and uses nothing of the projections) says which cards
each seat, and the public, may know at every version: its own cards, the
upcard and every discard, every card melded or laid off, every card taken
from the discard pile, every card shown when a hand ends. Every kept
response, replays at random versions and event pages from random versions
are then checked: no card beyond that, no token, token hash, seed or client
seed anywhere, and no deck or stock order except for the admin.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from service.domain.cards import FULL_DECK
from tests.api.client import ADMIN, PUBLIC, Api, Game, Json, draw

CARD_CODES = frozenset(card.code for card in FULL_DECK)
NAMES = ["Ann", "Bob", "Cleo", "Dan"]
MAX_ACTIONS = 400
"""Per game: enough for a few hands; the checks need no finished game."""
GAMES = 14


@dataclass
class Knowledge:
    """What each seat (None: the public) may know, version by version."""

    known: dict[int, dict[int | None, frozenset[str]]] = field(default_factory=dict)
    """Cards of the hand in play (or just ended) a caller may know after each version."""
    shown: dict[int, frozenset[str]] = field(default_factory=dict)
    """Cards the latest finished hand showed, as of each version (a view's `last_hand`)."""

    def allowed(self, who: int | None, version: int) -> frozenset[str]:
        return self.known[version][who] | self.shown[version]


def track(events: list[Json], players: int) -> Knowledge:
    """Follow the admin event log as each seat at the table would see it."""
    callers: list[int | None] = [PUBLIC, *range(players)]
    known: dict[int | None, set[str]] = {who: set() for who in callers}
    shown: frozenset[str] = frozenset()
    knowledge = Knowledge()

    def everyone(*cards: str) -> None:
        for who in callers:
            known[who].update(cards)

    for event in events:
        match event["type"]:
            case "hand_dealt":
                deck, size, dealer = event["deck"], event["hand_size"], event["dealer"]
                dealt = players * size
                # docs/rules.md "The deal": one card at a time from the seat after the dealer.
                hands = {
                    seat: {deck[i] for i in range(dealt) if (dealer + 1 + i) % players == seat}
                    for seat in range(players)
                }
                upcard = deck[dealt]
                for who in callers:
                    known[who] = {upcard} | (hands[who] if who is not None else set())
            case "card_drawn":
                if event["source"] == "discard":
                    everyone(event["card"])
                else:
                    known[event["seat"]].add(event["card"])
            case "meld_laid":
                everyone(*event["cards"])
            case "card_laid_off" | "card_discarded":
                everyone(event["card"])
            case "hand_ended":
                shown = frozenset(card for seat in event["players"] for card in seat["cards"])
                everyone(*shown)
        knowledge.known[event["version"]] = {who: frozenset(known[who]) for who in callers}
        knowledge.shown[event["version"]] = shown
    return knowledge


def cards_in(value: Any) -> Iterator[str]:
    """Every card code anywhere in a JSON value."""
    if isinstance(value, str):
        if value in CARD_CODES:
            yield value
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_in(item)


def admin_only_keys(value: Any, path: str = "") -> Iterator[str]:
    """Where a JSON value shows a deck, a stock order or the hidden cards."""
    if isinstance(value, list):
        for index, item in enumerate(value):
            yield from admin_only_keys(item, f"{path}[{index}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            if key in {"deck", "stock", "hidden"} and item is not None:
                yield f"{path}.{key}"
            yield from admin_only_keys(item, f"{path}.{key}")


@dataclass
class Secrets:
    seed: str
    client_seeds: list[str]

    def never_shown(self, game: Game) -> list[str]:
        """In no response at all: the seed (while the game is in play, and here
        never), every token's hash. (The client seeds are public from the deal on, in
        `hand_dealt`'s `client_seeds`: `without_dealt_client_seeds` looks for them
        anywhere else.)"""
        hashes = [hashlib.sha256(token.encode()).hexdigest() for token in game.tokens.values()]
        return [self.seed, *hashes]


def without_dealt_client_seeds(value: Any) -> Any:
    """A JSON body without the `client_seeds` of its deals, where they are public."""
    if isinstance(value, list):
        return [without_dealt_client_seeds(item) for item in value]
    if isinstance(value, dict):
        return {
            key: without_dealt_client_seeds(item)
            for key, item in value.items()
            if not (key == "client_seeds" and value.get("type") == "hand_dealt")
        }
    return value


@dataclass
class Table:
    """One random game in play, and who asked what."""

    game: Game
    rng: random.Random
    players: int
    secrets: Secrets
    asked: list[tuple[int | None, httpx.Response]] = field(default_factory=list)

    def ask(self, who: int | None, response: httpx.Response) -> Json:
        assert response.status_code == 200, response.text
        self.asked.append((who, response))
        return response.json()

    def play(self) -> None:
        view = self.ask(0, self.game.get("", 0))
        for _ in range(MAX_ACTIONS):
            if view["status"] == "finished":
                return
            seat = view["turn"]
            if view.get("my_seat") != seat:
                view = self.ask(seat, self.game.get("", seat))
            view = self.ask(seat, self.game.act(seat, self.choose(view["legal"])))
            if self.rng.random() < 0.1:
                self.look_around()

    def choose(self, legal: Json) -> Json:
        rng = self.rng
        if legal["draw"]:
            return draw("discard" if rng.random() < 0.3 else "stock")
        plays = [{"type": "meld", "cards": cards} for cards in legal["melds"]]
        plays += [{"type": "lay_off", **option} for option in legal["lay_offs"]]
        if plays and rng.random() < 0.85:
            return rng.choice(plays)
        return {"type": "discard", "card": rng.choice(legal["discard"])}

    def callers(self) -> list[int | None]:
        return [PUBLIC, *range(self.players)]

    def look_around(self) -> None:
        who = self.rng.choice(self.callers())
        self.ask(who, self.game.get("", who))
        version = self.game.view(ADMIN)["version"]
        self.ask(who, self.game.get("/events", who, after=self.rng.randrange(version)))


def new_table(api: Api, rng: random.Random) -> Table:
    players = rng.choice([2, 3, 4])
    largest_hand = (52 - 2) // players
    rules: dict[str, Any] = {
        "deals": rng.randint(1, 3),
        "max_turns": rng.randint(6, 40),
        "recycles": rng.choice([0, 1, 2]),
        "recycle_shuffle": rng.random() < 0.5,
        "exhausted": rng.choice(["void", "score"]),
        "aces": rng.choice(["low", "high_or_low", "around_the_corner"]),
        "lay_off": rng.choice(["anytime", "after_own_meld"]),
        "going_out": rng.choice(["any", "discard"]),
        "melds_per_turn": rng.choice(["unlimited", "one"]),
    }
    if rng.random() < 0.5:
        # Big hands leave a short stock: recycles and exhausted hands come soon.
        rules["hand_size"] = rng.randint(largest_hand - 4, largest_hand)
    seed = f"the-secret-seed-{rng.getrandbits(64):016x}"
    client_seeds = [f"client-seed-{seat}-{rng.getrandbits(64):016x}" for seat in range(players)]
    named = players if rng.random() < 0.6 else rng.randint(0, players - 1)
    game = api.create(
        players=[{"name": NAMES[seat], "client_seed": client_seeds[seat]} for seat in range(named)],
        seats=players,
        rules=rules,
        seed=seed,
        by_admin=named < players,
    )
    for seat in range(named, players):
        game.join(NAMES[seat], client_seed=client_seeds[seat])
    return Table(game, rng, players, Secrets(seed, client_seeds))


@pytest.mark.parametrize("number", range(GAMES))
def test_no_response_shows_a_player_more_than_a_player_may_know(api: Api, number: int) -> None:
    rng = random.Random(f"redaction-{number}")
    table = new_table(api, rng)
    table.play()
    game = table.game

    admin_events = game.events(ADMIN)
    knowledge = track(admin_events, table.players)
    last = admin_events[-1]["version"]
    assert sorted(knowledge.known) == list(range(1, last + 1))
    for who in table.callers():
        for version in rng.sample(range(1, last + 1), min(last, 12)):
            table.ask(who, game.get("/replay", who, version=version))
        table.ask(who, game.get("/events", who, after=rng.randrange(last)))
        table.ask(who, game.get("/events", who))

    for who, response in table.asked:
        body = response.json()
        if response.url.path.endswith("/events"):
            for event in body["events"]:
                extra = set(cards_in(event)) - knowledge.known[event["version"]][who]
                assert not extra, (who, event, extra)
        else:
            extra = set(cards_in(body)) - knowledge.allowed(who, body["version"])
            assert not extra, (who, response.url, body["version"], extra)
        assert not list(admin_only_keys(body)), (who, response.url)
        if who is PUBLIC:
            assert body.get("my_hand") is None
            assert body.get("legal") is None

    secrets = table.secrets.never_shown(game)
    tokens = list(game.tokens.values())
    for response in game.log:
        text = response.text
        for secret in secrets:
            assert secret not in text, (response.url, secret)
        if response.headers.get("content-type", "").startswith("application/json"):
            rest = json.dumps(without_dealt_client_seeds(response.json()))
            for client_seed in table.secrets.client_seeds:
                assert client_seed not in rest, (response.url, client_seed)
        if response.request.method == "GET" or response.url.path.endswith("/actions"):
            # A token is shown once: to whoever created the game or took the seat.
            for token in tokens:
                assert token not in text, response.url


def test_the_tracker_follows_a_deal_as_the_rules_give_it() -> None:
    deck = [card.code for card in FULL_DECK]
    events = [
        {"version": 1, "type": "game_created"},
        {"version": 2, "type": "hand_dealt", "deck": deck, "hand_size": 2, "dealer": 0},
        {"version": 3, "type": "card_drawn", "seat": 1, "source": "stock", "card": deck[5]},
        {"version": 4, "type": "card_discarded", "seat": 1, "card": deck[0]},
        {"version": 5, "type": "card_drawn", "seat": 0, "source": "discard", "card": deck[0]},
    ]
    knowledge = track(events, players=2)
    # Dealer 0: deck[0] and deck[2] to seat 1, deck[1] and deck[3] to seat 0; deck[4] face up.
    assert knowledge.known[2][1] == {deck[0], deck[2], deck[4]}
    assert knowledge.known[2][0] == {deck[1], deck[3], deck[4]}
    assert knowledge.known[2][PUBLIC] == {deck[4]}
    assert deck[5] in knowledge.known[3][1]
    assert deck[5] not in knowledge.known[3][0] | knowledge.known[3][PUBLIC]
    assert deck[0] in knowledge.known[5][PUBLIC]
