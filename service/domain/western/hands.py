"""The Western family's hands: the deal, what follows by itself (a hand's end and
its scoring, the next deal, the game's end) and the deal's `apply`.

The variants' features switch it: a starter deal (`starter_deal`: no upcard, the
starter holds one card more and opens without drawing), Knock Rummy's end of a
hand (`knocking`: the counts and the pot), no rummy in a concealed hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from service.domain import caps, concealed, knock, scoring
from service.domain.cards import Card
from service.domain.dealing import deal as deal_round
from service.domain.dealing import deal_to_starter
from service.domain.decks import DeckSource
from service.domain.events import Event, GameFinished, HandDealt, HandEnded
from service.domain.flow import someone_out
from service.domain.rules import RuleSet
from service.domain.state import HandEnding, HandState, Phase, Table


def first_deal(table: Table, decks: DeckSource) -> HandDealt:
    dealer = table.first_dealer
    if dealer is None:
        dealer = decks.first_dealer(table.seat_count)
    return HandDealt(hand_number=1, dealer=dealer, deck=tuple(decks.deck(1)))


@dataclass(frozen=True, slots=True)
class Dealt:
    """A deal as the cards fall: each seat's cards (in the order of the seats dealt
    in), the stock (its top first), the face-up discard pile, and the first to act
    (an index into the seats dealt in) in which phase."""

    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    first: int
    phase: Phase


def deal(rules: RuleSet, deck: Sequence[Card], dealer: int, among: int, size: int) -> Dealt:
    """`size` cards round the seats from the one after the dealer, then the upcard;
    with `starter_deal`, no upcard, an empty pile, and the starter's eighth card."""
    if rules.features.starter_deal:
        starter = deal_to_starter(deck, dealer, among, size)
        return Dealt(
            hands=starter.hands,
            stock=starter.stock,
            discard=(),
            first=starter.starter,
            phase=Phase.PLAY,
        )
    dealt = deal_round(deck, dealer, among, size)
    return Dealt(
        hands=dealt.hands,
        stock=dealt.stock,
        discard=(dealt.upcard,),
        first=(dealer + 1) % among,
        phase=Phase.DRAW,
    )


def apply_deal(table: Table, event: HandDealt) -> None:
    """The hand dealt round the seats still in the game (all of them, unless some
    forfeited)."""
    size = table.rules.hand_size_for(table.seat_count)
    seats = event.seats if event.seats is not None else tuple(range(table.seat_count))
    among = len(seats)
    if among != table.seat_count:
        size = table.rules.hand_size_for(among)
    dealt = deal(table.rules, event.deck, seats.index(event.dealer), among, size)
    hands: list[list[Card]] = [[] for _ in range(table.seat_count)]
    for seat, held in zip(seats, dealt.hands, strict=True):
        hands[seat] = list(held)
    table.dealer = event.dealer
    table.hand = HandState(
        number=event.hand_number,
        dealer=event.dealer,
        hands=hands,
        stock=list(reversed(dealt.stock)),
        discard=list(dealt.discard),
        turn=seats[dealt.first],
        phase=dealt.phase,
        played_before=[False] * table.seat_count,
    )


def next_event(table: Table, decks: DeckSource) -> Event | None:
    """The event that now happens by itself in a Western game in play, or None."""
    if any(table.forfeited):
        # A Western game forfeited down to one seat ends at once: it wins.
        still_in = [seat for seat, out in enumerate(table.forfeited) if not out]
        if len(still_in) == 1:
            return GameFinished(winner=still_in[0], totals=tuple(table.totals))
    hand = table.hand
    if hand is None:
        return _after_hand(table, decks)
    if hand.knocker is not None:
        return _hand_ended_knock(table, hand, hand.knocker)
    out = someone_out(table, hand)
    if out is not None:
        return _hand_ended_out(table, hand, out)
    if hand.turns >= table.rules.max_turns:
        return hand_ended_without_out(table, hand, HandEnding.TURN_CAP)
    return None


def hand_ended_without_out(table: Table, hand: HandState, how: HandEnding) -> HandEnded:
    """A hand that ends with nobody out: scored by what is left in hand (`exhausted`),
    or in Knock Rummy by the arranged counts."""
    if table.features.knocking:
        # Knock Rummy scores a hand that runs out by the arranged counts.
        shown = _arranged(table, hand)
        points = scoring.points_for_values(
            [each.count for each in shown], table.rules, out=_forfeited(table)
        )
        return _hand_ended(table, hand, how, None, points, _shown(table, shown))
    points = scoring.points_for_exhausted(hand.hands, table.rules, out=_forfeited(table))
    return _hand_ended(table, hand, how, None, points)


def _hand_ended_knock(table: Table, hand: HandState, knocker: int) -> HandEnded:
    shown = _arranged(table, hand)
    options = knock.knock_options(table.rules)
    settled = knock.pot(
        [each.count for each in shown],
        knocker,
        penalty=options.penalty,
        bonus=options.bonus,
        out=_forfeited(table),
    )
    return _hand_ended(
        table,
        hand,
        HandEnding.KNOCK,
        None,
        list(settled.points),
        # The knock card is the one card a knock puts out of play.
        {"knocker": knocker, "knock_card": hand.out_of_play[-1], "pot": settled.pot}
        | _shown(table, shown),
    )


def _arranged(table: Table, hand: HandState) -> list[knock.Arrangement]:
    return [knock.arrange(held, table.rules) for held in hand.hands]


def _shown(table: Table, shown: Sequence[knock.Arrangement]) -> dict[str, Any]:
    """The arranged hands as a Knock Rummy result shows them (a forfeiter's face
    down: its count only)."""
    hidden = table.forfeited
    return {
        "counts": tuple(each.count for each in shown),
        "unmatched": tuple(
            () if hidden[seat] else each.unmatched for seat, each in enumerate(shown)
        ),
        "arranged": tuple(() if hidden[seat] else each.melds for seat, each in enumerate(shown)),
    }


def _forfeited(table: Table) -> tuple[int, ...]:
    """The seats that forfeited: they lose like anyone, and never win."""
    return tuple(seat for seat, out in enumerate(table.forfeited) if out)


def _hand_ended_out(table: Table, hand: HandState, seat: int) -> HandEnded:
    rummy = not hand.played_before[seat] and concealed.is_rummy_possible(table)
    points = scoring.points_for_out(hand.hands, seat, rummy, table.rules)
    return _hand_ended(table, hand, HandEnding.RUMMY if rummy else HandEnding.OUT, seat, points)


def _hand_ended(
    table: Table,
    hand: HandState,
    how: HandEnding,
    out_seat: int | None,
    points: list[int],
    knock_result: dict[str, Any] | None = None,
) -> HandEnded:
    return HandEnded(
        hand_number=hand.number,
        how=how,
        out_seat=out_seat,
        # A forfeiter's cards stay face down: counted (`values`), never shown.
        remaining=tuple(
            () if table.forfeited[seat] else tuple(held) for seat, held in enumerate(hand.hands)
        ),
        values=tuple(scoring.hand_value(held, table.rules) for held in hand.hands),
        points=tuple(points),
        totals=tuple(total + add for total, add in zip(table.totals, points, strict=True)),
        **(knock_result or {}),
    )


def _after_hand(table: Table, decks: DeckSource) -> Event:
    out = _forfeited(table)
    winner = scoring.game_winner(table.totals, table.hands_played, table.rules, out=out)
    if winner is not None:
        return GameFinished(winner=winner, totals=tuple(table.totals))
    aborted = caps.before_deal(table)
    if aborted is not None:
        return aborted
    assert table.dealer is not None, "a hand has ended, so one was dealt"
    number = table.hands_played + 1
    # The deal passes to the next seat still in; a forfeiter is dealt no more.
    dealer = next(
        (table.dealer + step) % table.seat_count
        for step in range(1, table.seat_count + 1)
        if (table.dealer + step) % table.seat_count not in out
    )
    still_in = tuple(seat for seat in range(table.seat_count) if seat not in out)
    return HandDealt(
        hand_number=number,
        dealer=dealer,
        deck=tuple(decks.deck(number)),
        seats=still_in if out else None,
    )
