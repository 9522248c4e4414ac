"""`rummy arena`: rounds that mirror each deal, runs that come out the same on
any number of processes, places, and the command over a couple of variants
(the smoke CI runs; the whole ladder is run by hand, docs/bots.md)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from concurrent import futures as concurrent_futures
from dataclasses import replace
from typing import Any

import pytest

from service.bots.arena import command, report, rounds, runner
from service.bots.arena.rounds import (
    GameOutcome,
    RoundJob,
    RoundResult,
    place_of,
    play_arena_round,
)
from service.bots.arena.runner import (
    AHEAD,
    BATCH_ROUNDS,
    ArenaTable,
    Plan,
    level_pairings,
    run_arena,
)
from service.bots.arena.stats import Decision, Sprt
from service.bots.playout import Finish, play_game
from service.bots.search.budget import SCALE_VARIABLE
from service.bots.strategies import strategy
from service.cli import main
from service.domain.events import Event, HandDealt
from service.domain.rules import RuleSet

QUICK = {"target": 30}
"""A smaller target than the variant's, as users may pass for speed."""


def _recorded_games(
    monkeypatch: pytest.MonkeyPatch, players: int
) -> tuple[RoundJob, list[dict[str, Any]]]:
    calls: list[dict[str, Any]] = []
    real = play_game

    def recording(rules: RuleSet, names: Any, strategies: Any, **options: Any) -> Finish:
        calls.append({"names": tuple(names), **options})
        return real(rules, names, strategies, **options)

    monkeypatch.setattr(rounds, "play_game", recording)
    job = RoundJob(
        rules=QUICK, players=players, tester="basic", other="random", deal_seed="d/7", max_hands=50
    )
    result = play_arena_round(job)
    assert [game.seat for game in result.games] == list(range(players))
    return job, calls


def test_at_two_players_each_deal_is_played_both_ways(monkeypatch: pytest.MonkeyPatch):
    job, calls = _recorded_games(monkeypatch, 2)
    assert [call["names"] for call in calls] == [("basic", "random"), ("random", "basic")]
    assert {call["deal_seed"] for call in calls} == {job.deal_seed}


def test_at_more_players_the_level_under_test_sits_in_every_seat_of_one_deal(
    monkeypatch: pytest.MonkeyPatch,
):
    job, calls = _recorded_games(monkeypatch, 4)
    assert [call["names"].index("basic") for call in calls] == [0, 1, 2, 3]
    assert all(call["names"].count("basic") == 1 for call in calls)
    assert {call["deal_seed"] for call in calls} == {job.deal_seed}


def test_the_same_deal_seed_deals_the_same_cards_whoever_sits_where():
    rules = RuleSet.from_dict(QUICK)

    def first_deal(names: tuple[str, str]) -> HandDealt:
        dealt: list[HandDealt] = []

        def watch(event: Event) -> None:
            if isinstance(event, HandDealt) and not dealt:
                dealt.append(event)

        play_game(
            rules,
            names,
            [strategy(name) for name in names],
            deal_seed="mirror",
            bot_seeds=["a", "b"],
            max_hands=1,
            on_event=watch,
        )
        return dealt[0]

    one_way, other_way = first_deal(("basic", "random")), first_deal(("random", "basic"))
    assert one_way.deck == other_way.deck
    assert one_way.dealer == other_way.dealer


def _plan(processes: int, **changes: Any) -> Plan:
    fields: dict[str, Any] = {
        "tables": (ArenaTable("classic", {**QUICK, "variant": "classic"}),),
        "pairings": (("basic", "random"), ("basic", "basic")),
        "max_games": 2 * 2 * BATCH_ROUNDS,
        "seed": "determinism",
        "processes": processes,
        "max_hands": 8,
    }
    return Plan(**{**fields, **changes})


def _results(plan: Plan) -> list[tuple[Any, ...]]:
    return [
        (
            pairing.tester,
            pairing.other,
            pairing.verdict,
            pairing.llr,
            [
                (game.seat, game.winner, game.place, game.hands)
                for r in pairing.rounds
                for game in r.games
            ],
        )
        for pairing in run_arena(plan).pairings
    ]


def test_a_run_is_the_same_on_one_process_and_on_two():
    inline = _results(_plan(1))
    pooled = _results(_plan(2))
    assert inline == pooled
    # Neither pairing is trivially empty: both played whole batches.
    assert all(len(games) % (2 * BATCH_ROUNDS) == 0 and games for *_, games in inline)


def test_the_schedule_waits_for_rounds_to_finish_and_never_spins(
    monkeypatch: pytest.MonkeyPatch,
):
    # Each wait must return because a round still running finished: at most one
    # wait a round. Waiting on a round already done returns at once, and the
    # schedule then spins until its batch is in, a core's worth of waits.
    calls: list[int] = []

    def counted(futures: Any, **options: Any) -> Any:
        assert futures
        assert not any(future.done() for future in futures)
        calls.append(len(futures))
        return concurrent_futures.wait(futures, **options)

    monkeypatch.setattr(runner, "wait", counted)
    plan = _plan(2)
    outcome = run_arena(plan)
    played = sum(len(pairing.rounds) for pairing in outcome.pairings)
    assert played
    assert len(calls) <= played + AHEAD * BATCH_ROUNDS * len(outcome.pairings)


def test_a_pairing_stops_once_its_test_settles_and_the_limit_ends_the_rest():
    told: list[tuple[int, bool]] = []
    outcome = run_arena(
        _plan(1, max_games=200, pairings=(("basic", "random"),)),
        progress=lambda pairing, ended: told.append((len(pairing.rounds), ended)),
    )
    [pairing] = outcome.pairings
    assert pairing.verdict is Decision.H1
    assert len(pairing.rounds) < 100, "stopped before its limit"
    assert len(pairing.rounds) % BATCH_ROUNDS == 0, "judged only after whole batches"
    # Told after every batch, the last time as it ended.
    batches = len(pairing.rounds) // BATCH_ROUNDS
    assert told == [(BATCH_ROUNDS * (n + 1), n == batches - 1) for n in range(batches)]
    even = run_arena(_plan(1, max_games=2 * BATCH_ROUNDS, pairings=(("basic", "basic"),)))
    assert even.pairings[0].verdict is Decision.OPEN
    assert len(even.pairings[0].rounds) == BATCH_ROUNDS


@pytest.mark.parametrize("processes", [1, 2])
def test_a_run_stopped_by_hand_reports_its_whole_batches(processes: int):
    told: list[int] = []

    def interrupt(pairing: Any, ended: bool) -> None:
        told.append(len(pairing.rounds))
        if len(told) == 2:
            raise KeyboardInterrupt

    plan = _plan(processes, max_games=40 * BATCH_ROUNDS, pairings=(("basic", "basic"),))
    outcome = run_arena(plan, progress=interrupt)
    [pairing] = outcome.pairings
    assert pairing.verdict is Decision.STOPPED
    assert len(pairing.rounds) == 2 * BATCH_ROUNDS, "the batches told of, no more"
    assert pairing.llr == plan.sprt.llr(pairing.scores(2), 2)


def test_a_round_interrupted_in_play_is_dropped_with_its_batch(monkeypatch: pytest.MonkeyPatch):
    played: list[RoundJob] = []
    real = play_arena_round

    def interrupted(job: RoundJob) -> Any:
        if len(played) == BATCH_ROUNDS + 3:
            raise KeyboardInterrupt
        played.append(job)
        return real(job)

    monkeypatch.setattr("service.bots.arena.runner.play_arena_round", interrupted)
    outcome = run_arena(_plan(1, max_games=40 * BATCH_ROUNDS, pairings=(("basic", "basic"),)))
    [pairing] = outcome.pairings
    assert pairing.verdict is Decision.STOPPED
    assert len(pairing.rounds) == BATCH_ROUNDS, "only the whole batch before the interrupt"


def test_a_stop_counts_whole_batches_and_keeps_a_verdict_just_reached():
    # Ctrl-C may come while a batch's rounds are being added to a pairing.
    plan = _plan(1)
    played = play_arena_round(runner.job(plan, runner.Pairing(plan.tables[0], "basic", "basic"), 0))
    halfway = runner.Pairing(plan.tables[0], "basic", "basic", rounds=[played] * (BATCH_ROUNDS + 3))
    runner._stopped(plan, halfway)
    assert (len(halfway.rounds), halfway.verdict) == (BATCH_ROUNDS, Decision.STOPPED)
    settled = runner.Pairing(
        plan.tables[0], "basic", "basic", rounds=[played] * BATCH_ROUNDS, verdict=Decision.H1
    )
    runner._stopped(plan, settled)
    assert (len(settled.rounds), settled.verdict) == (BATCH_ROUNDS, Decision.H1)


def test_the_interval_stop_asks_about_h0_s_score_not_only_1_over_n():
    # A level winning about 63% of its games: above 50% beyond doubt, not above 60%.
    # Neither SPRT below settles it (H1 too far above H0 at 50%; 63% between 60% and 67%).
    plan = _plan(1, sprt=Sprt(elo0=0, elo1=200))
    won = RoundResult(games=[GameOutcome(seat=0, winner=0, place=1, hands=1)] * 2)
    lost = RoundResult(games=[GameOutcome(seat=0, winner=1, place=2, hands=1)] * 2)
    rounds = [won] * 95 + [lost] * 55
    even = runner.Pairing(plan.tables[0], "strong", "basic", rounds=list(rounds))
    assert runner._settled(plan, even)
    assert even.verdict is Decision.ABOVE
    sixty = replace(plan, sprt=Sprt(elo0=70, elo1=120))
    asked = runner.Pairing(plan.tables[0], "strong", "basic", rounds=list(rounds))
    assert not runner._settled(sixty, asked)
    assert asked.verdict is Decision.OPEN
    assert report.pairing_figures(sixty, asked)["baseline"] == pytest.approx(0.599, abs=0.001)


def test_workers_leave_ctrl_c_to_the_arena(monkeypatch: pytest.MonkeyPatch):
    handlers: dict[int, Any] = {}

    def record(number: int, handler: Any) -> None:
        handlers[number] = handler

    monkeypatch.setattr(signal, "signal", record)
    monkeypatch.setenv(SCALE_VARIABLE, "1")
    runner._worker_start(0.5)
    assert handlers == {signal.SIGINT: signal.SIG_IGN}
    assert float(os.environ[SCALE_VARIABLE]) == 0.5


@pytest.mark.parametrize(
    ("number", "group"),
    [
        (signal.SIGINT, True),  # Ctrl-C: the terminal signals the whole process group
        (signal.SIGTERM, False),  # `kill PID`: a background job, whose SIGINT a shell ignores
    ],
)
def test_a_signal_stops_the_command_with_its_figures_so_far(number: int, group: bool):
    argv = [
        *(sys.executable, "-m", "service.cli", "arena", "--variant", "classic"),
        *("--levels", "basic,basic", "--games", "4000", "--processes", "2"),
        *("--rules", json.dumps(QUICK), "--json"),
    ]
    # A terminal's foreground job takes Ctrl-C; a shell's background job ignores it, and
    # a child inherits an ignored signal. So the command starts as from a terminal even
    # when these tests run in the background (a handler, unlike SIG_IGN, ends at exec).
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        arena = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
        )
    finally:
        signal.signal(signal.SIGINT, before)
    with arena:
        assert arena.stderr is not None
        first = arena.stderr.readline()
        assert "so far" in first, first
        if group:
            os.killpg(arena.pid, number)
        else:
            arena.send_signal(number)
        out, err = arena.communicate(timeout=120)
    assert arena.returncode == command.STOPPED_EXIT, err
    assert "Traceback" not in err
    [table] = json.loads(out)["tables"]
    [pairing] = table["pairings"]
    assert pairing["verdict"] == "stopped"
    assert pairing["games"] >= 2 * BATCH_ROUNDS
    assert pairing["games"] % (2 * BATCH_ROUNDS) == 0


def test_a_run_stopped_before_its_first_batch_reports_no_figures_as_null(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    def interrupted(job: RoundJob) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr("service.bots.arena.runner.play_arena_round", interrupted)
    argv = ["arena", "--variant", "classic", "--players", "3", "--processes", "1"]
    assert main([*argv, "--json"]) == command.STOPPED_EXIT

    def strict(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    [table] = json.loads(capsys.readouterr().out, parse_constant=strict)["tables"]
    [pairing] = table["pairings"]
    assert (pairing["games"], pairing["verdict"]) == (0, "stopped")
    assert [pairing[name] for name in ("win_rate", "elo", "mean_place")] == [None] * 3
    assert pairing["win_rate_ci"] == [None, None]
    assert main(argv) == command.STOPPED_EXIT
    out = capsys.readouterr().out
    assert "nan" not in out.lower()
    assert re.search(r"basic v random +0 +0-0-0 +- +- +-  stopped by hand", out), out


def test_the_command_says_a_run_was_stopped_by_hand(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    def interrupt(*_: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(command, "_said", interrupt)
    argv = ["arena", "--variant", "classic", "--games", "400", "--processes", "1"]
    assert (
        main([*argv, "--levels", "basic,basic", "--rules", json.dumps(QUICK)])
        == command.STOPPED_EXIT
    )
    out = capsys.readouterr().out
    assert re.search(rf"basic v basic +{2 * BATCH_ROUNDS} ", out), "the first batch's games"
    assert "stopped by hand, open" in out


def test_a_ladder_pairs_each_level_with_the_next():
    assert level_pairings(["expert", "strong", "basic", "random"]) == (
        ("expert", "strong"),
        ("strong", "basic"),
        ("basic", "random"),
    )


@pytest.mark.parametrize(
    ("winner", "totals", "seat", "place"),
    [
        (0, (100, 40, 60, 10), 2, 2.0),  # points won: the higher total is better
        (0, (100, 40, 60, 10), 3, 4.0),
        (1, (90, 0, 120, 90), 0, 2.5),  # penalties: lower is better; a tie shares
        (1, (90, 0, 120, 90), 2, 4.0),
        (1, (90, 0, 120, 90), 1, 1.0),
        (None, (5, 5, 5), 0, 2.0),  # unfinished: everyone shares every place
    ],
)
def test_places_follow_the_winners_direction(
    winner: int | None, totals: tuple[int, ...], seat: int, place: float
):
    assert place_of(Finish(winner=winner, totals=totals, hands=3), seat) == place


def test_the_command_prints_a_table_per_variant_with_verdicts_times_and_throughput(
    capsys: pytest.CaptureFixture[str],
):
    argv = ["arena", "--variant", "classic,knock", "--games", "16", "--processes", "1"]
    assert main([*argv, "--rules", json.dumps(QUICK)]) == 0
    out, err = capsys.readouterr()
    assert "rummy arena: classic basic v random: " in err, "each pairing says how it ended"
    for expected in ("classic", "knock", "basic v random", "win rate", "Elo", "SPRT", "floor"):
        assert expected in out
    assert "games/s per core" in out
    assert out.count("level ") == 2, "a time table for each variant"


def test_the_command_answers_in_json_and_the_same_seed_gives_the_same_figures(
    capsys: pytest.CaptureFixture[str],
):
    argv = [
        *("arena", "--variant", "indian", "--levels", "basic,random", "--players", "3"),
        *("--games", "6", "--processes", "1", "--seed", "smoke", "--json"),
        *("--rules", '{"format": "pool_101", "max_hands": 30}'),
    ]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    [table] = first["tables"]
    assert table["table"] == "indian/pool_101"
    [pairing] = table["pairings"]
    assert pairing["games"] == 6
    assert pairing["baseline"] == pytest.approx(1 / 3)
    assert pairing["wins"] + pairing["draws"] + pairing["losses"] == 6
    assert 1 <= pairing["mean_place"] <= 3
    assert set(table["levels"]) == {"basic", "random"}
    assert table["levels"]["basic"]["floor_p99_ms"] > 0
    assert [t["pairings"] for t in first["tables"]] == [t["pairings"] for t in again["tables"]]


@pytest.mark.parametrize(
    "argv",
    [
        ["--variant", "canasta"],
        ["--variant", "classic", "--levels", "basic,clever"],
        ["--variant", "classic", "--levels", "basic"],
        ["--variant", "classic", "--rules", "{not json"],
        ["--variant", "classic", "--rules", '{"aces": "sideways"}'],
        ["--variant", "classic", "--games", "0"],
        ["--variant", "classic", "--processes", "0"],
        ["--variant", "classic", "--elo1", "-5"],
    ],
)
def test_the_command_refuses_what_cannot_work(argv: list[str], capsys: pytest.CaptureFixture[str]):
    assert main(["arena", *argv]) == 2
    assert "rummy arena:" in capsys.readouterr().err
