"""Every stored event says who caused it and, when a key was given, which request."""

from __future__ import annotations

import random

from service.game.aggregate import IdempotentRequest
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.event_records import (
    CardDiscarded,
    CardDrawn,
    CardLaidOff,
    GameCreated,
    GameEvent,
    GameFinished,
    HandDealt,
    HandEnded,
    MeldLaid,
    PlayerJoined,
    StockRecycled,
)
from tests.game.players import Player, act, to_move, with_rules

SYSTEM_EVENTS = (HandDealt, HandEnded, GameFinished)
PLAYER_EVENTS = (CardDrawn, MeldLaid, CardLaidOff, CardDiscarded, StockRecycled)


def test_each_event_records_the_acting_seat_and_its_request(games: RummyApplication):
    created = games.create_game(
        NewGame(
            seats=[NewSeat("ann"), None],
            rules=with_rules(target=20, hand_size=24, max_turns=60),
            seed="records",
            by_admin=True,
        )
    )
    game_id = created.game_id
    games.join_game(game_id, NewSeat("bob"))
    player = Player(random.Random(11))
    caused: dict[int, tuple[int, IdempotentRequest | None]] = {}
    """version → (seat, request) of the command whose events end there."""
    number = 0
    while not (state := games.state(game_id)).table.finished:
        seat = to_move(state.table)
        number += 1
        request = IdempotentRequest(seat, f"c{number}", f"d{number}") if number % 2 else None
        version = act(games, game_id, seat, [player.move(state.table, seat)], request=request)
        for made in range(state.version + 1, version + 1):
            caused[made] = (seat, request)

    events = games.events_after(game_id)
    assert isinstance(events[0], GameCreated)
    joined = events[1]
    assert isinstance(joined, PlayerJoined)
    assert (joined.seat, joined.request) == (1, None)
    kinds = {type(event) for event in events}
    assert {HandDealt, HandEnded, GameFinished, CardDrawn, CardDiscarded} <= kinds
    assert StockRecycled in kinds, "hands of 24 cards leave a stock of 3"
    for event in events[2:]:
        assert isinstance(event, GameEvent)
        if event.originator_version not in caused:
            assert isinstance(event, HandDealt), "only the first deal follows the join"
            assert (event.seat, event.request) == (None, None)
            continue
        seat, request = caused[event.originator_version]
        if isinstance(event, SYSTEM_EVENTS):
            assert event.seat is None, event
        else:
            assert isinstance(event, PLAYER_EVENTS), event
            assert event.seat == seat, event
        assert event.request == (None if request is None else request.as_plain()), event
