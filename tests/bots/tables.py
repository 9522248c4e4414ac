"""Tables for the bot tests, laid out card by card, and the views bots get of them.

`table` sets a hand in play exactly as a test describes it (hands, melds on
the table, the discard pile, whose turn and which phase), so a test reads
like the table it is about; `view_for` is the player view the service would
give a seat of it; `finish_turn` lets a strategy play a whole turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from random import Random

from service.bots.strategies import Strategy, request_of
from service.domain import melds
from service.domain.actions import Action
from service.domain.cards import FULL_DECK, JOKER, RANKS, Card, Rank
from service.domain.decks import SeededDecks
from service.domain.errors import InvalidRules
from service.domain.melds import TableMeld
from service.domain.play import play
from service.domain.rule_values import Variant
from service.domain.rules import RuleSet
from service.domain.setup import check_new_game
from service.domain.state import HandState, Phase, Table
from service.projections.views import GameView, Viewer, game_view
from tests.projections.snapshots import Seat, Snapshot


def cards(codes: str) -> list[Card]:
    """`cards("KS 9D 4C")`."""
    return [Card.parse(code) for code in codes.split()]


def card(code: str) -> Card:
    return Card.parse(code)


@dataclass
class Laid:
    """A meld on the table: its cards and who laid it."""

    codes: str
    owner: int = 1
    laid_off_by: list[int] = field(default_factory=list)


def table(
    hands: Sequence[str | int],
    *,
    discard: str = "",
    melds_on_table: Sequence[Laid] = (),
    turn: int = 0,
    phase: Phase = Phase.DRAW,
    taken: str | None = None,
    played_before: Sequence[bool] | None = None,
    rules: RuleSet | None = None,
) -> Table:
    """A hand in play as described: each hand by its cards, or by a count of cards
    nobody else holds; every card not placed is in the stock."""
    rules = rules or RuleSet()
    players = len(hands)
    pile = cards(discard)
    laid = [
        TableMeld(
            id=f"h1-m{number}",
            kind=melds.meld_kind(cards(meld.codes), rules.aces),
            cards=melds.arrange(cards(meld.codes), rules.aces),
            owner=meld.owner,
        )
        for number, meld in enumerate(melds_on_table, start=1)
    ]
    # Hands given as a count are filled from the cards nobody placed, high ranks first.
    placed = [c for given in hands if isinstance(given, str) for c in cards(given)]
    placed += pile + [c for meld in laid for c in meld.cards]
    assert len(placed) == len(set(placed)), "each card is in one place"
    spare = [c for c in reversed(FULL_DECK) if c not in placed]
    held: list[list[Card]] = []
    for given in hands:
        if isinstance(given, str):
            held.append(cards(given))
        else:
            held.append(spare[:given])
            del spare[:given]
    stock = spare
    hand = HandState(
        number=1,
        dealer=(turn - 1) % players,
        hands=held,
        stock=stock,
        discard=pile,
        turn=turn,
        phase=phase,
        melds=laid,
        taken=None if taken is None else card(taken),
        played_before=list(played_before or [False] * players),
        melds_laid=len(laid),
    )
    return Table(
        rules=rules,
        seat_count=players,
        seated=[True] * players,
        hand=hand,
        dealer=hand.dealer,
    )


def default_rules(variant: Variant, players: int) -> RuleSet | None:
    """The variant's default rules for `players` seats, or None where it is not
    played by that many."""
    rules = RuleSet.from_dict({"variant": variant.value}, players=players)
    try:
        check_new_game(rules, players)
    except InvalidRules:
        return None
    return rules


def snapshot(board: Table, bots: Sequence[str | None] = ()) -> Snapshot:
    names = list(bots) + [None] * (board.seat_count - len(bots))
    return Snapshot(
        table=board,
        seats=tuple(Seat(name=f"seat {seat}", bot=bot) for seat, bot in enumerate(names)),
    )


def view_for(board: Table, seat: int = 0) -> GameView:
    """The view the service would give `seat` of `board`."""
    return game_view(snapshot(board), Viewer(seat=seat))


def finish_turn(
    board: Table, strategy: Strategy, rng: Random, seed: str = "tables"
) -> list[Action]:
    """Let `strategy` play the seat to move until its turn is over; the actions it took."""
    assert board.hand is not None
    seat = board.hand.turn
    decks = SeededDecks(seed=seed, client_seeds=("",) * board.seat_count, pack=board.rules.pack)
    taken: list[Action] = []
    hand_number = board.hand_number
    while board.hand is not None and board.hand_number == hand_number and board.hand.turn == seat:
        request = request_of(strategy(view_for(board, seat), rng))
        taken.extend(request)
        play(board, seat, request, decks)
        assert len(taken) < 60, "a turn ends"
    return taken


def random_indian_hands(seed: str, count: int) -> list[tuple[list[Card], Rank]]:
    """Hands of 13 or 14 from two packs and their jokers, each with a wild rank."""
    rng = Random(seed)
    deck = [*FULL_DECK, *FULL_DECK, JOKER, JOKER]
    return [(rng.sample(deck, rng.choice((13, 14))), rng.choice(RANKS)) for _ in range(count)]
