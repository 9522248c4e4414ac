"""The audit export written as it goes (`export_chunks`, a speed measure: it replaces
encoding the whole `audit_export` in memory) is the same bytes as the export built in
memory, for games of every variant, finished or not, read in pages of any size; and
`rummy verify` accepts it."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

import msgspec
import pytest

from service.audit.verify import Outcome, verify_export
from service.bootstrap import open_games
from service.config import Settings, Store
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.projections.audit_export import audit_export, export_chunks
from tests.audit_stream.games import LONG_HAND_RULES, new_game, play
from tests.game.players import play_out

VARIANTS: dict[str, dict[str, Any]] = {
    "classic": {"deals": 2},
    "wild": {"variant": "wild", "deals": 2},
    "boathouse": {"variant": "boathouse", "deals": 2, "exhausted": "score"},
    "knock": {"variant": "knock", "deals": 2},
    "wrotham": {"variant": "wrotham"},
    "indian": {"variant": "indian"},
}


@pytest.fixture(scope="module")
def games() -> RummyApplication:
    return open_games(Settings(store=Store.MEMORY))


def streamed(games: RummyApplication, game_id: UUID, page: int) -> bytes:
    version = games.state(game_id).version
    return b"".join(
        export_chunks(
            str(game_id), lambda after: games.events_after(game_id, after, page, upto=version)
        )
    )


def in_memory(games: RummyApplication, game_id: UUID) -> bytes:
    return msgspec.json.encode(audit_export(str(game_id), games.events_after(game_id)))


def bots_finish(games: RummyApplication, rules: dict[str, Any], players: int) -> UUID:
    """A game of `rules` whose person leaves at once: the bots play it to its end (as
    the clocks' keeper would, a request at a time)."""
    seats = [NewSeat("Ann", client_seed="ann-entropy")] + [
        NewSeat(f"Robo{seat}", bot="basic") for seat in range(1, players)
    ]
    created = games.create_game(NewGame(seats=seats, rules=RuleSet.from_dict(rules)))
    games.leave(created.game_id, 0)
    play_out(games, created.game_id)
    assert games.state(created.game_id).table.finished
    return created.game_id


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("page", [1, 7, 1000])
def test_a_finished_game_of_every_variant_streams_the_bytes_built_in_memory(
    games: RummyApplication, variant: str, page: int
) -> None:
    game_id = bots_finish(games, VARIANTS[variant], players=3 if variant == "indian" else 2)

    written = streamed(games, game_id, page)

    assert written == in_memory(games, game_id)
    assert verify_export(json.loads(written)).outcome is Outcome.VERIFIED


@pytest.mark.parametrize("moves", [0, 1, 5, 40])
def test_a_game_in_play_streams_the_bytes_built_in_memory(
    games: RummyApplication, moves: int
) -> None:
    game_id, _ = new_game(games, players=3, client_seeds=("a", "", "c"))
    play(games, game_id, moves=moves)

    assert streamed(games, game_id, 3) == in_memory(games, game_id)


def test_a_waiting_game_with_a_seat_joined_streams_the_bytes_built_in_memory(
    games: RummyApplication,
) -> None:
    seats = [NewSeat('Zoë "Z"', client_seed="z/\u007f"), None, None]
    game_id = games.create_game(NewGame(seats=seats)).game_id
    games.join_game(game_id, NewSeat("Bob", client_seed="bob"))

    written = streamed(games, game_id, 1)

    assert written == in_memory(games, game_id)
    assert json.loads(written)["status"] == "waiting"


def test_a_long_hand_with_recycles_streams_the_bytes_built_in_memory(
    games: RummyApplication,
) -> None:
    game_id, _ = new_game(games, rules=LONG_HAND_RULES, seed="explicit-seed")
    play(games, game_id, meld_from_hand=2)

    written = streamed(games, game_id, 100)

    assert written == in_memory(games, game_id)
    assert verify_export(json.loads(written)).outcome is Outcome.VERIFIED


def test_a_log_that_does_not_start_with_the_creation_is_refused(
    games: RummyApplication,
) -> None:
    game_id, _ = new_game(games)
    version = games.state(game_id).version

    with pytest.raises(ValueError, match="creation"):
        b"".join(
            export_chunks(
                str(game_id),
                lambda after: games.events_after(game_id, max(after, 1), 5, upto=version),
            )
        )
