"""The application: the commands and queries of the game service.

Each verb is a use case written on the unit of work (`service.game.unit`):
commands change one game all or nothing (`_command`), queries answer with
`GameState` values (`service.game.results`), never with a live aggregate.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Protocol, cast
from uuid import UUID, uuid4

from eventsourcing.persistence import ApplicationRecorder, StoredEvent, Subscription

from service.domain.actions import Action
from service.domain.errors import IllegalMove, InvalidSeating, SeatLeft
from service.domain.leaving import turn_key, waits_for
from service.domain.setup import check_new_game
from service.domain.state import DealStatus, Phase
from service.game.aggregate import SERVER_BOT, Game, IdempotentRequest, SeatEntry
from service.game.clock import Deadline, turn_deadline
from service.game.commands import Idempotency, NewGame, NewSeat
from service.game.errors import (
    ExplicitDealForbidden,
    GameNotFound,
    IdempotencyKeyReused,
    VersionConflict,
    VersionNotFound,
    WriteConflict,
)
from service.game.events import GameEvent
from service.game.lobby import LobbyPage, LobbyQuery
from service.game.lobby_store import Lobby
from service.game.postgres import read_now
from service.game.probe import probe_write
from service.game.refusals import RefusalLog, RefusedBefore, RefusedNow
from service.game.results import CreateResult, FeedEntry, GameState, JoinResult, PlayResult
from service.game.tickets import StreamTickets
from service.game.tokens import (
    hash_token,
    key_digest,
    keyed_game_id,
    keyed_token,
    new_command_id,
    new_seed,
    new_token,
)
from service.game.unit import SaveObserver, UnitOfWork

Actor = int | Callable[[GameState], int]
"""Who plays: a seat, or a check that names the seat on the game as loaded (the
API's token check: the game is loaded once, and checked as it is acted on)."""


class BotPlayers(Protocol):
    """Plays the computer seats (`service.bots.seats.BotSeats`). The application
    asks it; it never imports the strategies, which read projections."""

    def check(self, bots: Sequence[str | None]) -> None:
        """Refuse a seating whose bots cannot play (unknown strategy, no person)."""

    def next_move(self, game: GameState, seed: str) -> tuple[int, Sequence[Action]] | None:
        """The bot seat to move and its request (one action or several, played all
        or nothing), or None when a person must act."""

    def move_for(self, game: GameState, seat: int, strategy: str, seed: str) -> Sequence[Action]:
        """`strategy`'s request for `seat`, whoever sits there (a seat timed out by its
        clock): a legal request, one action or several."""


Clock = Callable[[], datetime]
"""The time now, in UTC (the turn clocks ask it; tests pass their own)."""


def utc_now() -> datetime:
    return datetime.now(UTC)


_STATES_KEPT = 4096
"""The most games whose `GameState` is kept (`RummyApplication._state_of`)."""


class _Stale(Exception):
    """A cached game older than the version asked about: ask the store."""


class RummyApplication(UnitOfWork):
    """Straight Rummy games on an event store chosen by the environment.

    `bots` plays computer seats; without it, a game may not have any.
    `observers` are told of every save of this process (metrics, live streams).
    """

    name = "rummy"

    def __init__(
        self,
        env: Mapping[str, str] | None = None,
        bots: BotPlayers | None = None,
        observers: Sequence[SaveObserver] = (),
        clock: Clock = utc_now,
    ):
        super().__init__(env, observers)
        self.bots = bots
        self.clock = clock
        """When it is now, for the turn clocks (`time_out`)."""
        self.refusals = RefusalLog(
            self.factory.aggregate_recorder(purpose="refusals"), self._freshness
        )
        self.stream_tickets = StreamTickets(self.recorder)
        """The live streams' tickets, kept beside the events (service.game.tickets)."""
        self.lobby = Lobby(self.recorder, self.mapper)
        """The listed games with open seats, kept beside the events (service.game.lobby_store)."""
        self._states: dict[UUID, GameState] = {}
        """The `GameState` of each cached game a query asked for (see `state`)."""

    def create_game(self, new: NewGame, idempotency: Idempotency | None = None) -> CreateResult:
        """A new game. Created with a key (`idempotency`), its id and its players'
        tokens derive from the key (`service.game.tokens`): the same key and body again
        answer with the game it made, on any replica; another body is refused."""
        game_id, request = uuid4(), None
        if idempotency is not None:
            game_id = keyed_game_id(idempotency.key, new.by_admin)
            request = _seatless(idempotency)
            earlier = self._earlier_creation(game_id, new, idempotency)
            if earlier is not None:
                return earlier
        check_new_game(new.rules, len(new.seats), new.decks, new.dealer)
        self._check_bots([None if wanted is None else wanted.bot for wanted in new.seats])
        _check_deal_choice(new)
        entries, tokens = _seat_entries(game_id, new.seats, idempotency)
        game = Game.create(
            game_id=game_id,
            rules=new.rules,
            seats=entries,
            seed=new.seed if new.seed is not None else new_seed(),
            seed_chosen=new.seed is not None,
            command_id=new_command_id(),
            decks=new.decks,
            dealer=new.dealer,
            request=request,
            unlisted=new.unlisted,
        )
        self._let_bots_play(game, request)
        if not self._saved(game):
            # A random id: only this command's own lost write can hold it. A keyed
            # one: the same key sent to another replica at the same moment.
            if idempotency is not None:
                earlier = self._earlier_creation(game_id, new, idempotency)
                if earlier is not None:
                    return earlier
            raise WriteConflict(f"Game {game_id} exists already: try again.")
        return CreateResult(game.id, tokens, game.version, game.seed_commitment, game.deal)

    def join_game(
        self, game_id: UUID, wanted: NewSeat, idempotency: Idempotency | None = None
    ) -> JoinResult:
        """Seat a player in the first open seat. Joined with a key (`idempotency`), the
        token derives from it: the same key and body again answer with the same seat
        and token, on any replica; another body is refused."""
        if idempotency is None:
            token, request = new_token(game_id), None
        else:
            token, request = keyed_token(game_id, idempotency.key, "join"), _seatless(idempotency)

        def join(game: Game) -> JoinResult:
            if idempotency is not None:
                earlier = _earlier_join(game, token, idempotency)
                if earlier is not None:
                    return earlier
            seat = game.join(_entry(wanted, token), request)
            self._let_bots_play(game, request)
            return JoinResult(seat=seat, token=token, version=game.version)

        return self._command(game_id, join, "joining")

    def play(
        self,
        game_id: UUID,
        actor: Actor,
        actions: Sequence[Action],
        *,
        idempotency: Idempotency | None = None,
        expected_version: int | None = None,
    ) -> PlayResult:
        """Play `actions` for the seat `actor` names, all or nothing, then the bots'
        replies. A request seen before (`idempotency`) answers as its first run did
        and applies nothing again; one refused before is refused again alike."""

        def act(game: Game, seat: int, request: IdempotentRequest | None) -> None:
            if game.table.left[seat]:
                raise SeatLeft(f"Seat {seat}'s player has left this game: it acts no more.")
            game.act(seat, actions, request)

        return self._as_seat(game_id, actor, act, idempotency, expected_version, "acting")

    def _as_seat(
        self,
        game_id: UUID,
        actor: Actor,
        move: Callable[[Game, int, IdempotentRequest | None], None],
        idempotency: Idempotency | None,
        expected_version: int | None,
        doing: str,
    ) -> PlayResult:
        """A seat's request (`play`, `leave`): the seat `actor` names, a repeated
        `idempotency` key answered from its first outcome, `If-Match` checked, then
        `move` on the game and the bots' replies; a refusal of an idempotent request
        kept as its outcome."""

        def command(game: Game) -> PlayResult:
            seat = actor if isinstance(actor, int) else actor(self._state_before(game))
            request = None
            if idempotency is not None:
                request = IdempotentRequest(seat, idempotency.key, idempotency.digest)
                earlier = self._earlier_outcome(game, request)
                if earlier is not None:
                    return PlayResult(seat, earlier)
            _check_version(game, expected_version)
            try:
                move(game, seat, request)
            except IllegalMove as refused:
                if request is None:
                    raise
                raise RefusedNow(request, refused) from refused
            self._let_bots_play(game, request)
            # Kept for the queries: once saved, this game is the cached one.
            return PlayResult(seat, self._state_of(game))

        return self._refusing(game_id, command, doing)

    def _refusing(
        self, game_id: UUID, command: Callable[[Game], PlayResult], doing: str
    ) -> PlayResult:
        """`_command`, keeping a refusal of an idempotent request as its outcome."""
        try:
            return self._command(game_id, command, doing)
        except RefusedBefore as before:
            raise before.answer from None
        except RefusedNow as now:
            # Decided on the game as stored: this refusal is the request's outcome.
            kept = self._writing(partial(self.refusals.keep, game_id, now.request, now.error))
            raise kept.answer(now.request) from None

    def leave(
        self,
        game_id: UUID,
        actor: Actor,
        *,
        resign: bool = False,
        idempotency: Idempotency | None = None,
        expected_version: int | None = None,
    ) -> PlayResult:
        """The seat `actor` names leaves the game (`resign`: concedes it), then the
        bots play on (docs/rules.md "Leaving and turn clocks"). Idempotent and
        conditional as `play` is."""

        def go(game: Game, seat: int, request: IdempotentRequest | None) -> None:
            game.leave(seat, resign=resign, request=request)

        return self._as_seat(game_id, actor, go, idempotency, expected_version, "leaving")

    def time_out(self, game_id: UUID, version: int) -> bool:
        """Fire the turn clock of game `game_id` at `version`: if the game is still at
        that version and its deadline (service/game/clock.py) has passed by `clock`,
        record the timeout and the server bot's move for the seat (in Indian's show,
        for every seat still to show) in one save, then let the bots play on; True.
        Otherwise (moved on, not yet due, finished, no clock) record nothing; False.
        A firing that loses the race to another save finds the version moved: False."""

        def fire(game: Game) -> bool:
            if game.version < version:
                raise _Stale  # a cached game behind the store: asked again on the stored
            deadline = turn_deadline(game)
            if (
                game.version != version
                or deadline is None
                or self.bots is None
                or self.clock() < deadline.at
            ):
                return False
            table = game.table
            hand = table.hand
            assert hand is not None, "a deadline is in a hand"
            if hand.phase is Phase.SHOW:
                assert hand.statuses is not None, "an Indian show"
                silent = [
                    seat
                    for seat, status in enumerate(hand.statuses)
                    if status is DealStatus.TO_SUBMIT and not _bot_seat(game, seat)
                ]
            else:
                silent = [deadline.seat]
            for seat in silent:
                game.time_out(seat)
                self._clock_plays(game, seat)
            self._let_bots_play(game)
            return True

        try:
            return self._command(game_id, fire, "timing out")
        except _Stale:
            return False  # the store does not hold that version

    def deadline(self, game_id: UUID) -> Deadline | None:
        """The turn deadline of the game as stored now (service/game/clock.py), or None:
        what a scheduler arms after a save, to fire with `time_out`."""
        return self.turn_clock(game_id)[1]

    def turn_clock(self, game_id: UUID) -> tuple[int, Deadline | None]:
        """The game's version as stored now and its turn deadline at that version
        (None: no clock runs): the clocks' keeper (service/game/timekeeper.py) keeps
        or drops its row by that version."""
        game = self._current(game_id)
        return game.version, turn_deadline(game)

    def state(self, game_id: UUID, version: int | None = None) -> GameState:
        """The game now, or as it was at `version`."""
        if version is None:
            return self._state_of(self._current(game_id))
        # Version 0 or less would load no event at all, which reads as "no such game".
        game = self._load(game_id, None if version < 1 else version)
        if game.version != version:
            raise VersionNotFound(
                f"Game {game_id} has versions 1 to {game.version}, not {version}."
            )
        return GameState.of(game)

    def _state_of(self, game: Game) -> GameState:
        """`GameState.of(game)`, made once per cached game: every GET of a game that has
        not moved asked for the same one (3% of a view GET's CPU under cProfile), and
        a seat's request made it for its answer. A state is kept only with the very
        table it was made of, at its version: a cached game never changes
        (service/game/unit.py), a command's copy changes only its version's
        successors, and a newer or rebuilt game has a table of its own."""
        known = self._states.get(game.id)
        if known is not None and known.table is game.table and known.version == game.version:
            return known
        if len(self._states) >= _STATES_KEPT:
            self._states.clear()  # at most one state each to make again
        made = self._states[game.id] = GameState.of(game)
        return made

    def _state_before(self, copy: Game) -> GameState:
        """The state of `copy`, a command's copy of the game not yet changed, for its
        actor to read. The cached game at the same version is the same game (a version
        is stored once, and only stored games are cached), and its state is usually
        made already, by the GET the client read the game with: a new one costs ~10 µs
        of an action POST (docs/performance.md, the action POST)."""
        cached = self._cached(copy.id)
        if cached is None or cached.version != copy.version:
            return GameState.of(copy)
        return self._state_of(cached)

    def lobby_page(self, query: LobbyQuery) -> LobbyPage:
        """A page of the listed games that have open seats, newest first."""
        return self.lobby.page(query)

    def events_after(
        self, game_id: UUID, after: int = 0, limit: int | None = None, upto: int | None = None
    ) -> list[GameEvent]:
        """The game's stored events after version `after` (up to version `upto`, if
        given), oldest first."""
        found = cast(
            list[GameEvent], list(self.events.get(game_id, gt=after, lte=upto, limit=limit))
        )
        if not found and not list(self.events.get(game_id, desc=True, limit=1)):
            raise GameNotFound(f"There is no game {game_id}.")
        return found

    def cached_version(self, game_id: UUID) -> int | None:
        """The version of the game this process holds, None if it would be rebuilt from
        the store (a cost that grows with the game). The store may be newer."""
        cached = self._cached(game_id)
        return None if cached is None else cached.version

    def feed(self, after: int = 0, limit: int = 100, *, settle: bool = True) -> list[FeedEntry]:
        """Every game's events after position `after`, in commit order. Page with the
        last position seen: positions have gaps, so never count them. Without
        `settle`, PostgreSQL answers at once with what it can read now, rather than
        wait up to a second for events held back behind a write still in flight
        (a follower that reads again soon, as the webhooks' sender does)."""
        notifications = (
            self.recorder.select_notifications(start=after, limit=limit, inclusive_of_start=False)
            if settle
            else read_now(self.recorder, after, limit)
        )
        return [
            FeedEntry(
                position=notification.id,
                game_id=UUID(str(notification.originator_id)),
                event=self.event_of(notification),
            )
            for notification in notifications
        ]

    def event_of(self, notification: StoredEvent) -> GameEvent:
        """The event a notification of `feed` or `subscribe` stores."""
        return cast(GameEvent, self.mapper.to_domain_event(notification))

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

    def check_store(self) -> None:
        """Ask the event store something; raises whatever its driver raises."""
        self.recorder.max_notification_id()

    def check_writes(self) -> None:
        """If a write failed since the last one that succeeded, try a test write
        (`service.game.probe`): raises whatever the driver raises while the store
        cannot write, and clears the failure once it can."""
        if self.write_failure is not None:
            self._writing(partial(probe_write, self.recorder))

    def _earlier_outcome(self, game: Game, request: IdempotentRequest) -> GameState | None:
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

    def _earlier_creation(
        self, game_id: UUID, new: NewGame, idempotency: Idempotency
    ) -> CreateResult | None:
        """What the creation with this key made, or None if it made nothing yet."""
        try:
            game = self._current(game_id)
        except GameNotFound:
            return None
        applied = game.applied_request(_seatless(idempotency))
        if applied is None or applied[0] != idempotency.digest:
            raise IdempotencyKeyReused.for_key(
                idempotency.key, "to create a game with a different body"
            )
        # The same body: the same seats, so the same tokens.
        _, tokens = _seat_entries(game_id, new.seats, idempotency)
        return CreateResult(game.id, tokens, applied[1], game.seed_commitment, game.deal)

    def _check_bots(self, bots: Sequence[str | None]) -> None:
        if self.bots is not None:
            self.bots.check(bots)
        elif any(name is not None for name in bots):
            raise InvalidSeating("This service has no computer players: every seat needs a person.")

    def _let_bots_play(self, game: Game, request: IdempotentRequest | None = None) -> None:
        """Play the bot seats' turns until a person must act, as part of the command
        that led to them (and of its idempotent request, so a retry answers with the
        bots' replies too)."""
        if self.bots is None or not any(_bot_seat(game, seat) for seat in range(len(game.seats))):
            return  # only people at the table: no bot is to move (nor a state to make)
        while (move := self.bots.next_move(GameState.of(game), game.seed)) is not None:
            seat, actions = move
            game.act(seat, list(actions), request)

    def _clock_plays(self, game: Game, seat: int) -> None:
        """The server's bot plays the rest of `seat`'s timed-out turn (or its show), as
        that seat; nothing if the timeout made it leave (its bot, or its forfeit,
        takes over)."""
        assert self.bots is not None, "checked by time_out"
        turn = turn_key(game.table)
        for _ in range(_MOST_CLOCK_REQUESTS):
            table = game.table
            if table.left[seat] or turn_key(table) != turn or not waits_for(table, seat):
                return
            game.act(
                seat, list(self.bots.move_for(GameState.of(game), seat, SERVER_BOT, game.seed))
            )
        raise AssertionError(f"the clock's bot did not end seat {seat}'s turn")


_MOST_CLOCK_REQUESTS = 60
"""More requests than any one turn takes (a draw, melds, lay-offs, a discard)."""


def _check_version(game: Game, expected_version: int | None) -> None:
    if expected_version is not None and game.version != expected_version:
        raise VersionConflict(f"The game is at version {game.version}, not {expected_version}.")


def _bot_seat(game: Game, seat: int) -> bool:
    entry = game.seats[seat]
    return entry is not None and entry["bot"] is not None


def _check_deal_choice(new: NewGame) -> None:
    """Who may choose the deal (docs/fairness.md): the admin, or a creator who
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


def _seatless(idempotency: Idempotency) -> IdempotentRequest:
    """The request of a creation or a join: sent by no seat, its key kept as a hash."""
    return IdempotentRequest(None, key_digest(idempotency.key), idempotency.digest)


def _earlier_join(game: Game, token: str, idempotency: Idempotency) -> JoinResult | None:
    """The seat the join with this key took, or None if it took none yet."""
    applied = game.applied_request(_seatless(idempotency))
    if applied is None:
        return None
    digest, version = applied
    seat = GameState.of(game).seat_of(token)
    # The key's slot also holds the creation of a game made with the same key.
    if digest != idempotency.digest or seat is None:
        raise IdempotencyKeyReused.for_key(
            idempotency.key, "to join this game with a different body"
        )
    return JoinResult(seat=seat, token=token, version=version)


def _seat_entries(
    game_id: UUID, seats: Sequence[NewSeat | None], idempotency: Idempotency | None = None
) -> tuple[list[SeatEntry | None], dict[int, str]]:
    """The seats of a new game, and the token of each seat a person fills (derived
    from the key of a keyed creation)."""
    entries: list[SeatEntry | None] = []
    tokens: dict[int, str] = {}
    for seat, wanted in enumerate(seats):
        if wanted is None:
            entries.append(None)
        elif wanted.bot is not None:
            # Nobody acts for a bot: its token is random and never handed out.
            entries.append(_entry(wanted, new_token(game_id)))
        else:
            tokens[seat] = (
                new_token(game_id)
                if idempotency is None
                else keyed_token(game_id, idempotency.key, f"seat{seat}")
            )
            entries.append(_entry(wanted, tokens[seat]))
    return entries, tokens


def _entry(wanted: NewSeat, token: str) -> SeatEntry:
    return SeatEntry(
        name=wanted.name,
        token_hash=hash_token(token),
        client_seed=wanted.client_seed,
        bot=wanted.bot,
    )
