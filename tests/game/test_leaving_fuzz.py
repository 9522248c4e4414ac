"""Random whole games of every variant with random leaves, resignations and turn
timeouts at random points: the pack is conserved after every stored event, the
stored events rebuild the live game, every game ends, and its export verifies
(the verifier replays the timeouts, the takeovers and the forfeits with the rules,
and the clock's and the replacing bots' moves as ordinary moves).

Every seat starts as a person; the server's bot plays a seat the clock or a
leave hands it. `RUMMY_FUZZ_GAMES` sets the games per variant, as in
tests/game/test_variant_fuzz.py, whose random player this reuses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from random import Random
from typing import Any

import pytest

from service.audit.verify import Outcome, verify_export
from service.bootstrap import open_games
from service.config import Settings, Store
from service.domain import changes
from service.domain.presets import VARIANTS
from service.domain.rule_values import Abandon, Variant
from service.domain.rules import RuleSet
from service.domain.state import Status, Table
from service.domain.turns import legal_moves
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from tests.audit_stream.games import export_of
from tests.domain import indian_play
from tests.game.players import play_out
from tests.game.test_variant_fuzz import GAMES, MAX_STEPS, RULES, choose
from tests.set_time import SetTime


def _rules(name: str, players: int, number: int, rng: Random) -> RuleSet:
    """Random clock rules; `abandon` alternates (forfeit in odd games)."""
    abandon = Abandon.FORFEIT if number % 2 else Abandon.BOT
    return RuleSet.from_dict(
        {
            **RULES[name],
            "turn_seconds": rng.choice([5, 60]),
            "timeouts_before_takeover": rng.randint(1, 3),
            "abandon": abandon.value,
        },
        players=players,
    )


def _stored_tables(games: RummyApplication, game_id: Any) -> Iterator[Table]:
    """The table after each stored event, rebuilt from the events alone."""
    stored = games.events_after(game_id)
    created = games.state(game_id, version=1).table.copy()
    table = Table(
        rules=created.rules,
        seat_count=created.seat_count,
        seated=list(created.seated),
        first_dealer=created.first_dealer,
    )
    for event in stored[1:]:
        changes.apply(table, event.to_domain())
        yield table


@pytest.mark.parametrize("name", list(RULES))
def test_random_leaves_and_timeouts_keep_every_invariant_and_verify(name: str) -> None:
    variant = RuleSet.from_dict(RULES[name]).variant
    indian = variant is Variant.INDIAN
    low, high = VARIANTS[variant].players
    time = SetTime(datetime(2026, 12, 1, tzinfo=UTC))
    games = open_games(Settings(store=Store.MEMORY), now=time)
    rng = Random(f"leaving-{name}")
    banks = Random(f"bank-{name}")
    seen: Counter[str] = Counter()
    for number in range(GAMES):
        players = rng.randint(low, high)
        rules = _rules(name, players, number, rng)
        if number % 2 == 0:
            # A time bank in even games, drawn apart so the games play as before.
            bank = banks.choice([7, 600])
            rules = RuleSet.from_dict({**rules.to_dict(), "time_bank_seconds": bank})
        pack = Counter(rules.pack)
        created = games.create_game(
            NewGame(
                seats=[NewSeat(f"P{seat}") for seat in range(players)],
                rules=rules,
                seed=f"leaving-{name}-{number}",
            )
        )
        game_id = created.game_id
        leave_at = rng.randrange(8)  # one leave early in every game, more at random
        for step in range(MAX_STEPS):
            state = games.state(game_id)
            table = state.table
            if table.status is Status.FINISHED:
                break
            roll = rng.random()
            if roll < 0.01 or step == leave_at:
                people = [seat for seat in range(players) if not table.left[seat]]
                games.leave(game_id, rng.choice(people), resign=rng.random() < 0.5)
                play_out(games, game_id)  # the keeper's part once only bots are left
                continue
            if roll < 0.08:
                deadline = turn_deadline_of(games, game_id)
                assert deadline is not None, "a person is to act, so its clock runs"
                time.now = deadline - timedelta(seconds=1)
                assert not games.time_out(game_id, state.version), "not due yet"
                time.now = deadline + timedelta(seconds=1)
                assert games.time_out(game_id, state.version), "due: it fires"
                assert not games.time_out(game_id, state.version), "fired once"
                play_out(games, game_id)
                continue
            hand = table.hand
            assert hand is not None
            if rules.time_bank_seconds and banks.random() < 0.2 and state.turn_deadline:
                # The next move comes past its turn's clock: it spends some bank.
                time.now = state.turn_deadline - timedelta(seconds=rng.uniform(0.5, 7))
            if indian:
                seat = indian_play.acting_seat(table, rng)
                if table.left[seat]:
                    continue
                request = [indian_play.choose(table, seat, rng, indian_play.Plants())]
            else:
                seat = hand.turn
                request = choose(table, seat, legal_moves(table, seat), rng)
            games.play(game_id, seat, request)
            play_out(games, game_id)  # a pool's elimination may leave only bots
        else:
            pytest.fail(f"{name} game {number} did not end in {MAX_STEPS} steps")
        for table in _stored_tables(games, game_id):
            if table.hand is not None:
                assert Counter(table.hand.cards()) == pack, "the pack is conserved"
        live = games.state(game_id)
        rebuilt = games.state(game_id, version=live.version)
        assert rebuilt.table == live.table, "the stored events rebuild the live game"
        export = export_of(games, game_id)
        verdict = verify_export(export)
        assert verdict.outcome is Outcome.VERIFIED, verdict
        seen.update(_what_happened(export))
    assert seen["turn_timed_out"] > 0, seen
    assert seen["replaced"] > 0, seen
    assert seen["forfeit"] > 0, seen
    assert seen["time_bank_used"] > 0, seen


def _what_happened(export: dict[str, Any]) -> Counter[str]:
    """The export's events by type, a leaving by whether the seat was replaced."""
    found: Counter[str] = Counter()
    for logged in export["events"]:
        kind = logged["type"]
        if kind == "player_left":
            kind = "replaced" if logged["data"]["replaced"] else "forfeit"
        if kind == "hand_dealt" and logged["data"].get("seats") is not None:
            found["dealt among some"] += 1
        found[kind] += 1
    return found


def turn_deadline_of(games: RummyApplication, game_id: Any) -> datetime | None:
    return games.state(game_id).turn_deadline
