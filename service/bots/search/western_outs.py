"""The throw near going out: keep the hand that goes out on the most cards.

Where the seat out first takes the hand's points, the hand is a race:
- Boathouse: a hand lays nothing before it goes out, and the winner scores the
  loser's whole hand;
- classic, wild and Wrotham between two seats that hold their melds back
  (`western_hold`): the first out goes rummy, doubling the other's whole hand,
  and at the default target of 100 that one hand mostly decides the game.
`basic` throws its least useful card by rules of thumb (loose high cards first,
then the weakest partial meld), which is sound far from going out but does not
ask, once the hand is close, which throw leaves it out on the most draws. So
when the hand's best split into melds leaves at most `NEAR` cards outside them,
the seat throws the legal card that leaves the most **outs**: the cards it
cannot see that would let the hand go out on its next draw (melded whole, or
all but one card it then throws). Ties, and hands further from going out, keep
`basic`'s card; a wild is never thrown for it (a wild fits far more melds).
`western.OUTS` names where `strong` does this (Boathouse) and `EXPERT_OUTS`
where only `expert` does (classic, wild, Wrotham, on top of the held melds).

Measured in Boathouse with each deal one hand played twice with the seats
swapped, against `basic` (net points a hand, 95% margin, 1000 deals each, seed
`e6`): +5.2 ± 2.5 at `NEAR` 3 (53.2% of hands), +3.4 ± 2.2 at 2, +4.8 ± 2.6 at
4; breaking ties by the cards that leave one card out did worse (+3.7 ± 2.6).
Wired as `strong`, over 1500 fresh deals (seed `boat-fresh-1`): +5.66 ± 2.03,
53.7% of hands, p99 31.9 ms; in the arena 56.7% [52.4, 61.1] of 208 games
against `basic`, H1 at `--elo1 25` (seed `boat-final`; the first verdict, at
`--elo1 50`, was H0). The arena's figures for `expert` against `strong` in the
other three are in docs/bots.md (the ladder).

A function of the view alone: the hand, the cards legal to throw and the cards
this seat cannot see.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from service.bots.melding import Cover, best_cover
from service.bots.search.western_hand import near
from service.bots.view import BotView
from service.bots.wildplay import wild_cover
from service.domain.actions import Action, Discard
from service.domain.cards import Card
from service.domain.rules import RuleSet
from service.domain.wilds import is_wild

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
    if len(_cover(bot.hand, rules).deadwood) > NEAR:
        return basic
    best, most = basic.card, outs(_without(bot.hand, basic.card), bot.unseen, rules)
    for card in dict.fromkeys(bot.legal.discard):
        if card == basic.card or (rules.has_wilds and is_wild(card, rules)):
            continue
        count = outs(_without(bot.hand, card), bot.unseen, rules)
        if count > most:
            best, most = card, count
    return basic if best == basic.card else Discard(best)


def outs(hand: Sequence[Card], unseen: Collection[Card], rules: RuleSet) -> int:
    """The unseen cards with which `hand` goes out: split into melds with at most one
    card left over (Boathouse goes out with or without a last discard, and a card
    drawn from the stock may be thrown). Only a card that could share a meld with a
    held card (or a wild) can help, so only those are tried."""
    return sum(
        1
        for card in unseen
        if near(card, hand, rules) and len(_cover((*hand, card), rules).deadwood) <= 1
    )


def _cover(hand: Sequence[Card], rules: RuleSet) -> Cover:
    """The hand's best split into melds, by itself (lay-offs aside)."""
    if rules.has_wilds:
        return wild_cover(hand, rules, ())
    return best_cover(hand, rules)


def _without(hand: Sequence[Card], card: Card) -> tuple[Card, ...]:
    left = list(hand)
    left.remove(card)
    return tuple(left)
