"""Gin Rummy's search (docs/bots.md): determinized sampling with a short lookahead.

A full rollout to the knock is too noisy to tell two throws apart on a few
dozen deals (its points swing by tens for a difference of two), so the search
splits what the unseen cards decide into what sampling must judge and what an
exact average can:

- **My next draw**: the stock's top is, from this seat, any unseen card alike.
  A hand after its throw is worth `_outlook`: over every unseen card, the
  deadwood after drawing it and throwing the best (less, when that allows a
  knock, or gin). Two draws deep (`DEEP_SAMPLES` and more: expert), each card's
  best follow-up is itself judged so.
- **The other hand**, sampled: its cards dealt from the unseen ones and then
  built the way a player builds (`gin_model.built`: it has drawn about half the buried
  cards and thrown its worst), so its deadwood is that of a hand in play, not
  of a fresh deal. On it the search judges what sampling alone can: whether a
  throw feeds it (it would take the card: `basic`'s test), and a knock's exact
  points with its lay-offs (`gin.deadwood.defend`), so an undercut counts.

Candidates: the pile or the stock (or the upcard passed), the few throws that
keep the least deadwood, a knock with the best card allowing one (played when
its mean points beat an undercut bonus, what playing on is worth, else the hand
plays on), and of a knock's least-deadwood arrangements the one leaving the
sampled defenders most.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from random import Random

from service.bots.search import gin_masks as gm
from service.bots.search.budget import Budget
from service.bots.search.gin_model import Shown, Stakes, built, drawn_by_other, helps, threat
from service.bots.search.sampled import best_by_samples, samples_of
from service.bots.search.unknown import Deal, Unknown
from service.bots.view import BotView
from service.domain import melds
from service.domain.actions import Action, Discard, Draw, Knock, Pass
from service.domain.cards import Card
from service.domain.gin import deadwood
from service.domain.gin.options import gin_options
from service.domain.rules import RuleSet
from service.domain.state import Source
from service.projections.views import GameView

SAMPLE_WEIGHT = 1.0
"""Gin's samples per level sample (`sampled.samples_of`)."""
DEEP_SAMPLES = 48
"""A budget of this many samples or more looks two draws ahead (expert)."""
THROWS = 4
"""The throws judged: the best by least deadwood left (then the highest card)."""
DRAW_THROWS = 1
"""The throws judged after each sampled draw: the greedy one (a draw is worth it)."""
KNOCK_VALUE = 20.0
"""What a hand that may knock is worth beyond its deadwood (about a knock's points)."""
GIN_VALUE = 25.0
"""What a hand that may go gin is worth beyond a knock."""
THROW_MARGIN = 2.0
"""Outlook points a throw must gain on average over `basic`'s (the least deadwood,
the highest card) to be made instead (measured: 62% of 100 games against basic
with 2, 53% with none)."""
FEED_COST = 1.0
"""Per point of deadwood a throw saves the other hand when it would take it."""
KNOCK_BAR = 1.0
"""A knock (not gin) is made when its mean points on the samples are above this many
undercut bonuses: playing on is worth about one, as a hand that may knock and waits
goes on lowering its count, and an other hand that knocks against it is often
undercut. Measured (/tmp/handbench.py, one hand mirrored, `strong` v `basic`, 300
deals, net points a hand): a bar of 0 +1.41, 10 points +2.07, 20 +3.12, 25 +3.73,
gin only +4.01 (seeds g1, g2); `expert` v `strong` (200 deals, budgets halved, seed
e1): +1.55 with this bar at both levels, +0.62 with `expert`'s at 10 points."""
ARRANGEMENT_SAMPLES = 8
"""Deals on which a knock's arrangements are compared."""


@dataclass(frozen=True, slots=True)
class _Terms:
    """What scores a hand, and the unseen cards my next draw may bring."""

    rules: RuleSet
    limit: int
    gin_bonus: int
    undercut_bonus: int
    factor: int
    pool: tuple[int, ...]
    deep: bool

    @property
    def knock_bar(self) -> float:
        """A knock's mean points must pass this to be made: `KNOCK_BAR` undercut
        bonuses, doubled with the hand."""
        return KNOCK_BAR * self.undercut_bonus * self.factor

    @property
    def stakes(self) -> Stakes | None:
        """The knock terms `expert`'s model of the other hand charges (None: `strong`,
        which does not look at the other's knock)."""
        if not self.deep:
            return None
        return Stakes(self.rules, self.limit, self.gin_bonus, self.undercut_bonus, self.factor)


def search_gin(view: GameView, bot: BotView, rng: Random, budget: Budget) -> Action:
    """Gin's move for the seat whose view this is (the family's `FamilySearch`)."""
    legal = bot.legal
    if legal.big_gin:
        return Knock(None)
    samples = samples_of(budget, SAMPLE_WEIGHT)
    deep = samples >= DEEP_SAMPLES
    unknown = Shown.of_seat(view, bot) if deep else Unknown.of(view, bot)
    terms = _terms(view, bot, unknown, deep=deep)
    other = next(iter(unknown.hand_counts))
    opponent_in = _Opponent(other, drawn_by_other(view))
    outlook = _Outlook(terms)
    me = gm.mask_of(bot.hand)
    if legal.draw or legal.can_pass:
        top = -1 if bot.discard_top is None else gm.BIT[bot.discard_top]
        second_offer = legal.can_pass and view.dealer == bot.seat

        def drawn(choice: Action, deal: Deal, _: Random) -> float:
            opponent = opponent_in(deal)
            if isinstance(choice, Draw) and choice.source is Source.DISCARD:
                return _turn_value(me | 1 << top, top, opponent, outlook, _draw_at(deal, 1))
            if isinstance(choice, Pass) and second_offer:
                return outlook.value(me, deep=False)
            held = me | 1 << gm.BIT[deal.stock[-1]]
            return _turn_value(held, -1, opponent, outlook, _draw_at(deal, 2))

        draws = _draw_candidates(bot)
        return best_by_samples(draws, unknown, rng, samples, budget.guard(), drawn)
    if not legal.discard:
        raise ValueError(f"Seat {bot.seat} has no move to make: it is not its turn.")
    throws = sorted(legal.discard, key=lambda card: _throw_order(me, card))
    knocks = [card for card in throws if card in legal.knock]
    if knocks:
        knock = _knock(bot, me, knocks[0], unknown, opponent_in, rng, samples, terms)
        if knock is not None:
            return knock

    stakes = terms.stakes

    def thrown(card: Card, deal: Deal, _: Random) -> float:
        bit = gm.BIT[card]
        opponent = opponent_in(deal)
        worth = outlook.value(me ^ 1 << bit) - _fed(opponent, bit)
        if stakes is not None:
            worth -= threat(me ^ 1 << bit, bit, opponent, _draw_at(deal, 1), stakes)
        return worth

    choice = best_by_samples(
        throws[:THROWS], unknown, rng, samples, budget.guard(), thrown, THROW_MARGIN
    )
    return Discard(choice)


class _Opponent:
    """The built other hand of a deal, remembered for the deal its candidates share."""

    def __init__(self, seat: int, count: int) -> None:
        self.seat = seat
        self.count = count
        self.deal: Deal | None = None
        self.hand = 0

    def __call__(self, deal: Deal) -> int:
        if deal is not self.deal:
            self.deal, self.hand = deal, built(deal, self.seat, self.count)
        return self.hand


def _terms(view: GameView, bot: BotView, unknown: Unknown, *, deep: bool) -> _Terms:
    options = gin_options(bot.rules)
    limit = view.knock_limit if view.knock_limit is not None else bot.rules.knock_limit
    return _Terms(
        rules=bot.rules,
        limit=limit or 0,
        gin_bonus=options.gin_bonus,
        undercut_bonus=options.undercut_bonus,
        factor=2 if view.doubled else 1,
        pool=tuple(gm.BIT[card] for card in unknown.pool),
        deep=deep,
    )


class _Outlook:
    """What a ten-card hand is worth at the end of my turn: over every unseen card
    alike (the stock's top, from this seat), after drawing it and throwing the
    best, minus the deadwood, plus `KNOCK_VALUE` when that allows a knock and
    `GIN_VALUE` more for gin; two draws deep, each such hand is judged again the
    same way instead. Remembered per hand for the decision."""

    def __init__(self, terms: _Terms) -> None:
        self.terms = terms
        self.known: dict[tuple[int, bool], float] = {}

    def value(self, hand: int, deep: bool | None = None) -> float:
        deep = self.terms.deep if deep is None else deep
        found = self.known.get((hand, deep))
        if found is not None:
            return found
        total = 0.0
        drawable = [bit for bit in self.terms.pool if not hand >> bit & 1]
        for bit in drawable:
            left, thrown = gm.best_discard(hand | 1 << bit)
            total += (
                self.now(left)
                if left <= self.terms.limit or not deep
                else self.value((hand | 1 << bit) ^ 1 << thrown, deep=False)
            )
        found = total / len(drawable) if drawable else 0.0
        self.known[(hand, deep)] = found
        return found

    def now(self, left: int) -> float:
        """A hand whose deadwood after its throw is `left`, scored as it stands."""
        if left > self.terms.limit:
            return -left
        return KNOCK_VALUE - left + (GIN_VALUE if left == 0 else 0.0)


def _draw_at(deal: Deal, depth: int) -> int:
    """The bit of the stock's `depth`-th card from the top in `deal` (-1: none)."""
    return gm.BIT[deal.stock[-depth]] if len(deal.stock) >= depth else -1


def _turn_value(hand: int, taken: int, opponent: int, outlook: _Outlook, next_draw: int) -> float:
    """Eleven cards held (`taken` from the pile, or -1): the best of the few best
    throws, each worth its outlook one draw deep (or a knock now) less what it
    feeds, and (`expert`) less what the other's knock after it costs (it draws
    `next_draw` if it does not take the throw). (A draw is judged one draw deep at
    every level: a stock draw brings a new hand on each sample, and two draws deep
    for each would cost seconds.)"""
    whole = sorted(
        (bit for bit in gm.bits(hand) if bit != taken),
        key=lambda bit: (gm.deadwood(hand ^ 1 << bit), -gm.VALUE[bit], -bit),
    )
    best = float("-inf")
    for bit in whole[:DRAW_THROWS]:
        kept = hand ^ 1 << bit
        left = gm.deadwood(kept)
        if left <= outlook.terms.limit:
            worth = outlook.now(left)
        else:
            worth = outlook.value(kept, deep=False)
        worth -= _fed(opponent, bit)
        stakes = outlook.terms.stakes
        if stakes is not None and left > outlook.terms.limit:
            worth -= threat(kept, bit, opponent, next_draw, stakes)
        best = max(best, worth)
    return best


def _fed(opponent: int, bit: int) -> float:
    """What throwing `bit` gives the other hand: the deadwood it saves by taking it."""
    if not gm.touches(opponent, bit):
        return 0.0
    saved = gm.deadwood(opponent) - gm.best_discard(opponent | 1 << bit, bit)[0]
    return FEED_COST * saved if saved > 0 else 0.0


def _throw_order(hand: int, card: Card) -> tuple[int, int, int]:
    bit = gm.BIT[card]
    return gm.deadwood(hand ^ (1 << bit)), -gm.VALUE[bit], -bit


def _draw_candidates(bot: BotView) -> list[Action]:
    """The draws to judge, `basic`'s choice first (ties go to it)."""
    legal = bot.legal
    options: list[Action] = []
    if Source.DISCARD in legal.draw and bot.discard_top is not None:
        options.append(Draw(Source.DISCARD))
    if legal.can_pass:
        options.append(Pass())
    elif Source.STOCK in legal.draw:
        options.append(Draw(Source.STOCK))
    if len(options) == 2 and bot.discard_top is not None:
        hand = gm.mask_of(bot.hand)
        if not helps(hand, gm.BIT[bot.discard_top]):
            options.reverse()
    return options


def _knock(
    bot: BotView,
    me: int,
    card: Card,
    unknown: Unknown,
    opponent_in: _Opponent,
    rng: Random,
    samples: int,
    terms: _Terms,
) -> Knock | None:
    """The knock with `card`, if its mean points on built sampled defenders pass
    `KNOCK_BAR` (gin always is), with the arrangement that leaves them
    most."""
    held = me ^ 1 << gm.BIT[card]
    if gm.deadwood(held) == 0:
        return Knock(card, _least_melds(held, terms.rules))
    defenders = [opponent_in(unknown.sample(rng)) for _ in range(samples)]
    shown = _arrangement(held, defenders[:ARRANGEMENT_SAMPLES], terms.rules)
    points = sum(_knock_points(held, shown, defender, terms) for defender in defenders)
    if points / len(defenders) > terms.knock_bar:
        return Knock(card, shown)
    return None


def _knock_points(
    held: int, shown: tuple[tuple[Card, ...], ...], defender: int, terms: _Terms
) -> float:
    """The knocker's points (negative: an undercut) for a knock holding `held`
    arranged as `shown`."""
    count = gm.deadwood(held)
    left = deadwood.defend(gm.cards_of(defender), shown, terms.rules).count
    if left <= count:
        return -terms.factor * (terms.undercut_bonus + count - left)
    return terms.factor * (left - count)


@lru_cache(maxsize=4096)
def _least_melds(held: int, rules: RuleSet) -> tuple[tuple[Card, ...], ...]:
    return deadwood.least(gm.cards_of(held), rules).melds


def _arrangement(
    held: int, defenders: Sequence[int], rules: RuleSet
) -> tuple[tuple[Card, ...], ...]:
    """Of the least-deadwood arrangements of `held`, the one leaving the sampled
    defenders the most deadwood after their lay-offs (the server's on ties)."""
    options = _least_arrangements(gm.cards_of(held), rules)
    if len(options) == 1:
        return options[0]
    hands = [gm.cards_of(defender) for defender in defenders]
    return max(
        options,
        key=lambda shown: sum(deadwood.defend(cards, shown, rules).count for cards in hands),
    )


def _least_arrangements(held: Sequence[Card], rules: RuleSet) -> list[tuple[tuple[Card, ...], ...]]:
    """Every arrangement of `held` that leaves its least deadwood (the server's first)."""
    best = deadwood.least(held, rules)
    options = [best.melds]
    possible = [tuple(meld) for meld in melds.possible_melds(list(held), rules.aces)]
    whole = gm.mask_of(held)
    for size in range(1, 4):
        for chosen in combinations(possible, size):
            cards = [card for meld in chosen for card in meld]
            if len(set(cards)) != len(cards):
                continue
            if gm.value(whole ^ gm.mask_of(cards)) == best.count and set(chosen) != set(best.melds):
                options.append(tuple(chosen))
    return options
