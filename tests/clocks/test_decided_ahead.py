"""Searching bots decide before the keeper claims a game's row (docs/bots.md, "Nobody
left to move"): on PostgreSQL a claim holds a transaction, which holds back every
feed reader's horizon, so a `strong` or `expert` search (tens to hundreds of
milliseconds) is made first, on a copy of the game never saved
(`RummyApplication.decide_ahead`), and the firing inside the claim gives its
answers back (`bot_turns.Replayed`) instead of deciding again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, cast
from uuid import UUID

import pytest

from service.bots import search
from service.bots.search import budget
from service.domain.actions import Action
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.bot_turns import BotPlayers, Recorded, Replayed
from service.game.clock import Fired
from service.game.commands import NewGame, NewSeat
from service.game.results import GameState
from tests.clocks.test_bot_games import keeper_of, moves
from tests.game.stores import StoreUnderTest

KNOCK = {"variant": "knock", "target": 60}
"""Knock Rummy, whose `strong` search is its own (docs/bots.md)."""


@pytest.fixture(autouse=True)
def _small_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """A quarter of the samples, and the wall-clock guard out of reach: a move is
    then the same however loaded the machine (tests/bots/conftest.py says why)."""
    monkeypatch.setenv(budget.SCALE_VARIABLE, "0.25")
    monkeypatch.setattr(search, "STRONG", replace(budget.STRONG, cap_seconds=600.0))
    monkeypatch.setattr(search, "EXPERT", replace(budget.EXPERT, cap_seconds=600.0))


class Counting:
    """The application's bots, counting the decisions they make (and where)."""

    def __init__(self, bots: BotPlayers) -> None:
        self.bots = bots
        self.decided = 0
        self.claiming = False
        self.decided_in_claims = 0

    def check(self, bots: Sequence[str | None]) -> None:
        self.bots.check(bots)

    def next_move(self, game: GameState, seed: str) -> tuple[int, Sequence[Action]] | None:
        self._count()
        return self.bots.next_move(game, seed)

    def move_for(self, game: GameState, seat: int, strategy: str, seed: str) -> Sequence[Action]:
        self._count()
        return self.bots.move_for(game, seat, strategy, seed)

    def _count(self) -> None:
        self.decided += 1
        self.decided_in_claims += self.claiming


def counted(games: RummyApplication) -> Counting:
    assert games.bots is not None
    counting = Counting(games.bots)
    games.bots = counting
    return counting


def strong_bots_alone(games: RummyApplication, seed: str) -> tuple[UUID, int]:
    """Ann and two `strong` bots at Knock Rummy, Ann gone: the game and its version."""
    seats = [NewSeat("Ann"), NewSeat("S1", bot="strong"), NewSeat("S2", bot="strong")]
    rules = RuleSet.from_dict(KNOCK)
    game_id = games.create_game(NewGame(seats=seats, rules=rules, seed=seed)).game_id
    return game_id, games.leave(game_id, 0).state.version


def test_replayed_gives_the_recorded_answers_back_and_decides_afresh_once_they_differ() -> None:
    class Fixed:
        def __init__(self) -> None:
            self.asked = 0

        def check(self, bots: Sequence[str | None]) -> None:
            pass

        def next_move(self, game: Any, seed: str) -> tuple[int, Sequence[Action]] | None:
            self.asked += 1
            return (game.version % 3, ())

        def move_for(self, game: Any, seat: int, strategy: str, seed: str) -> Sequence[Action]:
            self.asked += 1
            return ()

    class Version:
        def __init__(self, version: int) -> None:
            self.version = version

    def At(version: int) -> GameState:  # noqa: N802 - reads as the class it stands for
        """A game state as far as the recording reads it: its version."""
        return cast(GameState, Version(version))

    bots = Fixed()
    recorded = Recorded(bots)
    asked = [recorded.next_move(At(v), "s") for v in (4, 5)] + [
        recorded.move_for(At(6), 1, "x", "s")
    ]
    assert bots.asked == 3
    replayed = Replayed(bots, recorded.answers)
    again = [replayed.next_move(At(v), "s") for v in (4, 5)] + [
        replayed.move_for(At(6), 1, "x", "s")
    ]
    assert again == asked
    assert bots.asked == 3, "nothing decided again"
    # A question out of order (another game than the one recorded): decided afresh, and
    # nothing recorded is trusted after it.
    replayed = Replayed(bots, recorded.answers)
    replayed.next_move(At(5), "s")
    replayed.next_move(At(4), "s")
    assert bots.asked == 5


def test_a_firing_decided_ahead_decides_nothing_and_stores_the_moves_it_would_have(
    store: StoreUnderTest,
) -> None:
    games = store.games()
    ahead_id, version = strong_bots_alone(games, "ahead")
    fresh_id, _ = strong_bots_alone(games, "ahead")
    counting = counted(games)
    for _ in range(6):
        answers = games.decide_ahead(ahead_id, version)
        assert answers, "a searching bot's answers"
        before = counting.decided
        assert games.fire(ahead_id, version, answers) is Fired.BOT_MOVED
        assert counting.decided == before, "the firing gave the answers back"
        assert games.fire(fresh_id, version) is Fired.BOT_MOVED
        assert counting.decided > before, "the same firing, deciding for itself"
        version = games.state(ahead_id).version
        assert games.state(fresh_id).version == version
    assert moves(games, ahead_id) == moves(games, fresh_id)
    assert games.decide_ahead(ahead_id, version - 1) == [], "a version the game has left"


def test_a_timeout_taken_over_by_a_strong_bot_is_decided_ahead(store: StoreUnderTest) -> None:
    now = [datetime.now(UTC)]
    games = store.games(lambda: now[0])
    rules = RuleSet.from_dict({**KNOCK, "turn_seconds": 30, "takeover_bot": "strong"})
    ids = []
    for _ in range(2):
        seats = [NewSeat("Ann"), NewSeat("Bea")]
        created = games.create_game(NewGame(seats=seats, rules=rules, seed="timeout"))
        ids.append(created.game_id)
    deadline = games.deadline(ids[0])
    assert deadline is not None
    now[0] = deadline.at + timedelta(seconds=1)
    counting = counted(games)
    answers = games.decide_ahead(ids[0], deadline.version)
    assert any(asked[0] == "for" for asked, _ in answers), "the takeover's move"
    assert games.fire(ids[0], deadline.version, answers) is Fired.TIMED_OUT
    assert counting.decided == len(answers), "decided only ahead"
    assert games.fire(ids[1], deadline.version) is Fired.TIMED_OUT
    assert moves(games, ids[0]) == moves(games, ids[1])


def test_games_of_basic_bots_are_not_decided_ahead(store: StoreUnderTest) -> None:
    games = store.games()
    seats = [NewSeat("Ann"), NewSeat("B1", bot="basic"), NewSeat("B2", bot="basic")]
    created = games.create_game(NewGame(seats=seats, rules=RuleSet.from_dict(KNOCK), seed="b"))
    version = games.leave(created.game_id, 0).state.version
    assert games.decide_ahead(created.game_id, version) == [], "a basic bot decides in a save"


@pytest.mark.postgres
def test_on_postgres_the_keeper_s_claims_decide_nothing(
    postgres_store: StoreUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = postgres_store.games()
    game_id, version = strong_bots_alone(games, "claims")
    counting = counted(games)
    keeper = keeper_of(postgres_store, games)
    claim = keeper.table.claim

    def claiming(*args: Any) -> bool:
        counting.claiming = True
        try:
            return claim(*args)
        finally:
            counting.claiming = False

    monkeypatch.setattr(keeper.table, "claim", claiming)
    for _ in range(12):
        keeper.run_once()
    keeper.stop()
    assert games.state(game_id).version > version + 10, "the keeper played the bots"
    assert counting.decided > 10
    assert counting.decided_in_claims == 0, "every search was made before its claim"
