"""The live chain heads: the salted head after each event, as every served event's
`chain` shows it (docs/fairness.md, "Live chain heads").

The head after an event is the audit export's `hash` of that event (the hash
chain over the stored events, service/audit/chain.py), salted with the game's
chain salt: `salted_head(chain_salt(seed), hash)`. Being the export's chain, it
covers what was stored, never what a view shows, so a view's later change (an
erased player's name) never moves it.

Kept cheap: a command never hashes (its answer is a view); the heads are made
when events are served, each event hashed once per process. `ChainHeads` keeps,
per game, the chain's last `RECENT` hashes it made and one every `MARK_EVERY`
versions, so the head before any page is at most `MARK_EVERY - 1` events away;
a game it does not hold yet (this process's first look, or a game stored before
heads existed, which are made the same way) is hashed once from its creation.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol
from uuid import UUID

from service.audit.chain import chain_salt, event_hash, genesis, salted_head
from service.projections.audit_export import exported_event
from service.projections.event_views import StoredEvent

MARK_EVERY = 128
"""A game's chain hash is kept at every multiple of this version: a page's head is
found from at most this many events of the store."""

MOST_GAMES = 10_000
"""Games whose heads are kept (about 2.5 KB each with their `RECENT` hashes, plus
~150 bytes a mark every `MARK_EVERY` events: 25 MB at most for games of a few
hundred events); the least recently used go first."""

RECENT = 16
"""A game's latest hashes kept besides its marks (a move stores a few events: a stream
a few moves behind a page still heads its deliveries from memory)."""

READ_PAGE = 1000
"""Events read from the store at a time to reach a head."""


class GameEvents(Protocol):
    """Where a game's stored events are read from (the application)."""

    def events_after(
        self, game_id: UUID, after: int = 0, limit: int | None = None
    ) -> Sequence[StoredEvent]: ...


@dataclass(slots=True)
class _Game:
    salt: str
    marks: dict[int, str] = field(default_factory=dict)
    """The chain's hash at versions that are multiples of `MARK_EVERY` (and 0)."""
    last: tuple[int, str] = (0, "")
    """The last version hashed and its hash."""
    recent: dict[int, str] = field(default_factory=dict)
    """The hashes of the last `RECENT` versions hashed: a stream's delivery finds the head
    before it here even when a page has hashed past it meanwhile."""


class ChainHeads:
    """The salted heads of the events served, per game, made once per process."""

    def __init__(self, most_games: int = MOST_GAMES) -> None:
        self._most = most_games
        self._lock = threading.Lock()
        self._games: OrderedDict[UUID, _Game] = OrderedDict()

    def after(self, games: GameEvents, game_id: UUID, events: Sequence[StoredEvent]) -> list[str]:
        """The salted head after each of `events` (consecutive versions of `game_id`,
        oldest first), reading from `games` what it does not hold: the head before the
        first of them."""
        if not events:
            return []
        first = events[0].originator_version
        kept = self._found(game_id, first - 1)
        if kept is None:
            kept = self._reach(games, game_id, first - 1, events[0])
        return self._extend(game_id, kept, events)

    def known_after(self, game_id: UUID, events: Sequence[StoredEvent]) -> list[str] | None:
        """As `after`, without reading the store: None when the head before the first of
        `events` is not held (the caller then reads, off the event loop)."""
        if not events:
            return []
        kept = self._found(game_id, events[0].originator_version - 1)
        if kept is None and events[0].originator_version == 1:
            kept = self._created(game_id, events[0])
        return None if kept is None else self._extend(game_id, kept, events)

    # --- how ------------------------------------------------------------------------

    def _found(self, game_id: UUID, version: int) -> tuple[_Game, str] | None:
        """The game and its chain's hash at `version`, if held."""
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                return None
            self._games.move_to_end(game_id)
            if game.last[0] == version:
                return game, game.last[1]
            found = game.marks.get(version) or game.recent.get(version)
            return None if found is None else (game, found)

    def _created(self, game_id: UUID, created: StoredEvent) -> tuple[_Game, str]:
        start = genesis(str(game_id))
        game = _Game(salt=chain_salt(created.data()["seed"]), marks={0: start}, last=(0, start))
        return game, start

    def _reach(
        self, games: GameEvents, game_id: UUID, version: int, first: StoredEvent
    ) -> tuple[_Game, str]:
        """The chain's hash at `version`, from the nearest mark held (or the creation)."""
        with self._lock:
            game = self._games.get(game_id)
            start, found = 0, None
            if game is not None:
                held = {mark: made for mark, made in game.marks.items() if mark <= version}
                if game.last[0] <= version:
                    held[game.last[0]] = game.last[1]
                start = max(held)  # the creation's mark (0) is always held
                found = held[start]
        if game is None or found is None:
            created = (
                first if first.originator_version == 1 else games.events_after(game_id, 0, 1)[0]
            )
            game, found = self._created(game_id, created)
            start = 0
        while start < version:
            page = games.events_after(game_id, start, min(READ_PAGE, version - start))
            if not page:
                raise ValueError(f"game {game_id} has no event after version {start}")
            found = self._hashes(game, found, page)[-1]
            start = page[-1].originator_version
        return game, found

    def _hashes(self, game: _Game, previous: str, events: Sequence[StoredEvent]) -> list[str]:
        """Each event's export `hash` (the unsalted chain), keeping marks and the last."""
        made: list[str] = []
        marks: list[tuple[int, str]] = []
        for event in events:
            linked = exported_event(event, event.data())
            linked["previous_hash"] = previous
            previous = event_hash(linked)
            made.append(previous)
            if event.originator_version % MARK_EVERY == 0:
                marks.append((event.originator_version, previous))
        with self._lock:
            game.marks.update(marks)
            last = events[-1].originator_version
            if last > game.last[0]:
                game.last = (last, previous)
                recent = game.recent
                for event, made_hash in zip(events[-RECENT:], made[-RECENT:], strict=True):
                    recent[event.originator_version] = made_hash
                for version in [v for v in recent if v <= last - RECENT]:
                    del recent[version]
        return made

    def _extend(
        self, game_id: UUID, kept: tuple[_Game, str], events: Sequence[StoredEvent]
    ) -> list[str]:
        game, previous = kept
        hashes = self._hashes(game, previous, events)
        with self._lock:
            self._games[game_id] = game
            self._games.move_to_end(game_id)
            while len(self._games) > self._most:
                self._games.popitem(last=False)
        return [salted_head(game.salt, made) for made in hashes]
