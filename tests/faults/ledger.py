"""Clients that keep a ledger of every action they sent, and its check against the store.

`play(client, rng, ...)` plays two-player games over HTTP as a careful client
would: it reads the view of the seat to move, picks one of its legal moves,
and POSTs it with `If-Match` (the version it chose from) and, if asked, an
`Idempotency-Key`. Each POST is an `Attempt` in the ledger with its answer:
acknowledged (200), refused (409/412/422), or unknown (a 5xx, or no answer).
After an unknown outcome it resends the same request with the same key, or,
without a key, reads the game again and goes on from what it finds (resending
blindly could apply the action twice).

`check(attempts, stored)` holds the ledger against the events in the store.
`If-Match` pins each action to one place in its game: the action chosen at
version N is applied, if at all, by the command that follows version N
(`stored_moves` finds it). So:

- lost: an acknowledged action that is not the event at its place;
- applied twice: an action of the ledger stored at more than one place;
- false refusal: a refused action that is the event at its place (the
  service said no to what it stored: the defect of issue 16);
- orphans: player events no attempt accounts for (applied twice is the
  kind that repeats an attempt stored at its own place);
- unknown, stored: answered 5xx (or not at all) yet stored, which the client
  learns by reading the game again (not a defect: a 503 says so).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import httpx

from service.game.application import RummyApplication
from tests.offered import offered_actions

SHORT_GAME = {"deals": 1, "exhausted": "score"}
"""One scored deal: games end in tens of actions."""
REFUSED = frozenset({409, 412, 422})
PLAYER_ACTIONS = ("card_drawn", "meld_laid", "card_laid_off", "card_discarded")

Move = tuple[Any, ...]
"""An action as a comparable value: ("draw", source), ("meld", cards), ..."""


@dataclass
class Attempt:
    """One POST of one action, and what the service answered."""

    game_id: str
    seat: int
    before: int
    """The version the action was chosen at (sent as `If-Match`)."""
    move: Move
    status: int | None = None
    """None: no answer at all (the connection failed)."""
    code: str | None = None
    after: int | None = None
    """The version a 200 reported."""
    answered_at: float = 0.0
    """`time.monotonic()` when the last answer (or failure) came."""

    @property
    def acknowledged(self) -> bool:
        return self.status == 200

    @property
    def refused(self) -> bool:
        return self.status in REFUSED

    @property
    def unknown(self) -> bool:
        return self.status is None or self.status >= 500


@dataclass
class Ledger:
    attempts: list[Attempt] = field(default_factory=list)
    game_ids: list[str] = field(default_factory=list)
    statuses: Counter[int | None] = field(default_factory=Counter)
    """Every answer to every request (views included); None: no answer."""

    def first_acknowledged_after(self, moment: float) -> float | None:
        """When the first action answered 200 after `moment` (monotonic) was answered."""
        return min(
            (a.answered_at for a in self.attempts if a.acknowledged and a.answered_at > moment),
            default=None,
        )


def move_of(action: dict[str, Any]) -> Move:
    match action["type"]:
        case "draw":
            return ("draw", action["source"])
        case "meld":
            return ("meld", tuple(sorted(action["cards"])))
        case "lay_off":
            return ("lay_off", action["card"], action["meld_id"])
        case _:
            return ("discard", action["card"])


def stored_move(event: Any) -> Move:
    match event.event_type:
        case "card_drawn":
            return ("draw", event.source)
        case "meld_laid":
            return ("meld", tuple(sorted(event.cards)))
        case "card_laid_off":
            return ("lay_off", event.card, event.meld_id)
        case _:
            return ("discard", event.card)


class _Table:
    """One game as its client sees it."""

    def __init__(self, client: httpx.Client, ledger: Ledger, name: str) -> None:
        self.client = client
        self.ledger = ledger
        self.name = name
        self.game_id = ""
        self.tokens: dict[int, str] = {}

    def send(self, method: str, path: str, **kwargs: Any) -> httpx.Response | None:
        try:
            response = self.client.request(method, path, **kwargs)
        except httpx.TransportError:
            self.ledger.statuses[None] += 1
            return None
        self.ledger.statuses[response.status_code] += 1
        return response

    def create(self) -> bool:
        body = {"players": [{"name": f"{self.name}-a"}, {"name": f"{self.name}-b"}]}
        created = self.send("POST", "/games", json={**body, "rules": SHORT_GAME})
        if created is None or created.status_code != 201:
            return False
        game = created.json()
        self.game_id = game["game_id"]
        self.tokens = {player["seat"]: player["token"] for player in game["players"]}
        self.ledger.game_ids.append(self.game_id)
        return True

    def view(self, seat: int | None = None) -> dict[str, Any] | None:
        headers = {} if seat is None else {"Authorization": f"Bearer {self.tokens[seat]}"}
        got = self.send("GET", f"/games/{self.game_id}", headers=headers)
        if got is None or got.status_code != 200:
            return None
        view: dict[str, Any] = got.json()
        return view

    def act(self, rng: random.Random, keys: bool, number: int) -> bool | None:
        """One action by the seat to move: True if played, False when the game is
        over, None if the service could not be asked (try again later)."""
        public = self.view()
        if public is None:
            return None
        if public["status"] == "finished":
            return False
        seat = public["turn"]
        view = self.view(seat)
        if view is None:
            return None
        if view["status"] == "finished" or view["turn"] != seat:
            return True  # it moved on meanwhile: look again
        action = rng.choice(offered_actions(view))
        attempt = Attempt(self.game_id, seat, view["version"], move_of(action))
        self.ledger.attempts.append(attempt)
        headers = {
            "Authorization": f"Bearer {self.tokens[seat]}",
            "If-Match": f'"{view["version"]}"',
        }
        if keys:
            headers["Idempotency-Key"] = f"{self.name}-{number}"
        while True:
            answer = self.send(
                "POST", f"/games/{self.game_id}/actions", json=action, headers=headers
            )
            attempt.status = None if answer is None else answer.status_code
            attempt.answered_at = time.monotonic()
            if answer is not None and answer.status_code != 200:
                attempt.code = answer.json().get("code")
            if not (attempt.unknown and keys):
                break
            time.sleep(0.05)  # resend the same request, same key: applied at most once
        if answer is not None and attempt.acknowledged:
            attempt.after = answer.json()["version"]
        return True


def play(
    client: httpx.Client,
    rng: random.Random,
    *,
    actions: int,
    keys: bool,
    name: str = "t",
    ledger: Ledger | None = None,
    until: float | None = None,
) -> Ledger:
    """Play games until `actions` POSTs were answered 200 (or `until`, a monotonic time)."""
    ledger = ledger if ledger is not None else Ledger()
    table: _Table | None = None
    number = 0
    while sum(attempt.acknowledged for attempt in ledger.attempts) < actions:
        if until is not None and time.monotonic() >= until:
            break
        if table is None:
            table = _Table(client, ledger, f"{name}{len(ledger.game_ids)}")
            if not table.create():
                table = None
                time.sleep(0.05)
            continue
        number += 1
        played = table.act(rng, keys, number)
        if played is False:
            table = None
        elif played is None:
            time.sleep(0.05)  # the service cannot be asked: do not spin
    return ledger


Stored = tuple[int | None, Move | None]
"""What one command of a player stored: (seat, action), or (None, None) for a draw
that found the stock exhausted and ended the hand (no card drawn)."""


def stored_moves(games: RummyApplication, game_ids: Iterable[str]) -> dict[tuple[str, int], Stored]:
    """(game, version it was played at) → what each player's command stored, in
    every game. A command's events share its `command_id`; one played at version N
    starts at N + 1 (a recycle may come before the draw, the end of the hand and
    the next deal after the action)."""
    stored: dict[tuple[str, int], Stored] = {}
    for game_id in game_ids:
        commands: dict[str | None, list[Any]] = {}
        for event in games.events_after(UUID(game_id)):
            commands.setdefault(event.command_id, []).append(event)
        for events in commands.values():
            if events[0].event_type in ("game_created", "player_joined"):
                continue  # not a player's action
            actions = [event for event in events if event.event_type in PLAYER_ACTIONS]
            what: Stored = (None, None)
            if actions:
                what = (actions[0].seat, stored_move(actions[0]))
            stored[(game_id, events[0].originator_version - 1)] = what
    return stored


@dataclass(frozen=True)
class Verdict:
    acknowledged: int
    lost: int
    applied_twice: int
    false_refusals: int
    orphans: int
    unknown: int
    unknown_stored: int


def check(attempts: Sequence[Attempt], stored: dict[tuple[str, int], Stored]) -> Verdict:
    """The ledger against the store (the module docstring says what each count means)."""

    def at_place(attempt: Attempt) -> bool:
        found = stored.get((attempt.game_id, attempt.before))
        if found == (None, None):  # the stock was exhausted: only a draw ends a hand so
            return attempt.move == ("draw", "stock")
        return found == (attempt.seat, attempt.move)

    placed = [attempt for attempt in attempts if at_place(attempt)]
    accounted = {(attempt.game_id, attempt.before) for attempt in placed}
    orphans = [(place, what) for place, what in stored.items() if place not in accounted]
    acknowledged = [attempt for attempt in attempts if attempt.acknowledged]
    unknown = [attempt for attempt in attempts if attempt.unknown]
    return Verdict(
        acknowledged=len(acknowledged),
        lost=sum(
            1
            for attempt in acknowledged
            if not at_place(attempt) or attempt.after is None or attempt.after <= attempt.before
        ),
        # A request stored again beyond its own place (If-Match should make it
        # impossible) shows as an orphan repeating a placed attempt.
        applied_twice=sum(
            1
            for (game_id, _), what in orphans
            if any(
                attempt.game_id == game_id and (attempt.seat, attempt.move) == what
                for attempt in placed
            )
        ),
        false_refusals=sum(1 for attempt in placed if attempt.refused),
        orphans=len(orphans),
        unknown=len(unknown),
        unknown_stored=sum(1 for attempt in placed if attempt.unknown),
    )
