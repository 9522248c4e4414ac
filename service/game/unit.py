"""The unit of work of every game command, and the games cache it keeps.

A command (`UnitOfWork._command`) takes a copy of the game, lets the use case
change it (the aggregate checks and records), and saves, all or nothing; a
write that lost the race to another writer is run again on the game as stored.
Queries read the game through `_current` (the latest) or `_load` (any version).

The games cache (the library's, up to `AGGREGATE_CACHE_MAXSIZE` games) is
copy-on-write: a cached game is never changed, so readers share it without a
copy. A query first reads any events stored since (by this process or
another), and caches the newer game it makes; on SQLite it first asks,
cheaply, whether there are any (service/store/freshness.py). A command does
not read: it acts on a copy of the cached game and lets the save tell
whether that was the latest (versions are unique in the store). Whatever a command decided on a
copy that may be stale, a refusal or a lost race, is decided again on the
game as stored; only then does it stand.

Every command stamps its events with an id of its own (`command_id`). When a
save fails because the store already holds those versions, the unit reads the
first of them: if it carries the command's id, an earlier try of this very
save was committed and only the store's reply was lost (the driver then
retried it); the save stands and the command answers with its outcome,
instead of deciding it again on a game it has already changed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from copy import deepcopy
from functools import partial
from typing import Any, ClassVar, Protocol, TypeVar, cast
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, ProcessingEvent
from eventsourcing.persistence import IntegrityError, Recording

from service.game.aggregate import Game
from service.game.errors import GameNotFound, WriteConflict
from service.game.event_records import GameCreated, GameEvent
from service.game.fast_project import project_game
from service.game.fast_save import SavesGamesDirectly
from service.game.tokens import new_command_id
from service.game.topics import register_moved_topics
from service.store.freshness import freshness_for

# Before any game is read: stored games name their classes by topic.
register_moved_topics()

WRITE_ATTEMPTS = 5
"""How often a command is tried, the first time on the cached game and then on
the game as stored, before it gives up with `WriteConflict`."""

T = TypeVar("T")


class SaveObserver(Protocol):
    """Told in this process of what it saved and of writes that lost a race."""

    def saved(self, events: Sequence[Any]) -> None: ...

    def write_conflict(self) -> None: ...


class UnitOfWork(SavesGamesDirectly):
    """The library's application, with this service's way of reading and changing
    games: `_current` and `_load` read one, `_command` changes one, `_saved` saves
    a new one, `writing` remembers whether the store takes writes. The use cases
    (`service.game.application`) are written on these alone."""

    env: ClassVar[dict[str, str]] = {"AGGREGATE_CACHE_MAXSIZE": "1000"}

    def __init__(self, env: Mapping[str, str] | None, observers: Sequence[SaveObserver]):
        # The library's fast-forward changes a cached game in place, under
        # readers that share it: this class brings copies up to date instead.
        super().__init__({**(env or {}), "AGGREGATE_CACHE_FASTFORWARD": "n"})
        if self.repository.fastforward:
            raise ValueError(
                "RummyApplication keeps its cache current itself: unset "
                "RUMMY_AGGREGATE_CACHE_FASTFORWARD."
            )
        self.observers: tuple[SaveObserver, ...] = tuple(observers)
        """Metrics and live streams, told of every save of this process."""
        self.write_failure: Exception | None = None
        """Why the last write failed, until one succeeds (`writing`; /ready's
        `StoreHealth.check_writes` probes it)."""
        self._caching = threading.Lock()
        self._freshness = freshness_for(
            self.env, getattr(self.recorder, "select_events_statement", None)
        )
        """The store's cheap "changed since?" where it has one (service/store/freshness.py)."""

    def close(self) -> None:
        if self._freshness is not None:
            self._freshness.close()
        super().close()

    def _command(self, game_id: UUID, command: Callable[[Game], T], doing: str) -> T:
        """Run `command` on a copy of the game and save what it records, all or nothing.

        The first try acts on the cached game without asking the store. If that
        copy was stale, its save loses to the newer events (or its refusal may be
        wrong): the command is run again on the game as stored.
        """
        command_id = new_command_id()
        game, stored = self._copy_for_command(game_id, command_id)
        for _ in range(WRITE_ATTEMPTS):
            try:
                outcome = command(game)
            except Exception:
                if stored:
                    raise
            else:
                if not game.pending_events or self._saved(game):
                    return outcome
            game, stored = self._copy_for_command(game_id, command_id, stored_only=True)
        raise WriteConflict(f"The game changed too often while {doing}: try again.")

    def _copy_for_command(
        self, game_id: UUID, command_id: str, *, stored_only: bool = False
    ) -> tuple[Game, bool]:
        """A copy of the game for command `command_id` to change (the cached one
        unless `stored_only`), and whether it was just read from the store."""
        cached = None if stored_only else self._cached(game_id)
        copy = deepcopy(cached if cached is not None else self._current(game_id))
        copy.command_id = command_id
        return copy, cached is None

    def _current(self, game_id: UUID) -> Game:
        """The game as stored now. Shared with the cache: read it, never change it."""
        cached = self._cached(game_id)
        if cached is None:
            game = self._load(game_id)
        else:
            fresh = self._freshness
            if fresh is not None and not fresh.newer(game_id, cached.version):
                return cached
            newer = cast(list[GameEvent], list(self.events.get(game_id, gt=cached.version)))
            if not newer:
                return cached
            game = cast(Game, project_game(deepcopy(cached), newer))
        self._cache(game)
        return game

    def _cached(self, game_id: UUID) -> Game | None:
        cache = self.repository.cache
        if cache is None:
            return None
        try:
            return cast(Game, cache.get(game_id))
        except KeyError:
            return None

    def _cache(self, game: Game) -> None:
        """Keep `game` (no longer to be changed) unless a newer version is cached."""
        cache = self.repository.cache
        if cache is None:
            return
        with self._caching:
            cached = self._cached(game.id)
            if cached is None or cached.version < game.version:
                cache.put(game.id, game)

    def _load(self, game_id: UUID, version: int | None = None) -> Game:
        """The game rebuilt from the store, at `version` or the latest."""
        if version is None:
            # Not through the repository: it would answer from the cache.
            events = cast(Iterable[GameEvent], self.events.get(game_id))
            game = project_game(None, events)
        else:
            try:
                game = self.repository.get(game_id, version=version, projector_func=project_game)
            except AggregateNotFoundError:
                raise GameNotFound(f"There is no game {game_id}.") from None
        if game is None:
            raise GameNotFound(f"There is no game {game_id}.")
        return game

    def _saved(self, game: Game) -> bool:
        """Save (the library then caches `game`); False if the store holds this
        version already from another command (the copy was stale, or another
        writer got there first)."""
        pending = cast(list[GameEvent | GameCreated], list(game.pending_events))
        try:
            self.save(game)
        except IntegrityError:
            if self._stored_already(pending):
                # This save's own earlier try, whose reply was lost: it stands.
                self._cache(game)
                for observer in self.observers:
                    observer.saved(pending)
                return True
            for observer in self.observers:
                observer.write_conflict()
            return False
        return True

    def _stored_already(self, pending: Sequence[GameEvent | GameCreated]) -> bool:
        """True if the store holds the first of `pending` as this command wrote it."""
        first = pending[0]
        at = first.originator_version
        stored = self.events.get(first.originator_id, gt=at - 1, lte=at)
        return any(
            cast(GameEvent | GameCreated, event).command_id == first.command_id for event in stored
        )

    def writing(self, write: Callable[[], T]) -> T:
        """Run `write`, remembering whether the store took it."""
        try:
            done = write()
        except IntegrityError:
            raise  # the store works: it refused a duplicate
        except Exception as error:
            self.write_failure = error
            raise
        self.write_failure = None
        return done

    def _record(self, processing_event: ProcessingEvent[UUID]) -> list[Recording[UUID]]:
        # The library's hook that writes every save.
        return self.writing(partial(super()._record, processing_event))

    def _notify(self, recordings: list[Recording[UUID]]) -> None:
        # The library's hook after every save.
        for observer in self.observers:
            observer.saved([recording.domain_event for recording in recordings])
