"""Checking an audit export: the hash chain, the seed against its commitment,
every deck against docs/fairness.md, every move against the rules, every
score and the winner. The first thing wrong is named; nothing after it is
trusted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from service.audit import deal_mode
from service.audit.chain import FORMAT, event_hash, genesis
from service.audit.header import expected_header, first_difference, short_json
from service.audit.mismatch import Mismatch
from service.audit.referee import Referee, Tally


class Outcome(IntEnum):
    """The verdict, as the exit status of `rummy verify`."""

    VERIFIED = 0
    """A finished game: everything checks out."""
    FAILED = 1
    """Something does not check out: the export was altered, or the game was not fair or
    not played by the rules."""
    UNREADABLE = 2
    """Not an audit export at all."""
    UNFINISHED = 3
    """Everything present checks out, but the game is not finished: the seed is still
    secret, so the deals could not be checked."""


@dataclass(frozen=True, slots=True)
class Finding:
    """The first thing that does not check out."""

    message: str
    position: int | None = None
    """1-based place of the bad event in the export's list; None for a top-level field."""
    version: int | None = None
    type: str | None = None
    field: str | None = None
    """The header field at fault, when it is not an event: its path in the export, such
    as `players[1].client_seed`."""

    @property
    def where(self) -> str:
        if self.position is None:
            return f"field {self.field!r} of the export"
        if self.version is None or self.version == self.position:
            return f"event {self.position} ({self.type})"
        return f"event at position {self.position} (version {self.version}, {self.type})"


@dataclass
class Verdict:
    outcome: Outcome
    game_id: str | None = None
    finding: Finding | None = None
    events: int = 0
    head: str | None = None
    tally: Tally = field(default_factory=Tally)
    winner: int | None = None
    totals: list[int] = field(default_factory=list)
    explicit_decks: int = 0
    hand_chain: bool = False
    """A `hand_chain` game: a seed per hand (docs/fairness.md "A seed per hand")."""

    @property
    def ok(self) -> bool:
        return self.outcome is Outcome.VERIFIED

    def report(self) -> str:
        """The verdict in a few plain sentences."""
        game = f"game {self.game_id}" if self.game_id else "the export"
        if self.finding is not None:
            label = "UNREADABLE" if self.outcome is Outcome.UNREADABLE else "FAILED"
            return f"{label}: {game}: {self.finding.where}: {self.finding.message}."
        tally = self.tally
        facts = [
            f"{self.events} events, hash chain intact (head {self.head})",
            f"{tally.moves} moves and {tally.joins} joins legal",
        ]
        if self.outcome is Outcome.UNFINISHED:
            facts.append(f"{tally.hands} hands dealt so far")
            if tally.hands_from_seed:
                # hand_chain: each ended hand revealed its seed, checked on the chain.
                facts.append(
                    f"{tally.hands_from_seed} decks and {tally.recycles_from_seed} recycles "
                    f"match docs/fairness.md from their revealed hand seeds"
                )
                return f"UNFINISHED: {game}: " + "; ".join(facts) + "."
            return (
                f"UNFINISHED: {game}: " + "; ".join(facts) + ". The seed stays secret until the "
                "game is finished, so the deals could not be checked yet."
            )
        facts.insert(
            1,
            "the seed's hand chain and the rules digest match its commitment"
            if self.hand_chain
            else "the seed matches its commitment",
        )
        facts.insert(
            2,
            f"{tally.hands_from_seed} decks and {tally.recycles_from_seed} recycles match "
            f"docs/fairness.md",
        )
        if self.explicit_decks:
            facts.insert(
                3, f"hands 1 to {self.explicit_decks} used decks given at creation (no seed)"
            )
        if self.winner is None:
            facts.append(f"every score (totals {self.totals}) and the abort: no winner")
        else:
            facts.append(f"every score and the winner (seat {self.winner}, totals {self.totals})")
        return f"VERIFIED: {game}: " + "; ".join(facts) + "."


def verify_export(export: Any) -> Verdict:
    """Check an audit export (the parsed JSON of docs/audit.md)."""
    if not isinstance(export, Mapping) or export.get("format") != FORMAT:
        return Verdict(
            Outcome.UNREADABLE,
            finding=Finding(f"this is not a {FORMAT} audit export", field="format"),
        )
    game_id = export.get("game_id")
    events = export.get("events")
    if not isinstance(game_id, str) or not isinstance(events, list) or not events:
        return Verdict(
            Outcome.UNREADABLE,
            game_id=str(game_id),
            finding=Finding(
                "an export needs a game_id and a list of events",
                field="game_id" if not isinstance(game_id, str) else "events",
            ),
        )
    return _Check(export, game_id, events).run()


class _Check:
    def __init__(self, export: Mapping[str, Any], game_id: str, events: list[Any]) -> None:
        self.export = export
        self.game_id = game_id
        self.events = events
        seed = export.get("seed")
        self.referee = Referee(seed=seed if isinstance(seed, str) else None, recorded=events)

    def run(self) -> Verdict:
        previous = genesis(self.game_id)
        for position, event in enumerate(self.events, start=1):
            problem = self._event(position, event, previous)
            if problem is not None:
                return self._verdict(Outcome.FAILED, problem)
            previous = event["hash"]
        owed = self.referee.waiting_for
        if owed is not None:
            after = len(self.events)
            return self._verdict(
                Outcome.FAILED,
                Finding(
                    f"the log ends before the {owed} that must follow event {after}: "
                    f"events were cut off",
                    position=after + 1,
                    type="missing",
                ),
            )
        problem = self._deal() or self._fields(previous)
        if problem is not None:
            return self._verdict(Outcome.FAILED, problem)
        table = self.referee.table
        finished = table is not None and table.over
        return self._verdict(Outcome.VERIFIED if finished else Outcome.UNFINISHED, None, previous)

    def _event(self, position: int, event: Any, previous: str) -> Finding | None:
        if not isinstance(event, Mapping) or not _well_formed(event):
            return Finding(
                "malformed: an event has version, type, at, data, previous_hash and hash",
                position=position,
                type=str(event.get("type")) if isinstance(event, Mapping) else None,
            )

        def finding(message: str) -> Finding:
            return Finding(message, position=position, version=event["version"], type=event["type"])

        if event["version"] != position:
            return finding(
                f"event number {position} of the log has version {event['version']}: an event "
                f"is missing, duplicated or out of order here"
            )
        if event["previous_hash"] != previous:
            if position == 1 and event_hash(event) == event["hash"]:
                # The first event is intact but chained from another genesis: the log
                # is another game's, or the game_id it was exported under was changed.
                return Finding(
                    f"the log was chained for another game: its first event's previous_hash "
                    f"is {event['previous_hash']}, but the genesis hash of this game_id is "
                    f"{previous}",
                    field="game_id",
                )
            return finding(
                "its previous_hash is not the hash of the event before it: the log was cut, "
                "spliced or reordered here"
            )
        if event_hash(event) != event["hash"]:
            return finding(
                "its content does not match its hash: the event was altered after the export"
            )
        seat = event.get("seat")
        try:
            self.referee.take(event["type"], event["data"], seat if isinstance(seat, int) else None)
        except Mismatch as mismatch:
            if mismatch.field is not None:
                return Finding(mismatch.message, field=mismatch.field)
            return finding(mismatch.message)
        return None

    def _fields(self, head: str) -> Finding | None:
        """Every header field must say what the log says (service/audit/header.py)."""
        table = self.referee.table
        assert table is not None, "the log has at least its creation"
        seed = self.export.get("seed")
        if table.over and not isinstance(seed, str):
            return Finding(
                f"the game is {table.status.value}, but its seed is not revealed: it says "
                f"{short_json(seed)}",
                field="seed",
            )
        wanted = expected_header(
            self.referee,
            self.events,
            self.game_id,
            head,
            seed if isinstance(seed, str) else None,
            # Checked against the log by `_deal` first, where a game stored before
            # `deal` was recorded may leave it open.
            deal=self.export.get("deal"),
            players=self.export.get("players"),
        )
        found = {name: value for name, value in self.export.items() if name != "events"}
        difference = first_difference(found, wanted)
        if difference is None:
            return None
        path, message = difference
        return Finding(message, field=path)

    def _deal(self) -> Finding | None:
        """The export's `deal` must be the log's (service/audit/deal_mode.py)."""
        referee = self.referee
        problem = deal_mode.misstated(self.export.get("deal"), referee.created, referee.seed)
        return None if problem is None else Finding(problem, field="deal")

    def _verdict(
        self, outcome: Outcome, finding: Finding | None, head: str | None = None
    ) -> Verdict:
        table = self.referee.table
        return Verdict(
            outcome,
            game_id=self.game_id,
            finding=finding,
            events=len(self.events),
            head=head,
            tally=self.referee.tally,
            winner=None if table is None else table.winner,
            totals=[] if table is None else list(table.totals),
            explicit_decks=len(self.referee.explicit),
            hand_chain=self.referee.chain is not None,
        )


_EVENT_FIELDS: dict[str, type | tuple[type, ...]] = {
    "version": int,
    "type": str,
    "at": str,
    "data": Mapping,
    "previous_hash": str,
    "hash": str,
}


def _well_formed(event: Mapping[str, Any]) -> bool:
    return all(isinstance(event.get(name), kind) for name, kind in _EVENT_FIELDS.items()) and (
        event.get("seat") is None or isinstance(event.get("seat"), int)
    )
