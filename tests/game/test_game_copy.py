"""The fence of `Game.__deepcopy__` (service/game/aggregate.py), which replaces the
generic `copy.deepcopy` of the game every command copies: the copy equals the
generic one, shares no mutable attribute with its game (the library's own
attributes included: one it adds in an upgrade that is not copied fails here), and a
command on the copy leaves the game as it was. `tests/domain/test_table_copy.py`
holds the table's own copy.
"""

from __future__ import annotations

import copy
import random
from datetime import datetime
from enum import Enum
from uuid import UUID, uuid4

from service.game.aggregate import Game, SeatEntry
from tests.game.players import Player, to_move, with_rules

IMMUTABLE = (str, int, float, bool, type(None), tuple, frozenset, UUID, datetime, Enum)


def _generic(game: Game) -> Game:
    """What `copy.deepcopy` makes of a game without its `__deepcopy__`."""
    generic = Game.__new__(Game)
    generic.__dict__.update(copy.deepcopy(vars(game)))
    return generic


def _games() -> list[Game]:
    """A game just created (its events pending), and the same after some moves."""
    game = Game.create(
        game_id=uuid4(),
        rules=with_rules(),
        seats=[SeatEntry("ann", "hash-ann"), SeatEntry("bob", "hash-bob", bot="basic")],
        seed="copy",
        seed_chosen=True,
        command_id="command-1",
    )
    games = [copy.deepcopy(game)]
    game.collect_events()
    player = Player(random.Random(2))
    for _ in range(12):
        seat = to_move(game.table)
        game.act(seat, [player.move(game.table, seat)])
    games.append(game)
    return games


def test_a_copy_equals_the_generic_deepcopy() -> None:
    for game in _games():
        ours = copy.deepcopy(game)
        assert ours == _generic(game)
        assert ours.table == game.table
        assert list(ours.pending_events) == list(game.pending_events)


def test_a_copy_shares_no_mutable_attribute_with_its_game() -> None:
    for game in _games():
        ours = copy.deepcopy(game)
        assert set(vars(ours)) == set(vars(game))
        for name, value in vars(game).items():
            if not isinstance(value, IMMUTABLE):
                assert vars(ours)[name] is not value, f"Game.{name} is shared: copy it"


def test_a_command_on_a_copy_leaves_the_game_as_it_was() -> None:
    for game in _games():
        before = _generic(game)
        ours = copy.deepcopy(game)
        seat = to_move(ours.table)
        ours.act(seat, [Player(random.Random(4)).move(ours.table, seat)])
        assert ours.version == game.version + 1
        assert game == before
