"""An aborted game in the application, on every store: the turn clocks give it no
deadline, a rebuilt game is aborted as the cached one was, and the lobby drops a
listed game that is aborted."""

from __future__ import annotations

from datetime import UTC, datetime

from service.domain.actions import Discard, Draw
from service.domain.rules import RuleSet
from service.domain.state import Source, Status
from service.game.aggregate import Game
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.event_records import GameAborted
from service.store.lobby_rows import fold

CAPPED = RuleSet.from_dict(
    {"deals": 3, "max_hands": 1, "max_turns": 2, "turn_seconds": 30}, players=2
)
"""Two turns end hand 1 (`max_turns`), and no second hand is dealt (`max_hands`)."""


def test_an_aborted_game_has_no_turn_deadline_and_rebuilds_aborted(games: RummyApplication):
    game_id = games.create_game(
        NewGame(seats=[NewSeat("Ann"), NewSeat("Bob")], rules=CAPPED)
    ).game_id
    assert games.deadline(game_id) is not None, "a clock runs while the game is played"
    for _ in range(2):
        table = games.state(game_id).table
        assert table.hand is not None
        seat = table.hand.turn
        games.play(game_id, seat, [Draw(Source.STOCK)])
        held = games.state(game_id).table.hand
        assert held is not None
        games.play(game_id, seat, [Discard(held.hands[seat][0])])

    state = games.state(game_id)
    assert state.table.status is Status.ABORTED
    assert games.deadline(game_id) is None
    assert [event.event_type for event in games.events_after(game_id)][-1] == "game_aborted"
    rebuilt: Game = games.repository.get(game_id)
    assert rebuilt.table.status is Status.ABORTED
    assert rebuilt.table.events == state.version - 1


def test_the_lobby_drops_a_listed_game_that_is_aborted(games: RummyApplication):
    game_id = games.create_game(NewGame(seats=[NewSeat("Ann"), None])).game_id
    created = games.events_after(game_id)[0]
    row = fold({}, [created])[game_id]
    assert row is not None
    listed = {game_id: row}
    # A stored event's fields are its domain event's, given to its `__init__`.
    aborted = GameAborted(  # type: ignore[call-arg]
        originator_id=game_id,
        originator_version=2,
        timestamp=datetime.now(tz=UTC),
        seat=None,
        request=None,
        by="admin",
        reason="a later abort of a game still open",
    )

    assert fold(listed, [aborted]) == {game_id: None}
    assert fold({}, [aborted]) == {}, "a game not listed stays unlisted"
