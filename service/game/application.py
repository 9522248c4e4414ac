"""The application: the commands and queries of the game service.

Commands take a copy of the game, let the aggregate check and record, and
save; a write that lost the race to another writer is checked again on the
game as stored. Queries return `GameState` snapshots, never a live aggregate.

The games cache (the library's, up to `AGGREGATE_CACHE_MAXSIZE` games) is
copy-on-write: a cached game is never changed, so readers share it without a
copy. A query first reads any events stored since (by this process or
another), and caches the newer game it makes. A command does not read: it
acts on a copy of the cached game and lets the save tell whether that was the
latest (versions are unique in the store). Whatever a command decided on a
copy that may be stale, a refusal or a lost race, is decided again on the
game as stored; only then does it stand.

Every command stamps its events with an id of its own (`command_id`). When a
save fails because the store already holds those versions, the application
reads the first of them: if it carries the command's id, an earlier try of
this very save was committed and only the store's reply was lost (the
driver then retried it); the save stands and the command answers with its
outcome, instead of deciding it again on a game it has already changed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar, Protocol, TypeVar, cast
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.persistence import ApplicationRecorder, IntegrityError, Recording, Subscription

from service.domain.actions import Action
from service.domain.cards import Card
from service.domain.errors import IllegalMove, InvalidSeating
from service.domain.fairness import DealMode
from service.domain.rules import RuleSet
from service.domain.setup import check_new_game
from service.domain.state import Table
from service.game.aggregate import Game, Request, SeatEntry
from service.game.errors import (
    ExplicitDealForbidden,
    GameNotFound,
    IdempotencyKeyReused,
    VersionConflict,
    VersionNotFound,
    WriteConflict,
)
from service.game.events import GameCreated, GameEvent
from service.game.probe import probe_write
from service.game.refusals import RefusalLog, RefusedBefore, RefusedNow
from service.game.tokens import (
    hash_token,
    new_command_id,
    new_seed,
    new_token,
    token_matches,
)
from service.game.topics import register_moved_topics

# Before any game is read: stored games name their classes by topic.
register_moved_topics()

WRITE_ATTEMPTS = 5
"""How often a command is tried, the first time on the cached game and then on
the game as stored, before it gives up with `WriteConflict`."""

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class NewSeat:
    name: str
    client_seed: str = ""
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class NewGame:
    """What a creator asks for. A seat that is None stays open for a player to join."""

    seats: Sequence[NewSeat | None]
    rules: RuleSet = field(default_factory=RuleSet)
    seed: str | None = None
    decks: Sequence[Sequence[Card]] = ()
    dealer: int | None = None
    by_admin: bool = False
    """The creator holds the admin token: it may choose the deal with seats open."""


@dataclass(frozen=True, slots=True)
class CreatedGame:
    game_id: UUID
    tokens: dict[int, str]
    """The bearer token of each seat filled at creation."""
    version: int
    seed_commitment: str
    deal: DealMode


@dataclass(frozen=True, slots=True)
class JoinedSeat:
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
    """A game at one version, for the projections. A private copy: safe to read."""

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

    def seat_of(self, token: str) -> int | None:
        """The seat `token` acts for in this game, or None."""
        found: int | None = None
        for seat, token_hash in enumerate(self.token_hashes):
            # Compare against every seat, so timing says nothing about which matched.
            if token_hash is not None and token_matches(token, token_hash):
                found = seat
        return found


@dataclass(frozen=True, slots=True)
class FeedEntry:
    """One event of the global feed: its position in commit order and its game."""

    position: int
    """Positions only grow; they may have gaps (a rolled-back write uses one up)."""
    game_id: UUID
    event: GameEvent


class SaveObserver(Protocol):
    """Told in this process of what it saved and of writes that lost a race."""

    def saved(self, events: Sequence[Any]) -> None: ...

    def write_conflict(self) -> None: ...


class BotPlayers(Protocol):
    """Plays the computer seats (`service.bots.seats.BotSeats`). The application
    asks it; it never imports the strategies, which read projections."""

    def check(self, bots: Sequence[str | None]) -> None:
        """Refuse a seating whose bots cannot play (unknown strategy, no person)."""

    def next_move(self, game: GameState, seed: str) -> tuple[int, Action] | None:
        """The bot seat to move and its action, or None when a person must act."""


class RummyApplication(Application[UUID]):
    """Straight Rummy games on an event store chosen by the environment.

    `bots` plays computer seats; without it, a game may not have any.
    `observers` (metrics, live streams) are told of every save of this process.
    """

    name = "rummy"
    env: ClassVar[dict[str, str]] = {"AGGREGATE_CACHE_MAXSIZE": "1000"}

    def __init__(
        self,
        env: Mapping[str, str] | None = None,
        bots: BotPlayers | None = None,
        observers: Sequence[SaveObserver] = (),
    ):
        # The library's fast-forward changes a cached game in place, under
        # readers that share it: this class brings copies up to date instead.
        super().__init__({**(env or {}), "AGGREGATE_CACHE_FASTFORWARD": "n"})
        if self.repository.fastforward:
            raise ValueError(
                "RummyApplication keeps its cache current itself: unset "
                "RUMMY_AGGREGATE_CACHE_FASTFORWARD."
            )
        self.bots = bots
        self.observers = tuple(observers)
        self._caching = threading.Lock()
        self.refusals = RefusalLog(self.factory.aggregate_recorder(purpose="refusals"))
        self.write_failure: Exception | None = None
        """Why the last write failed, until one succeeds (`check_writes`)."""

    def create_game(self, new: NewGame) -> CreatedGame:
        players = len(new.seats)
        check_new_game(new.rules, players, new.decks, new.dealer)
        self._check_bots([None if wanted is None else wanted.bot for wanted in new.seats])
        _check_deal_choice(new)
        game_id = uuid4()
        tokens: dict[int, str] = {}
        entries: list[SeatEntry | None] = []
        for seat, wanted in enumerate(new.seats):
            if wanted is None:
                entries.append(None)
                continue
            if wanted.bot is not None:
                # Nobody acts for a bot or sees its hand: its token is never handed out.
                entries.append(_entry(wanted, new_token(game_id)))
                continue
            tokens[seat] = new_token(game_id)
            entries.append(_entry(wanted, tokens[seat]))
        game = Game.create(
            game_id=game_id,
            rules=new.rules,
            seats=entries,
            seed=new.seed if new.seed is not None else new_seed(),
            seed_chosen=new.seed is not None,
            command_id=new_command_id(),
            decks=new.decks,
            dealer=new.dealer,
        )
        self._let_bots_play(game)
        if not self._saved(game):
            # A new random id: only this command's own lost write can hold it.
            raise WriteConflict(f"Game {game_id} exists already: try again.")
        return CreatedGame(
            game_id=game.id,
            tokens=tokens,
            version=game.version,
            seed_commitment=game.seed_commitment,
            deal=game.deal,
        )

    def join_game(self, game_id: UUID, wanted: NewSeat) -> JoinedSeat:
        token = new_token(game_id)

        def join(game: Game) -> JoinedSeat:
            seat = game.join(_entry(wanted, token))
            self._let_bots_play(game)
            return JoinedSeat(seat=seat, token=token, version=game.version)

        return self._command(game_id, join, "joining")

    def act(
        self,
        game_id: UUID,
        seat: int,
        actions: Sequence[Action],
        *,
        request: Request | None = None,
        expected_version: int | None = None,
    ) -> int:
        """Play `actions` for `seat`, all or nothing; returns the version after them.

        A request seen before returns the version its first run left and
        applies nothing again; one refused before is refused again alike.
        """
        return self.play(
            game_id, seat, actions, request=request, expected_version=expected_version
        ).version

    def play(
        self,
        game_id: UUID,
        seat: int,
        actions: Sequence[Action],
        *,
        request: Request | None = None,
        expected_version: int | None = None,
    ) -> GameState:
        """As `act`, returning the game as the actions left it."""
        idempotency = None if request is None else (request.key, request.digest)
        _, state = self.play_as(
            game_id,
            lambda _: seat,
            actions,
            idempotency=idempotency,
            expected_version=expected_version,
        )
        return state

    def play_as(
        self,
        game_id: UUID,
        identify: Callable[[GameState], int],
        actions: Sequence[Action],
        *,
        idempotency: tuple[str, str] | None = None,
        expected_version: int | None = None,
    ) -> tuple[int, GameState]:
        """Play `actions` for the seat `identify` names on the game as loaded (so a
        caller that authenticates against the game loads it once); returns that
        seat and the game as the actions left it. `idempotency` is the client's
        (key, body digest)."""

        def act(game: Game) -> tuple[int, GameState]:
            seat = identify(_state(game))
            request = None if idempotency is None else Request(seat, *idempotency)
            if request is not None:
                earlier = self._earlier_outcome(game, request)
                if earlier is not None:
                    return seat, earlier
            if expected_version is not None and game.version != expected_version:
                raise VersionConflict(
                    f"The game is at version {game.version}, not {expected_version}."
                )
            try:
                game.act(seat, actions, request)
            except IllegalMove as refused:
                if request is None:
                    raise
                raise RefusedNow(request, refused) from refused
            self._let_bots_play(game, request)
            return seat, _state(game)

        try:
            return self._command(game_id, act, "acting")
        except RefusedBefore as before:
            raise before.answer from None
        except RefusedNow as now:
            # Decided on the game as stored: this refusal is the request's outcome.
            kept = self._writing(partial(self.refusals.keep, game_id, now.request, now.error))
            raise kept.answer(now.request) from None

    def _earlier_outcome(self, game: Game, request: Request) -> GameState | None:
        """The game as `request` left it if it was applied before, or None if it is
        new; raises `RefusedBefore` if it was refused before."""
        applied = game.applied_request(request)
        if applied is not None:
            digest, version = applied
            if digest != request.digest:
                raise IdempotencyKeyReused.for_key(request.key)
            return self.state(game.id, version)
        refusal = self.refusals.find(game.id, request)
        if refusal is not None:
            raise RefusedBefore(refusal.answer(request))
        return None

    def state(self, game_id: UUID, version: int | None = None) -> GameState:
        """The game now, or as it was at `version`."""
        if version is None:
            return _state(self._current(game_id))
        # Version 0 or less would load no event at all, which reads as "no such game".
        game = self._load(game_id, None if version < 1 else version)
        if game.version != version:
            raise VersionNotFound(
                f"Game {game_id} has versions 1 to {game.version}, not {version}."
            )
        return _state(game)

    def events_after(
        self, game_id: UUID, after: int = 0, limit: int | None = None
    ) -> list[GameEvent]:
        """The game's stored events after version `after`, oldest first."""
        found = cast(list[GameEvent], list(self.events.get(game_id, gt=after, limit=limit)))
        if not found and not list(self.events.get(game_id, desc=True, limit=1)):
            raise GameNotFound(f"There is no game {game_id}.")
        return found

    def cached_version(self, game_id: UUID) -> int | None:
        """The version of the game this process holds, None if it would be rebuilt from
        the store (a cost that grows with the game). The store may be newer."""
        cached = self._cached(game_id)
        return None if cached is None else cached.version

    def seat_of(self, game_id: UUID, token: str) -> int | None:
        """The seat `token` acts for in this game, or None."""
        return self.state(game_id).seat_of(token)

    def feed(self, after: int = 0, limit: int = 100) -> list[FeedEntry]:
        """Every game's events after position `after`, in commit order. Page with the
        last position seen: positions have gaps, so never count them."""
        notifications = self.recorder.select_notifications(
            start=after, limit=limit, inclusive_of_start=False
        )
        return [
            FeedEntry(
                position=notification.id,
                game_id=UUID(str(notification.originator_id)),
                event=cast(GameEvent, self.mapper.to_domain_event(notification)),
            )
            for notification in notifications
        ]

    def last_position(self) -> int:
        """The position of the latest event of any game (0 before the first)."""
        return self.recorder.max_notification_id() or 0

    def subscribe(self, after: int) -> Subscription[ApplicationRecorder] | None:
        """Every game's events after position `after` as they are committed by any
        replica (LISTEN/NOTIFY on PostgreSQL), or None where the store cannot tell
        (SQLite: poll `feed`). Iterating blocks; `stop()` ends it."""
        try:
            return self.recorder.subscribe(gt=after)
        except NotImplementedError:
            return None

    def _check_bots(self, bots: Sequence[str | None]) -> None:
        if self.bots is not None:
            self.bots.check(bots)
        elif any(name is not None for name in bots):
            raise InvalidSeating("This service has no computer players: every seat needs a person.")

    def _let_bots_play(self, game: Game, request: Request | None = None) -> None:
        """Play the bot seats' turns until a person must act, as part of the command
        that led to them (and of its idempotent request, so a retry answers with the
        bots' replies too)."""
        if self.bots is None:
            return
        while (move := self.bots.next_move(_state(game), game.seed)) is not None:
            seat, action = move
            game.act(seat, [action], request)

    def check_store(self) -> None:
        """Ask the event store something; raises whatever its driver raises."""
        self.recorder.max_notification_id()

    def check_writes(self) -> None:
        """If a write failed since the last one that succeeded, try a test write
        (`service.game.probe`): raises whatever the driver raises while the store
        cannot write, and clears the failure once it can."""
        if self.write_failure is not None:
            self._writing(partial(probe_write, self.recorder))

    def _writing(self, write: Callable[[], T]) -> T:
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
            newer = cast(list[GameEvent], list(self.events.get(game_id, gt=cached.version)))
            if not newer:
                return cached
            game = cast(Game, _project_game(deepcopy(cached), newer))
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
            game = _project_game(None, events)
        else:
            try:
                game = self.repository.get(game_id, version=version, projector_func=_project_game)
            except AggregateNotFoundError:
                game = None
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

    def _record(self, processing_event: ProcessingEvent[UUID]) -> list[Recording[UUID]]:
        # The library's hook that writes every save.
        return self._writing(partial(super()._record, processing_event))

    def _notify(self, recordings: list[Recording[UUID]]) -> None:
        # The library's hook after every save.
        for observer in self.observers:
            observer.saved([recording.domain_event for recording in recordings])


def _project_game(game: Game | None, events: Iterable[GameEvent]) -> Game | None:
    # The library's projector asserts a runtime-checkable Protocol on every
    # event, which costs more than applying the event: our events are ours.
    for event in events:
        game = event.mutate(game)
    return game


def _check_deal_choice(new: NewGame) -> None:
    """Who may choose the deal (API.md "Fairness"): the admin, or a creator who
    fills every seat, so no stranger joins a game whose cards someone knows."""
    chosen = " and ".join(
        f"`{name}`"
        for name, given in (("seed", new.seed is not None), ("decks", new.decks))
        if given
    )
    open_seats = [str(seat) for seat, wanted in enumerate(new.seats) if wanted is None]
    if chosen and open_seats and not new.by_admin:
        plural = len(open_seats) > 1
        seats = f"Seat{'s' * plural} {', '.join(open_seats)} {'are' if plural else 'is'}"
        raise ExplicitDealForbidden(
            f"{seats} open for anyone to join, so only the admin token may choose this "
            f"game's deal ({chosen}): a stranger would play cards its creator can know. Name "
            f"a player or bot for every seat, send the admin token, or leave out {chosen} "
            f"so the server commits to a seed of its own."
        )


def _entry(wanted: NewSeat, token: str) -> SeatEntry:
    return SeatEntry(
        name=wanted.name,
        token_hash=hash_token(token),
        client_seed=wanted.client_seed,
        bot=wanted.bot,
    )


def _state(game: Game) -> GameState:
    return GameState(
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
        token_hashes=tuple(None if entry is None else entry["token_hash"] for entry in game.seats),
    )
