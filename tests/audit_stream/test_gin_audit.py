"""`rummy verify` on Gin Rummy (docs/audit.md): a finished gin game's export checks
out, the referee recomputing every arrangement, lay-off and score; and a forger's
edit of each kind (an arrangement, a lay-off, a score, a knock card, a pass) is
caught, even with the hash chain recomputed."""

from __future__ import annotations

import copy
import json
import random
from typing import Any
from uuid import UUID

import msgspec
import pytest

from service.audit.verify import Outcome, verify_export
from service.bootstrap import open_games
from service.config import Settings, Store
from service.domain.actions import Action, Knock
from service.domain.rules import RuleSet
from service.domain.turns import legal_moves
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.projections.audit_export import audit_export
from tests.audit_stream.test_tampering import failure, rechain

Export = dict[str, Any]


def _play_gin(seed: str, rules: dict[str, Any]) -> Export:
    """A whole gin game between two plain players (knocking whenever they may),
    exported once finished."""
    games: RummyApplication = open_games(Settings(store=Store.MEMORY))
    game_id: UUID = games.create_game(
        NewGame(
            seats=[NewSeat("P0"), NewSeat("P1")],
            rules=RuleSet.from_dict({"variant": "gin", **rules}, players=2),
            seed=seed,
        )
    ).game_id
    rng = random.Random(seed)
    while True:
        table = games.state(game_id).table
        if table.over:
            break
        hand = table.hand
        assert hand is not None
        seat = hand.turn
        moves = legal_moves(table, seat)
        action: Action
        if moves.big_gin:
            action = Knock(None)
        elif moves.knock:
            action = Knock(moves.knock[0])
        else:
            action = rng.choice(moves.actions())
        games.play(game_id, seat, [action])
    exported: Export = json.loads(
        msgspec.json.encode(audit_export(str(game_id), games.events_after(game_id)))
    )
    return exported


@pytest.fixture(scope="module")
def finished() -> Export:
    return _play_gin("gin-audit", {"target": 60})


def _index(export: Export, event_type: str, **data: Any) -> int:
    return next(
        index
        for index, event in enumerate(export["events"])
        if event["type"] == event_type and all(event["data"].get(k) == v for k, v in data.items())
    )


def _caught_at(export: Export) -> int:
    """The 0-based index of the first event the verifier refuses."""
    position = failure(rechain(export)).position
    assert position is not None, "an event is refused, not the header"
    return position - 1


def test_a_finished_gin_game_checks_out(finished: Export) -> None:
    verdict = verify_export(finished)
    assert verdict.outcome is Outcome.VERIFIED, verdict.report()
    kinds = {event["type"] for event in finished["events"]}
    assert {"knocked", "hand_ended", "game_finished"} <= kinds


def test_an_oklahoma_game_checks_out() -> None:
    verdict = verify_export(_play_gin("gin-oklahoma", {"target": 40, "oklahoma": True}))
    assert verdict.outcome is Outcome.VERIFIED, verdict.report()


def test_a_changed_arrangement_is_caught(finished: Export) -> None:
    export = copy.deepcopy(finished)
    index = _index(export, "knocked", kind="knock")
    melds = export["events"][index]["data"]["melds"]
    # Drop one of the knocker's melds: its cards become deadwood.
    export["events"][index]["data"]["melds"] = melds[1:]
    assert _caught_at(export) in (index, index + 1)


def test_a_changed_lay_off_is_caught(finished: Export) -> None:
    export = copy.deepcopy(finished)
    index = next(
        i
        for i, event in enumerate(export["events"])
        if event["type"] == "hand_ended" and event["data"].get("how") in ("knock", "undercut")
    )
    data = export["events"][index]["data"]
    laid = data["laid_off"]
    defender = 1 - data["knocker"]
    if laid[defender]:
        laid[defender] = []
    else:
        laid[defender] = [{"card": data["deadwood"][defender][0], "meld": 0}]
    assert _caught_at(export) == index


def test_a_changed_score_is_caught(finished: Export) -> None:
    export = copy.deepcopy(finished)
    index = _index(export, "hand_ended", how="knock")
    data = export["events"][index]["data"]
    data["points"] = [points + 1 if points else 0 for points in data["points"]]
    assert _caught_at(export) == index
    final = copy.deepcopy(finished)
    last = final["events"][-1]
    assert last["type"] == "game_finished"
    last["data"]["result"][last["data"]["winner"]]["box"] += 25
    assert _caught_at(final) == len(final["events"]) - 1


def test_a_changed_knock_card_is_caught(finished: Export) -> None:
    export = copy.deepcopy(finished)
    index = _index(export, "knocked", kind="knock")
    knocked = export["events"][index]["data"]
    knocked["card"] = next(code for code in ("AC", "2C", "3C") if code != knocked["card"])
    assert _caught_at(export) in (index, index + 1)


def test_a_pass_where_none_may_be_is_caught(finished: Export) -> None:
    export = copy.deepcopy(finished)
    index = _index(export, "card_discarded")
    event = export["events"][index]
    event["type"] = "upcard_passed"
    event["data"] = {}
    assert _caught_at(export) == index
