"""The bodies of players' standings (routes/standings.py, docs/players.md): a player's
recall, statistics and ratings, and a variant's leaderboard.

Names and shapes: docs/players.md, "Recall, statistics, ratings and leaderboards".
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec


class GameResult(msgspec.Struct, kw_only=True):
    """A finished game's result for the seat: its finishing place (1 the winner; tied
    seats share the mean of their places), its final total, and whether it won."""

    place: float
    points: int
    won: bool


class RecalledGame(msgspec.Struct, kw_only=True):
    game_id: UUID
    variant: str
    rules: dict[str, Any]
    status: str
    """`playing`, `finished` or `aborted` (more may come)."""
    seat: int
    """The player's seat."""
    result: GameResult | None
    """None until the game is finished (and for an aborted game)."""
    finished_at: datetime | None
    replay_url: str
    """The web client's replay of the game from the player's seat (anyone may watch
    any seat of a finished game)."""
    export_url: str
    """The game's public audit export (its events, checkable with `rummy verify`)."""


class RecallPage(msgspec.Struct, kw_only=True):
    games: list[RecalledGame]
    cursor: str | None
    """Pass as `cursor` for the next page; null on the last."""


class PlayerRating(msgspec.Struct, kw_only=True):
    variant: str
    format: str | None
    """Indian Rummy's format, else null."""
    rating: float
    deviation: float
    volatility: float | None
    """Glicko-2's volatility (null where a method has none)."""
    provisional: bool
    """While the deviation is above 110."""
    games: int
    """Rated games played."""


class PlayerRatings(msgspec.Struct, kw_only=True):
    ratings: list[PlayerRating]


class LeaderboardEntry(msgspec.Struct, kw_only=True):
    rank: int
    player: str
    """`<platform_id>:<player>`."""
    name: str
    rating: float
    deviation: float
    games: int


class Leaderboard(msgspec.Struct, kw_only=True):
    entries: list[LeaderboardEntry]
    cursor: str | None


class VariantStats(msgspec.Struct, kw_only=True):
    variant: str
    format: str | None
    games: int
    """Finished games."""
    wins: int
    mean_place: float | None
    """Mean finishing place over finished games (1 the winner)."""
    mean_points: float | None
    """Mean final total, in the variant's own points (penalties in Indian Rummy)."""
    current_streak: int
    """Wins in a row up to the latest finished game."""
    best_streak: int
    aborted: int
    playing: int


class PlayerStats(msgspec.Struct, kw_only=True):
    stats: list[VariantStats]
