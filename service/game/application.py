"""The application: the commands and queries of the game service.

Each verb is a use case written on the unit of work (`service.game.unit`):
commands change one game all or nothing (`_command`), queries answer with
`GameState` values (`service.game.results`), never with a live aggregate.
What is not a verb lives apart: the feed of every game
(`service.game.event_feed`), the store's health (`service.game.store_health`),
what an idempotency key made before (`service.game.idempotency`), the bots'
moves inside a command (`service.game.bot_turns`), the turn deadlines
(`service.game.clock`) and the rules of a timeout (`service.domain.leaving`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, cast
from uuid import UUID, uuid4

from service.domain.actions import Action
from service.domain.errors import IllegalMove, InvalidSeating, SeatLeft
from service.domain.leaving import seats_timing_out
from service.domain.rule_values import Abandon
from service.domain.setup import check_new_game
from service.domain.state import AbortedBy
from service.game.aggregate import Game, IdempotentRequest
from service.game.bot_turns import (
    Asked,
    BotPlayers,
    Recorded,
    Replayed,
    bot_seats,
    play_one_request,
    play_round,
    play_timed_out_turn,
    searches,
)
from service.game.clock import (
    Deadline,
    Fired,
    bank_to_spend,
    bot_move_due,
    keeper_due,
    seat_deadline,
    turn_deadline,
)
from service.game.commands import Idempotency, NewGame, NewSeat, check_deal_choice
from service.game.errors import (
    GameNotFound,
    PlayerAlreadySeated,
    RatedNeedsPlayers,
    VersionConflict,
    VersionNotFound,
    WriteConflict,
)
from service.game.event_records import GameEvent
from service.game.idempotency import (
    earlier_creation,
    earlier_join,
    earlier_outcome,
    seat_entries,
    seat_entry,
    seatless,
)
from service.game.results import CreateResult, GameState, JoinResult, KeptStates, PlayResult
from service.game.tokens import keyed_game_id, keyed_token, new_command_id, new_seed, new_token
from service.game.unit import SaveObserver, UnitOfWork
from service.store.lobby_rows import LobbyPage, LobbyQuery
from service.store.lobby_store import Lobby
from service.store.refusals import RefusalLog, RefusedBefore, RefusedNow
from service.store.stream_tickets import StreamTickets

Actor = int | Callable[[GameState], int]
"""Who plays: a seat, or a check that names the seat on the game as loaded (the
API's token check: the game is loaded once, and checked as it is acted on)."""


Now = Callable[[], datetime]
"""A time source: the time now, in UTC (the turn clocks and the time banks ask it;
tests pass their own)."""


def utc_now() -> datetime:
    return datetime.now(UTC)


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
        now: Now = utc_now,
    ):
        super().__init__(env, observers)
        self.bots = bots
        self.now = now
        """When it is now, for the turn clocks (`time_out`) and the time banks."""
        self.refusals = RefusalLog(
            self.factory.aggregate_recorder(purpose="refusals"), self._freshness
        )
        self.stream_tickets = StreamTickets(self.recorder)
        """The live streams' tickets, kept beside the events (service.store.stream_tickets)."""
        self.lobby = Lobby(self.recorder, self.mapper)
        """The listed games with open seats, kept beside the events (service.store.lobby_store)."""
        self._states = KeptStates()
        """The `GameState` of each cached game a query asked for (see `state`)."""

    def create_game(self, new: NewGame, idempotency: Idempotency | None = None) -> CreateResult:
        """A new game. Created with a key (`idempotency`), its id and its players'
        tokens derive from the key (`service.game.tokens`): the same key and body again
        answer with the game it made, on any replica; another body is refused."""
        game_id, request = uuid4(), None
        if idempotency is not None:
            game_id = keyed_game_id(idempotency.key, new.by_admin)
            request = seatless(idempotency)
            earlier = earlier_creation(self._current, game_id, new, idempotency)
            if earlier is not None:
                return earlier
        check_new_game(new.rules, len(new.seats), new.decks, new.dealer)
        self._check_bots([None if wanted is None else wanted.bot for wanted in new.seats])
        check_deal_choice(new)
        _check_rated(new.seats, rated=new.rated)
        _check_one_seat_each([None if seat is None else seat.player for seat in new.seats])
        entries, tokens = seat_entries(game_id, new.seats, idempotency)
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
            rated=new.rated,
        )
        play_round(self.bots, game, request)
        if not self._saved(game):
            # A random id: only this command's own lost write can hold it. A keyed
            # one: the same key sent to another replica at the same moment.
            if idempotency is not None:
                earlier = earlier_creation(self._current, game_id, new, idempotency)
                if earlier is not None:
                    return earlier
            raise WriteConflict(f"Game {game_id} exists already: try again.")
        return CreateResult(game.id, tokens, game.version, game.seed_commitment, game.deal_mode)

    def join_game(
        self, game_id: UUID, wanted: NewSeat, idempotency: Idempotency | None = None
    ) -> JoinResult:
        """Seat a player in the first open seat. Joined with a key (`idempotency`), the
        token derives from it: the same key and body again answer with the same seat
        and token, on any replica; another body is refused."""
        if idempotency is None:
            token, request = new_token(game_id), None
        else:
            token, request = keyed_token(game_id, idempotency.key, "join"), seatless(idempotency)

        def join(game: Game) -> JoinResult:
            if idempotency is not None:
                earlier = earlier_join(game, token, idempotency)
                if earlier is not None:
                    return earlier
            _check_rated([wanted], rated=game.rated)
            seated = [entry.get("player") for entry in game.seats if entry is not None]
            _check_one_seat_each([*seated, wanted.player])
            seat = game.join(seat_entry(wanted, token), request)
            play_round(self.bots, game, request)
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
            # Past its turn's clock, the seat has used some of its time bank: spent
            # first, in the same save (none of it if the move is refused).
            spent = bank_to_spend(game, seat, self.now())
            if spent:
                game.spend_bank(seat, spent, request)
            game.act(seat, actions, request)

        return self._as_seat(game_id, actor, act, idempotency, expected_version, "acting")

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

    def abort(self, game_id: UUID, reason: str, by: AbortedBy = AbortedBy.ADMIN) -> GameState:
        """End the game void (`game_aborted`): no winner, nothing counted, every dealt
        hand's seed revealed (docs/rules.md "Aborted games"). 409 `game_over` if it is
        already over. The caller has checked who asks and the reason."""

        def command(game: Game) -> GameState:
            game.abort(by, reason)
            return self._states.of(game)

        return self._command(game_id, command, "aborting")

    def time_out(self, game_id: UUID, version: int) -> bool:
        """Fire the turn clock of game `game_id` at `version`: if the game is still at
        that version and its deadline (service/game/clock.py) has passed by `now`,
        record the timeout and the server bot's move for the seat (in Indian's show,
        for every seat still to show) in one save, then let the bots play on; True.
        Otherwise (moved on, not yet due, finished, no clock) record nothing; False.
        A firing that loses the race to another save finds the version moved: False."""
        return self._fire(game_id, version, bots=False) is Fired.TIMED_OUT

    def fire(self, game_id: UUID, version: int, ahead: Sequence[tuple[Asked, Any]] = ()) -> Fired:
        """What the clocks' keeper calls for a due row at `version` (`keeper_row`): a
        turn's timeout as `time_out` records it, or, where the game waits for a bot
        that no person's request will make move (`bot_move_due`), that bot's ONE
        request (in a game with a person still to play, the rest of the round after
        it, bounded). Nothing if the game has left `version`: a late or repeated
        firing is harmless, as a timeout's is. `ahead`: the bots' answers
        `decide_ahead` made for this firing, given back instead of deciding again."""
        return self._fire(game_id, version, bots=True, ahead=ahead)

    def decide_ahead(self, game_id: UUID, version: int) -> list[tuple[Asked, Any]]:
        """The answers of searching bots (`strong`, `expert`) that `fire(game_id,
        version)` would ask for, made by playing the firing on a copy of the game as
        stored that is never saved. The keeper makes them before it claims the
        game's row, so on PostgreSQL the claim's transaction, which holds back
        every feed reader's horizon, lasts a save and not a search (docs/bots.md).
        Empty: no bot of the game searches, or the firing would decide nothing."""
        if self.bots is None:
            return []
        stored = self._current(game_id)  # shared with the cache: only read here
        if stored.version != version or not searches(stored):
            return []  # most firings: no copy made
        game, _ = self._copy_for_command(game_id, new_command_id(), stored_only=True)
        if game.version != version:
            return []
        recorded = Recorded(self.bots)
        try:
            self._firing(version, bots=True, players=recorded)(game)
        except Exception:
            return []  # the firing itself decides again, and refuses as it must
        return recorded.answers

    def keeper_row(self, game_id: UUID, pace: timedelta) -> tuple[int, Deadline | None]:
        """The game's version as stored now and what the clocks' keeper fires next at
        that version (service/game/clock.py's `keeper_due`): its turn deadline, or
        its bot's move (`pace` after the last event in a game of bots alone); None:
        nothing. The keeper keeps or drops its row by that version."""
        game = self._current(game_id)
        return game.version, keeper_due(game, pace)

    def deadline(self, game_id: UUID) -> Deadline | None:
        """The turn deadline of the game as stored now (service/game/clock.py), or None:
        what a scheduler arms after a save, to fire with `time_out`."""
        return self.turn_clock(game_id)[1]

    def turn_clock(self, game_id: UUID) -> tuple[int, Deadline | None]:
        """The game's version as stored now and its turn deadline at that version
        (None: no clock runs): the clocks' keeper (service/clocks/timekeeper.py) keeps
        or drops its row by that version."""
        game = self._current(game_id)
        return game.version, turn_deadline(game)

    def state(self, game_id: UUID, version: int | None = None) -> GameState:
        """The game now, or as it was at `version`."""
        if version is None:
            return self._states.of(self._current(game_id))
        # Version 0 or less would load no event at all, which reads as "no such game".
        game = self._load(game_id, None if version < 1 else version)
        if game.version != version:
            raise VersionNotFound(
                f"Game {game_id} has versions 1 to {game.version}, not {version}."
            )
        return GameState.of(game)

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
        if not found:
            self.newest_event(game_id)  # GameNotFound if there is none
        return found

    def newest_event(self, game_id: UUID) -> GameEvent:
        """The game's last stored event: one read, nothing rebuilt."""
        found = cast(list[GameEvent], list(self.events.get(game_id, desc=True, limit=1)))
        if not found:
            raise GameNotFound(f"There is no game {game_id}.")
        return found[0]

    def cached_version(self, game_id: UUID) -> int | None:
        """The version of the game this process holds, None if it would be rebuilt from
        the store (a cost that grows with the game). The store may be newer."""
        cached = self._cached(game_id)
        return None if cached is None else cached.version

    def moves_bots(self, game_id: UUID, *, leaving: bool = False) -> bool:
        """Whether a command on `game_id` may make a bot decide (a bot seat, or a game
        this process does not hold; `leaving`: a leave under `abandon: bot`, whose
        `takeover_bot`, a search perhaps, may move at once): the API runs such a
        command off the event loop."""
        cached = self._cached(game_id)
        if cached is None or any(bot_seats(cached)):
            return True
        return leaving and cached.table.rules.abandon is Abandon.BOT

    # --- how the verbs above are done ---------------------------------------------------

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
                earlier = earlier_outcome(game, request, self.refusals, self.state)
                if earlier is not None:
                    return PlayResult(seat, earlier)
            _check_version(game, expected_version)
            try:
                move(game, seat, request)
            except IllegalMove as refused:
                if request is None:
                    raise
                raise RefusedNow(request, refused) from refused
            play_round(self.bots, game, request)
            # Kept for the queries: once saved, this game is the cached one.
            return PlayResult(seat, self._states.of(game))

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
            kept = self.writing(partial(self.refusals.keep, game_id, now.request, now.error))
            raise kept.answer(now.request) from None

    def _fire(
        self,
        game_id: UUID,
        version: int,
        *,
        bots: bool,
        ahead: Sequence[tuple[Asked, Any]] = (),
    ) -> Fired:
        players = self.bots
        if players is not None and ahead:
            players = Replayed(players, ahead)
        try:
            return self._command(game_id, self._firing(version, bots, players), "timing out")
        except _Stale:
            return Fired.NOTHING  # the store does not hold that version

    def _firing(
        self, version: int, bots: bool, players: BotPlayers | None
    ) -> Callable[[Game], Fired]:
        """The command of a firing at `version` (`_fire`), its bots played by `players`."""

        def fire(game: Game) -> Fired:
            if game.version < version:
                raise _Stale  # a cached game behind the store: asked again on the stored
            if game.version != version or players is None:
                return Fired.NOTHING
            if bots and bot_move_due(game, timedelta(0)) is not None:
                return play_one_request(players, game)
            deadline = turn_deadline(game)
            now = self.now()
            if deadline is None or now < deadline.at:
                return Fired.NOTHING

            def overdue(seat: int) -> bool:  # its own bank spent too
                return now >= seat_deadline(game, seat)

            for seat in seats_timing_out(game.table, deadline.seat, bot_seats(game), overdue):
                left = game.table.bank_left[seat]
                if left:
                    game.spend_bank(seat, left)  # what is left of it: used up
                game.time_out(seat)
                play_timed_out_turn(players, game, seat)
            play_round(players, game)
            return Fired.TIMED_OUT

        return fire

    def _check_bots(self, bots: Sequence[str | None]) -> None:
        if self.bots is not None:
            self.bots.check(bots)
        elif any(name is not None for name in bots):
            raise InvalidSeating("This service has no computer players: every seat needs a person.")

    def _state_before(self, copy: Game) -> GameState:
        """The state of `copy`, a command's copy of the game not yet changed, for its
        actor to read. The cached game at the same version is the same game (a version
        is stored once, and only stored games are cached), and its state is usually
        made already, by the GET the client read the game with: a new one costs ~10 µs
        of an action POST (docs/performance.md, the action POST)."""
        cached = self._cached(copy.id)
        if cached is None or cached.version != copy.version:
            return GameState.of(copy)
        return self._states.of(cached)


def _check_rated(seats: Sequence[NewSeat | None], *, rated: bool) -> None:
    """In a rated game, a player a platform vouched for in every human seat taken
    (422 `rated_needs_players`): a rating is a player's. Bots may fill the others."""
    if rated and any(
        seat is not None and seat.bot is None and seat.player is None for seat in seats
    ):
        raise RatedNeedsPlayers(
            "A rated game seats only players a platform vouches for: send a "
            "`player_assertion` for every human seat (bots may fill the others)."
        )


def _check_one_seat_each(pseudonyms: Sequence[str | None]) -> None:
    """One seat per vouched-for player at a table (409 `player_already_seated`)."""
    named = [pseudonym for pseudonym in pseudonyms if pseudonym is not None]
    if len(set(named)) != len(named):
        raise PlayerAlreadySeated(
            "That player already has a seat at this table: one seat per player per table."
        )


def _check_version(game: Game, expected_version: int | None) -> None:
    if expected_version is not None and game.version != expected_version:
        raise VersionConflict(f"The game is at version {game.version}, not {expected_version}.")
