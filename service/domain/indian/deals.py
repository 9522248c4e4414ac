"""Indian Rummy's deals (docs/rules.md "Indian 13-card Rummy", "Formats"): who is
dealt in, how a deal ends and scores, who is eliminated, and who wins.

The Indian engine (`indian.engine`) asks this module for the deal, its `apply`
and the next automatic event of an Indian game. Everything here follows from the table
the moves left behind: replaying the events gives the same answers.
"""

from __future__ import annotations

from service.domain import caps
from service.domain.cards import Card
from service.domain.dealing import deal_among
from service.domain.decks import DeckSource
from service.domain.enum_members import DEAL_IN as _IN
from service.domain.events import Event, GameFinished, HandDealt, HandEnded, PlayerEliminated
from service.domain.indian import judge
from service.domain.indian.judge import wild_rank_of
from service.domain.indian.options import indian_options
from service.domain.rule_values import Format
from service.domain.state import (
    DealStatus,
    HandEnding,
    HandState,
    IndianHand,
    Phase,
    Table,
    indian_of,
    statuses_of,
)

_OUT_OF_GAME = (DealStatus.SITTING_OUT, DealStatus.ELIMINATED)


def next_event(table: Table, decks: DeckSource) -> Event | None:
    """The event that now happens by itself in an Indian game, or None."""
    hand = table.hand
    if hand is None:
        return _after_deal(table, decks)
    statuses = indian_of(hand).statuses
    if hand.phase is Phase.SHOW:
        if DealStatus.TO_SUBMIT not in statuses:
            declarer = statuses.index(DealStatus.DECLARED)
            return _deal_ended(table, hand, HandEnding.DECLARED, declarer)
        return None
    left = [seat for seat, status in enumerate(statuses) if status is _IN]
    if len(left) == 1:
        return _deal_ended(table, hand, HandEnding.LAST_STANDING, left[0])
    if hand.turns >= table.rules.max_turns:
        return void_deal(table, hand, HandEnding.TURN_CAP)
    return None


def first_deal(table: Table, decks: DeckSource) -> HandDealt:
    dealer = table.first_dealer
    if dealer is None:
        dealer = decks.first_dealer(table.seat_count)
    return HandDealt(
        hand_number=1,
        dealer=dealer,
        deck=tuple(decks.deck(1)),
        seats=tuple(range(table.seat_count)),
    )


def void_deal(table: Table, hand: HandState, how: HandEnding) -> HandEnded:
    """A dry deal, or one at `max_turns`: nobody scores."""
    return _deal_ended(table, hand, how, None)


def _deal_ended(table: Table, hand: HandState, how: HandEnding, winner: int | None) -> HandEnded:
    indian = indian_of(hand)
    statuses = indian.statuses
    format_ = indian_options(table.rules).format
    # A winner by last standing scores 0 without showing; a void deal scores nobody.
    points = [
        0 if winner is None else (indian.deal_points[seat] or 0) for seat in range(table.seat_count)
    ]
    totals = list(table.totals)
    if winner is not None:
        pool = format_ is Format.POOL_101 or format_ is Format.POOL_201
        for seat, lost in enumerate(points):
            if seat == winner or statuses[seat] in _OUT_OF_GAME:
                continue
            if pool:
                totals[seat] += lost
            else:  # points and deals: the losers pay the winner
                totals[seat] -= lost
                totals[winner] += lost
    shown = {show.seat for show in indian.shows}
    limit = format_.pool_limit
    eliminated = None
    if limit is not None:
        eliminated = tuple(
            seat
            for seat, total in enumerate(totals)
            # A forfeit is out of a pool for good, whatever its score.
            if (total >= limit or table.forfeited[seat]) and not table.eliminated[seat]
        )
    return HandEnded(
        hand_number=hand.number,
        how=how,
        out_seat=winner,
        # Only a shown hand is shown again: a dropped hand never, nor a winner's
        # by last standing, nor any hand of a void deal.
        remaining=tuple(
            tuple(held) if seat in shown else () for seat, held in enumerate(hand.hands)
        ),
        values=tuple(
            sum(judge.card_points(card, indian.wild) for card in held) if seat in shown else 0
            for seat, held in enumerate(hand.hands)
        ),
        points=tuple(points),
        totals=tuple(totals),
        statuses=tuple(statuses),
        shows=tuple(indian.shows),
        eliminated=eliminated,
    )


def _after_deal(table: Table, decks: DeckSource) -> Event:
    last = table.last_hand
    assert last is not None, "a deal has ended"
    for seat in last.eliminated or ():
        if not table.eliminated[seat]:
            return PlayerEliminated(player=seat, score=table.totals[seat])
    seats = _next_seats(table, statuses_of(last))
    if len(seats) == 1:
        return GameFinished(winner=seats[0], totals=tuple(table.totals))
    if indian_options(table.rules).format is Format.POINTS and last.out_seat is not None:
        return GameFinished(winner=last.out_seat, totals=tuple(table.totals))
    aborted = caps.before_deal(table)
    if aborted is not None:
        return aborted
    assert table.dealer is not None, "a deal has ended, so one was dealt"
    # The deal passes to the next seat dealt in.
    dealer = next(
        (table.dealer + step) % table.seat_count
        for step in range(1, table.seat_count + 1)
        if (table.dealer + step) % table.seat_count in seats
    )
    number = table.hands_played + 1
    return HandDealt(
        hand_number=number, dealer=dealer, deck=tuple(decks.deck(number)), seats=tuple(seats)
    )


def _next_seats(table: Table, statuses: tuple[DealStatus, ...]) -> list[int]:
    """Who is dealt in next: in a pool everyone not eliminated; in format `deals`,
    after the last deal, only those tied for the most chips among the last deal's
    players (one left: the winner)."""
    dealt = [
        seat
        for seat, status in enumerate(statuses)
        if status not in _OUT_OF_GAME and not table.forfeited[seat]
    ]
    deals = indian_options(table.rules).deals
    if deals is not None:  # format deals
        if table.hands_played < deals:
            return dealt
        best = max(table.totals[seat] for seat in dealt)
        return [seat for seat in dealt if table.totals[seat] == best]
    return [
        seat
        for seat in range(table.seat_count)
        if not table.eliminated[seat] and not table.forfeited[seat]
    ]


def apply_deal(table: Table, event: HandDealt) -> None:
    """`changes.apply` of a deal: 13 each to the seats dealt in, the upcard, then the
    wild indicator (face up, out of play); the seat after the dealer among them
    starts."""
    size = table.rules.hand_size_for(table.seat_count)
    seats = event.seats if event.seats is not None else tuple(range(table.seat_count))
    dealt = deal_among(event.deck, event.dealer, seats, size)
    hands: list[list[Card]] = [[] for _ in range(table.seat_count)]
    for seat, held in zip(seats, dealt.hands, strict=True):
        hands[seat] = list(held)
    statuses = [
        DealStatus.IN
        if seat in seats
        else DealStatus.ELIMINATED
        if table.eliminated[seat]
        else DealStatus.SITTING_OUT
        for seat in range(table.seat_count)
    ]
    table.dealer = event.dealer
    table.hand = HandState(
        number=event.hand_number,
        dealer=event.dealer,
        hands=hands,
        stock=list(reversed(dealt.stock)),
        discard=[dealt.upcard],
        turn=dealt.starter,
        phase=Phase.DRAW,
        played_before=[False] * table.seat_count,
        out_of_play=[dealt.indicator],
        indian=IndianHand(
            wild=wild_rank_of(dealt.indicator),
            indicator=dealt.indicator,
            statuses=statuses,
            deal_points=[None] * table.seat_count,
            drawn=[False] * table.seat_count,
        ),
    )
