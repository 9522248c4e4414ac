"""The lobby: the listed games that have open seats, kept beside the events.

What it holds: one row per game that is waiting for players and was not
created unlisted: its variant, its rules as views show them, its seats (each
seat's name and bot, or None while open), and when it was created. Nothing
private is ever copied into it (no token hash, client seed, seed or deck):
what is not in the table cannot leak from it.

How it is kept, and who catches it up: service/store/lobby_store.py.

The order and the cursor: newest first, by (created_at, game_id), a total
order that never changes for a game. A page's cursor is the key of its last
game, and the next page holds the games strictly after it in that order. A
game created while a client pages is newer than the first page's first game,
so it never shows up on the pages that follow (it is on a new first page):
no game already listed comes again, and none that existed when paging began
is skipped, unless it left the lobby meanwhile (its last seat filled).
`created_at` is the creation event's timestamp, in microseconds.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

from service.domain.rules import RuleSet
from service.game.event_records import GameAborted, GameCreated, PlayerJoined

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


class BadCursor(ValueError):
    """A cursor this service did not make."""


CURSOR_PATTERN = r"^[0-9]{1,18}\.[0-9a-f]{32}$"
"""Every cursor, and only cursors, match it: the OpenAPI document says it, so a
request that matches the document is never refused for its cursor. Clients treat
a cursor as opaque all the same (its form may change)."""
_CURSOR = re.compile(CURSOR_PATTERN)


@dataclass(frozen=True, slots=True)
class Cursor:
    """A place in the lobby's order: the key of the last game of a page."""

    created_at: int
    game_id: UUID

    def encode(self) -> str:
        return f"{self.created_at}.{self.game_id.hex}"

    @classmethod
    def decode(cls, text: str) -> Cursor:
        if not _CURSOR.fullmatch(text):
            raise BadCursor(f"{text!r} is not a cursor of this lobby.")
        micros, _, game = text.partition(".")
        return cls(int(micros), UUID(hex=game))


@dataclass(frozen=True, slots=True)
class LobbySeat:
    name: str
    bot: str | None = None
    player: str | None = None
    """The pseudonym of a player a platform vouched for (its `name` is then `""`): the
    lobby's page shows the name its players' tables keep (service/players/)."""


@dataclass(frozen=True, slots=True)
class OpenGame:
    """A listed game with open seats, as the lobby keeps it."""

    game_id: UUID
    variant: str
    rules: Mapping[str, Any]
    """As views show them (`RuleSet.shown`)."""
    players: tuple[LobbySeat | None, ...]
    """Seat by seat: who sits there, or None while open."""
    created_at: int
    """Microseconds since the Unix epoch (UTC)."""

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def seats_taken(self) -> int:
        return sum(seat is not None for seat in self.players)

    @property
    def open_seats(self) -> int:
        return self.seats - self.seats_taken

    @property
    def created(self) -> datetime:
        return _EPOCH + self.created_at * _MICROSECOND

    @property
    def cursor(self) -> Cursor:
        return Cursor(self.created_at, self.game_id)

    def columns(self) -> tuple[Any, ...]:
        """The stored columns after `game_id`, in the tables' order (`_COLUMNS`)."""
        return (
            self.variant,
            json.dumps(self.rules),
            self.players_json(),
            self.seats,
            self.open_seats,
            self.created_at,
        )

    def players_json(self) -> str:
        return json.dumps(
            [
                None
                if seat is None
                else [seat.name, seat.bot] + ([] if seat.player is None else [seat.player])
                for seat in self.players
            ]
        )

    @staticmethod
    def players_from_plain(plain: list[Any]) -> tuple[LobbySeat | None, ...]:
        """The inverse of `players_json`, once parsed."""
        return tuple(None if seat is None else LobbySeat(*seat) for seat in plain)


@dataclass(frozen=True, slots=True)
class LobbyQuery:
    """Which listed games to show: `limit` of them after `after`, filtered."""

    limit: int = 20
    after: Cursor | None = None
    variant: str | None = None
    players: int | None = None
    """Only games of this many seats."""
    min_open: int = 1
    """Only games with at least this many open seats."""


@dataclass(frozen=True, slots=True)
class LobbyPage:
    games: tuple[OpenGame, ...]
    next: Cursor | None
    """Where the next page starts; None when this page reached the end."""


Changes = dict[UUID, OpenGame | None]
"""What a batch of events does to the rows: each game's new row, or None (gone)."""


def fold(rows: Mapping[UUID, OpenGame], events: Iterable[Any]) -> Changes:
    """What `events` (creations, joins and aborts, in feed order) do to the rows they touch;
    `rows` holds the current row of every game they join that has one."""
    changes: Changes = {}
    for event in events:
        game_id = event.originator_id
        if isinstance(event, GameCreated):
            created = _open_game(event)
            if created is not None:
                changes[game_id] = created
            continue
        row = changes.get(game_id, rows.get(game_id))
        if row is not None and isinstance(event, GameAborted):
            changes[game_id] = None  # over: no seat to take
            continue
        if row is None or not isinstance(event, PlayerJoined):
            continue  # unlisted, full from the start, or an event of no concern
        players = list(row.players)
        joined_as: Any = event  # a join's details are in its state (events.SEAT_DETAILS)
        players[joined_as.seat] = LobbySeat(
            joined_as.name, joined_as.bot, getattr(joined_as, "player", None)
        )
        joined = replace(row, players=tuple(players))
        changes[game_id] = joined if joined.open_seats > 0 else None
    return changes


def _open_game(created: GameCreated) -> OpenGame | None:
    """The row of a new game, or None if it is not listed (unlisted, or no seat open)."""
    if created.unlisted or all(seat is not None for seat in created.seats):
        return None
    rules = RuleSet.from_dict(created.rules)
    return OpenGame(
        game_id=created.originator_id,
        variant=rules.variant.value,
        rules=rules.shown(),
        players=tuple(
            None if seat is None else LobbySeat(seat["name"], seat["bot"], seat.get("player"))
            for seat in created.seats
        ),
        created_at=(created.timestamp - _EPOCH) // _MICROSECOND,
    )
