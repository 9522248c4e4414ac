"""Boathouse's throw near going out: keep the hand that goes out on the most cards.

A Boathouse hand lays nothing before it goes out, and then the winner scores the
loser's whole hand: the hand is a race, and the seat out first takes every point.
`basic` throws its least useful card by rules of thumb (loose high cards first,
then the weakest partial meld), which is sound far from going out but does not
ask, once the hand is close, which throw leaves it out on the most draws. So at
`strong` and `expert`, when the hand's best split into melds leaves at most
`NEAR` cards outside them, the seat throws the legal card that leaves the most
**outs**: the cards it cannot see that would let the hand go out on its next
draw (melded whole, or all but one card it then throws). Ties, and hands further
from going out, keep `basic`'s card.

Measured with each deal one hand played twice with the seats swapped, against
`basic` (net points a hand, 95% margin, 1000 deals each, seed `e6`): +5.2 ± 2.5
at `NEAR` 3 (53.2% of hands), +3.4 ± 2.2 at 2, +4.8 ± 2.6 at 4; breaking ties by
the cards that leave one card out did worse (+3.7 ± 2.6). Wired as `strong`, over
1500 fresh deals (seed `boat-fresh-1`): +5.66 ± 2.03, 53.7% of hands, p99 31.9 ms;
in the arena 56.7% [52.4, 61.1] of 208 games against `basic`, H1 at `--elo1 25`
(seed `boat-final`; the first verdict, at `--elo1 50`, was H0: docs/bots.md).
Nearly every simpler rule of thumb measured no better than `basic` (docs/bots.md,
Boathouse).

A function of the view alone: the hand, the cards legal to throw and the cards
this seat cannot see.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from service.bots.melding import best_cover
from service.bots.view import BotView
from service.domain.actions import Action, Discard
from service.domain.cards import Card
from service.domain.rule_values import Aces
from service.domain.rules import RuleSet

Move = Action | tuple[Action, ...]

NEAR = 3
"""The most cards outside the hand's melds at which the throw counts outs: 3 beat 2
and matched 4 at less cost (the module's measures)."""


def keep_outs(bot: BotView, basic: Move) -> Move:
    """`basic`'s move, or instead of its discard, the legal card whose throw leaves
    the most unseen cards that go out next draw, when the hand is `NEAR` going out.
    `basic`'s card wins ties."""
    if not isinstance(basic, Discard):
        return basic
    rules = bot.rules
    if len(best_cover(bot.hand, rules).deadwood) > NEAR:
        return basic
    best, most = basic.card, outs(_without(bot.hand, basic.card), bot.unseen, rules)
    for card in dict.fromkeys(bot.legal.discard):
        if card == basic.card:
            continue
        count = outs(_without(bot.hand, card), bot.unseen, rules)
        if count > most:
            best, most = card, count
    return basic if best == basic.card else Discard(best)


def outs(hand: Sequence[Card], unseen: Collection[Card], rules: RuleSet) -> int:
    """The unseen cards with which `hand` goes out: split into melds with at most one
    card left over (Boathouse goes out with or without a last discard, and a card
    drawn from the stock may be thrown). Only a card that could share a meld with a
    held card can help, so only those are tried."""
    return sum(
        1
        for card in unseen
        if _could_join(card, hand, rules) and len(best_cover((*hand, card), rules).deadwood) <= 1
    )


def _could_join(card: Card, hand: Sequence[Card], rules: RuleSet) -> bool:
    """A partner held: the same rank, or the same suit up to two ranks away in a run
    (an ace next to the king where aces are high or low)."""
    return any(
        other.rank == card.rank or (other.suit is card.suit and _gap(other, card, rules) <= 2)
        for other in hand
    )


def _gap(one: Card, other: Card, rules: RuleSet) -> int:
    gap = abs(one.rank.value - other.rank.value)
    if rules.aces is Aces.AROUND_THE_CORNER:
        return min(gap, 13 - gap)
    if rules.aces is Aces.HIGH_OR_LOW and 1 in (one.rank.value, other.rank.value):
        return min(gap, 14 - max(one.rank.value, other.rank.value))
    return gap


def _without(hand: Sequence[Card], card: Card) -> tuple[Card, ...]:
    left = list(hand)
    left.remove(card)
    return tuple(left)
