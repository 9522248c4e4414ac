"""The variants' rules about whole requests, as a log can show them.

Two rules bind a list of actions sent together (docs/rules.md): in a
concealed turn (Boathouse; Wrotham's deals 4 to 6) melds, lay-offs and swaps
happen only in the request that goes out; under `swapped_wild: meld_now` a
wild taken by a swap leaves the hand by a meld or lay-off in the same request.
An export has no request boundaries, so the verifier checks what they imply
for the turn: a turn that laid cards while concealed ends with the seat's
hand empty (in Wrotham by a final discard), and a swapped wild leaves by a
meld or lay-off before the turn's discard or knock. Whatever the rules refuse
earlier, event by event, the referee has already refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from service.domain import events as domain
from service.domain.cards import Card
from service.domain.concealed import is_concealed, wants_discard_last
from service.domain.rule_values import SwappedWild
from service.domain.state import Table


class TurnLimitBroken(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class TurnLimits:
    """What the turn in play has done that a later event of it must settle."""

    laid: bool = False
    """Cards were laid (meld, lay-off, swap) in a concealed turn."""
    owed: list[Card] = field(default_factory=list)
    """Wilds taken by `meld_now` swaps that have not left the hand yet."""

    def check(self, table: Table, event: domain.Event) -> None:
        """Check `event`, just applied to `table`; raises `TurnLimitBroken`."""
        match event:
            case domain.MeldLaid(seat=seat, cards=cards):
                self._laid(table, seat, cards)
            case domain.CardLaidOff(seat=seat, card=card):
                self._laid(table, seat, (card,))
            case domain.WildSwapped(wild=wild):
                self.laid = self.laid or is_concealed(table)
                if table.rules.swapped_wild is SwappedWild.MELD_NOW:
                    self.owed.append(wild)
            case domain.CardDiscarded(seat=seat) | domain.Knocked(seat=seat):
                self._turn_ends(table, seat)
            case domain.HandEnded():
                self.laid, self.owed = False, []

    def _laid(self, table: Table, seat: int, cards: tuple[Card, ...]) -> None:
        for card in cards:
            if card in self.owed:
                self.owed.remove(card)
        if not is_concealed(table):
            return
        self.laid = True
        hand = table.hand
        assert hand is not None, "cards are laid only in a hand in play"
        if wants_discard_last(table) and not hand.hands[seat]:
            raise TurnLimitBroken(
                f"seat {seat} went out by laying its last card in a concealed deal of "
                f"Wrotham, where the last card must be discarded (409 must_discard_last)"
            )

    def _turn_ends(self, table: Table, seat: int) -> None:
        hand = table.hand
        assert hand is not None, "a turn ends only in a hand in play"
        if self.owed:
            wilds = " ".join(card.code for card in self.owed)
            raise TurnLimitBroken(
                f"seat {seat}'s turn ends with the swapped wild {wilds} still in hand: "
                f"under swapped_wild meld_now it must leave by a meld or lay-off "
                f"(409 swapped_wild_unused)"
            )
        if self.laid and hand.hands[seat]:
            raise TurnLimitBroken(
                f"seat {seat} laid cards in a concealed turn that does not go out "
                f"(409 meld_only_going_out)"
            )
        self.laid = False
