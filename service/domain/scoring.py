"""Scoring: hand values, what each player scores when a hand ends, and game end.

Every function answers with one entry per seat (seat order), so the caller
adds the result to the running totals without knowing the scoring mode.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from service.domain.cards import Card, Rank
from service.domain.rule_values import Exhausted, RummyBonus, Scoring
from service.domain.rules import RuleSet
from service.domain.wilds import is_wild, wild_options

_COURT_CARD_VALUE = 10
"""J, Q and K rank 11-13 for runs but count the same as a 10 in a hand."""

_PLUS_10 = 10


def card_value(card: Card, rules: RuleSet) -> int:
    """A card left in a hand: A = 1 (15 unless aces are low; `ace_value` if set), 2-10
    face, J Q K = 10; in games with wilds, any wild `wild_penalty`."""
    if is_wild(card, rules):
        return wild_options(rules).wild_penalty
    if card.rank is Rank.ACE:
        return rules.ace_points
    return min(card.rank.value, _COURT_CARD_VALUE)


def hand_value(cards: Sequence[Card], rules: RuleSet) -> int:
    """The total value of the cards left in one hand."""
    return sum(card_value(card, rules) for card in cards)


def points_for_out(
    hands: Sequence[Sequence[Card]], out_seat: int, rummy: bool, rules: RuleSet
) -> list[int]:
    """Points each seat adds to its total when `out_seat` went out (rummy or not).

    `hands` holds every seat's remaining cards (the out seat's is empty).
    """
    # A negative seat would silently index from the end and score the wrong player.
    if not 0 <= out_seat < len(hands):
        raise ValueError(f"Seat {out_seat} is not at a table of {len(hands)} seats.")
    points = [0] * len(hands)
    others = [seat for seat in range(len(hands)) if seat != out_seat]
    if rules.scoring is Scoring.WINNER:
        won = sum(hand_value(hands[seat], rules) for seat in others)
        points[out_seat] = _with_rummy_bonus(won, rummy, rules)
    else:
        # Under penalty scoring the bonus punishes each loser, not the winner.
        for seat in others:
            points[seat] = _with_rummy_bonus(hand_value(hands[seat], rules), rummy, rules)
    return points


def points_for_exhausted(
    hands: Sequence[Sequence[Card]], rules: RuleSet, out: Collection[int] = ()
) -> list[int]:
    """Points each seat adds when a hand ends with nobody out (stock or turn cap);
    the seats `out` (forfeited) never win it."""
    return points_for_values([hand_value(hand, rules) for hand in hands], rules, out)


def points_for_values(
    values: Sequence[int], rules: RuleSet, out: Collection[int] = ()
) -> list[int]:
    """`points_for_exhausted` from what each seat's cards count (Knock Rummy: its
    arranged count). A seat `out` (forfeited) loses like anyone but never wins: it
    pays what its cards count over the lowest of the others, never less than 0."""
    _require_seats(values)
    if rules.exhausted is Exhausted.VOID:
        return [0] * len(values)
    if rules.scoring is Scoring.PENALTY:
        return list(values)
    lowest = min(value for seat, value in enumerate(values) if seat not in out)
    tied = [value == lowest and seat not in out for seat, value in enumerate(values)]
    # The tied players' own differences are 0, so summing over everyone is the same.
    won = sum(max(value - lowest, 0) for value in values)
    # Shares are whole points; what does not divide evenly is lost, as docs/rules.md says.
    share = won // sum(tied)
    return [share if is_lowest else 0 for is_lowest in tied]


def game_winner(
    totals: Sequence[int], hands_played: int, rules: RuleSet, out: Collection[int] = ()
) -> int | None:
    """The seat that has won the game after a hand, or None if another hand is dealt;
    never one of the seats `out` (forfeited)."""
    _require_seats(totals)
    if rules.target is not None:
        # The target ends the game under both modes: a winner-scoring leader, or a
        # penalty-scoring loser, crossing it.
        ended = max(totals) >= rules.target
    else:
        # RuleSet guarantees `deals` is set whenever `target` is not.
        ended = rules.deals is not None and hands_played >= rules.deals
    if not ended:
        return None
    standing = [total for seat, total in enumerate(totals) if seat not in out]
    best = max(standing) if rules.scoring is Scoring.WINNER else min(standing)
    leaders = [seat for seat, total in enumerate(totals) if total == best and seat not in out]
    # A tie for the win deals another hand, until one player is clear.
    return leaders[0] if len(leaders) == 1 else None


def _with_rummy_bonus(points: int, rummy: bool, rules: RuleSet) -> int:
    if not rummy:
        return points
    if rules.rummy_bonus is RummyBonus.DOUBLE:
        return points * 2
    if rules.rummy_bonus is RummyBonus.PLUS_10:
        return points + _PLUS_10
    return points


def _require_seats(seats: Sequence[object]) -> None:
    # Nobody can be lowest or best at an empty table; say so rather than fail in min().
    if not seats:
        raise ValueError("Scoring needs at least one seat.")
