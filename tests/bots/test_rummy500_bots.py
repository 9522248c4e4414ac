"""The `basic` strategy in 500 Rum: it digs into the spread pile when the called
card melds and uses that card first; both strategies play whole games legally in
`rummy simulate`; and `basic` beats `random` in at least 90 % of games at two, four
and eight seats."""

from __future__ import annotations

from random import Random

import pytest

from service.bots.basic import play_basic
from service.bots.simulate import simulate
from service.cli import main
from service.domain.actions import Discard, Draw, Meld
from service.domain.rules import RuleSet
from service.domain.state import Source
from service.projections.views import Viewer, game_view
from tests.domain.tables import Game, cards
from tests.domain.test_rummy500 import pile, three_player_pile
from tests.projections.snapshots import snapshot


def decide(game: Game, seat: int) -> object:
    view = game_view(snapshot(game.table, ["A", "B", "C"]), Viewer(seat=seat))
    return play_basic(view, Random(0))


def test_takes_the_pile_down_to_a_called_card_that_melds_then_melds_it() -> None:
    game = three_player_pile()
    game.turn(1, "2D")
    game.turn(2, "8C")
    # Seat 0 holds 7D 8D; 9D lies at the bottom of the pile: it takes all six.
    assert decide(game, 0) == pile(6)
    game.act(0, pile(6))
    assert decide(game, 0) == Meld(tuple(cards("7D 8D 9D")))
    game.meld(0, "7D 8D 9D")
    # Then it lays or throws: never a move the rules refuse.
    move = decide(game, 0)
    game.act(0, move)  # type: ignore[arg-type]


def test_does_not_dig_for_a_card_it_cannot_use() -> None:
    game = three_player_pile()
    # Seat 1 may take only the top card (10H, which fits nothing it holds): the stock.
    assert decide(game, 1) == Draw(Source.STOCK)


def test_melds_then_throws_a_low_card_rather_than_a_high_one() -> None:
    game = three_player_pile()
    game.act(1, Draw(Source.STOCK))  # 2S
    assert decide(game, 1) == Meld(tuple(cards("5H 6H 7H")))
    game.meld(1, "5H 6H 7H")
    # Left: JS JH 2D 9S 2S, none of which melds, fits the table or melds with the
    # pile (9D 4S QC 10H): a two goes, not a jack worth 10.
    move = decide(game, 1)
    assert move in (Discard(cards("2D")[0]), Discard(cards("2S")[0]))


@pytest.mark.parametrize("bots", [("basic", "basic"), ("random", "random")])
def test_simulated_games_are_legal_to_the_end(bots: tuple[str, str]) -> None:
    for players in (2, 5):
        rules = RuleSet.from_dict({"variant": "rummy500", "target": 200}, players=players)
        report = simulate(4, list(bots), players=players, rules=rules, seed=f"legal-{players}")
        assert sum(report.wins.values()) + report.unfinished == 4
        if "basic" in bots:
            assert report.unfinished == 0, report.text()


@pytest.mark.parametrize(("players", "games"), [(2, 100), (4, 60), (8, 40)])
def test_basic_beats_random_in_at_least_90_percent_of_games(players: int, games: int) -> None:
    rules = RuleSet.from_dict({"variant": "rummy500"}, players=players)
    report = simulate(games, ["basic", "random"], players=players, rules=rules, seed="strength")
    assert report.rules.target == 500
    assert report.unfinished == 0, report.text()
    assert report.wins["basic"] >= 0.9 * games, report.text()


def test_rummy_simulate_plays_500_rum_at_eight_seats(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--games", "2", "--players", "8", "--rules", '{"variant": "rummy500"}']
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert '"variant": "rummy500"' in out
    assert "2 games, 8 players" in out
