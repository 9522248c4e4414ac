"""Scale-out: three replicas on one PostgreSQL, one of them killed mid-game.

Three `rummy serve` processes on 127.0.0.1 share one database (a fresh
schema). Client threads play many complete games, sending every request to
a replica picked at random; some moves are raced by two clients of the same
player at once, some are tried by the wrong seat, some are resent with the
same Idempotency-Key. A request that meets a dead replica is retried on
another with the same key. Midway one replica gets SIGKILL and is restarted.

Afterwards:
- no client saw a 5xx;
- every game finished with a valid winner, or is resumable (the seat to
  play has a legal move);
- every game's stored events replay, event by event, to states that keep
  the 52 cards each in one place;
- no event is lost or duplicated: every acknowledged action is in the store
  exactly once (its Idempotency-Key on exactly one run of events, its move
  once in the admin event feed, in the order the acknowledgements came),
  every rejected one is absent.
"""

from __future__ import annotations

import itertools
import random
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest

from service.bootstrap import open_games
from service.config import Settings
from service.domain.cards import FULL_DECK
from service.game.event_records import GameEvent
from tests.postgres import fresh_schema, service_environment
from tests.rates import NO_RATE_LIMITS_ENV
from tests.servers import Replica, clean_environment, running_replicas

pytestmark = pytest.mark.postgres

ADMIN_TOKEN = "scale-test-admin-token-0123456789"
REPLICAS = 3
GAMES = 24
RULES: list[dict[str, Any]] = [
    {"deals": 1, "exhausted": "score", "max_turns": 30},
    {"target": 20, "exhausted": "score", "max_turns": 24},
    {"deals": 1, "exhausted": "score", "max_turns": 40},
]
"""Small games (one deal, or first to 20 points; at most 24 to 40 turns a hand; a
stock run dry scores): about 60 to 80 actions each, some with a recycled stock."""
CLIENTS = 6
"""Games played at once, one client thread each."""
MAX_ACTIONS_PER_GAME = 500
RACE_CHANCE = 0.15
"""How often two clients of the same player send the same move at once."""
WRONG_SEAT_CHANCE = 0.05
RESEND_CHANCE = 0.05
"""How often an acknowledged action is sent again with its key."""
KILL_AFTER_ACKS = 300
"""Acknowledged actions before one replica is killed (the run acknowledges about 1,700)."""
ATTEMPTS = 40
"""Tries per request across replicas before a client gives up (bounded)."""
RUN_SECONDS = 90.0


@dataclass
class Sent:
    """One action a client sent (with all its retries), and how it ended."""

    game_id: str
    seat: int
    key: str
    action: dict[str, Any]
    status: int
    code: str | None = None
    version: int | None = None
    """The version the acknowledgement showed."""
    resent: bool = False
    """A repeat of an acknowledged key, not a new action."""
    view: dict[str, Any] = field(default_factory=dict, repr=False)
    """The acting player's view the acknowledgement carried."""

    @property
    def acked(self) -> bool:
        return self.status == 200


@dataclass
class Ledger:
    """What every client saw, shared by the client threads."""

    sent: list[Sent] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    server_errors: list[str] = field(default_factory=list)
    transport_errors: int = 0
    races: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def acks(self) -> int:
        return sum(1 for item in self.sent if item.acked and not item.resent)


class Cluster:
    """Every request to a random replica; a dead one is skipped and the request
    sent again (same body, same Idempotency-Key) to another."""

    def __init__(self, replicas: list[Replica], ledger: Ledger) -> None:
        self.urls = [replica.url for replica in replicas]
        self.ledger = ledger
        self.local = threading.local()

    def _client(self) -> httpx.Client:
        client: httpx.Client | None = getattr(self.local, "client", None)
        if client is None:
            client = httpx.Client(timeout=httpx.Timeout(15.0, connect=2.0))
            self.local.client = client
        return client

    def request(
        self,
        method: str,
        path: str,
        rng: random.Random,
        *,
        token: str | None = None,
        json: Any = None,
        key: str | None = None,
    ) -> httpx.Response:
        headers = {}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if key is not None:
            headers["Idempotency-Key"] = key
        for attempt in range(ATTEMPTS):
            url = rng.choice(self.urls)
            try:
                response = self._client().request(method, url + path, json=json, headers=headers)
            except httpx.TransportError:
                with self.ledger.lock:
                    self.ledger.transport_errors += 1
                time.sleep(min(0.02 * (attempt + 1), 0.3))
                continue
            with self.ledger.lock:
                self.ledger.statuses[response.status_code] += 1
                if response.status_code >= 500:
                    self.ledger.server_errors.append(
                        f"{method} {path} -> {response.status_code}: {response.text[:300]}"
                    )
            return response
        raise AssertionError(f"{method} {path}: no replica answered in {ATTEMPTS} attempts")

    def close(self) -> None:
        client = getattr(self.local, "client", None)
        if client is not None:
            client.close()


@dataclass
class Game:
    game_id: str
    tokens: list[str]
    rules: dict[str, Any]


def _links(card: str, held: list[str]) -> int:
    """How many held cards could share a meld with `card` (a discard heuristic)."""
    rank, suit = card[:-1], card[-1]
    order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    value = order.index(rank)
    return sum(
        1
        for other in held
        if other != card
        and (
            other[:-1] == rank or (other[-1] == suit and abs(order.index(other[:-1]) - value) <= 2)
        )
    )


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A legal move from the view's `legal`, played mostly sensibly."""
    legal = view["legal"]
    if legal["draw"]:
        if "discard" in legal["draw"] and rng.random() < 0.2:
            return {"type": "draw", "source": "discard"}
        return {"type": "draw", "source": rng.choice(legal["draw"])}
    if legal["melds"] and rng.random() < 0.95:
        return {"type": "meld", "cards": rng.choice(legal["melds"])}
    if legal["lay_offs"] and rng.random() < 0.9:
        return {"type": "lay_off", **rng.choice(legal["lay_offs"])}
    if legal["discard"]:
        held = view["my_hand"]
        return {
            "type": "discard",
            "card": min(legal["discard"], key=lambda card: (_links(card, held), rng.random())),
        }
    return None


class Client:
    """Plays one game to its end, through the cluster."""

    def __init__(self, cluster: Cluster, ledger: Ledger, game: Game, seed: int) -> None:
        self.cluster = cluster
        self.ledger = ledger
        self.game = game
        self.rng = random.Random(seed)

    def view(self, seat: int) -> dict[str, Any]:
        response = self.cluster.request(
            "GET", f"/games/{self.game.game_id}", self.rng, token=self.game.tokens[seat]
        )
        assert response.status_code == 200, response.text
        view: dict[str, Any] = response.json()
        return view

    def send(self, seat: int, action: dict[str, Any], key: str, *, resent: bool = False) -> Sent:
        response = self.cluster.request(
            "POST",
            f"/games/{self.game.game_id}/actions",
            self.rng,
            token=self.game.tokens[seat],
            json=action,
            key=key,
        )
        body = response.json()
        sent = Sent(
            game_id=self.game.game_id,
            seat=seat,
            key=key,
            action=action,
            status=response.status_code,
            code=body.get("code"),
            version=body.get("version") if response.status_code == 200 else None,
            resent=resent,
            view=body if response.status_code == 200 else {},
        )
        assert response.status_code in (200, 409), f"{action}: {response.status_code} {body}"
        with self.ledger.lock:
            self.ledger.sent.append(sent)
        return sent

    def race(self, seat: int, action: dict[str, Any], pool: ThreadPoolExecutor) -> Sent:
        """Two clients of the same player send the same move at once: one wins."""
        racers = [
            (Client(self.cluster, self.ledger, self.game, self.rng.randrange(2**32)), key)
            for key in (uuid.uuid4().hex, uuid.uuid4().hex)
        ]
        barrier = threading.Barrier(2)

        def one(racer: Client, key: str) -> Sent:
            barrier.wait(timeout=10)
            return racer.send(seat, action, key)

        outcomes = list(pool.map(one, *zip(*racers, strict=True)))
        with self.ledger.lock:
            self.ledger.races += 1
        assert sorted(outcome.status for outcome in outcomes) == [200, 409], outcomes
        return next(outcome for outcome in outcomes if outcome.acked)

    def play(self, pool: ThreadPoolExecutor, stop: threading.Event) -> None:
        seat = self.view(0)["turn"]
        acked: list[Sent] = []
        for _ in range(MAX_ACTIONS_PER_GAME):
            if stop.is_set():
                return
            view = self.view(seat)
            assert view["status"] == "playing", view["status"]
            assert view["turn"] == seat, "nobody else moves in this game"
            action = choose(view, self.rng)
            assert action is not None, f"seat {seat} has a legal move: {view['legal']}"
            roll = self.rng.random()
            if roll < RACE_CHANCE:
                sent = self.race(seat, action, pool)
            else:
                if roll < RACE_CHANCE + WRONG_SEAT_CHANCE:
                    other = 1 - seat
                    wrong = self.send(other, {"type": "draw", "source": "stock"}, uuid.uuid4().hex)
                    assert (wrong.status, wrong.code) == (409, "not_your_turn"), wrong
                sent = self.send(seat, action, uuid.uuid4().hex)
                assert sent.acked, f"a legal move is acknowledged: {sent}"
            acked.append(sent)
            if self.rng.random() < RESEND_CHANCE:
                earlier = self.rng.choice(acked)
                again = self.send(earlier.seat, earlier.action, earlier.key, resent=True)
                assert (again.status, again.version) == (200, earlier.version), (earlier, again)
            if sent.view["status"] == "finished":
                return
            seat = sent.view["turn"]


@pytest.fixture
def store_settings() -> Iterator[Settings]:
    with fresh_schema("rummy_scale") as settings:
        yield settings


@pytest.fixture
def replicas(store_settings: Settings, tmp_path: Path) -> Iterator[list[Replica]]:
    env = {
        **clean_environment(),
        **service_environment(store_settings),
        "RUMMY_HOST": "127.0.0.1",
        "RUMMY_ADMIN_TOKEN": ADMIN_TOKEN,
        "RUMMY_LOG_LEVEL": "warning",
        "POSTGRES_POOL_SIZE": "4",
        "RUMMY_SHUTDOWN_TIMEOUT": "2",
        **NO_RATE_LIMITS_ENV,
    }
    # All at once, as pods of a Deployment start: the store opens under a lock.
    with running_replicas(env, REPLICAS, tmp_path) as started:
        yield started


def _create_games(cluster: Cluster) -> list[Game]:
    rng = random.Random(1)
    games = []
    for index in range(GAMES):
        rules = RULES[index % len(RULES)]
        response = cluster.request(
            "POST",
            "/games",
            rng,
            json={"players": [{"name": f"A{index}"}, {"name": f"B{index}"}], "rules": rules},
        )
        assert response.status_code == 201, response.text
        created = response.json()
        tokens = [player["token"] for player in created["players"]]
        games.append(Game(created["game_id"], tokens, rules))
    return games


def _kill_and_restart(victim: Replica, ledger: Ledger, stop: threading.Event) -> dict[str, float]:
    """SIGKILL `victim` once enough actions went through, then start it again."""
    deadline = time.monotonic() + RUN_SECONDS / 2
    while ledger.acks() < KILL_AFTER_ACKS and time.monotonic() < deadline:
        if stop.wait(0.05):
            return {}
    acks_before = ledger.acks()
    victim.kill()
    killed_at = time.monotonic()
    time.sleep(0.5)
    victim.start()
    victim.wait_ready()
    return {
        "acks_at_kill": acks_before,
        "down_seconds": time.monotonic() - killed_at,
    }


def test_three_replicas_one_killed_no_move_lost(
    store_settings: Settings, replicas: list[Replica]
) -> None:
    began = time.monotonic()
    ledger = Ledger()
    cluster = Cluster(replicas, ledger)
    games = _create_games(cluster)
    stop = threading.Event()
    failures: list[BaseException] = []

    def play(game: Game, seed: int, pool: ThreadPoolExecutor) -> None:
        try:
            Client(cluster, ledger, game, seed).play(pool, stop)
        except BaseException as error:
            failures.append(error)
            stop.set()
            raise

    with (
        ThreadPoolExecutor(CLIENTS, thread_name_prefix="client") as clients,
        ThreadPoolExecutor(CLIENTS * 2, thread_name_prefix="racer") as racers,
        ThreadPoolExecutor(1, thread_name_prefix="chaos") as chaos,
    ):
        killing = chaos.submit(_kill_and_restart, replicas[1], ledger, stop)
        playing = [
            clients.submit(play, game, seed, racers) for seed, game in enumerate(games, start=10)
        ]
        try:
            deadline = time.monotonic() + RUN_SECONDS
            for future in playing:
                future.exception(timeout=max(deadline - time.monotonic(), 1.0))
        finally:
            stop.set()  # on a time-out too: the clients stop at their next move
        kill = killing.result(timeout=60)
    played = time.monotonic() - began
    if failures:
        raise failures[0]
    assert kill, "the replica was killed while games were being played"
    assert ledger.transport_errors > 0, "clients met the dead replica and went elsewhere"
    assert replicas[1].starts == 2

    # No client saw a 5xx.
    assert ledger.server_errors == [], ledger.server_errors[:5]

    admin = Cluster(replicas, ledger)
    rng = random.Random(2)
    direct = open_games(store_settings)
    try:
        finished = 0
        for game in games:
            finished += _check_outcome(admin, rng, game)
            stored = list(direct.events.get(UUID(game.game_id)))
            _check_cards_conserved(stored)
            _check_exactly_once(admin, rng, game, stored, ledger)
    finally:
        direct.close()
    assert ledger.server_errors == [], ledger.server_errors[:5]
    for replica in replicas:
        log = replica.output(last=None)
        assert "Traceback" not in log, log
        assert '"level": "error"' not in log, log
    # Games cut off by their action budget must be resumable (checked above);
    # the run is sized so that nearly all finish.
    assert finished >= GAMES * 0.8, f"only {finished} of {GAMES} games finished in the run"
    print(
        f"\nscale-out: {GAMES} games ({finished} finished), {ledger.acks()} actions acknowledged, "
        f"{sum(1 for item in ledger.sent if not item.acked)} rejected, {ledger.races} races, "
        f"{ledger.transport_errors} requests retried on another replica, "
        f"killed after {kill['acks_at_kill']:.0f} acks, down {kill['down_seconds']:.1f} s, "
        f"statuses {dict(ledger.statuses)}, played in {played:.1f} s"
    )


def _admin_view(cluster: Cluster, rng: random.Random, game: Game) -> dict[str, Any]:
    response = cluster.request("GET", f"/games/{game.game_id}", rng, token=ADMIN_TOKEN)
    assert response.status_code == 200, response.text
    view: dict[str, Any] = response.json()
    return view


def _check_outcome(cluster: Cluster, rng: random.Random, game: Game) -> int:
    """1 if the game finished with a valid winner; 0 if it is resumable; else fails."""
    view = _admin_view(cluster, rng, game)
    totals = [player["score"] for player in view["players"]]
    if view["status"] == "finished":
        winner = view["winner"]
        assert winner in range(len(totals))
        assert totals.count(max(totals)) == 1, "a tie deals another hand"
        assert totals[winner] == max(totals)
        if "target" in game.rules:
            assert totals[winner] >= game.rules["target"]
        else:
            assert view["hand_number"] >= game.rules["deals"]
        return 1
    assert view["status"] == "playing"
    seat = view["turn"]
    response = cluster.request("GET", f"/games/{game.game_id}", rng, token=game.tokens[seat])
    legal = response.json()["legal"]
    assert any(legal[kind] for kind in ("draw", "melds", "lay_offs", "discard")), legal
    return 0


def _check_cards_conserved(stored: list[Any]) -> None:
    """Replay the stored events one by one: the 52 cards each in one place throughout."""
    assert stored, "the game has events"
    game: Any = None
    for version, event in enumerate(stored, start=1):
        assert event.originator_version == version, "versions 1, 2, 3, ... with no gap"
        game = event.mutate(game)
        hand = game.table.hand
        if hand is None:
            continue
        cards = [card for held in hand.hands for card in held]
        cards += hand.stock + hand.discard
        cards += [card for meld in hand.melds for card in meld.cards]
        assert len(cards) == len(FULL_DECK), f"52 cards at version {version}"
        assert set(cards) == set(FULL_DECK), f"each card once at version {version}"


_MOVES = {
    "card_drawn": "draw",
    "meld_laid": "meld",
    "card_laid_off": "lay_off",
    "card_discarded": "discard",
}


def _same_move(event: dict[str, Any], action: dict[str, Any]) -> bool:
    if _MOVES.get(event["type"]) != action["type"]:
        return False
    match action["type"]:
        case "draw":
            return bool(event["source"] == action["source"])
        case "meld":
            return sorted(event["cards"]) == sorted(action["cards"])
        case "lay_off":
            return bool(event["card"] == action["card"] and event["meld_id"] == action["meld_id"])
        case _:
            return bool(event["card"] == action["card"])


def _check_exactly_once(
    cluster: Cluster, rng: random.Random, game: Game, stored: list[Any], ledger: Ledger
) -> None:
    sent = [item for item in ledger.sent if item.game_id == game.game_id]
    acked = {item.key: item for item in sent if item.acked and not item.resent}
    rejected = {item.key for item in sent if not item.acked}
    assert not rejected & set(acked), "no key both acknowledged and rejected"

    # The store: each acknowledged key on one unbroken run of events, no other key.
    versions: dict[str, list[int]] = defaultdict(list)
    for event in stored:
        request = event.request if isinstance(event, GameEvent) else None
        if request is not None:
            versions[request["key"]].append(event.originator_version)
    assert set(versions) == set(acked), "every acknowledged action stored, nothing else"
    assert not rejected & set(versions), "no rejected action stored"
    for key, found in versions.items():
        assert found == list(range(found[0], found[-1] + 1)), f"{key}: stored once, in one piece"
        acked_at = acked[key].version
        assert acked_at is not None
        assert found[-1] <= acked_at, "stored before it was acknowledged"

    # The admin event feed: the players' moves are exactly the acknowledged
    # actions, each once, in the order of the versions they were acknowledged at.
    events: list[dict[str, Any]] = []
    after = 0
    for _ in range(100):
        response = cluster.request(
            "GET", f"/games/{game.game_id}/events?after={after}", rng, token=ADMIN_TOKEN
        )
        assert response.status_code == 200, response.text
        page = response.json()["events"]
        if not page:
            break
        events.extend(page)
        after = page[-1]["version"]
    assert [event["version"] for event in events] == list(range(1, len(stored) + 1))
    assert [event["type"] for event in events] == [event.event_type for event in stored]
    moves = [event for event in events if event["type"] in _MOVES and event.get("seat") is not None]
    in_order = sorted(acked.values(), key=lambda item: item.version or 0)
    assert len(moves) == len(in_order), "one move in the feed per acknowledged action"
    for move, action in itertools.zip_longest(moves, in_order):
        assert move["seat"] == action.seat
        assert _same_move(move, action.action), (move, action)
        assert move["version"] <= (action.version or 0)
