"""Gin Rummy's turn (docs/rules.md "Gin Rummy"): every `*_problem` check,
`legal_moves` from the same checks, and `decide`.

The upcard offer: the seat offered (`HandState.turn`) may take the upcard (a draw
from the pile) or `pass`; a stock draw there is `wrong_phase`. When both have
passed, the non-dealer's first draw is from the stock (`upcard_declined`). A turn:
draw, then discard (not the card just taken from the pile) or knock.
"""

from __future__ import annotations

from collections.abc import Sequence

from service.domain import checks
from service.domain.actions import Action, Discard, Draw, Knock, Pass
from service.domain.cards import Card, sorted_cards
from service.domain.decks import DeckSource
from service.domain.enum_members import DRAW_PHASE as _DRAW
from service.domain.enum_members import PLAY_PHASE as _PLAY
from service.domain.enum_members import UPCARD_OFFER_PHASE as _OFFER
from service.domain.errors import (
    DiscardTakenCard,
    IllegalMove,
    InvalidKnock,
    KnockTooHigh,
    NotInVariant,
    UpcardDeclined,
    WrongPhase,
)
from service.domain.events import CardDiscarded, Event, Knocked, UpcardPassed
from service.domain.gin import deadwood
from service.domain.gin.options import gin_options
from service.domain.legal import NO_MOVES, LegalMoves
from service.domain.scoring import card_value
from service.domain.state import HandState, KnockKind, Phase, Source, Table, gin_of


def absent_problem(action: Action) -> IllegalMove:
    """The error of an action no phase of gin allows: no meld is ever on the table."""
    name = type(action).__name__.lower().replace("layoff", "lay-off")
    return NotInVariant(
        f"There is no {name} in gin rummy: melds stay in hand until a knock. Draw, then "
        f"discard or knock; see `legal` for the moves you may make."
    )


def action_problem(table: Table, seat: int, action: Action) -> IllegalMove | None:
    match action:
        case Draw(source=source):
            return _draw_problem(table, seat, source)
        case Discard(card=card):
            return _discard_problem(table, seat, card)
        case Knock(card=card, melds=melds):
            return _knock_problem(table, seat, card, melds)
        case Pass():
            return _pass_problem(table, seat)
    raise AssertionError(f"{action} is in the phase table but has no rule")


def _turn_problem(table: Table, seat: int, phase: Phase) -> IllegalMove | None:
    problem = checks.turn_problem(table, seat, phase)
    if isinstance(problem, WrongPhase):
        hand = checks.hand_of(table)
        return WrongPhase(_phase_sentence(hand, phase))
    return problem


def _phase_sentence(hand: HandState, wanted: Phase) -> str:
    if hand.phase is _OFFER:
        return (
            "You are offered the upcard: take it (draw from the discard pile) or pass; "
            "the stock opens once both players have passed."
        )
    if wanted is _OFFER:
        return "A pass is made only in the upcard offer, at the start of a hand."
    if hand.phase is _DRAW:
        return "Draw a card first: from the stock or the discard pile."
    return "You have already drawn this turn: discard or knock."


def _draw_problem(table: Table, seat: int, source: Source) -> IllegalMove | None:
    hand = table.hand
    if hand is not None and hand.phase is _OFFER:
        problem = _turn_problem(table, seat, _OFFER)
        if problem is None and source is Source.STOCK:
            return WrongPhase(_phase_sentence(hand, _DRAW))
        return problem
    problem = _turn_problem(table, seat, _DRAW)
    if problem is not None:
        return problem
    hand = checks.hand_of(table)
    if source is Source.DISCARD and _declined(hand):
        return UpcardDeclined("Both players passed the upcard: this first draw is from the stock.")
    return checks.pile_problem(hand, source)


def _declined(hand: HandState) -> bool:
    """Both players passed the upcard and the non-dealer has not yet drawn."""
    return gin_of(hand).passes >= 2 and hand.turns == 0


def _pass_problem(table: Table, seat: int) -> IllegalMove | None:
    hand = table.hand
    if hand is not None and hand.phase is not _OFFER:
        problem = checks.turn_problem(table, hand.turn, hand.phase)
        # Outside the offer a pass is always the wrong phase (once the game and the
        # hand are in play).
        if problem is None or isinstance(problem, WrongPhase):
            return WrongPhase(_phase_sentence(hand, _OFFER))
        return problem
    return _turn_problem(table, seat, _OFFER)


def _discard_problem(table: Table, seat: int, card: Card) -> IllegalMove | None:
    problem = _turn_problem(table, seat, _PLAY)
    if problem is not None:
        return problem
    hand = checks.hand_of(table)
    problem = checks.not_held(table, hand, seat, (card,))
    if problem is not None:
        return problem
    return checks.taken_problem(hand, seat, card)


def _knock_problem(
    table: Table, seat: int, card: Card | None, melds: Sequence[Sequence[Card]] | None
) -> IllegalMove | None:
    try:
        _knock_of(table, seat, card, melds)
    except IllegalMove as problem:
        return problem
    return None


def _knock_of(
    table: Table, seat: int, card: Card | None, melds: Sequence[Sequence[Card]] | None
) -> Knocked:
    """The knock `seat` makes, or the error it raises: the card held and not just
    taken from the pile; the arrangement checked (or the server's); its deadwood
    within this hand's limit; big gin with every card in melds, when it is on."""
    problem = _turn_problem(table, seat, _PLAY)
    if problem is not None:
        raise problem
    hand = checks.hand_of(table)
    held = hand.hands[seat]
    if card is None:
        if gin_options(table.rules).big_gin_bonus is None:
            raise InvalidKnock(
                "Big gin is off in this game (`big_gin_bonus` null): knock with a card."
            )
        arranged = deadwood.declared(held, melds, table.rules)
        if arranged.deadwood:
            raise InvalidKnock(
                "A knock without a card is big gin: all eleven cards in melds. "
                f"{' '.join(c.code for c in arranged.deadwood)} would be left over."
            )
        return Knocked(seat=seat, card=None, kind=KnockKind.BIG_GIN, melds=arranged.melds)
    problem = checks.not_held(table, hand, seat, (card,))
    if problem is not None:
        raise problem
    if checks.taken_problem(hand, seat, card) is not None:
        raise DiscardTakenCard(
            f"{card} was taken from the discard pile this turn: knock with another card."
        )
    rest = list(held)
    rest.remove(card)
    arranged = deadwood.declared(rest, melds, table.rules)
    limit = gin_of(hand).knock_limit
    if arranged.count > limit:
        raise KnockTooHigh(
            f"Knocking with {card} leaves {arranged.count} in deadwood; this hand's knock "
            f"limit is {limit}" + (" (gin only)." if limit == 0 else ".")
        )
    kind = KnockKind.GIN if arranged.count == 0 else KnockKind.KNOCK
    return Knocked(seat=seat, card=card, kind=kind, melds=arranged.melds)


def legal_moves(table: Table, seat: int) -> LegalMoves:
    """Every move `seat` may make now, from the same checks that enforce them; its
    least deadwood whenever it holds a hand."""
    hand = table.hand
    if hand is None or table.over:
        return NO_MOVES
    held = hand.hands[seat]
    arranged = deadwood.least(held, table.rules) if held else None
    least = None if arranged is None else arranged.count
    if (
        hand.knocker is not None
        or hand.turn != seat
        or checks.turn_problem(table, seat, hand.phase) is not None
    ):
        return LegalMoves(deadwood=least)
    if hand.phase is _OFFER:
        return LegalMoves(draw=(Source.DISCARD,), can_pass=True, deadwood=least)
    if hand.phase is _DRAW:
        return LegalMoves(
            draw=tuple(
                source
                for source in (Source.STOCK, Source.DISCARD)
                if _draw_problem(table, seat, source) is None
            ),
            deadwood=least,
        )
    assert least is not None, "a seat in its play phase holds cards"
    limit = gin_of(hand).knock_limit
    ordered = sorted_cards(set(held))
    return LegalMoves(
        discard=tuple(card for card in ordered if checks.taken_problem(hand, seat, card) is None),
        # Throwing a card lowers the least deadwood by at most its value: a card that
        # cannot bring it within the limit is no knock, without arranging the rest.
        knock=tuple(
            card
            for card in ordered
            if least - card_value(card, table.rules) <= limit
            and _knock_problem(table, seat, card, None) is None
        ),
        big_gin=least == 0 and gin_options(table.rules).big_gin_bonus is not None,
        deadwood=least,
    )


def decide(table: Table, seat: int, action: Action, decks: DeckSource) -> list[Event]:
    """The events a verified `action` makes."""
    hand = checks.hand_of(table)
    match action:
        case Draw(source=source):
            return checks.draw(table, hand, seat, source, decks)
        case Discard(card=card):
            return [CardDiscarded(seat=seat, card=card)]
        case Knock(card=card, melds=melds):
            return [_knock_of(table, seat, card, melds)]
        case Pass():
            return [UpcardPassed(seat=seat)]
    raise AssertionError(f"{action} is not a gin move")
