"""The arena's schedule: pairings played in batches of rounds on a pool of
processes, each stopped at the first batch after which its test is settled.

Determinism whatever the process count: a round is a pure function of its
job (`rounds.play_arena_round`), round k of a pairing always has the same deal seed,
and a pairing's stopping rule is looked at only after whole batches of
`BATCH_ROUNDS`, on its rounds in order. So with one process or many, the same
rounds are counted and the same verdict is reached; more processes only play
a batch or two ahead, which is thrown away if the pairing stopped.
"""

from __future__ import annotations

import itertools
import multiprocessing
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from service.bots.arena.rounds import (
    RoundJob,
    RoundResult,
    budget_scale,
    play_arena_round,
    use_budget_scale,
)
from service.bots.arena.stats import Decision, Sprt, interval_verdict
from service.bots.playout import DEFAULT_MAX_HANDS

BATCH_ROUNDS = 8
"""Rounds between two looks at a pairing's stopping rule (16 games at two
players): fixed, so that the looks fall at the same rounds in every run."""
AHEAD = 2
"""Batches of one pairing in flight at once: the next is played while one is
judged, so no core waits for the slowest round of a batch."""


@dataclass(frozen=True, slots=True)
class ArenaTable:
    """One variant (or Indian format) at the table: its label and its rules."""

    label: str
    rules: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Plan:
    tables: tuple[ArenaTable, ...]
    pairings: tuple[tuple[str, str], ...]
    """(level under test, the level it plays against), each at every table."""
    players: int = 2
    max_games: int = 400
    seed: str = "arena"
    processes: int = 2
    sprt: Sprt = field(default_factory=Sprt)
    max_hands: int = DEFAULT_MAX_HANDS
    budget_scale: float = 1.0

    @property
    def max_rounds(self) -> int:
        return max(1, self.max_games // self.players)


@dataclass
class Pairing:
    """A pairing at one table, as far as it was played."""

    table: ArenaTable
    tester: str
    other: str
    rounds: list[RoundResult] = field(default_factory=list)
    verdict: Decision = Decision.OPEN
    llr: float = 0.0

    def scores(self, players: int) -> list[float]:
        return [result.score(players) for result in self.rounds]


@dataclass
class ArenaRun:
    plan: Plan
    pairings: list[Pairing]
    seconds: float
    """Wall time of the whole run."""


def job(plan: Plan, pairing: Pairing, number: int) -> RoundJob:
    """Round `number` of `pairing`: its deal seed names the run, the table and the
    round, not the levels, so every pairing at a table plays the same deals."""
    return RoundJob(
        rules=pairing.table.rules,
        players=plan.players,
        tester=pairing.tester,
        other=pairing.other,
        deal_seed=f"{plan.seed}/{pairing.table.label}/{number}",
        max_hands=plan.max_hands,
    )


def run_arena(plan: Plan, progress: Callable[[Pairing, bool], None] | None = None) -> ArenaRun:
    """Play every pairing of `plan` until its test settles or its games run out.

    `progress(pairing, ended)` is called after each batch a pairing adds up
    (`ended` once its last): an expert step may take an hour."""
    began = time.perf_counter()
    pairings = [
        Pairing(table=table, tester=tester, other=other)
        for table in plan.tables
        for tester, other in plan.pairings
    ]
    in_flight: dict[int, list[list[Future[RoundResult]]]] = {}
    with _executor(plan) as executor:
        try:
            _play(plan, pairings, executor, in_flight, progress)
        except KeyboardInterrupt:
            # Ctrl-C (or SIGTERM, which the command turns into the same): an
            # hour-long pairing stopped by hand still reports what its whole
            # batches say. Rounds not started are dropped; the workers ignore
            # SIGINT (`_worker_start`) and finish only the rounds they are playing.
            executor.shutdown(wait=False, cancel_futures=True)
            for index in in_flight:
                _stopped(plan, pairings[index])
    return ArenaRun(plan=plan, pairings=pairings, seconds=time.perf_counter() - began)


def _play(
    plan: Plan,
    pairings: list[Pairing],
    executor: Executor,
    in_flight: dict[int, list[list[Future[RoundResult]]]],
    progress: Callable[[Pairing, bool], None] | None,
) -> None:
    """Submit and judge batches until every pairing has ended; `in_flight` holds
    the batches of the pairings still being played."""
    # In process, a batch played ahead is only time lost if the pairing stops.
    ahead = AHEAD if plan.processes > 1 else 1
    submitted = dict.fromkeys(range(len(pairings)), 0)

    def top_up(index: int) -> None:
        batches = in_flight.setdefault(index, [])
        while len(batches) < ahead and submitted[index] < plan.max_rounds:
            first = submitted[index]
            last = min(first + BATCH_ROUNDS, plan.max_rounds)
            batches.append(
                [
                    executor.submit(play_arena_round, job(plan, pairings[index], number))
                    for number in range(first, last)
                ]
            )
            submitted[index] = last

    for index in range(len(pairings)):
        top_up(index)
    while in_flight:
        # Wait only on rounds still running: a batch is judged once all its rounds
        # are in, and waiting on one already done would return at once: a busy
        # loop (5.2 s of processor time in a 21 s run of 160 games on 2 processes,
        # about a quarter of a core taken from the workers).
        waiting = [
            future for batches in in_flight.values() for future in batches[0] if not future.done()
        ]
        if waiting:
            wait(waiting, return_when=FIRST_COMPLETED)
        for index in list(in_flight):
            batches = in_flight[index]
            if not all(future.done() for future in batches[0]):
                continue
            pairing = pairings[index]
            pairing.rounds.extend(future.result() for future in batches.pop(0))
            ended = _settled(plan, pairing) or (not batches and submitted[index] >= plan.max_rounds)
            if ended:
                for batch in batches:
                    for future in batch:
                        future.cancel()
                del in_flight[index]
            else:
                top_up(index)
            if progress is not None:
                progress(pairing, ended)


def _stopped(plan: Plan, pairing: Pairing) -> None:
    """Mark a pairing stopped by hand, judged on its whole batches only (the
    interrupt may have come as a batch was being added); one that had just
    settled keeps its verdict."""
    if pairing.verdict is not Decision.OPEN:
        return
    del pairing.rounds[len(pairing.rounds) - len(pairing.rounds) % BATCH_ROUNDS :]
    pairing.llr = plan.sprt.llr(pairing.scores(plan.players), plan.players)
    pairing.verdict = Decision.STOPPED


def _settled(plan: Plan, pairing: Pairing) -> bool:
    """Judge the pairing on its rounds so far; True once the judgement is final."""
    scores = pairing.scores(plan.players)
    pairing.llr = plan.sprt.llr(scores, plan.players)
    pairing.verdict = plan.sprt.verdict(pairing.llr)
    if pairing.verdict is Decision.OPEN:
        pairing.verdict = interval_verdict(scores, plan.sprt.baseline(plan.players))
    return pairing.verdict is not Decision.OPEN


@contextmanager
def _executor(plan: Plan) -> Iterator[Executor]:
    if plan.processes <= 1:
        with budget_scale(plan.budget_scale):
            yield _Inline()
        return
    # forkserver, as the service's bot pool (service/bots/seats.py): no copy of
    # this process's threads or state, and quicker to start than spawn.
    with ProcessPoolExecutor(
        plan.processes,
        mp_context=multiprocessing.get_context("forkserver"),
        initializer=_worker_start,
        initargs=(plan.budget_scale,),
    ) as pool:
        yield pool


def _worker_start(scale: float) -> None:
    """A worker's initializer: its budgets scaled, and Ctrl-C, which the terminal
    sends the whole process group, left to the parent, which stops the run and
    reports it (a worker interrupted mid-round would only break the pool). SIGTERM
    is left alone: it still ends a worker orphaned by a parent killed outright."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    use_budget_scale(scale)


class _Inline(Executor):
    """Plays each round at once in this process (`--processes 1`)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def level_pairings(levels: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The pairings of `--levels`: each level against the next one named (A,B: A
    against B; a ladder strongest first, each step against the one below)."""
    return tuple(itertools.pairwise(levels))
