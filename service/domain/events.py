"""What happened at a table, and how each fact changes the table.

`apply` only records: it never checks a rule, reads a clock or draws a
random number, because it runs again on every replay. The checks happen
before an event exists, in `turns` and `flow`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.domain.cards import Card, card_codes
from service.domain.deal import deal
from service.domain.melds import End, MeldKind, TableMeld, extend
from service.domain.state import HandResult, HandState, Phase, Source, Table


@dataclass(frozen=True, slots=True)
class PlayerJoined:
    seat: int


@dataclass(frozen=True, slots=True)
class HandDealt:
    hand_number: int
    dealer: int
    deck: tuple[Card, ...]
    """The full deck order the hand was dealt from."""


@dataclass(frozen=True, slots=True)
class CardDrawn:
    seat: int
    source: Source
    card: Card


@dataclass(frozen=True, slots=True)
class MeldLaid:
    seat: int
    meld_id: str
    kind: MeldKind
    cards: tuple[Card, ...]
    """In table order."""


@dataclass(frozen=True, slots=True)
class CardLaidOff:
    seat: int
    meld_id: str
    card: Card
    end: End


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class StockRecycled:
    stock: tuple[Card, ...]
    """The new stock, top first."""
    shuffled: bool


@dataclass(frozen=True, slots=True)
class HandEnded:
    result: HandResult


@dataclass(frozen=True, slots=True)
class GameFinished:
    winner: int
    totals: tuple[int, ...]


Event = (
    PlayerJoined
    | HandDealt
    | CardDrawn
    | MeldLaid
    | CardLaidOff
    | CardDiscarded
    | StockRecycled
    | HandEnded
    | GameFinished
)


def apply(table: Table, event: Event) -> None:
    """Change `table` by one event."""
    match event:
        case PlayerJoined(seat=seat):
            table.seated[seat] = True
        case HandDealt():
            _apply_hand_dealt(table, event)
        case CardDrawn(seat=seat, source=source, card=card):
            hand = _hand(table)
            pile = hand.stock if source is Source.STOCK else hand.discard
            pile.pop()
            hand.hands[seat].append(card)
            hand.taken = card if source is Source.DISCARD else None
            hand.phase = Phase.PLAY
        case MeldLaid(seat=seat, meld_id=meld_id, kind=kind, cards=cards):
            hand = _hand(table)
            held = hand.hands[seat]
            for card in cards:
                held.remove(card)
            hand.melds.append(TableMeld(id=meld_id, kind=kind, cards=list(cards), owner=seat))
            hand.melds_laid += 1
            hand.melds_this_turn += 1
            hand.played_this_turn = True
        case CardLaidOff(seat=seat, meld_id=meld_id, card=card, end=end):
            hand = _hand(table)
            hand.hands[seat].remove(card)
            meld = hand.meld(meld_id)
            assert meld is not None, "a laid-off card names a meld on the table"
            extend(meld, card, end, seat)
            hand.played_this_turn = True
        case CardDiscarded(seat=seat, card=card):
            hand = _hand(table)
            held = hand.hands[seat]
            held.remove(card)
            hand.discard.append(card)
            # A discard that empties the hand goes out on this very turn, so its
            # melds were not laid "in an earlier turn": it may still be a rummy.
            if hand.played_this_turn and held:
                hand.played_before[seat] = True
            hand.turn = (seat + 1) % table.players
            hand.phase = Phase.DRAW
            hand.taken = None
            hand.melds_this_turn = 0
            hand.played_this_turn = False
            hand.turns += 1
        case StockRecycled(stock=stock):
            hand = _hand(table)
            hand.discard = hand.discard[-1:]
            hand.stock = list(reversed(stock))
            hand.recycles += 1
        case HandEnded(result=result):
            table.totals = list(result.totals)
            table.last_hand = result
            table.hands_played = result.hand_number
            table.hand = None
        case GameFinished(winner=winner, totals=totals):
            table.winner = winner
            table.totals = list(totals)
            table.finished = True


def _apply_hand_dealt(table: Table, event: HandDealt) -> None:
    size = table.rules.hand_size_for(table.players)
    dealt = deal(event.deck, event.dealer, table.players, size)
    table.dealer = event.dealer
    table.hand = HandState(
        number=event.hand_number,
        dealer=event.dealer,
        hands=[list(cards) for cards in dealt.hands],
        stock=list(reversed(dealt.stock)),
        discard=[dealt.upcard],
        turn=(event.dealer + 1) % table.players,
        played_before=[False] * table.players,
    )


def _hand(table: Table) -> HandState:
    assert table.hand is not None, "a move event only follows a deal"
    return table.hand


def plain(event: Event) -> tuple[str, dict[str, Any]]:
    """The event's type name and its data as plain values (card codes as strings):
    the form stored events and audit exports carry. A join's player details are
    not the rules' business: its data here is empty."""
    match event:
        case PlayerJoined():
            return "player_joined", {}
        case HandDealt(hand_number=number, dealer=dealer, deck=deck):
            return "hand_dealt", {"hand_number": number, "dealer": dealer, "deck": card_codes(deck)}
        case CardDrawn(source=source, card=card):
            return "card_drawn", {"source": source.value, "card": card.code}
        case MeldLaid(meld_id=meld_id, kind=kind, cards=cards):
            return "meld_laid", {"meld_id": meld_id, "kind": kind.value, "cards": card_codes(cards)}
        case CardLaidOff(meld_id=meld_id, card=card, end=end):
            return "card_laid_off", {"meld_id": meld_id, "card": card.code, "end": end.value}
        case CardDiscarded(card=card):
            return "card_discarded", {"card": card.code}
        case StockRecycled(stock=stock, shuffled=shuffled):
            return "stock_recycled", {"stock": card_codes(stock), "shuffled": shuffled}
        case HandEnded(result=result):
            return "hand_ended", {
                "hand_number": result.hand_number,
                "how": result.how.value,
                "out_seat": result.out_seat,
                "remaining": [card_codes(cards) for cards in result.remaining],
                "values": list(result.values),
                "points": list(result.points),
                "totals": list(result.totals),
            }
        case GameFinished(winner=winner, totals=totals):
            return "game_finished", {"winner": winner, "totals": list(totals)}
