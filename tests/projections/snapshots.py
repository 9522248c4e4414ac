"""Games as the projections read them (`GameSnapshot`), built from a domain table.

A test lays out its table with tests/domain/tables.py (explicit hands, upcard
and stock) and plays it with the domain; `snapshot` hands that table to the
projections as the application would, with the seats' names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from service.domain.fairness import DealMode
from service.domain.hand_chain import SeedScheme
from service.domain.state import Table

GAME_ID = UUID(int=7)


@dataclass(frozen=True)
class Seat:
    name: str
    bot: str | None = None
    pseudonym: str | None = None


@dataclass
class Snapshot:
    """A table as the projections read a game (a `GameSnapshot`)."""

    table: Table
    seats: tuple[Seat | None, ...]
    game_id: UUID = GAME_ID
    version: int = 1
    seed_commitment: str = ""
    deal_mode: DealMode = DealMode.COMMIT_REVEAL
    turn_deadline: datetime | None = None
    seed_scheme: SeedScheme = SeedScheme.HAND_CHAIN
    rules_digest: str = ""
    hand_seeds: tuple[str, ...] = ()


def snapshot(table: Table, names: Sequence[str | None], version: int = 1) -> Snapshot:
    """`table` with a seat named for each name (None: an open seat)."""
    return Snapshot(
        table=table,
        seats=tuple(None if name is None else Seat(name) for name in names),
        version=version,
        seed_commitment="c0ffee",
    )
