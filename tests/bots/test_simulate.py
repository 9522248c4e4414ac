"""`rummy simulate`: bots against bots in process, with figures."""

from __future__ import annotations

import json

import pytest

from service.bots.simulate import seating, simulate
from service.cli import main
from service.domain.rules import RuleSet


def test_the_command_prints_win_rates_hand_lengths_endings_and_speed(
    capsys: pytest.CaptureFixture[str],
):
    assert main(["simulate", "--games", "6", "--players", "2", "--bots", "basic,random"]) == 0
    out = capsys.readouterr().out
    for expected in ("win rate", "basic", "random", "turns per hand", "hands ended", "games/s"):
        assert expected in out
    for ending in ("out", "rummy", "exhausted", "turn_cap"):
        assert ending in out


def test_the_command_takes_house_rules_and_a_seed_and_can_answer_in_json(
    capsys: pytest.CaptureFixture[str],
):
    argv = [
        "simulate",
        "--games",
        "4",
        "--players",
        "3",
        "--bots",
        "basic,random",
        "--rules",
        '{"aces": "high_or_low", "deals": 2}',
        "--seed",
        "cli",
        "--json",
    ]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    assert first["rules"]["aces"] == "high_or_low"
    assert first["hands"] == 8
    assert sum(figures["wins"] for figures in first["strategies"].values()) == 4
    assert abs(sum(first["endings"].values()) - 1) < 1e-9
    for figures in (first, again):
        figures.pop("seconds")
        figures.pop("games_per_second")
    assert first == again, "the same seed plays the same games"


@pytest.mark.parametrize(
    "argv",
    [
        ["--bots", "basic,clever"],
        ["--rules", "{not json"],
        ["--rules", '{"aces": "sideways"}'],
        ["--players", "7"],
        ["--games", "0"],
        ["--rules", '{"hand_size": 1}'],  # no game could ever end
    ],
)
def test_the_command_refuses_what_cannot_work(argv: list[str], capsys: pytest.CaptureFixture[str]):
    assert main(["simulate", "--games", "1", *argv]) == 2
    assert "rummy simulate:" in capsys.readouterr().err


def test_strategies_take_turns_in_each_seat():
    assert seating(["basic", "random"], 2, 0) == ("basic", "random")
    assert seating(["basic", "random"], 2, 1) == ("random", "basic")
    assert seating(["basic", "random"], 4, 0) == ("basic", "random", "basic", "random")


def test_a_game_that_runs_past_the_hand_limit_is_counted_unfinished():
    report = simulate(2, ["random"], players=2, rules=RuleSet(), seed="limit", max_hands=1)
    assert report.unfinished == 2
    assert report.hands == 2
    assert sum(report.wins.values()) == 0
