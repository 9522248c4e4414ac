"""Indian Rummy's deals (docs/rules.md "Indian 13-card Rummy", "Formats"): who is
dealt in, how a deal ends and scores, who is eliminated, and who wins.

`flow` asks this module for the next automatic event of an Indian game, so the
Western games' flow stays as it was. Everything here follows from the table
the moves left behind: replaying the events gives the same answers.
"""

from __future__ import annotations

from service.domain import groups
from service.domain.decks import DeckSource
from service.domain.events import Event, GameFinished, HandDealt, HandEnded, PlayerEliminated
from service.domain.rules import Format
from service.domain.state import DealStatus, HandEnding, HandState, Phase, Table

_IN = DealStatus.IN
_OUT_OF_GAME = (DealStatus.SITTING_OUT, DealStatus.ELIMINATED)


def next_event(table: Table, decks: DeckSource) -> Event | None:
    """The event that now happens by itself in an Indian game, or None."""
    hand = table.hand
    if hand is None:
        return _after_deal(table, decks)
    statuses = hand.statuses
    assert statuses is not None, "an Indian deal keeps its seats' statuses"
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
        dealer = decks.first_dealer(table.players)
    return HandDealt(
        hand_number=1,
        dealer=dealer,
        deck=tuple(decks.deck(1)),
        seats=tuple(range(table.players)),
    )


def void_deal(table: Table, hand: HandState, how: HandEnding) -> HandEnded:
    """A dry deal, or one at `max_turns`: nobody scores."""
    return _deal_ended(table, hand, how, None)


def _deal_ended(table: Table, hand: HandState, how: HandEnding, winner: int | None) -> HandEnded:
    statuses = hand.statuses
    assert statuses is not None, "an Indian deal keeps its seats' statuses"
    rules = table.rules
    # A winner by last standing scores 0 without showing; a void deal scores nobody.
    points = [
        0 if winner is None else (hand.deal_points[seat] or 0) for seat in range(table.players)
    ]
    totals = list(table.totals)
    if winner is not None:
        pool = rules.format is Format.POOL_101 or rules.format is Format.POOL_201
        for seat, lost in enumerate(points):
            if seat == winner or statuses[seat] in _OUT_OF_GAME:
                continue
            if pool:
                totals[seat] += lost
            else:  # points and deals: the losers pay the winner
                totals[seat] -= lost
                totals[winner] += lost
    shown = {show.seat for show in hand.shows}
    limit = rules.format.pool_limit if rules.format is not None else None
    eliminated = None
    if limit is not None:
        eliminated = tuple(
            seat
            for seat, total in enumerate(totals)
            # A forfeit is out of a pool for good, whatever its score.
            if (total >= limit or table.forfeited[seat]) and not table.eliminated[seat]
        )
    assert hand.wild is not None, "an Indian deal has its wild rank"
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
            sum(groups.card_points(card, hand.wild) for card in held) if seat in shown else 0
            for seat, held in enumerate(hand.hands)
        ),
        points=tuple(points),
        totals=tuple(totals),
        statuses=tuple(statuses),
        shows=tuple(hand.shows),
        eliminated=eliminated,
    )


def _after_deal(table: Table, decks: DeckSource) -> Event:
    last = table.last_hand
    assert last is not None, "a deal has ended"
    assert last.statuses is not None, "an Indian deal's result has its statuses"
    rules = table.rules
    for seat in last.eliminated or ():
        if not table.eliminated[seat]:
            return PlayerEliminated(player=seat, score=table.totals[seat])
    seats = _next_seats(table, last.statuses)
    if len(seats) == 1:
        return GameFinished(winner=seats[0], totals=tuple(table.totals))
    if rules.format is Format.POINTS and last.out_seat is not None:
        return GameFinished(winner=last.out_seat, totals=tuple(table.totals))
    assert table.dealer is not None, "a deal has ended, so one was dealt"
    # The deal passes to the next seat dealt in.
    dealer = next(
        (table.dealer + step) % table.players
        for step in range(1, table.players + 1)
        if (table.dealer + step) % table.players in seats
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
    rules = table.rules
    if rules.format is Format.DEALS:
        assert rules.deals is not None, "format deals has its number of deals"
        if table.hands_played < rules.deals:
            return dealt
        best = max(table.totals[seat] for seat in dealt)
        return [seat for seat in dealt if table.totals[seat] == best]
    return [
        seat
        for seat in range(table.players)
        if not table.eliminated[seat] and not table.forfeited[seat]
    ]
