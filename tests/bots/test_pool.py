"""Bots decide in the asking thread or in a pool of processes (`RUMMY_BOT_PROCESSES`):
the same move either way, and a game's state travels to a process and back."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from uuid import UUID

import pytest

from service.bootstrap import open_games
from service.bots.seats import BotSeats
from service.config import Settings, Store
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.clock import Fired
from service.game.commands import NewGame, NewSeat


@pytest.fixture(scope="module")
def pool() -> Iterator[BotSeats]:
    seats = BotSeats(processes=1)
    yield seats
    seats.close()


def left_to_bots(bots: BotSeats) -> tuple[RummyApplication, UUID]:
    games = open_games(Settings(store=Store.MEMORY), bots=bots)
    seats = [NewSeat("Ann"), NewSeat("Bot", bot="basic"), NewSeat("Cy", bot="basic")]
    game = games.create_game(NewGame(seats=seats, rules=RuleSet.from_dict({}), seed="pool"))
    games.leave(game.game_id, 0)
    return games, game.game_id


def test_a_game_s_state_pickles_as_it_is() -> None:
    games, game_id = left_to_bots(BotSeats())
    state = games.state(game_id)
    again = pickle.loads(pickle.dumps(state))
    assert again == state


@pytest.mark.parametrize("processes", [0, 1], ids=["threads", "processes"])
def test_each_mode_plays_a_bot_move_of_a_game_left_to_bots(processes: int, pool: BotSeats) -> None:
    bots = pool if processes else BotSeats()
    games, game_id = left_to_bots(bots)
    before = games.state(game_id)
    waiting = BotSeats().next_move(before, games._current(game_id).seed)
    assert waiting is not None, "a bot is to move"
    assert games.fire(game_id, before.version) is Fired.BOT_MOVED
    after = games.events_after(game_id, before.version)
    assert after, "the bot's request was stored"
    assert after[0].seat == waiting[0], "by the seat the asking thread names"


def test_the_pool_decides_as_the_asking_thread_does(pool: BotSeats) -> None:
    games, game_id = left_to_bots(BotSeats())
    state = games.state(game_id)
    seed = games._current(game_id).seed
    here = BotSeats().next_move(state, seed)
    assert here is not None
    assert pool.next_move(state, seed) == here
    assert pool.move_for(state, here[0], "random", seed) == BotSeats().move_for(
        state, here[0], "random", seed
    )
