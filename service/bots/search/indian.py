"""The Indian family's search (docs/rules.md "Indian 13-card Rummy"): determinized
sampling over deals of the unseen cards, for a race to declare.

A deal is a race: the first valid declaration wins it, and the engine's counts
(what losers pay) say little about how near a hand is. So the search judges a
hand first by its deficiency (`indian_shape`: the fewest cards it must still
draw), then by sampled futures scored with the engine's own best declaration
(`indian_value.Scorer`):

- the discard: only the cards whose loss leaves the least deficiency; of those,
  basic's finish card and the ones leaving the best 13 now (`Shape.candidates`
  in all) are played out on each of `budget.samples` deals of the cards the seat
  cannot see (`unknown.Unknown`): the seat draws the stock's cards its turns
  would get in that deal (after the other seats' draws; one sooner if the next
  seat takes the discard, judged on its sampled hand), `Shape.horizon` of them,
  throwing the engine's finish card each time; the fewest draws to a valid
  declaration, then the last hand's score, wins on average. In format `points`
  `strong` first keeps, of its candidates, those whose hand the most unseen
  cards would complete a group of three for (`indian_outs.linked`). `expert` first keeps,
  of those candidates, only the ones whose hand has the most outs
  (`indian_outs`: unseen cards whose draw lowers the deficiency), exact over
  the unseen cards rather than sampled; the rollouts break its ties. A valid
  declaration is always made.
- the draw: the top discard when it makes a valid declaration or brings the
  hand's deficiency down (a sure step beats a chance of one); else the stock.
- the drop: `indian_drop.should_drop` (only where points outlive the deal);
  `expert`'s in the last deal of format `deals`: `indian_drop.drop_wins`.
- the show: basic's (the best grouping is exact).

It decides only from the view, its generator and its budget, counted in
samples: a move is a function of the view and the seed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from random import Random

from service.bots.indian import play_indian, taken_card
from service.bots.search.budget import Budget, is_expert
from service.bots.search.indian_drop import drop_wins, should_drop
from service.bots.search.indian_outs import linked, outs
from service.bots.search.indian_shape import HAND
from service.bots.search.indian_value import WIN, Scorer, feeds
from service.bots.search.unknown import Deal, Unknown
from service.bots.view import BotView
from service.domain.actions import Action, Declare, Discard, Draw, Drop
from service.domain.cards import Card
from service.domain.indian.groupings import best_declaration
from service.domain.indian.options import indian_options
from service.domain.rule_values import Format
from service.domain.state import DealStatus, Source
from service.projections.views import GameView

FEED = 0.0
"""What feeding the next seat a card that completes one of its groups costs, in
draws, beside the stock card the seat then gets sooner. Measured at 0.05 (a
tenth of a draw at most, in the units of the rollouts) it gained nothing against
`basic` (58 % against 60 % in 150 games each), so it is left at 0."""


REMEMBERED = frozenset({Format.DEALS})
"""The formats where `expert` remembers the discard pile under its top card
(`BotView.remembering`): its samples and its outs draw only from the cards still
to come. Deals, where it made `expert`'s step over `strong` (without it a few Elo at
most: docs/bots.md, the ladder); in points it measured 50.0% of 432 games against
`strong`, H0 at `--elo1 25` (seed `s46-pile-points`), where the `expert` without it
makes the step; the pools were not measured."""


def search_indian(view: GameView, bot: BotView, rng: Random, budget: Budget) -> Action:
    """The seat's next action in an Indian deal."""
    legal = bot.legal
    if legal.can_submit or not (legal.draw or legal.can_declare):
        return play_indian(bot)
    wild = bot.deal_wild
    assert wild is not None, "an Indian view shows the deal's wild rank"
    scorer = Scorer(wild, indian_options(bot.rules).full_count)
    if legal.draw and legal.can_drop and _drops(view, bot, budget):
        return Drop()
    if legal.draw:
        return _draw(bot, scorer)
    if is_expert(budget) and indian_options(bot.rules).format in REMEMBERED:
        # The pile under the top is out of play, not cards still to come.
        bot = bot.remembering()
    unknown = Unknown.of(view, bot)
    deals = [unknown.sample(rng) for _ in range(budget.samples)]
    return _Search(bot, scorer, deals, _next_seats(view, bot), budget, unknown).play()


def _drops(view: GameView, bot: BotView, budget: Budget) -> bool:
    """`should_drop`'s judgement of the hand; `expert`'s in the last deal of format
    `deals`, where only a drop that wins the game is taken (`drop_wins`)."""
    if is_expert(budget):
        decided = drop_wins(view, bot)
        if decided is not None:
            return decided
    return should_drop(view, bot)


def _draw(bot: BotView, scorer: Scorer) -> Action:
    """The top discard when it declares or brings the hand's deficiency down: a sure
    step beats a chance of one. Any other is left (taking it shows the other seats
    what the hand builds). Measured against judging both on the samples (the top
    discard against each sample's stock card, by rollouts): no worse, in 150 games
    each, and far cheaper."""
    hand = list(bot.hand)
    top = bot.discard_top
    if Source.DISCARD not in bot.legal.draw or top is None:
        return Draw(Source.STOCK)
    if Source.STOCK not in bot.legal.draw:
        return Draw(Source.DISCARD)
    if scorer.score([*hand, top], keep=top) <= -WIN:
        return Draw(Source.DISCARD)
    if scorer.shape([*hand, top]) < scorer.shape(hand):
        return Draw(Source.DISCARD)
    return Draw(Source.STOCK)


class _Search:
    def __init__(
        self,
        bot: BotView,
        scorer: Scorer,
        deals: list[Deal],
        others: list[int],
        budget: Budget,
        unknown: Unknown,
    ) -> None:
        self.bot = bot
        self.unseen = Counter(unknown.pool)
        self.scorer = scorer
        self.deals = deals
        self.others = others
        """The other seats still in the deal, in the order they play after this one."""
        self.shape = shape_of(budget)
        if indian_options(bot.rules).format is not Format.POINTS:
            # Where counts outlive the deal, a hand that loses should count little:
            # `linked` keeps group makers over low cards, and measured no better
            # than `basic` in pool 101 (50.0% of 96 games; 56.6% without). The
            # outs near a declaration were measured in points only.
            self.shape = replace(self.shape, linked=False, outs_within=-1)
        self.guard = budget.guard()

    def _out_of_time(self, done: int) -> bool:
        return done > 0 and self.guard.passed()

    # --- the discard or declaration -------------------------------------------

    def play(self) -> Action:
        bot = self.bot
        scorer = self.scorer
        hand = list(bot.hand)
        taken = taken_card(bot)
        best = best_declaration(hand, scorer.wild, scorer.full_count, taken)
        if best.valid:
            return Declare(best.finish, best.groups)
        choices = self._candidates(hand, best.finish)
        if len(choices) == 1:
            return Discard(choices[0])
        rests = {card: _without(hand, card) for card in choices}
        totals = dict.fromkeys(choices, 0.0)
        following = self.others[0] if self.others else None
        round_ = len(self.others) + 1
        horizon = self.shape.horizon
        for done, deal in enumerate(self.deals):
            if self._out_of_time(done):
                break
            nexts = None if following is None else deal.hands.get(following)
            for card in choices:
                fed = nexts is not None and feeds(card, nexts, scorer)
                # Each other seat draws once before this one again; a fed seat
                # takes the discard instead of the stock's top.
                before = len(self.others) - (1 if fed else 0)
                draws = _draws(deal, before, round_, horizon)
                value = scorer.rollout(rests[card], draws)
                totals[card] += value + (FEED if fed else 0.0)
        # The first of the choices (basic's finish card) wins ties.
        return Discard(min(choices, key=lambda card: totals[card]))

    def _candidates(self, hand: list[Card], finish: Card) -> list[Card]:
        """The discards worth judging on every sample: basic's finish card first, then
        those leaving the best 13 now."""
        allowed = list(dict.fromkeys(self.bot.legal.discard))
        # Only the discards that leave the hand nearest its declaration, in cards.
        shapes = {card: self.scorer.shape(_without(hand, card)) for card in allowed}
        least = min(shapes.values())
        allowed = [card for card in allowed if shapes[card] == least]
        if finish not in allowed:
            finish = allowed[0]
        ranked = sorted(
            (card for card in allowed if card != finish),
            key=lambda card: (self.scorer.score13(_without(hand, card)), card.sort_key),
        )
        ranked.insert(0, finish)
        width = self.shape.candidates
        if least <= self.shape.outs_within and len(ranked) > 1:
            # Of the first `width`, those whose hand has the most outs (`indian_outs`).
            counted = {
                card: outs(_without(hand, card), self.unseen, self.scorer)
                for card in ranked[:width]
            }
            most = max(counted.values())
            return [card for card in ranked[:width] if counted[card] == most]
        if self.shape.linked and len(ranked) > 1:
            # Of the first `width`, those most cards would complete a group for.
            linking = {
                card: linked(_without(hand, card), self.unseen, self.scorer)
                for card in ranked[:width]
            }
            most = max(linking.values())
            return [card for card in ranked[:width] if linking[card] == most]
        return ranked[:width]


def _draws(deal: Deal, first: int, round_: int, count: int) -> list[Card]:
    """This seat's next `count` draws in `deal` if every seat draws from the stock: the
    first is the stock's card `first` from the top, then one a round."""
    stock = deal.stock
    return [
        stock[-1 - at] for at in range(first, first + round_ * count, round_) if at < len(stock)
    ]


@dataclass(frozen=True, slots=True)
class Shape:
    """How wide and deep a budget searches: the discards judged on every sample, and
    the draws each rollout looks ahead."""

    candidates: int
    horizon: int
    outs_within: int = -1
    """Keep only the discards whose hand has the most outs (`indian_outs`) when the
    least deficiency is this or less (`HAND`: always; -1: never)."""
    linked: bool = False
    """Keep only the discards whose hand the most unseen cards would complete a group
    of three for (`indian_outs.linked`, cheap)."""


STRONG_SHAPE = Shape(candidates=4, horizon=1, linked=True, outs_within=2)
"""`strong` counts the outs only near a declaration, where the race is decided
and its hands are quick to search (`indian_shape.lowering_draws`); further off
the cheap `linked` stands in."""
EXPERT_SHAPE = Shape(candidates=5, horizon=1, outs_within=HAND)


def shape_of(budget: Budget) -> Shape:
    """`expert`'s shape for a budget above `strong`'s (both scaled alike), else
    `strong`'s."""
    return EXPERT_SHAPE if is_expert(budget) else STRONG_SHAPE


def _without(hand: list[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest


def _next_seats(view: GameView, bot: BotView) -> list[int]:
    """The other seats still in the deal, in the order they play after this one."""
    count = len(view.players)
    order = [(bot.seat + step) % count for step in range(1, count)]
    return [seat for seat in order if view.players[seat].status in (None, DealStatus.IN)]
