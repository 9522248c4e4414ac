"""What the application's commands and queries answer: frozen values that share
nothing a reader could change for anyone else."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING
from uuid import UUID

from service.domain.fairness import DealMode
from service.domain.state import Table
from service.game.clock import turn_deadline
from service.game.events import GameEvent
from service.game.tokens import hash_matches, hash_token

if TYPE_CHECKING:
    from service.game.aggregate import Game


@dataclass(frozen=True, slots=True)
class CreateResult:
    """What `create_game` made."""

    game_id: UUID
    tokens: dict[int, str]
    """The bearer token of each seat filled at creation."""
    version: int
    seed_commitment: str
    deal: DealMode


@dataclass(frozen=True, slots=True)
class JoinResult:
    """The seat `join_game` took, and its bearer token."""

    seat: int
    token: str
    version: int


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    bot: str | None
    client_seed: str


@dataclass(frozen=True, slots=True)
class GameState:
    """A game at one version, for the projections, the bots and the API.

    Read it, never change it: `table` is not a copy. It is the game's own `Table`
    (the domain's plain mutable data), and for the latest version that game is
    the cached one, which every reader in the process shares and the next
    command copies. A copy per state would make it private, but costs more than
    it protects: +0.02 ms on a view of 0.33 ms (+6%, bench/asgi.py, 2026-12).
    So every reader is held to it instead: tests/api/test_readers.py reads a
    game every way the service does and checks the cached game is still the
    stored one.
    """

    game_id: UUID
    version: int
    table: Table
    seats: tuple[Seat | None, ...]
    seed_commitment: str
    seed: str
    """Secret until the game is finished: only the audit export may show it."""
    deal: DealMode
    explicit_decks: int
    """How many deck orders the creator gave explicitly."""
    token_hashes: tuple[str | None, ...] = field(repr=False)
    """Only for `seat_of`: never shown to anyone, and kept out of logs and reprs."""
    turn_deadline: datetime | None = None
    """When the seat to act is timed out (service/game/clock.py), or None."""

    @classmethod
    def of(cls, game: Game) -> GameState:
        """`game` as it is now."""
        deadline = turn_deadline(game)
        return cls(
            game_id=game.id,
            version=game.version,
            table=game.table,
            seats=tuple(
                None
                if entry is None
                else Seat(name=entry["name"], bot=entry["bot"], client_seed=entry["client_seed"])
                for entry in game.seats
            ),
            seed_commitment=game.seed_commitment,
            seed=game.seed,
            deal=game.deal,
            explicit_decks=len(game.explicit_decks),
            token_hashes=tuple(
                None if entry is None else entry["token_hash"] for entry in game.seats
            ),
            turn_deadline=None if deadline is None else deadline.at,
        )

    def seat_of(self, token: str) -> int | None:
        """The seat `token` acts for in this game, or None."""
        found: int | None = None
        hashed = hash_token(token)  # once, not once per seat
        for seat, token_hash in enumerate(self.token_hashes):
            # Compare against every seat, so timing says nothing about which matched.
            if token_hash is not None and hash_matches(hashed, token_hash):
                found = seat
        return found


@dataclass(frozen=True, slots=True)
class PlayResult:
    """The seat `play` acted for (as its actor named it) and the game it left."""

    seat: int
    state: GameState


@dataclass(frozen=True, slots=True)
class FeedEntry:
    """One event of the global feed: its position in commit order and its game."""

    position: int
    """Positions only grow, with gaps (on PostgreSQL large ones: `service.game.feed_order`)."""
    game_id: UUID
    event: GameEvent
