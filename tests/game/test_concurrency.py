"""Two application instances writing one game on one PostgreSQL database.

Whatever the timing, one version is won by one command: the loser reloads,
checks its command again, and is refused if it is no longer legal. No event
is lost or stored twice, and a write conflict is reported only once every
retry has lost its race.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from dataclasses import dataclass, field
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError

from service.domain.errors import IllegalMove
from service.domain.turns import is_legal
from service.game.aggregate import IdempotentRequest
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.errors import WriteConflict
from service.game.event_records import GameEvent
from service.game.unit import WRITE_ATTEMPTS
from tests.game.players import Player, act, play_moves, to_move, with_rules
from tests.game.stores import StoreUnderTest

pytestmark = pytest.mark.postgres


class CountsLostRaces:
    """Wraps `games.save` to count the writes the database refused."""

    def __init__(self, games: RummyApplication) -> None:
        self.save = games.save
        self.lost = 0

    def __call__(self, *objs, **kwargs):
        try:
            return self.save(*objs, **kwargs)
        except IntegrityError:
            self.lost += 1
            raise


@dataclass
class Outcome:
    key: str
    version: int | None = None
    refused: str | None = None


@dataclass
class Race:
    replicas: list[RummyApplication]
    game_id: UUID
    outcomes: list[list[Outcome]] = field(default_factory=list)

    def run(self, seat: int, actions, round_: int) -> list[Outcome]:
        """Every replica sends the same command for `seat` at once, each with its own key."""
        barrier = threading.Barrier(len(self.replicas))
        outcomes = [Outcome(f"replica{n}-round{round_}") for n in range(len(self.replicas))]

        def send(games: RummyApplication, outcome: Outcome) -> None:
            request = IdempotentRequest(seat=seat, key=outcome.key, digest="same command")
            barrier.wait()
            try:
                outcome.version = act(games, self.game_id, seat, actions, request=request)
            except IllegalMove as refused:
                outcome.refused = refused.code
            except WriteConflict as conflict:
                outcome.refused = conflict.code

        threads = [
            threading.Thread(target=send, args=(games, outcome))
            for games, outcome in zip(self.replicas, outcomes, strict=True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        self.outcomes.append(outcomes)
        return outcomes


def _check_stored(games: RummyApplication, game_id: UUID, outcomes: list[Outcome]) -> None:
    """Versions 1..N once each; each acknowledged command's events, once, ending
    at the version it returned; nothing of any refused command."""
    events = games.events_after(game_id)
    assert [event.originator_version for event in events] == list(range(1, len(events) + 1))
    by_key: dict[str, list[int]] = {}
    for event in events[1:]:
        assert isinstance(event, GameEvent)
        if event.request is None:
            assert event.event_type == "hand_dealt"
            assert event.data()["hand_number"] == 1
            continue
        by_key.setdefault(event.request["key"], []).append(event.originator_version)
    acknowledged = {outcome.key: outcome.version for outcome in outcomes if outcome.version}
    assert set(by_key) == set(acknowledged), "stored commands are exactly the acknowledged ones"
    for key, version in acknowledged.items():
        versions = by_key[key]
        assert versions == list(range(versions[0], versions[-1] + 1)), key
        assert versions[-1] == version, key
    assert Counter(acknowledged.values()).most_common(1)[0][1] == 1, "one winner per version"


def test_two_instances_sending_the_same_move_at_once_never_both_win(
    postgres_store: StoreUnderTest,
):
    replicas = [postgres_store.games(), postgres_store.games()]
    counters = [CountsLostRaces(games) for games in replicas]
    for games, counter in zip(replicas, counters, strict=True):
        games.save = counter  # type: ignore[method-assign]
    game_id = (
        replicas[0]
        .create_game(
            NewGame(
                seats=[NewSeat("ann"), NewSeat("bob")], rules=with_rules(target=15), seed="race"
            )
        )
        .game_id
    )
    race = Race(replicas, game_id)
    player = Player(random.Random(5))

    for round_ in range(150):
        state = replicas[round_ % 2].state(game_id)
        if state.table.finished:
            break
        seat = to_move(state.table)
        outcomes = race.run(seat, [player.move(state.table, seat)], round_)
        won = [outcome for outcome in outcomes if outcome.version is not None]
        assert len(won) == 1, outcomes
        assert all(outcome.refused != "write_conflict" for outcome in outcomes)

    everything = [outcome for outcomes in race.outcomes for outcome in outcomes]
    _check_stored(replicas[0], game_id, everything)
    assert replicas[0].state(game_id) == replicas[1].state(game_id)
    # The barrier makes both read the same version most rounds: the database
    # must really have refused some writes, or this test proved nothing.
    assert sum(counter.lost for counter in counters) > 0


def test_a_stale_cached_game_is_brought_up_to_date_before_a_command(
    postgres_store: StoreUnderTest,
):
    ahead, behind = postgres_store.games(), postgres_store.games()
    game_id = ahead.create_game(
        NewGame(seats=[NewSeat("ann"), NewSeat("bob")], rules=with_rules(target=500), seed="stale")
    ).game_id
    cached = behind.state(game_id)  # `behind` now caches this version
    player = Player(random.Random(9))
    stale_seat = to_move(cached.table)
    stale_move = player.move(cached.table, stale_seat)
    # Moves on the other replica, until what was legal at the cached version is not
    # (whatever the deal, the turn passes within a few moves).
    latest = play_moves(ahead, game_id, player, 3)
    while is_legal(latest.table, stale_seat, stale_move):
        assert latest.version < cached.version + 40, "the stale move stayed legal"
        latest = play_moves(ahead, game_id, player)

    # What was legal at the cached version is checked against the latest one.
    with pytest.raises(IllegalMove):
        act(behind, game_id, stale_seat, [stale_move])
    seat = to_move(latest.table)
    version = act(behind, game_id, seat, [player.move(latest.table, seat)])

    assert version > latest.version
    assert ahead.state(game_id) == behind.state(game_id)
    events = ahead.events_after(game_id)
    assert [event.originator_version for event in events] == list(range(1, version + 1))


def _interfering(games: RummyApplication, other: RummyApplication, game_id: UUID, times: int):
    """`games.save` that lets `other` join the game first, `times` times: a real lost race."""
    save = games.save
    left = [times]

    def interfering_save(*objs, **kwargs):
        if left[0]:
            left[0] -= 1
            other.join_game(game_id, NewSeat(f"quick-{left[0]}"))
        return save(*objs, **kwargs)

    return interfering_save


@pytest.mark.parametrize("lost", [WRITE_ATTEMPTS - 1, WRITE_ATTEMPTS])
def test_a_join_that_loses_its_races_retries_and_conflicts_only_when_all_are_lost(
    postgres_store: StoreUnderTest, monkeypatch: pytest.MonkeyPatch, lost: int
):
    slow, quick = postgres_store.games(), postgres_store.games()
    seats: list[NewSeat | None] = [NewSeat("host"), *[None] * WRITE_ATTEMPTS]
    game_id = slow.create_game(NewGame(seats=seats, seed="joins", by_admin=True)).game_id
    monkeypatch.setattr(slow, "save", _interfering(slow, quick, game_id, lost))

    if lost < WRITE_ATTEMPTS:
        joined = slow.join_game(game_id, NewSeat("slow"))
        assert joined.seat == WRITE_ATTEMPTS
        names = [seat.name if seat else None for seat in quick.state(game_id).seats]
        assert names[-1] == "slow"
        assert quick.state(game_id).seat_of(joined.token) == joined.seat
    else:
        with pytest.raises(WriteConflict):
            slow.join_game(game_id, NewSeat("slow"))
        names = [seat.name if seat else None for seat in quick.state(game_id).seats]
        assert "slow" not in names
    events = quick.events_after(game_id)
    assert [event.originator_version for event in events] == list(range(1, len(events) + 1))
    assert len(events) == 1 + WRITE_ATTEMPTS + 1, "every seat joined once, then the deal"
