"""A long game, written to a store at once: for the tests and benchmarks of reads
whose cost grows with the game (rebuilds, long event pages, exports, replays).

Two players draw from the stock and discard, never meld: the stock is recycled
again and again, and the hand goes on until the game has `events` events. The
game is built in memory and saved in one go, which is quick where a command per
move would copy the growing game every time.
"""

from __future__ import annotations

from uuid import UUID, uuid4

from service.domain.actions import Discard, Draw
from service.domain.rules import RuleSet
from service.domain.state import Source
from service.domain.turns import legal_moves
from service.game.aggregate import Game, SeatEntry
from service.game.application import RummyApplication
from service.game.tokens import new_command_id

RULES = RuleSet(max_turns=100_000, recycles=1000)


def save_long_game(games: RummyApplication, events: int) -> UUID:
    """Store a game of at least `events` events in `games`; its id."""
    seats = [SeatEntry(name=name, token_hash=name, client_seed="") for name in ("Ann", "Bob")]
    game = Game.create(
        game_id=uuid4(),
        rules=RULES,
        seats=seats,
        seed="long",
        seed_chosen=True,
        command_id=new_command_id(),
        dealer=0,
    )
    while len(game.pending_events) < events:
        hand = game.table.hand
        assert hand is not None, "the hand goes on"
        seat = hand.turn
        moves = legal_moves(game.table, seat)
        game.act(seat, [Draw(Source.STOCK)] if moves.draw else [Discard(moves.discard[0])])
    games.save(game)
    return game.id
