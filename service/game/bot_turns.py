"""The bots' moves inside a command (docs/bots.md): the round a command plays
after a person's request, the one request the clocks' keeper fires for a game
that waits for a bot, and the server's bot playing a timed-out turn. Each
changes the command's copy of the game; the application saves it
(`service.game.application`). The bots themselves are passed in
(`BotPlayers`): this room never imports the strategies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from service.domain.actions import Action
from service.domain.leaving import people_to_move, turn_key, waits_for
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
