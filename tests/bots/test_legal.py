"""Bots always move legally: every move they choose is one their view offers, and
the rules accept it, under every house rule and at every table size."""

from __future__ import annotations

from random import Random

import pytest

from service.bots.strategies import STRATEGIES
from service.bots.view import BotView
from service.domain.decks import SeededDecks
from service.domain.play import play, start
from service.domain.rules import RuleSet
from service.domain.state import Status, Table
from tests.bots.tables import view_for

# Short games (a few deals, a turn cap) so random bots finish in good time.
SHORT = {"deals": 2, "max_turns": 120}

HOUSE_RULES = [
    pytest.param({}, id="classic"),
    pytest.param({"aces": "high_or_low"}, id="high_or_low"),
    pytest.param({"aces": "around_the_corner"}, id="around_the_corner"),
    pytest.param({"melds_per_turn": "one"}, id="one_meld_per_turn"),
    pytest.param({"lay_off": "after_own_meld"}, id="lay_off_after_own_meld"),
    pytest.param({"going_out": "discard"}, id="go_out_by_discarding"),
    pytest.param({"recycles": 0, "exhausted": "score"}, id="block_rummy"),
    pytest.param({"recycle_shuffle": False, "rummy_bonus": "plus_10"}, id="turned_over"),
    pytest.param({"scoring": "penalty"}, id="penalty"),
    pytest.param({"hand_size": 3}, id="three_cards"),
    pytest.param(
        {
            "aces": "around_the_corner",
            "melds_per_turn": "one",
            "lay_off": "after_own_meld",
            "going_out": "discard",
        },
        id="every_restriction",
    ),
]


@pytest.mark.parametrize("rules", HOUSE_RULES)
@pytest.mark.parametrize("players", [2, 3, 6])
def test_bots_only_ever_make_moves_their_view_offers(rules: dict[str, object], players: int):
    ruleset = RuleSet.from_dict({**SHORT, **rules})
    names = sorted(STRATEGIES)
    moves = 0
    for game in range(2):
        seating = [names[(seat + game) % len(names)] for seat in range(players)]
        moves += _play_checked(ruleset, seating, seed=f"legal-{players}-{game}-{rules}")
    assert moves > 50


def _play_checked(rules: RuleSet, seating: list[str], seed: str) -> int:
    """Play one game between `seating`'s bots, checking every move; the move count."""
    players = len(seating)
    table = Table(rules=rules, seat_count=players, seated=[True] * players)
    decks = SeededDecks(seed=seed, client_seeds=("",) * players)
    start(table, decks)
    generators = [Random(f"{seed}/{seat}") for seat in range(players)]
    moves = 0
    while table.status is Status.PLAYING:
        assert table.hand is not None
        seat = table.hand.turn
        view = view_for(table, seat)
        action = STRATEGIES[seating[seat]](view, generators[seat])
        assert action in BotView.read(view).actions(), f"{seating[seat]} chose {action}"
        play(table, seat, [action], decks)  # raises if the rules refuse it
        moves += 1
        assert moves < 50_000, "the game ends"
    return moves
