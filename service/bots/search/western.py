"""The Western family's search: classic, wild, Boathouse, Knock and Wrotham.

Determinized sampling. At each decision the seat deals the cards it cannot see
in ways consistent with its view (`unknown.Unknown`), and scores candidate
moves on each deal by a quick greedy playout of the hand from there
(`playout.Playout`). Every candidate is scored on the same deals, so their
differences are not blurred by the luck of the deal. The first candidate is
always `basic`'s own move, and another plays instead only when its lead over
it, deal by deal, is sure (`SURE` standard errors).

Two ways, by the game:
- Knock Rummy (`_staged`): for each card, knocking with it or throwing it. A
  knock is settled exactly on each deal (the other hands' counts against this
  one, undercut and all), the rest played two turns a seat; all candidates are
  scored on a quarter of the deals and the best few (`KEEP`) on the rest.
- the going-out games (`western_hand`): the draw (stock or upcard, searched
  only when the upcard has a partner in the hand) and `basic`'s discard
  against the two the playout would throw next, each played out to the end of
  the hand on every deal, the other hands seasoned by the discards
  (`western_hand.season`), scored in what the hand pays.

What is `basic`'s: melds, lay-offs and swaps (as soon as possible; held back
when a rummy is one draw away), and a concealed going out whenever one
exists, except that in classic, wild and Wrotham (`HOLDING`) a searching seat
holds its melds back until it can go out whole or another seat is nearly out
(`western_hold`), which the arena measured far stronger than `basic`; in
Boathouse (`OUTS`; at `expert` in classic, wild and Wrotham too, `EXPERT_OUTS`)
a searching seat near going out throws the card that leaves the most outs
(`western_outs`); and `expert` in classic, Boathouse and Wrotham (`MEMORY`) plays
all of it remembering the pile under the top as out of play. The
search decides only what `basic` would draw and discard, and only in the
variants where the arena measured it stronger (`SEARCHED`).

Nothing here reads anything but the view: the deals come from `Unknown.of`,
and the playout knows only the view's table and the deal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import TypeVar

from service.bots.basic import basic_move
from service.bots.search.budget import Budget, is_expert
from service.bots.search.playout import Judge, Playout
from service.bots.search.unknown import Deal, Unknown
from service.bots.search.western_hand import (
    HAND_TURNS,
    SEASONED,
    hand_samples,
    near,
    paired_best,
    pruned,
    season,
    sure_lead,
)
from service.bots.search.western_hold import hold_back
from service.bots.search.western_outs import keep_outs
from service.bots.view import BotView
from service.domain import knock
from service.domain.actions import Action, Discard, Draw, Knock
from service.domain.cards import Card
from service.domain.rule_values import LayOffRule
from service.domain.rules import RuleSet
from service.domain.scoring import card_value
from service.domain.state import Phase, Source
from service.domain.wilds import is_wild
from service.projections.views import GameView

Move = Action | tuple[Action, ...]
_C = TypeVar("_C")

KEEP = 3
"""Candidates scored on every deal after the first quarter (more at a larger budget:
`_keep`)."""
TURNS = 2
"""Knock Rummy: turns of every seat a playout runs before it is scored at its
horizon (the going-out games play to the end of the hand: `western_hand`)."""
WILD_SHARE = 0.6
"""The share of the budget's deals a game with wild cards samples: its hands cost
four times as much to read, and the full budget took `strong`'s p99 past 100 ms."""
KNOCK_CARDS = 5
"""Knock Rummy: the cards (those leaving the lowest counts) a seat may knock with
or throw in the search; all eleven took `expert`'s p99 to its 500 ms guard."""
FIRST_SHARE = 4
"""The first round scores every candidate on 1/FIRST_SHARE of the deals."""
SURE = 1.3
"""Standard errors by which a candidate's mean lead over the first (basic's choice),
deal by deal, must stand above zero for it to play instead. Playouts are noisy:
taking the best mean alone lost to `basic` in classic (-10.8 points a hand over
40 mirrored deals at half the `strong` budget), so the search overrules the
rules of thumb only when it is fairly sure."""
GAMES = ("plain", "wilds", "second_draw", "starter_deal", "knocking")
"""The Western games as the search tells them apart, each by the feature that makes
it (`game_of`): classic, wild, Boathouse, Wrotham, Knock Rummy. By the rules'
features and not by the variant: the engine seam (tests/test_variant_seam.py)."""
SEARCHED = frozenset({"knocking"})
"""The games (`GAMES`) where the search plays: where the arena measured it above
`basic` (docs/bots.md, the ladder), Knock Rummy. Elsewhere a `strong` seat plays
`basic`'s moves rather than worse ones: the whole-hand search measured no better
there yet (arena, seed `ladder-c`: classic 50.0% [40.9, 60.6] of 66 games, wild
55.0% [48.0, 62.0] of 100, Wrotham 51.7% [41.7, 63.3] of 60, all open). On top of
the held melds (`HOLDING`) it measured no better either: in classic, each deal one
hand played twice with the seats swapped, +4.6 ± 10.9 points a hand over 150 deals
against the held melds alone; nor with a playout that knows the held melds and the
rummy bonus, at `expert` only (a prototype): +6.0 ± 5.8 points a hand against `strong`
over 500 deals, not yet run in the arena (docs/bots.md, holding)."""
HOLDING = frozenset({"plain", "wilds", "starter_deal"})
"""The games (`GAMES`) where a searching seat holds its melds back (`western_hold`):
classic, wild and Wrotham, each H1 against `basic` in the arena (2 players, seed
`hold-verdict`: classic 87.5% [79.2, 95.8] of 48 games, wild 91.7% [83.3, 97.9] of
48, Wrotham 57.8% [51.6, 64.1] of 64). Boathouse's and Knock Rummy's hands lay
nothing before going out or knocking, so there is nothing to hold."""
OUTS = frozenset({"second_draw"})
"""The games (`GAMES`) where a searching seat, near going out, throws the card that
leaves the most outs (`western_outs`): Boathouse, where the searches measured no
better than `basic` and this did (docs/bots.md, the ladder)."""
EXPERT_OUTS = frozenset({"plain", "wilds", "starter_deal"})
"""The games (`GAMES`) where `expert` alone does the same, on top of its held melds
(`HOLDING`): classic, wild and Wrotham, where against `strong`, which holds back too,
the first out goes rummy and mostly wins the game (docs/bots.md, the ladder)."""
MEMORY = frozenset({"plain", "second_draw", "starter_deal"})
"""The games (`GAMES`) where `expert` remembers the discard pile under its top card
(`BotView.remembering`): every rule of thumb above reads those cards as out of play,
not as cards still to come (dead ranks, outs). Classic, Boathouse and Wrotham, where
against `strong` it made `expert`'s step (docs/bots.md, the ladder); with wild cards
it measured no better (47.7% of 176 games, H0 at `--elo1 25`, seed `s46-pile-ww`)."""
SURE_KNOCK = 0.0
"""The same for Knock Rummy's play, where a knock is settled exactly on each deal:
there the best mean plays (70 % of 30 games against `basic`, 60 % with 1.3)."""


def search_western(view: GameView, bot: BotView, rng: Random, budget: Budget) -> Move:
    """The move of the seat whose view this is, searched under `budget`; `basic`'s
    where the search has not been shown to beat it (`SEARCHED`)."""
    # basic's own move is the first candidate, which the search must beat clearly.
    seed = rng.random()
    game = game_of(bot.rules)
    expert = is_expert(budget)
    if expert and game in MEMORY:
        bot = bot.remembering()
    basic = basic_move(bot, Random(seed))
    if game in HOLDING:
        # Its melds held back (western_hold), with basic's ties broken as basic's.
        basic = hold_back(bot, basic, Random(seed))
    if game in OUTS or (expert and game in EXPERT_OUTS):
        basic = keep_outs(bot, basic)
    if game not in SEARCHED:
        return basic
    knocking = bot.rules.features.knocking
    if isinstance(basic, Draw):
        if len(bot.legal.draw) == 1 or bot.discard_top is None:
            return basic
        if not knocking and not near(bot.discard_top, bot.hand, bot.rules):
            # An upcard with no partner in the hand joins no meld of it: basic's draw
            # (the stock, or the upcard to lay off).
            return basic
        return Draw(_Search.of(view, bot, rng, budget).draw(basic.source))
    if knocking and isinstance(basic, Knock | Discard):
        return _Search.of(view, bot, rng, budget).knock(basic)
    if not isinstance(basic, Discard):
        # A meld, lay-off or swap, or a concealed going out: basic's.
        return basic
    return Discard(_Search.of(view, bot, rng, budget).discard(basic.card))


@dataclass(slots=True)
class _Search:
    """One decision's search: the seat, its deals and its judge of hands."""

    bot: BotView
    unknown: Unknown
    judge: Judge
    rng: Random
    budget: Budget
    turns: int
    seasoning: int
    """Knock Rummy: 0. Elsewhere the turns each other seat has played this hand,
    near enough (a discard each): how far `season` plays their sampled hands."""

    @classmethod
    def of(cls, view: GameView, bot: BotView, rng: Random, budget: Budget) -> _Search:
        rules = bot.rules
        concealed = rules.features.concealed_from is not None and (
            view.hand_number >= rules.features.concealed_from
        )
        may_lay_off = rules.lay_off is LayOffRule.ANYTIME or any(
            meld.owner == bot.seat for meld in bot.melds
        )
        judge = Judge(
            rules=rules,
            table=bot.melds if may_lay_off else (),
            knocking=rules.features.knocking,
            concealed=concealed,
        )
        seats = sum(1 for count in bot.hand_counts if count)
        unknown = Unknown.of(view, bot)
        if rules.features.knocking:
            return cls(bot, unknown, judge, rng, budget, TURNS * max(seats, 2), 0)
        seasoning = unknown.buried_count // max(seats, 1) if SEASONED else 0
        return cls(bot, unknown, judge, rng, budget, HAND_TURNS * max(seats, 2), seasoning)

    # --- the decisions ------------------------------------------------------------

    def draw(self, preferred: Source) -> Source:
        bot = self.bot
        upcard = bot.discard_top
        assert upcard is not None, "checked by the caller"
        # The second draw of Boathouse takes one card only.
        more = bot.rules.features.second_draw and bot.phase is Phase.DRAW

        def score(source: Source, deal: Deal) -> float:
            play = self._playout(deal, list(bot.hand), upcard)
            hand = play.hands[bot.seat]
            taken = None
            if source is Source.DISCARD:
                hand.append(upcard)
                taken = upcard
                play.top = None
                if more and play.stock:
                    hand.append(play.stock.pop())
            elif play.stock:
                hand.append(play.stock.pop())
            else:
                return play.leaf()
            ended = play.finish(bot.seat, taken)
            if ended is not None:
                return ended
            return play.run(self._next(bot.seat), self.turns - 1)

        other = Source.DISCARD if preferred is Source.STOCK else Source.STOCK
        return self._best([preferred, other], score, SURE)

    def discard(self, preferred: Card) -> Card:
        """The card to throw; `preferred` (basic's) first among equals."""
        bot = self.bot
        rules = bot.rules
        choices = list(dict.fromkeys(bot.legal.discard))
        if rules.has_wilds and any(not is_wild(card, rules) for card in choices):
            # A wild fits far more melds than any natural card: never thrown here.
            choices = [card for card in choices if not is_wild(card, rules)]
        choices = pruned(choices, preferred, self.judge, bot.hand)

        def score(card: Card, deal: Deal) -> float:
            hand = list(bot.hand)
            hand.remove(card)
            play = self._playout(deal, hand, card)
            return play.run(self._next(bot.seat), self.turns)

        return self._best(choices, score, SURE)

    def knock(self, preferred: Knock | Discard) -> Action:
        """Knock Rummy's play: knock with a card, or throw it (`preferred` first)."""
        bot = self.bot
        judge = self.judge
        rules = bot.rules
        cards = list(dict.fromkeys(bot.legal.discard))
        left = {card: _without(bot.hand, card) for card in cards}
        count = {card: judge.dead(left[card]).points for card in cards}
        cards.sort(key=lambda card: (count[card], -card_value(card, rules)))
        # Only the cards that leave the lowest counts: throwing a card out of a meld
        # is seldom right, and each throw costs a playout a deal.
        cards = cards[:KNOCK_CARDS]
        knockable = set(bot.legal.knock)
        moves: list[Action] = [preferred]
        for card in cards:
            if card in knockable and Knock(card) != preferred:
                moves.append(Knock(card))
            if Discard(card) != preferred:
                moves.append(Discard(card))
        seats = sorted(
            [seat for seat, held in self.unknown.hand_counts.items() if held] + [bot.seat]
        )
        me = seats.index(bot.seat)
        options = knock.knock_options(rules)

        def score(move: Action, deal: Deal) -> float:
            assert isinstance(move, Knock | Discard)
            if isinstance(move, Knock):
                counts = [
                    count[_card(move)] if seat == bot.seat else judge.dead(deal.hands[seat]).points
                    for seat in seats
                ]
                settled = knock.pot(counts, me, penalty=options.penalty, bonus=options.bonus)
                others = [share for seat, share in enumerate(settled.points) if seat != me]
                return settled.points[me] - sum(others) / len(others)
            play = self._playout(deal, list(left[move.card]), move.card)
            return play.run(self._next(bot.seat), self.turns)

        return self._best(moves, score, SURE_KNOCK)

    # --- the search -------------------------------------------------------------

    def _best(
        self, candidates: Sequence[_C], score: Callable[[_C, Deal], float], sure: float = 0.0
    ) -> _C:
        """Knock Rummy: `_staged`; elsewhere every candidate on every deal, played to
        the end of the hand (`western_hand`)."""
        if self.bot.rules.features.knocking:
            return self._staged(candidates, score, sure)
        samples = hand_samples(self.budget.samples, self.bot.stock_count)
        if self.bot.rules.has_wilds:
            samples = max(1, round(samples * WILD_SHARE))
        return paired_best(candidates, self._deal, samples, self.budget.guard(), score)

    def _deal(self) -> Deal:
        deal = self.unknown.sample(self.rng)
        if self.seasoning:
            season(deal, self.judge, self.rng, self.seasoning)
        return deal

    def _staged(
        self, candidates: Sequence[_C], score: Callable[[_C, Deal], float], sure: float
    ) -> _C:
        """The first candidate (basic's choice) unless another beats it surely on the
        deals: every candidate is scored on the first quarter of them, the best `_keep`
        on all; the best of those plays if its mean lead over the first, deal by deal,
        is at least `SURE` standard errors."""
        if len(candidates) == 1:
            return candidates[0]
        samples = self.budget.samples
        if self.bot.rules.has_wilds:
            samples = max(1, round(samples * WILD_SHARE))
        deals = [self.unknown.sample(self.rng) for _ in range(samples)]
        first = max(1, samples // FIRST_SHARE)
        scores: list[list[float]] = [[] for _ in candidates]
        guard = self.budget.guard()
        indices = list(range(len(candidates)))
        for deal in deals[:first]:
            for index in indices:
                scores[index].append(score(candidates[index], deal))
            if guard.passed():
                return candidates[sure_lead(scores, indices, sure)]
        ranked = sorted(indices, key=lambda index: (-sum(scores[index]), index))
        kept = sorted({0, *ranked[: _keep(samples)]})
        for deal in deals[first:]:
            for index in kept:
                scores[index].append(score(candidates[index], deal))
            if guard.passed():
                break
        return candidates[sure_lead(scores, kept, sure)]

    def _playout(self, deal: Deal, hand: list[Card], top: Card | None) -> Playout:
        rules = self.bot.rules
        hands = {seat: list(cards) for seat, cards in deal.hands.items() if cards}
        hands[self.bot.seat] = hand
        penalty = rules.knock_penalty or 0
        bonus = rules.knock_bonus or 0
        return Playout(
            judge=self.judge,
            me=self.bot.seat,
            hands=hands,
            stock=list(deal.stock),
            top=top,
            second_draw=rules.features.second_draw,
            knock_penalty=penalty,
            knock_bonus=bonus,
        )

    def _next(self, seat: int) -> int:
        counts = self.bot.hand_counts
        for step in range(1, len(counts) + 1):
            other = (seat + step) % len(counts)
            if counts[other] or other == self.bot.seat:
                return other
        return seat


def _keep(samples: int) -> int:
    """Candidates kept for every deal: one more for each doubling of the budget past
    the `strong` level's."""
    return KEEP + max(0, (samples // 24).bit_length() - 1)


def game_of(rules: RuleSet) -> str:
    """Which of `GAMES` a Western rule set plays."""
    features = rules.features
    if features.knocking:
        return "knocking"
    if features.starter_deal:
        return "starter_deal"
    if features.second_draw:
        return "second_draw"
    return "wilds" if rules.has_wilds else "plain"


def _without(hand: Sequence[Card], card: Card) -> tuple[Card, ...]:
    left = list(hand)
    left.remove(card)
    return tuple(left)


def _card(move: Knock) -> Card:
    assert move.card is not None, "a Western knock has its card"
    return move.card
