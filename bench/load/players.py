"""The simulated players: each plays complete two-player games back to back,
choosing at random among the moves its view offers, and times every request."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass
from typing import Any

from bench.load.clients import Client, Clients, TransportFailure
from bench.load.options import BenchError, Options
from bench.load.stats import Stats
from tests.offered import offered_actions

EXPECTED = frozenset({409, 412})
"""Statuses the contract allows for an action (a rule conflict, a stale If-Match)."""
SHORT_GAME: dict[str, Any] = {"deals": 1, "exhausted": "score"}
"""Random players take ~6,000 actions to reach the default 100 points (27 hands, most
voided when the stock runs out); one deal that always counts takes ~240, so games
finish within a run."""


async def timed(
    stats: Stats, kind: str, client: Client, method: str, path: str, **kwargs: Any
) -> tuple[int, bytes] | None:
    """Send one request, time it and count its outcome; None on a transport failure."""
    began = time.perf_counter()
    try:
        status, content = await client.request(method, path, **kwargs)
    except TransportFailure as error:
        stats.error(kind, f"{method} {path}: {error}")
        return None
    ended = time.perf_counter()
    if 200 <= status < 300:
        if stats.counts(began, ended):
            stats.latencies[kind].append(ended - began)
    elif kind == "action" and status in EXPECTED:
        stats.expected[status] += 1
    else:
        stats.error(kind, f"{method} {path} -> {status} {content[:200]!r}")
    return status, content


@dataclass(frozen=True)
class View:
    status: str
    turn: int | None
    moves: list[dict[str, Any]]


def parse_view(content: bytes) -> View:
    """The parts of a player view the client needs, and its legal moves as actions."""
    body = json.loads(content)
    if not isinstance(body, dict) or not isinstance(body.get("status"), str):
        raise BenchError(f"not a game view: {content[:200]!r}")
    turn = body.get("turn")
    return View(
        status=body["status"],
        turn=turn if isinstance(turn, int) else None,
        moves=offered_actions(body),
    )


async def play_game(
    number: str, client: Client, stats: Stats, options: Options, rng: random.Random
) -> None:
    """Play one game to its end, the deadline, an error or `max_actions` actions."""
    create: dict[str, Any] = {"players": [{"name": f"ann-{number}"}, {"name": f"bob-{number}"}]}
    if options.rules:
        create["rules"] = options.rules
    created = await timed(stats, "create", client, "POST", "/games", body=create)
    if created is None or created[0] != 201:
        await asyncio.sleep(0.05)  # do not spin on a failing server
        return
    body = json.loads(created[1])
    path = f"/games/{body['game_id']}"
    tokens: dict[int, str] = {p["seat"]: p["token"] for p in body["players"]}
    seat = 0
    actions = posts = 0
    # Each pass is one GET, and one POST if it is `seat`'s turn: bounded by max_actions.
    for _ in range(2 * options.max_actions + 2):
        if time.perf_counter() >= stats.end or actions >= options.max_actions:
            break
        got = await timed(stats, "view", client, "GET", path, token=tokens[seat])
        if got is None or got[0] != 200:
            break
        view = parse_view(got[1])
        if view.status in ("finished", "aborted"):
            stats.games_finished += 1
            stats.actions_in_finished += actions
            return
        if view.turn is None or view.turn not in tokens:
            stats.error("view", f"no seat to move in a {view.status} game")
            break
        if view.turn != seat:  # only before the first move: each POST's answer names the next
            seat = view.turn
            continue
        if not view.moves:
            stats.error("view", f"seat {seat} to move has no legal move")
            break
        move = rng.choice(view.moves)
        posts += 1  # a refused move is chosen again: its POST needs a key of its own
        key = f"{number}-{posts}" if options.keys else None
        done = await timed(
            stats,
            "action",
            client,
            "POST",
            f"{path}/actions",
            body=move,
            token=tokens[seat],
            key=key,
        )
        if done is None:
            break
        if done[0] in EXPECTED:
            continue  # look again and choose again
        if done[0] != 200:
            break
        actions += 1
        after = parse_view(done[1])
        if after.status in ("finished", "aborted"):
            stats.games_finished += 1
            stats.actions_in_finished += actions
            return
        if after.turn is not None and after.turn in tokens:
            seat = after.turn
    stats.games_unfinished += 1


async def game_player(
    index: int, clients: Clients, stats: Stats, options: Options, rng: random.Random
) -> None:
    """One simulated client: complete games back to back until the deadline."""
    client = clients.new(rng)
    try:
        for game in range(options.games_per_client or 1_000_000):
            if time.perf_counter() >= stats.end:
                return
            try:
                await play_game(f"{index}-{game}", client, stats, options, rng)
            except (BenchError, KeyError, TypeError, ValueError) as error:
                stats.error("view", f"unexpected body: {type(error).__name__}: {error}")
    finally:
        await client.aclose()


async def health_player(clients: Clients, stats: Stats, rng: random.Random) -> None:
    client = clients.new(rng)
    try:
        while time.perf_counter() < stats.end:
            await timed(stats, "health", client, "GET", "/health")
    finally:
        await client.aclose()
