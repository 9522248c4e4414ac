"""The checks every turn of every variant makes: the game, the seat and its phase,
the cards held, the discard pile's taken card; and the draw, with its recycle.

`turns` (the Western games) and `indian` (Indian Rummy) both build on them.
"""

from __future__ import annotations

from collections.abc import Sequence

from service.domain import concealed
from service.domain.cards import Card
from service.domain.decks import DeckSource
from service.domain.enum_members import DEAL_IN as _IN
from service.domain.enum_members import DRAW_PHASE as _DRAW_PHASE
from service.domain.enum_members import PLAY_PHASE as _PLAY_PHASE
from service.domain.enum_members import SECOND_DRAW_PHASE as _SECOND_DRAW_PHASE
from service.domain.enum_members import SHOW_PHASE as _SHOW_PHASE
from service.domain.errors import (
    CardNotInHand,
    DiscardTakenCard,
    GameNotStarted,
    GameOver,
    HandOver,
    IllegalMove,
    NotInDeal,
    NotInVariant,
    NotYourTurn,
    WrongPhase,
)
from service.domain.events import CardDrawn, Event, StockRecycled
from service.domain.flow import hand_ended_without_out, someone_out
from service.domain.state import (
    DealStatus,
    HandEnding,
    HandState,
    Phase,
    Source,
    Status,
    Table,
    indian_of,
)


def draw(
    table: Table, hand: HandState, seat: int, source: Source, decks: DeckSource
) -> list[Event]:
    # Boathouse's second card, after the top discard.
    second = hand.phase is _SECOND_DRAW_PHASE
    if source is Source.DISCARD:
        return [CardDrawn(seat=seat, source=source, card=hand.discard[-1], second=second)]
    if hand.stock:
        return [CardDrawn(seat=seat, source=source, card=hand.stock[-1], second=second)]
    # The stock is empty: recycle the discards under the top one, if the
    # rules leave a recycle and there is anything to recycle.
    under_top = hand.discard[:-1]
    if hand.recycles >= table.rules.recycles or not under_top:
        return [hand_ended_without_out(table, hand, HandEnding.EXHAUSTED)]
    if table.rules.recycle_shuffle:
        stock = decks.recycled_stock(hand.number, hand.recycles + 1, under_top)
    else:
        # Turned over: the oldest discard becomes the top of the stock.
        stock = list(under_top)
    return [
        StockRecycled(seat=seat, stock=tuple(stock), shuffled=table.rules.recycle_shuffle),
        CardDrawn(seat=seat, source=source, card=stock[0], second=second),
    ]


def draw_problem(table: Table, seat: int, source: Source) -> IllegalMove | None:
    hand = table.hand
    second = hand is not None and hand.phase is _SECOND_DRAW_PHASE
    problem = turn_problem(table, seat, _SECOND_DRAW_PHASE if second else _DRAW_PHASE)
    if problem is not None:
        return problem
    return pile_problem(hand_of(table), source)


def pile_problem(hand: HandState, source: Source) -> IllegalMove | None:
    if source is Source.DISCARD and not hand.discard:
        # Boathouse, after taking the last discard: only the stock is left.
        return WrongPhase("The discard pile is empty: draw from the stock.")
    return None


def count_problem(table: Table, source: Source, count: int) -> IllegalMove | None:
    """A draw of `count` cards: more than one only from a spread discard pile (the
    preset's `spread_pile`, 500 Rum), and never other than one from the stock. Every
    engine's draw passes here first (`turns.action_problem`); the schema refuses a
    `count` below 1, so this is 409 `not_in_variant`, never a 422."""
    if count == 1:
        return None
    if source is Source.STOCK:
        return NotInVariant(
            f"A draw from the stock takes one card, not {count}: leave `count` out."
        )
    if not table.rules.spread_pile:
        return NotInVariant(
            f"In {table.rules.variant.value} rummy a draw takes the top discard only: "
            f"`count` {count} is for 500 Rum's spread pile."
        )
    return None


def turn_problem(table: Table, seat: int, phase: Phase) -> IllegalMove | None:
    status = table.status
    if status is Status.WAITING:
        return GameNotStarted("The game has not started: it starts when every seat is filled.")
    if status is Status.FINISHED or status is Status.ABORTED:
        return GameOver("The game is over: no more moves can be made.")
    hand = table.hand
    if hand is None:
        return HandOver("The hand is over.")
    if hand.indian is not None:
        problem = deal_problem(hand, seat)
        if problem is not None:
            return problem
        if hand.phase is _SHOW_PHASE or phase is _SHOW_PHASE:
            # In the show every seat still in the deal acts, in any order.
            return None if hand.phase is phase else WrongPhase(phase_sentence(hand, phase))
    # A hand with an empty seat, or a knock, is over even before `settle` records it.
    elif hand.knocker is not None or someone_out(table, hand) is not None:
        return HandOver("The hand is over.")
    if hand.turn != seat:
        return NotYourTurn(f"It is seat {hand.turn}'s turn, not seat {seat}'s.")
    if hand.phase is not phase:
        return WrongPhase(phase_sentence(hand, phase))
    return None


def deal_problem(hand: HandState, seat: int) -> IllegalMove | None:
    """Indian: a seat out of the deal cannot act, and a deal with one seat left in it
    (or none left to show) is over even before `settle` records it."""
    statuses = indian_of(hand).statuses
    status = statuses[seat]
    if status is DealStatus.SITTING_OUT or status is DealStatus.ELIMINATED:
        return NotInDeal(f"Seat {seat} is {status.value.replace('_', ' ')}: not in this deal.")
    if status is DealStatus.DROPPED or status is DealStatus.WRONG_SHOW:
        how = "dropped" if status is DealStatus.DROPPED else "showed wrongly"
        return NotInDeal(f"Seat {seat} {how} and is out of this deal.")
    if hand.phase is _SHOW_PHASE:
        if DealStatus.TO_SUBMIT not in statuses:
            return HandOver("The deal is over: every player has shown.")
    elif statuses.count(_IN) <= 1:
        return HandOver("The deal is over: one player is left in it.")
    return None


def phase_sentence(hand: HandState, wanted: Phase) -> str:
    """Why a move of phase `wanted` cannot be made in the hand's phase."""
    if hand.phase is _SHOW_PHASE:
        return "The deal is in its show: the players still in it submit their groups."
    if wanted is _SHOW_PHASE:
        return "Groups are submitted only in the show, after a valid declaration."
    if hand.phase is _SECOND_DRAW_PHASE:
        return (
            "Draw your second card first: the new top discard or the top of the stock "
            "(only the stock if the pile is empty)."
        )
    if wanted is not _DRAW_PHASE:
        return "Draw a card first: from the stock or the discard pile."
    if hand.turns == 0 and hand.taken is None and not hand.discard:
        # Wrotham: the starter holds eight cards and opens without drawing.
        return "The opening turn has no draw: you hold eight cards; meld or discard."
    return "You have already drawn this turn: meld, lay off or discard."


def discard_problem(table: Table, seat: int, card: Card) -> IllegalMove | None:
    problem = turn_problem(table, seat, _PLAY_PHASE)
    if problem is not None:
        return problem
    hand = hand_of(table)
    problem = not_held(table, hand, seat, (card,))
    if problem is not None:
        return problem
    return taken_problem(hand, seat, card)


def taken_problem(hand: HandState, seat: int, card: Card) -> IllegalMove | None:
    if not concealed.discard_allowed(hand, seat, card):
        return DiscardTakenCard(
            f"{card} was taken from the discard pile this turn and cannot be discarded "
            f"until a later turn."
        )
    return None


def not_held(table: Table, hand: HandState, seat: int, cards: Sequence[Card]) -> IllegalMove | None:
    """Each card named must be in hand. In the variants, as many times as it is
    named (copies of a code, from two packs or jokers, are never told apart); the
    classic game, with no copies, calls a repeated card no meld, as it always has."""
    held = hand.hands[seat]
    if len(cards) == 1:  # a discard, a lay-off: the common case, asked for every card
        return None if cards[0] in held else CardNotInHand(f"{cards[0]} is not in your hand.")
    counted = table.features.counts_copies
    for index, card in enumerate(cards):
        if card not in held:
            return CardNotInHand(f"{card} is not in your hand.")
        named = cards[: index + 1].count(card) if counted else 1
        if named > 1 and held.count(card) < named:
            return CardNotInHand(f"You hold {card} {times(held.count(card))}, not {named}.")
    return None


def times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


def hand_of(table: Table) -> HandState:
    assert table.hand is not None, "checked by _turn_problem"
    return table.hand
