"""What the application's commands and queries answer: frozen values that share
nothing a reader could change for anyone else."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING
from uuid import UUID

from service.domain.fairness import DealMode
from service.domain.hand_chain import SeedScheme
from service.domain.state import Table
from service.game.clock import turn_deadline
from service.game.event_records import GameEvent
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
    deal_mode: DealMode


@dataclass(frozen=True, slots=True)
class JoinResult:
    """The seat `join_game` took, and its bearer token."""

    seat: int
    token: str
    version: int


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    """As stored: `""` for a seat a platform vouched for, until `player` is shown."""
    bot: str | None
    client_seed: str
    pseudonym: str | None = None
    """The vouched-for player's pseudonym as the events hold it (service/players/), or
    None for an anonymous seat. Never shown."""
    player: str | None = None
    """`platform:player` once the API has looked the pseudonym up (with `name` then the
    asserted one, or None and `erased`: service/api/players.py); None until then, so a
    view made without the lookup shows nobody rather than a pseudonym."""


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
    deal_mode: DealMode
    explicit_decks: int
    """How many deck orders the creator gave explicitly."""
    token_hashes: tuple[str | None, ...] = field(repr=False)
    """Only for `seat_of`: never shown to anyone, and kept out of logs and reprs."""
    turn_deadline: datetime | None = None
    """When the seat to act is timed out (service/game/clock.py), or None."""
    seed_scheme: SeedScheme = SeedScheme.GAME
    rules_digest: str = ""
    hand_seeds: tuple[str, ...] = ()
    """`hand_chain`: the seeds revealed so far (every ended hand's; once the game is
    over, every dealt hand's). Empty for `game` games."""

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
                else Seat(
                    name=entry["name"],
                    bot=entry["bot"],
                    client_seed=entry["client_seed"],
                    pseudonym=entry.get("player"),
                )
                for entry in game.seats
            ),
            seed_commitment=game.seed_commitment,
            seed=game.seed,
            deal_mode=game.deal_mode,
            explicit_decks=len(game.explicit_decks),
            token_hashes=tuple(
                None if entry is None else entry["token_hash"] for entry in game.seats
            ),
            turn_deadline=None if deadline is None else deadline.at,
            seed_scheme=game.seed_scheme,
            rules_digest=game.rules_digest,
            hand_seeds=tuple(game.revealed_hand_seeds()),
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


class KeptStates:
    """`GameState.of(game)`, made once per cached game: every GET of a game that has
    not moved asked for the same one (3% of a view GET's CPU under cProfile), and
    a seat's request made it for its answer. A state is kept only with the very
    table it was made of, at its version: a cached game never changes
    (service/game/unit.py), a command's copy changes only its version's
    successors, and a newer or rebuilt game has a table of its own."""

    MOST = 4096
    """The most games whose `GameState` is kept."""

    def __init__(self) -> None:
        self._states: dict[UUID, GameState] = {}

    def of(self, game: Game) -> GameState:
        """The state of `game`, the kept one if it was made of this very table."""
        known = self._states.get(game.id)
        if known is not None and known.table is game.table and known.version == game.version:
            return known
        if len(self._states) >= self.MOST:
            self._states.clear()  # at most one state each to make again
        made = self._states[game.id] = GameState.of(game)
        return made


@dataclass(frozen=True, slots=True)
class PlayResult:
    """The seat `play` acted for (as its actor named it) and the game it left."""

    seat: int
    state: GameState


@dataclass(frozen=True, slots=True)
class FeedEntry:
    """One event of the global feed: its position in commit order and its game."""

    position: int
    """Positions only grow, with gaps (on PostgreSQL large ones: `service.store.feed_order`)."""
    game_id: UUID
    event: GameEvent
