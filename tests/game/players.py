"""Players and tables for the application tests.

`deck_for` spells out the deck order that deals the hands a test describes
(docs/rules.md "The deal"); `Player` picks a legal move the way a plausible player
would (melds first, a sensible discard), so random games end in tens of
moves rather than thousands; `play_to_end` plays a whole game through the
application and records what each command returned; `play_out` plays a game
left to bots alone as the clocks' keeper would.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from uuid import UUID

from service.domain.actions import Action, Discard, Draw, LayOff, Meld
from service.domain.cards import FULL_DECK, Card
from service.domain.leaving import people_to_move
from service.domain.rules import RuleSet
from service.domain.state import Source, Status, Table
from service.domain.turns import legal_moves
from service.game.aggregate import IdempotentRequest
from service.game.application import RummyApplication
from service.game.clock import Fired
from service.game.commands import Idempotency
from service.game.results import GameState
from tests.domain.tables import cards, deck_for

STOCK = Draw(Source.STOCK)
DISCARD = Draw(Source.DISCARD)


def with_rules(**changes: object) -> RuleSet:
    """The classic rules with `changes` (names as in docs/rules.md; `deals` drops the target)."""
    return RuleSet.from_dict(dict(changes))


def to_move(table: Table) -> int:
    """The seat whose turn it is."""
    assert table.hand is not None, "a hand is in play"
    return table.hand.turn


def all_cards(table: Table) -> Counter[Card]:
    """Every card of the hand in play, wherever it lies."""
    assert table.hand is not None
    return Counter(table.hand.cards())


def check_cards_conserved(table: Table) -> None:
    """While a hand is in play, the 52 cards are each somewhere exactly once."""
    if table.hand is None:
        return
    found = all_cards(table)
    assert sorted(found.values()) == [1] * len(FULL_DECK)
    assert set(found) == set(FULL_DECK)


def _links(card: Card, held: Sequence[Card]) -> int:
    """How many held cards could share a meld with `card`."""
    return sum(
        1
        for other in held
        if other != card
        and (
            other.rank == card.rank
            or (other.suit == card.suit and abs(other.rank - card.rank) <= 2)
        )
    )


@dataclass
class Player:
    """Picks one legal move, mostly sensibly, sometimes at random."""

    rng: random.Random

    def move(self, table: Table, seat: int) -> Action:
        moves = legal_moves(table, seat).actions()
        assert moves, f"seat {seat} has a move"
        hand = table.hand
        assert hand is not None
        held = hand.hands[seat]
        plays = [move for move in moves if isinstance(move, Meld | LayOff)]
        if plays and self.rng.random() < 0.9:
            return self.rng.choice(plays)
        if any(isinstance(move, Draw) for move in moves):
            if _links(hand.discard[-1], held) >= 2 and self.rng.random() < 0.8:
                return DISCARD
            return self.rng.choice((STOCK, DISCARD)) if self.rng.random() < 0.2 else STOCK
        discards = [move for move in moves if isinstance(move, Discard)]
        if discards and self.rng.random() < 0.8:
            return min(discards, key=lambda move: (_links(move.card, held), -move.card.rank))
        return self.rng.choice(discards or moves)


def act(
    games: RummyApplication,
    game_id: UUID,
    seat: int,
    actions: Sequence[Action],
    *,
    request: IdempotentRequest | None = None,
    expected_version: int | None = None,
) -> int:
    """`games.play` for `seat`, as its idempotent `request` if given; the version after it
    (most tests need no more)."""
    assert request is None or request.seat == seat, "a request is its own seat's"
    idempotency = None if request is None else Idempotency(request.key, request.digest)
    played = games.play(
        game_id, seat, actions, idempotency=idempotency, expected_version=expected_version
    )
    return played.state.version


def play_moves(games: RummyApplication, game_id: UUID, player: Player, moves: int = 1) -> GameState:
    """Play `moves` commands of one move each, for whoever is to move; the game after."""
    for _ in range(moves):
        state = games.state(game_id)
        seat = to_move(state.table)
        act(games, game_id, seat, [player.move(state.table, seat)])
    return games.state(game_id)


@dataclass
class PlayedGame:
    """A game played through the application, with the state after each command."""

    game_id: UUID
    states: dict[int, GameState] = field(default_factory=dict)
    """The live state right after the command that reached each version."""
    commands: list[tuple[int, Action, int]] = field(default_factory=list)
    """(seat, action, version returned) for every command, in order."""


def play_to_end(
    games: RummyApplication,
    game_id: UUID,
    rng: random.Random,
    *,
    after_each: Callable[[GameState], None] | None = None,
    max_commands: int = 20_000,
) -> PlayedGame:
    """Act with legal moves, one per command, until the game is over."""
    played = PlayedGame(game_id)
    player = Player(rng)
    state = games.state(game_id)
    played.states[state.version] = state
    for _ in range(max_commands):
        if state.table.status is Status.FINISHED:
            return played
        seat = to_move(state.table)
        action = player.move(state.table, seat)
        version = act(games, game_id, seat, [action])
        state = games.state(game_id)
        assert state.version == version, "act returns the version it left"
        played.states[version] = state
        played.commands.append((seat, action, version))
        if after_each is not None:
            after_each(state)
    raise AssertionError(f"the game did not end in {max_commands} commands")


# --- a table the tests deal ---------------------------------------------------
# Two players, seat 0 deals, so seat 1 moves first. Seat 1 holds three melds
# (a four-card spade run, a heart run, a club run); the stock gives it 5S,
# which lays off on the spade run. Seat 0 holds 10C, which fits the club run.

SEAT_1_HAND = "AS 2S 3S 4S 4H 5H 6H 7C 8C 9C"
SEAT_0_HAND = "KD QD JD 10C 9D 2D 3D 5C 6C 8D"
SEAT_0_HAND_VALUE = 10 + 10 + 10 + 10 + 9 + 2 + 3 + 5 + 6 + 8
UPCARD = "KH"
STOCK_TOP = "5S 10D"
DECK = deck_for([SEAT_0_HAND, SEAT_1_HAND], UPCARD, STOCK_TOP, dealer=0)

SPADE_RUN = Meld(tuple(cards("AS 2S 3S 4S")))
HEART_RUN = Meld(tuple(cards("4H 5H 6H")))
CLUB_RUN = Meld(tuple(cards("7C 8C 9C")))
GO_OUT: list[Action] = [STOCK, SPADE_RUN, HEART_RUN, CLUB_RUN, Discard(Card.parse("5S"))]
"""Seat 1's first turn going out: rummy, seat 0 left holding SEAT_0_HAND."""


def bots_alone(state: GameState) -> bool:
    """Whether the game plays on with only bots left to move (`leaving.people_to_move`)."""
    bots = [seat is not None and seat.bot is not None for seat in state.seats]
    return state.table.status is Status.PLAYING and not people_to_move(state.table, bots)


def play_out(games: RummyApplication, game_id: UUID) -> int:
    """What the clocks' keeper does for a game left to bots alone, in this thread:
    fire the waiting bot's request at each version until the game waits for no bot
    (finished); the requests played."""
    played = 0
    while bots_alone(state := games.state(game_id)):
        assert games.fire(game_id, state.version) is Fired.BOT_MOVED, "a bot waits"
        played += 1
    return played
