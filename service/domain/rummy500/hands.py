"""500 Rum's hands: the deal (the Western deal, with a spread pile), the end of a
hand (someone out, or a turn ended with the stock empty, or the turn cap) scored by
meld credit, and, between hands, the Western family's next deal and game end (the
highest total once some total reaches `target`; a tie plays another hand)."""

from __future__ import annotations

from service.domain.decks import DeckSource
from service.domain.enum_members import DRAW_PHASE as _DRAW_PHASE
from service.domain.events import Event, HandDealt, HandEnded
from service.domain.flow import someone_out
from service.domain.rummy500.credit import hand_points
from service.domain.state import HandEnding, HandState, SpreadHand, Table
from service.domain.western import hands as western

first_deal = western.first_deal


def apply_deal(table: Table, event: HandDealt) -> None:
    """The Western deal (`hand_size` each, the upcard, the stock), its pile spread."""
    western.apply_deal(table, event)
    assert table.hand is not None, "just dealt"
    table.hand.spread = SpreadHand()


def next_event(table: Table, decks: DeckSource) -> Event | None:
    """The event that now happens by itself in a 500 Rum game in play, or None."""
    hand = table.hand
    if hand is None or table.forfeited.count(False) == 1:
        # Between hands (and a game forfeited down to one seat): as every Western game.
        return western.next_event(table, decks)
    out = someone_out(table, hand)
    if out is not None:
        return hand_ended(table, hand, HandEnding.OUT, out)
    if hand.phase is _DRAW_PHASE and not hand.stock:
        # A turn ended with the stock empty (none is ever recycled).
        return hand_ended(table, hand, HandEnding.EXHAUSTED)
    if hand.turns >= table.rules.max_turns:
        return hand_ended(table, hand, HandEnding.TURN_CAP)
    return None


def hand_ended_without_out(table: Table, hand: HandState, how: HandEnding) -> HandEnded:
    return hand_ended(table, hand, how)


def hand_ended(
    table: Table, hand: HandState, how: HandEnding, out_seat: int | None = None
) -> HandEnded:
    """The hand's result: each seat's values put down (`melded`), its cards left in
    hand (a forfeiter's face down: counted, never shown), and its score."""
    melded, held, points = hand_points(hand.melds, hand.hands, table.rules)
    return HandEnded(
        hand_number=hand.number,
        how=how,
        out_seat=out_seat,
        remaining=tuple(
            () if table.forfeited[seat] else tuple(cards) for seat, cards in enumerate(hand.hands)
        ),
        values=tuple(held),
        points=tuple(points),
        totals=tuple(total + add for total, add in zip(table.totals, points, strict=True)),
        melded=tuple(melded),
    )
