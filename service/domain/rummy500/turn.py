"""500 Rum's turn (docs/rules.md "500 Rum"): the Western turn's melds, lay-offs and
discards (`western.turn`, with the preset's fixed `aces`, `melds_per_turn` and
`lay_off`), and what the spread pile adds:

- a draw from the pile takes the top `count` cards (`pile_too_short` beyond the
  pile); of several, the deepest (the called card) must be usable now
  (`pile_card_unusable`, `pile.usable`);
- until the called card is melded or laid off, no discard ends the turn and no
  meld or lay-off may leave it unusable (`taken_card_unused`);
- a card just taken from the pile may be discarded (no `discard_taken_card`): it is
  no taken card here (`changes`).
"""

from __future__ import annotations

from service.domain.actions import Action, Discard, Draw, LayOff, Meld
from service.domain.cards import Card
from service.domain.changes import apply
from service.domain.checks import discard_problem, draw_problem, hand_of
from service.domain.decks import DeckSource, SeededDecks
from service.domain.enum_members import DRAW_PHASE as _DRAW_PHASE
from service.domain.enum_members import PLAY_PHASE as _PLAY_PHASE
from service.domain.errors import IllegalMove, PileCardUnusable, PileTooShort, TakenCardUnused
from service.domain.events import CardDrawn, Event
from service.domain.legal import NO_MOVES, LegalMoves
from service.domain.rummy500 import pile
from service.domain.state import HandState, Source, Table
from service.domain.western import turn as western


def called_of(hand: HandState) -> Card | None:
    """The called card still to use this turn, if any."""
    return None if hand.spread is None else hand.spread.called


def action_problem(
    table: Table, seat: int, action: Action, *, going_out_list: bool = False
) -> IllegalMove | None:
    """The error `action` by `seat` would raise now, or None. The engine has checked
    that the phase table allows it; `turns` the draw's `count` for every engine."""
    match action:
        case Draw(source=source, count=count):
            return draw_count_problem(table, seat, source, count)
        case Discard(card=card):
            return discard_problem(table, seat, card) or _unused_problem(table, "discard")
        case Meld() | LayOff():
            problem = western.action_problem(table, seat, action, going_out_list=going_out_list)
            if problem is not None:
                return problem
            return _leaves_usable_problem(table, seat, action)
    return western.action_problem(table, seat, action, going_out_list=going_out_list)


def draw_count_problem(table: Table, seat: int, source: Source, count: int) -> IllegalMove | None:
    problem = draw_problem(table, seat, source)
    if problem is not None or source is Source.STOCK or count == 1:
        return problem
    hand = hand_of(table)
    if count > len(hand.discard):
        return PileTooShort(
            f"The discard pile holds {len(hand.discard)} cards: you cannot take {count}."
        )
    if not _called_usable(table, hand, seat, count):
        called = hand.discard[-count]
        return PileCardUnusable(
            f"Taking {count} cards calls {called}, the deepest, which must be melded or laid "
            f"off this turn: no meld or lay-off holding it could be made from your hand."
        )
    return None


def _called_usable(table: Table, hand: HandState, seat: int, count: int) -> bool:
    """Whether the called card of a draw of `count` pile cards could be used."""
    taken = hand.discard[-count:]
    rules = table.rules
    return pile.usable(
        taken[0], [*hand.hands[seat], *taken], hand.melds, rules.aces, rules.going_out
    )


def _unused_problem(table: Table, ending: str) -> IllegalMove | None:
    called = called_of(hand_of(table))
    if called is None:
        return None
    return TakenCardUnused(
        f"You called {called} from the discard pile: meld it or lay it off before you {ending}."
    )


def _leaves_usable_problem(table: Table, seat: int, action: Meld | LayOff) -> IllegalMove | None:
    """A meld or lay-off that does not use the called card must leave it usable."""
    hand = hand_of(table)
    called = called_of(hand)
    if called is None:
        return None
    if (isinstance(action, Meld) and called in action.cards) or (
        isinstance(action, LayOff) and action.card == called
    ):
        return None
    trial = table.copy()
    for event in western.decide(trial, seat, action, _NO_DECKS):
        apply(trial, event)
    after = hand_of(trial)
    rules = table.rules
    if pile.usable(called, after.hands[seat], after.melds, rules.aces, rules.going_out):
        return None
    return TakenCardUnused(
        f"This play would leave {called}, the card you called from the discard pile, "
        f"with no meld or lay-off to use it this turn."
    )


def legal_moves(table: Table, seat: int) -> LegalMoves:
    """The Western moves, less what the called card forbids; in the draw phase the
    counts the pile allows."""
    hand = table.hand
    if hand is None:
        return NO_MOVES
    if hand.phase is _DRAW_PHASE:
        moves = western.legal_moves(table, seat)
        if Source.DISCARD not in moves.draw:
            return moves
        counts = tuple(
            count
            for count in range(1, len(hand.discard) + 1)
            if count == 1 or _called_usable(table, hand, seat, count)
        )
        return LegalMoves(draw=moves.draw, pile_counts=counts)
    moves = western.legal_moves(table, seat)
    if hand.phase is not _PLAY_PHASE or called_of(hand) is None:
        return moves
    return LegalMoves(
        melds=tuple(
            cards
            for cards in moves.melds
            if _leaves_usable_problem(table, seat, Meld(cards)) is None
        ),
        lay_offs=tuple(
            (card, meld_id)
            for card, meld_id in moves.lay_offs
            if _leaves_usable_problem(table, seat, LayOff(card, meld_id)) is None
        ),
    )


def decide(table: Table, seat: int, action: Action, decks: DeckSource) -> list[Event]:
    """The events a verified `action` makes: a draw of several pile cards names the
    called card (`card`) and every card taken (`cards`, in pile order)."""
    match action:
        case Draw(source=Source.DISCARD, count=count) if count > 1:
            taken = tuple(hand_of(table).discard[-count:])
            return [
                CardDrawn(seat=seat, source=Source.DISCARD, card=taken[0], count=count, cards=taken)
            ]
    return western.decide(table, seat, action, decks)


_NO_DECKS = SeededDecks(seed="unused", client_seeds=())
"""A meld or lay-off decides without the decks: a trial of one passes these."""
