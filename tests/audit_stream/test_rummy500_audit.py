"""`rummy verify` on 500 Rum (docs/audit.md): the referee replays the spread pile
(every `count`, the called card and the cards taken), the meld credit and every
hand's score; a tampered export of each kind is caught where it was changed."""

from __future__ import annotations

import functools
from typing import Any
from uuid import UUID

import pytest

from service.audit.verify import Outcome, verify_export
from service.domain.actions import Action, Discard, Draw, LayOff, Meld
from service.domain.cards import sorted_cards
from service.domain.rules import RuleSet
from service.domain.scoring import card_value
from service.domain.state import Source, Status
from service.domain.turns import legal_moves
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from tests.audit_stream.test_tampering import failure, rechain
from tests.audit_stream.test_variant_audit import SEED, Export, _export, _games

RULES = {"variant": "rummy500", "target": 150}


def _move(games: RummyApplication, game_id: UUID) -> tuple[int, list[Action]]:
    """The seat to play's whole request: the deepest pile draw it may make (else the
    stock), then every meld and lay-off, then its highest card (the play leans on
    deep draws so the export holds called cards)."""
    table = games.state(game_id).table
    hand = table.hand
    assert hand is not None
    seat = hand.turn
    moves = legal_moves(table, seat)
    if moves.pile_counts and max(moves.pile_counts) > 1:
        return seat, [Draw(Source.DISCARD, max(moves.pile_counts))]
    if moves.draw:
        return seat, [Draw(Source.STOCK)]
    for cards in moves.melds:
        return seat, [Meld(cards)]
    for card, meld_id in moves.lay_offs:
        return seat, [LayOff(card, meld_id)]
    rules = table.rules
    return seat, [Discard(max(sorted_cards(moves.discard), key=lambda c: card_value(c, rules)))]


@functools.cache
def _finished(players: int) -> Export:
    games = _games()
    seats = [NewSeat(f"P{seat}") for seat in range(players)]
    rules = RuleSet.from_dict(RULES, players=players)
    game_id = games.create_game(NewGame(seats=seats, rules=rules, seed=SEED)).game_id
    for _ in range(20_000):
        if games.state(game_id).table.status is Status.FINISHED:
            break
        seat, actions = _move(games, game_id)
        games.play(game_id, seat, actions)
    export = _export(games, game_id)
    export["seed"] = export["seed"] or SEED
    return export


def finished(players: int = 3) -> Export:
    import copy

    return copy.deepcopy(_finished(players))


def _index(export: Export, kind: str, **wanted: Any) -> int:
    return next(
        i
        for i, event in enumerate(export["events"])
        if event["type"] == kind
        and all(test(event["data"].get(key)) for key, test in wanted.items())
    )


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_finished_500_rum_game_verifies(players: int) -> None:
    export = finished(players)
    verdict = verify_export(export)
    assert verdict.outcome is Outcome.VERIFIED, verdict.report()
    kinds = [event["type"] for event in export["events"]]
    assert "game_finished" in kinds
    assert any(
        event["type"] == "card_drawn" and event["data"].get("count", 1) > 1
        for event in export["events"]
    ), "the game holds a called card"


def test_a_changed_called_card_is_caught_at_its_draw() -> None:
    export = finished()
    index = _index(export, "card_drawn", count=lambda n: n is not None and n > 1)
    data = export["events"][index]["data"]
    data["card"] = data["cards"][-1]
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "card_drawn")


def test_changed_taken_cards_are_caught_at_the_draw() -> None:
    export = finished()
    index = _index(export, "card_drawn", count=lambda n: n is not None and n > 1)
    data = export["events"][index]["data"]
    data["cards"] = list(reversed(data["cards"]))
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "card_drawn")


def test_a_changed_count_is_caught_at_the_draw() -> None:
    export = finished()
    index = _index(export, "card_drawn", count=lambda n: n is not None and n > 1)
    export["events"][index]["data"]["count"] -= 1
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "card_drawn")


def test_a_changed_credit_is_caught_at_the_hands_end() -> None:
    export = finished()
    index = _index(export, "hand_ended", melded=lambda m: m is not None and any(m))
    melded = export["events"][index]["data"]["melded"]
    melded[0] += 1
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "hand_ended")
    assert "melded" in found.message


def test_a_lay_off_credited_to_another_seat_is_caught() -> None:
    export = finished()
    index = _index(export, "card_laid_off")
    event = export["events"][index]
    event["seat"] = (event["seat"] + 1) % 3
    found = failure(rechain(export))
    assert found.position == index + 1


def test_a_changed_score_is_caught_at_the_hands_end() -> None:
    export = finished()
    index = _index(export, "hand_ended")
    export["events"][index]["data"]["points"][1] += 5
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "hand_ended")
    assert "points" in found.message
