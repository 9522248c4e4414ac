"""The bots' moves inside a command (docs/bots.md): the round a command plays
after a person's request, the one request the clocks' keeper fires for a game
that waits for a bot, and the server's bot playing a timed-out turn. Each
changes the command's copy of the game; the application saves it
(`service.game.application`). The bots themselves are passed in
(`BotPlayers`): this room never imports the strategies.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from service.domain.actions import Action
from service.domain.leaving import people_to_move, turn_key, waits_for
from service.domain.rule_values import BotLevel
from service.game.aggregate import Game, IdempotentRequest
from service.game.clock import Fired
from service.game.results import GameState

MOST_ROUND_REQUESTS = 200
"""The most bot requests one command plays before it is saved (a round of five bots
takes a few dozen): what is left, the clocks' keeper plays at once."""
_MOST_CLOCK_REQUESTS = 60
"""More requests than any one turn takes (a draw, melds, lay-offs, a discard)."""


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


SEARCHING_LEVELS = frozenset({BotLevel.STRONG, BotLevel.EXPERT})
"""The levels whose decision is a search (tens to hundreds of milliseconds): the
clocks' keeper makes theirs before it claims a game's row (`Recorded`)."""

Asked = tuple[str, int, int | None]
"""What a bot was asked: the question, the game's version, the seat (None: the
next bot to move)."""


@dataclass
class Recorded:
    """Bots that remember every answer, in order: a firing played on a copy of the
    game that is never saved (`RummyApplication.decide_ahead`). The same firing
    on the same stored version asks the same questions in the same order, and a
    bot's answer is a function of its seat's view and the game's seed, so
    `Replayed` can give the answers back without deciding again."""

    bots: BotPlayers
    answers: list[tuple[Asked, Any]] = field(default_factory=list)

    def check(self, bots: Sequence[str | None]) -> None:
        self.bots.check(bots)

    def next_move(self, game: GameState, seed: str) -> tuple[int, Sequence[Action]] | None:
        move = self.bots.next_move(game, seed)
        self.answers.append((("next", game.version, None), move))
        return move

    def move_for(self, game: GameState, seat: int, strategy: str, seed: str) -> Sequence[Action]:
        move = self.bots.move_for(game, seat, strategy, seed)
        self.answers.append((("for", game.version, seat), move))
        return move


class Replayed:
    """Bots that give back `Recorded` answers while the questions are the same
    ones in the same order, and decide afresh from the first that differs (a game
    that is not the one recorded: then nothing recorded is trusted again)."""

    def __init__(self, bots: BotPlayers, answers: Sequence[tuple[Asked, Any]]) -> None:
        self.bots = bots
        self._answers = deque(answers)

    def check(self, bots: Sequence[str | None]) -> None:
        self.bots.check(bots)

    def next_move(self, game: GameState, seed: str) -> tuple[int, Sequence[Action]] | None:
        found, move = self._answer(("next", game.version, None))
        return move if found else self.bots.next_move(game, seed)

    def move_for(self, game: GameState, seat: int, strategy: str, seed: str) -> Sequence[Action]:
        found, move = self._answer(("for", game.version, seat))
        return move if found else self.bots.move_for(game, seat, strategy, seed)

    def _answer(self, asked: Asked) -> tuple[bool, Any]:
        if self._answers and self._answers[0][0] == asked:
            return True, self._answers.popleft()[1]
        self._answers.clear()
        return False, None


def searches(game: Game) -> bool:
    """Whether a bot that may move in `game` searches: a bot seat's level, or the
    level that takes a timed-out seat (`takeover_bot`)."""
    levels = {entry["bot"] for entry in game.seats if entry is not None}
    return bool(SEARCHING_LEVELS & (levels | {game.takeover_bot}))


def bot_seats(game: Game) -> list[bool]:
    """Seat by seat, whether a bot plays it."""
    return [entry is not None and entry["bot"] is not None for entry in game.seats]


def play_round(
    bots: BotPlayers | None, game: Game, request: IdempotentRequest | None = None
) -> None:
    """Play the bot seats' turns until a person must act, as part of the command
    that led to them (and of its idempotent request, so a retry answers with the
    bots' replies too): a bounded round. Once no person is left to play
    (`people_to_move`), or after `MOST_ROUND_REQUESTS`, the bots play no more in
    this command: the clocks' keeper plays the rest, a request at a time
    (`RummyApplication.fire`), never a request of a person (docs/bots.md)."""
    if bots is None:
        return
    by_bots = bot_seats(game)
    if not any(by_bots):
        return  # only people at the table: no bot is to move (nor a state to make)
    for _ in range(MOST_ROUND_REQUESTS):
        if not people_to_move(game.table, by_bots):
            return
        move = bots.next_move(GameState.of(game), game.seed)
        if move is None:
            return
        seat, actions = move
        game.act(seat, list(actions), request)  # a move leaves the seats as they are


def play_one_request(bots: BotPlayers, game: Game) -> Fired:
    """One bot request where no person's request makes the bots move, then the
    rest of the round if a person is still to play (`play_round`)."""
    move = bots.next_move(GameState.of(game), game.seed)
    if move is None:
        return Fired.NOTHING
    seat, actions = move
    game.act(seat, list(actions))
    play_round(bots, game)
    return Fired.BOT_MOVED


def play_timed_out_turn(bots: BotPlayers, game: Game, seat: int) -> None:
    """The server's bot (the rule `takeover_bot`) plays the rest of `seat`'s
    timed-out turn (or its show), as that seat; nothing if the timeout made it
    leave (its bot, or its forfeit, takes over)."""
    turn = turn_key(game.table)
    for _ in range(_MOST_CLOCK_REQUESTS):
        table = game.table
        if table.left[seat] or turn_key(table) != turn or not waits_for(table, seat):
            return
        game.act(seat, list(bots.move_for(GameState.of(game), seat, game.takeover_bot, game.seed)))
    raise AssertionError(f"the clock's bot did not end seat {seat}'s turn")
