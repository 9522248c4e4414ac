"""`basic` is a real opponent: it beats `random` in at least 90% of 200 games."""

from __future__ import annotations

from service.bots.simulate import simulate
from service.domain.rules import RuleSet

GAMES = 200


def test_basic_beats_random_in_at_least_90_percent_of_two_player_games_to_100():
    report = simulate(GAMES, ["basic", "random"], players=2, rules=RuleSet(), seed="strength")
    assert report.rules.target == 100
    assert report.unfinished == 0
    assert report.wins["basic"] + report.wins["random"] == GAMES
    assert report.wins["basic"] >= 0.9 * GAMES, report.text()
    # Each strategy sat in each seat equally often.
    assert report.seat_games == {"basic": GAMES, "random": GAMES}
