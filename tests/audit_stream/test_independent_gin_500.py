"""Gin Rummy and 500 Rum games played over HTTP (a person moving at random among
what `legal` offers, against `basic` and `random` bot seats), each finished
game's audit export checked by the independent referee of
tests/audit_stream/independent_gin_500.py, which knows docs/rules.md and nothing of
the engine. A spread of options: Oklahoma or not, knock limits 0 and 10, big
gin off, no shutout, small targets; 500 Rum for 2, 3, 5 and 8 players, going
out either way."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from tests.apps import bootstrap_test_app
from tests.audit_stream.independent_gin_500 import (
    arrangements,
    check_export,
    gin_legal_problems,
    least_deadwood,
    rummy500_legal_problems,
    value,
)

GIN_OPTIONS: list[dict[str, Any]] = [
    {"target": 10},
    {"target": 30, "oklahoma": True},
    {"target": 40, "knock_limit": 0, "max_hands": 40},
    {"target": 25, "big_gin_bonus": None, "shutout": False},
    {"target": 60, "oklahoma": True, "box_bonus": 0, "game_bonus": 7},
    {"target": 20, "knock_limit": 10, "gin_bonus": 0, "undercut_bonus": 50},
    {"target": 15, "max_turns": 6},
]
RUMMY500_OPTIONS: list[tuple[int, dict[str, Any]]] = [
    (2, {"target": 100}),
    (3, {"target": 100, "going_out": "discard"}),
    (5, {"target": 100}),
    (8, {"target": 100, "going_out": "discard"}),
    (4, {"target": 150, "going_out": "any"}),
    (3, {"target": 100, "max_turns": 12, "max_hands": 20}),
]


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random action among those `legal` offers; a knock or big gin taken often
    (else random play rarely ends a gin hand but by the stock)."""
    legal = view.get("legal") or {}
    if legal.get("big_gin"):
        return {"type": "knock"}
    if legal.get("knock") and rng.random() < 0.8:
        card = rng.choice(legal["knock"])
        if rng.random() < 0.3:  # an arrangement of its own, not always the least
            rest = [c for c in view["my_hand"] if c != card]
            mine = [
                melds
                for melds, left in arrangements(tuple(rest))
                if sum(map(value, left)) <= view["knock_limit"]
            ]
            return {"type": "knock", "card": card, "melds": [sorted(m) for m in rng.choice(mine)]}
        return {"type": "knock", "card": card}
    if view["variant"] == "gin" and view["phase"] == "play" and rng.random() < 0.8:
        # mostly the discard that keeps the least deadwood, so hands end by knocks
        hand = view["my_hand"]
        best = min(
            legal["discard"],
            key=lambda card: least_deadwood([c for c in hand if c != card]),
        )
        return {"type": "discard", "card": best}
    actions: list[dict[str, Any]] = [{"type": "pass"}] if legal.get("can_pass") else []
    for source in legal.get("draw", []):
        counts = legal.get("pile_counts") if source == "discard" else None
        if counts:
            actions.extend({"type": "draw", "source": source, "count": n} for n in counts)
        else:
            actions.append({"type": "draw", "source": source})
    actions.extend({"type": "meld", "cards": cards} for cards in legal.get("melds", []))
    actions.extend(
        {"type": "lay_off", "card": option["card"], "meld_id": option["meld_id"]}
        for option in legal.get("lay_offs", [])
    )
    actions.extend({"type": "discard", "card": card} for card in legal.get("discard", []))
    assert actions, f"the person's turn offers nothing: {legal}"
    return rng.choice(actions)


RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL = [f"{r}{s}" for r in RANKS for s in "CDHS"]


def meldy_gin_deck(rng: random.Random) -> list[str]:
    """A gin deck whose two hands are mostly melds (so gins, big gins, undercuts and
    lay-offs come often), its upcard often an ace or a spade, the rest shuffled."""
    pool = list(ALL)
    rng.shuffle(pool)
    hands: list[list[str]] = [[], []]
    for hand in hands:
        for _ in range(20):
            if len(hand) >= 9:
                break
            card = rng.choice(pool)
            r, s = card[:-1], card[-1]
            if rng.random() < 0.5:
                meld = [c for c in pool if c[:-1] == r][: rng.choice((3, 4))]
            else:
                i = RANKS.index(r)
                meld = [f"{x}{s}" for x in RANKS[i : i + rng.choice((3, 4, 5))]]
            if len(meld) >= 3 and all(c in pool for c in meld) and len(hand) + len(meld) <= 10:
                hand.extend(meld)
                for c in meld:
                    pool.remove(c)
        while len(hand) < 10:
            hand.append(pool.pop())
    upcards = [c for c in pool if c[0] == "A" or c[-1] == "S"]
    upcard = rng.choice(upcards) if upcards and rng.random() < 0.5 else pool[0]
    pool.remove(upcard)
    deck = [card for pair in zip(hands[0], hands[1], strict=True) for card in pair]
    return [*deck, upcard, *pool]


def play(
    client: TestClient[Any],
    variant: str,
    rules: dict[str, Any],
    bots: list[str],
    seed: str,
    leave: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], list[str], frozenset[int]]:
    """One game, the person in seat 0 and `bots` after it, played to its end: its export,
    where the person's views offered other moves than the rules allow, and the hands in
    which the person knocked with its own `melds`. With `leave` (the body of a leave),
    the person leaves on a turn of its own after a few moves, and the bots play on."""
    players = [{"name": "Ann"}] + [{"name": f"Bot{i}", "bot": b} for i, b in enumerate(bots)]
    rng = random.Random(seed)
    body: dict[str, Any] = {"players": players, "rules": {"variant": variant, **rules}}
    if variant == "gin" and rng.random() < 0.5:
        body["decks"] = [meldy_gin_deck(rng) for _ in range(20)]
    else:
        body["seed"] = seed
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.text
    game = f"/games/{created.json()['game_id']}"
    auth = {"Authorization": f"Bearer {created.json()['players'][0]['token']}"}
    view = client.get(game, headers=auth).json()
    problems: list[str] = []
    given: set[int] = set()
    taken: str | None = None
    leave_at = rng.randrange(3, 60) if leave is not None else -1
    for moves in range(20000):
        if view["status"] != "playing":
            break
        if moves == leave_at:
            answer = client.post(f"{game}/leave", json=leave, headers=auth)
            assert answer.status_code == 200, answer.text
            for _ in range(3000):  # only bots are left: the server plays them on
                view = client.get(game, headers=auth).json()
                if view["status"] != "playing":
                    break
                time.sleep(0.01)
            break
        if variant == "gin":
            problems += gin_legal_problems(view, taken)
        else:
            problems += rummy500_legal_problems(view)
        action = choose(view, rng)
        if "melds" in action:
            given.add(view["hand_number"])
        taken = view["discard_top"] if action == {"type": "draw", "source": "discard"} else None
        answer = client.post(f"{game}/actions", json=action, headers=auth)
        assert answer.status_code == 200, answer.text
        view = answer.json()
    assert view["status"] in ("finished", "aborted"), view["status"]
    exported = client.get(f"{game}/audit")
    assert exported.status_code == 200, exported.text
    export: dict[str, Any] = exported.json()
    return export, problems, frozenset(given)


LEAVES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"abandon": "forfeit"}, {"resign": False}),
    ({}, {"resign": True}),
    ({}, {"resign": False}),
]
"""Every fifth game the person leaves: forfeits (by the rule, or resigning), or hands
its seat to the server's bot."""

Game = tuple[dict[str, Any], list[str], str, dict[str, Any] | None]


def gin_games(count: int) -> Iterator[Game]:
    for i in range(count):
        rules = GIN_OPTIONS[i % len(GIN_OPTIONS)]
        extra, leave = LEAVES[i // 5 % len(LEAVES)] if i % 5 == 4 else ({}, None)
        bots = [("basic", "random")[i // len(GIN_OPTIONS) % 2]]
        yield {**rules, **extra}, bots, f"gin-{i}", leave


def rummy500_games(count: int) -> Iterator[Game]:
    for i in range(count):
        players, rules = RUMMY500_OPTIONS[i % len(RUMMY500_OPTIONS)]
        extra, leave = LEAVES[i // 5 % len(LEAVES)] if i % 5 == 4 else ({}, None)
        bots = [("basic", "random")[(i + j) % 2] for j in range(players - 1)]
        yield {**rules, **extra}, bots, f"r500-{i}", leave


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Any]]:
    with TestClient(bootstrap_test_app().app) as test_client:
        yield test_client


def test_gin_games_agree_with_the_independent_referee(client: TestClient[Any]):
    checked = 0
    for rules, bots, seed, leave in gin_games(28):
        export, offered, given = play(client, "gin", rules, bots, seed, leave)
        problems = offered + check_export(export, given)
        assert not problems, (rules, bots, seed, problems[:5])
        checked += 1
    assert checked == 28


def test_rummy500_games_agree_with_the_independent_referee(client: TestClient[Any]):
    checked = 0
    for rules, bots, seed, leave in rummy500_games(24):
        export, offered, _ = play(client, "rummy500", rules, bots, seed, leave)
        problems = offered + check_export(export)
        assert not problems, (rules, bots, seed, problems[:5])
        checked += 1
    assert checked == 24
