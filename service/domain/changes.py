"""How each event changes a table: `apply`, the one place a table changes.

`apply` only records: it never checks a rule, reads a clock or draws a
random number, because it runs again on every replay (the verifier's too).
The checks happen before an event exists, in `turns` and `flow`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from service.domain.cards import Card
from service.domain.events import (
    CardDiscarded,
    CardDrawn,
    CardLaidOff,
    Declared,
    Event,
    GameAborted,
    GameFinished,
    GroupsSubmitted,
    HandDealt,
    HandEnded,
    Knocked,
    MeldLaid,
    PlayerDropped,
    PlayerEliminated,
    PlayerJoined,
    PlayerLeft,
    StockRecycled,
    TimeBankUsed,
    TurnTimedOut,
    UpcardPassed,
    WildSwapped,
    actor,
)
from service.domain.melds import TableMeld, extend
from service.domain.state import (
    DealStatus,
    HandState,
    Phase,
    Show,
    Source,
    Table,
    gin_of,
    indian_of,
)

_TURN_ENDS = (CardDiscarded, Knocked, Declared, GroupsSubmitted, PlayerDropped, UpcardPassed)
"""A seat's own events that end its turn (or its part of a show)."""


def apply(table: Table, event: Event) -> None:
    """Change `table` by one event."""
    table.events += 1
    if table.clocked is not None or any(table.timeouts):
        _count_timeouts(table, event)
    match event:
        case PlayerJoined(seat=seat):
            table.seated[seat] = True
        case HandDealt():
            _apply_hand_dealt(table, event)
        case CardDrawn(seat=seat, source=source, card=card, second=second):
            hand = _hand(table)
            if hand.spread is not None and source is Source.DISCARD:
                _apply_spread_draw(hand, event)
                return
            pile = hand.stock if source is Source.STOCK else hand.discard
            pile.pop()
            hand.hands[seat].append(card)
            if hand.indian is not None:
                hand.indian.drawn[seat] = True
            from_pile = card if source is Source.DISCARD else None
            if from_pile is not None:
                remember(hand, seat, (from_pile,))
            if second:
                hand.taken_second = from_pile
                hand.phase = Phase.PLAY
            else:
                hand.taken = from_pile
                # Boathouse: the top discard is taken with a second card at once.
                pair = from_pile is not None and table.features.second_draw
                hand.phase = Phase.SECOND_DRAW if pair else Phase.PLAY
        case MeldLaid(seat=seat, meld_id=meld_id, kind=kind, cards=cards, as_=as_):
            hand = _hand(table)
            held = hand.hands[seat]
            for card in cards:
                held.remove(card)
            forget(hand, seat, cards)
            hand.melds.append(
                TableMeld(
                    id=meld_id,
                    kind=kind,
                    cards=list(cards),
                    owner=seat,
                    as_=None if as_ is None else list(as_),
                )
            )
            hand.melds_laid += 1
            hand.melds_this_turn += 1
            hand.played_this_turn = True
            if hand.spread is not None and hand.spread.called in cards:
                hand.spread.called = None
        case CardLaidOff(seat=seat, meld_id=meld_id, card=card, end=end, as_=as_):
            hand = _hand(table)
            hand.hands[seat].remove(card)
            forget(hand, seat, (card,))
            meld = hand.meld(meld_id)
            assert meld is not None, "a laid-off card names a meld on the table"
            extend(meld, card, end, seat, as_)
            hand.played_this_turn = True
            if hand.spread is not None and hand.spread.called == card:
                hand.spread.called = None
        case WildSwapped(seat=seat, meld_id=meld_id, card=card, wild=wild, as_=as_):
            hand = _hand(table)
            held = hand.hands[seat]
            held.remove(card)
            meld = hand.meld(meld_id)
            assert meld is not None, "a swap names a meld on the table"
            assert meld.as_ is not None, "a swap names a meld with readings"
            place = next(
                index
                for index, (placed, reading) in enumerate(zip(meld.cards, meld.as_, strict=True))
                if placed == wild and reading == as_
            )
            meld.cards[place] = card
            meld.as_[place] = card
            held.append(wild)
            forget(hand, seat, (card,))
            remember(hand, seat, (wild,))
            # A swap lays a card on the table: going out in a later turn is no rummy.
            hand.played_this_turn = True
        case Knocked(seat=seat, card=card):
            hand = _hand(table)
            if card is not None:  # Gin's big gin knocks with no card
                hand.hands[seat].remove(card)
                hand.out_of_play.append(card)
                forget(hand, seat, (card,))
            hand.knocker = seat
            if hand.gin is not None:
                hand.gin = replace(hand.gin, kind=event.kind, melds=event.melds or ())
        case UpcardPassed(seat=seat):
            _apply_upcard_passed(table, _hand(table), seat)
        case CardDiscarded(seat=seat, card=card):
            hand = _hand(table)
            held = hand.hands[seat]
            held.remove(card)
            forget(hand, seat, (card,))
            hand.discard.append(card)
            # A discard that empties the hand goes out on this very turn, so its
            # melds were not laid "in an earlier turn": it may still be a rummy.
            if hand.played_this_turn and held:
                hand.played_before[seat] = True
            _next_turn(table, hand, seat)
        case StockRecycled(stock=stock):
            hand = _hand(table)
            hand.discard = hand.discard[-1:]
            hand.stock = list(reversed(stock))
            hand.recycles += 1
        case Declared(seat=seat, card=card, groups=groups, valid=valid, points=points):
            hand = _hand(table)
            held = hand.hands[seat]
            held.remove(card)
            forget(hand, seat, (card,))
            hand.out_of_play.append(card)
            indian = indian_of(hand)
            indian.shows.append(
                Show(seat=seat, groups=groups, points=points, card=card, valid=valid)
            )
            indian.deal_points[seat] = points
            statuses = indian.statuses
            if valid:
                # The others in the deal show in any order; the declarer's 13 stay shown.
                statuses[seat] = DealStatus.DECLARED
                for other, status in enumerate(statuses):
                    if status is DealStatus.IN:
                        statuses[other] = DealStatus.TO_SUBMIT
                hand.phase = Phase.SHOW
            else:
                statuses[seat] = DealStatus.WRONG_SHOW
                _set_aside(hand, seat)
                _next_turn(table, hand, seat)
        case GroupsSubmitted(seat=seat, groups=groups, points=points):
            hand = _hand(table)
            indian = indian_of(hand)
            indian.shows.append(Show(seat=seat, groups=groups, points=points))
            indian.deal_points[seat] = points
            indian.statuses[seat] = DealStatus.SUBMITTED
        case PlayerDropped(seat=seat, points=points):
            hand = _hand(table)
            _set_aside(hand, seat)
            indian = indian_of(hand)
            indian.deal_points[seat] = points
            indian.statuses[seat] = DealStatus.DROPPED
            _next_turn(table, hand, seat)
        case PlayerEliminated(player=player):
            table.eliminated[player] = True
        case TurnTimedOut(player=seat, timeouts=timeouts):
            table.timeouts[seat] = timeouts
            table.clocked = seat
        case PlayerLeft():
            _apply_player_left(table, event)
        case TimeBankUsed(player=seat, seconds=seconds):
            table.bank_left[seat] -= seconds
        case HandEnded():
            if event.hand_winner is not None:
                table.hands_won[event.hand_winner] += 1
            table.totals = list(event.totals)
            table.last_hand = event
            table.hands_played = event.hand_number
            table.hand = None
        case GameFinished(winner=winner, totals=totals):
            table.final = event.result
            table.winner = winner
            table.totals = list(totals)
            table.finished = True
        case GameAborted():
            table.aborted = True
            table.winner = None
            table.hand = None


def _count_timeouts(table: Table, event: Event) -> None:
    """A seat's consecutive timeouts go back to 0 when it ends a turn itself (a
    discard, a knock, a declaration, a show's submission, a drop, or going out); its
    moves in a turn the clock plays (after its `TurnTimedOut`) do not count."""
    seat = actor(event)
    if seat is None:
        if isinstance(event, HandDealt | HandEnded | GameFinished | GameAborted):
            table.clocked = None
        return
    if table.clocked is not None and table.clocked != seat:
        table.clocked = None
    if table.clocked == seat:
        return
    if isinstance(event, _TURN_ENDS):
        table.timeouts[seat] = 0
    elif isinstance(event, MeldLaid | CardLaidOff) and table.hand is not None:
        # Going out by a meld or a lay-off that empties the hand ends the turn too.
        laid = len(event.cards) if isinstance(event, MeldLaid) else 1
        if len(table.hand.hands[seat]) == laid:
            table.timeouts[seat] = 0


def _apply_player_left(table: Table, event: PlayerLeft) -> None:
    seat = event.player
    table.left[seat] = True
    table.timeouts[seat] = 0
    if table.clocked == seat:
        table.clocked = None
    if event.replaced:
        return
    table.forfeited[seat] = True
    hand = table.hand
    if hand is None or table.finished:
        return
    if event.points is not None:
        # Indian: scored as a drop; its hand set aside face down, never shown.
        _set_aside(hand, seat)
        indian = indian_of(hand)
        indian.deal_points[seat] = event.points
        indian.statuses[seat] = DealStatus.DROPPED
        if hand.turn == seat:
            _next_turn(table, hand, seat)
    elif hand.indian is None and hand.turn == seat:
        # The other variants: its cards lie face down where they are, unplayed; the
        # turn passes on.
        _next_turn(table, hand, seat)


def _next_turn(table: Table, hand: HandState, seat: int) -> None:
    """The turn passes to the next seat still in the deal (every seat, but in Indian
    Rummy's deals)."""
    turn = (seat + 1) % table.seat_count
    if hand.indian is not None:
        statuses = hand.indian.statuses
        while statuses[turn] is not DealStatus.IN and turn != seat:
            turn = (turn + 1) % table.seat_count
    elif any(table.forfeited):
        while table.forfeited[turn] and turn != seat:
            turn = (turn + 1) % table.seat_count
    hand.turn = turn
    hand.phase = Phase.DRAW
    hand.taken = None
    hand.taken_second = None
    hand.melds_this_turn = 0
    hand.played_this_turn = False
    hand.turns += 1
    if hand.spread is not None:
        hand.spread.called = None


def _apply_spread_draw(hand: HandState, event: CardDrawn) -> None:
    """500 Rum: the top `count` cards of the spread pile to the hand, in pile order.
    No taken card is kept (a card so taken may be discarded); of several, the
    deepest is called until it is used."""
    assert hand.spread is not None, "checked by the caller"
    taken = event.cards if event.cards is not None else (event.card,)
    del hand.discard[-len(taken) :]
    hand.hands[event.seat].extend(taken)
    remember(hand, event.seat, taken)
    hand.spread.called = event.card if event.count > 1 else None
    hand.phase = Phase.PLAY


def _set_aside(hand: HandState, seat: int) -> None:
    """`seat`'s hand goes out of play face down, never shown (an Indian drop or wrong
    show): nothing of it is known any more."""
    held = hand.hands[seat]
    hand.out_of_play.extend(held)
    held.clear()
    hand.known.pop(seat, None)


def remember(hand: HandState, seat: int, cards: Iterable[Card]) -> None:
    """`seat` took `cards` into its hand face up: the table knows it holds them."""
    hand.known.setdefault(seat, []).extend(cards)


def forget(hand: HandState, seat: int, cards: Iterable[Card]) -> None:
    """`seat` played `cards` from its hand face up. A known card of the same face
    goes from what the table knows it holds: nobody can tell which copy of a card
    of two packs was played, so a player at the table would take it for that one."""
    known = hand.known.get(seat)
    if not known:
        return
    for card in cards:
        if card in known:
            known.remove(card)
    if not known:
        del hand.known[seat]


def _apply_upcard_passed(table: Table, hand: HandState, seat: int) -> None:
    """Gin: the offer passes from the non-dealer to the dealer; when both have passed,
    the non-dealer's turn begins with a draw (from the stock: `upcard_declined`)."""
    gin = gin_of(hand)
    hand.gin = replace(gin, passes=gin.passes + 1)
    hand.turn = (seat + 1) % table.seat_count
    if gin.passes + 1 >= table.seat_count:
        hand.phase = Phase.DRAW


def _apply_hand_dealt(table: Table, event: HandDealt) -> None:
    table.engine.apply_deal(table, event)


def _hand(table: Table) -> HandState:
    assert table.hand is not None, "a move event only follows a deal"
    return table.hand
