"""Whole games for the audit, stream, feed and export tests, played by a simple player.

The player takes the first legal meld or lay-off, otherwise draws from the
stock and discards its highest card: games end in a few dozen turns and every
move is one the rules offered.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from uuid import UUID

import msgspec

from service.domain.actions import Action, Discard, Draw, LayOff, Meld
from service.domain.cards import Card
from service.domain.rules import RuleSet
from service.domain.state import Source, Status, Table
from service.domain.turns import legal_moves
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.projections.audit_export import audit_export

SHORT_RULES = RuleSet.from_dict({"deals": 2})
"""Two hands, so a whole game is quick yet has a second deal."""

LONG_HAND_RULES = RuleSet.from_dict({"deals": 2, "exhausted": "score", "recycles": 2})
"""With `meld_from_hand=2`, the first hand recycles the stock twice and ends exhausted."""


def next_move(table: Table, meld_from_hand: int = 1) -> tuple[int, Action]:
    """The seat to move and its move; it lays nothing before hand `meld_from_hand`, so
    earlier hands run the stock out (recycles, then an exhausted hand)."""
    hand = table.hand
    assert hand is not None, "a hand is in play"
    assert table.status is Status.PLAYING, "the game is in play"
    seat = hand.turn
    moves = legal_moves(table, seat)
    if moves.draw:
        return seat, Draw(Source.STOCK)
    if hand.number < meld_from_hand:
        return seat, Discard(max(moves.discard, key=_value))
    if moves.melds:
        return seat, Meld(moves.melds[0])
    if moves.lay_offs:
        card, meld_id = moves.lay_offs[0]
        return seat, LayOff(card, meld_id)
    return seat, Discard(max(moves.discard, key=_value))


def _value(card: Card) -> tuple[int, str]:
    return (card.rank.value, card.suit.value)


def new_game(
    games: RummyApplication,
    *,
    players: int = 2,
    rules: RuleSet = SHORT_RULES,
    seed: str | None = None,
    client_seeds: tuple[str, ...] = (),
) -> tuple[UUID, dict[int, str]]:
    seats = [
        NewSeat(name=f"P{seat}", client_seed=client_seeds[seat] if seat < len(client_seeds) else "")
        for seat in range(players)
    ]
    created = games.create_game(NewGame(seats=seats, rules=rules, seed=seed))
    return created.game_id, created.tokens


def play(
    games: RummyApplication,
    game_id: UUID,
    *,
    moves: int | None = None,
    act: Callable[[int, Action], None] | None = None,
    meld_from_hand: int = 1,
) -> int:
    """Play `moves` moves (all, by default) through `act` (by default the application);
    returns the number played."""
    played = 0
    while moves is None or played < moves:
        table = games.state(game_id).table
        if table.over:
            break
        seat, action = next_move(table, meld_from_hand)
        if act is None:
            games.play(game_id, seat, [action])
        else:
            act(seat, action)
        played += 1
    return played


def export_of(games: RummyApplication, game_id: UUID) -> dict[str, Any]:
    """The export exactly as a client receives it (encoded, then parsed)."""
    export = audit_export(str(game_id), games.events_after(game_id))
    parsed: dict[str, Any] = json.loads(msgspec.json.encode(export))
    return parsed


def finished(games: RummyApplication, game_id: UUID, meld_from_hand: int = 1) -> dict[str, Any]:
    """Play the game to its end; its export."""
    play(games, game_id, meld_from_hand=meld_from_hand)
    return export_of(games, game_id)
