"""The Western family's search: classic, wild, Boathouse, Knock and Wrotham.

Determinized sampling. At each decision the seat deals the cards it cannot see
in `budget.samples` ways consistent with its view (`unknown.Unknown`), and
scores every candidate move on each deal by a quick greedy playout of the
hand from there (`playout.Playout`). Every candidate is scored on the same
deals, so their differences are not blurred by the luck of the deal. To spend
the budget where it counts, all candidates are first scored on a quarter of
the deals and only the best few (`KEEP`) go on to the rest. The first
candidate is always `basic`'s own move, and another plays instead only when
its lead over it, deal by deal, is sure (`SURE` standard errors): a playout
is a rough judge, and a lead found on a few dozen deals is often luck.

What is searched:
- the draw: the stock or the upcard (Boathouse's second draw likewise);
- the discard, among every card the rules let go;
- Knock Rummy: for each card, knocking with it or throwing it. A knock is
  settled exactly on each deal (the other hands' counts against this one,
  undercut and all), so the seat knocks when its knock wins on average more
  than playing on does.

What is `basic`'s: melds, lay-offs and swaps (as soon as possible; held back
when a rummy is one draw away), and a concealed going out whenever one
exists. The search decides only what `basic` would discard.

Nothing here reads anything but the view: the deals come from `Unknown.of`,
and the playout knows only the view's table and the deal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import TypeVar

from service.bots.basic import play_basic
from service.bots.search.budget import Budget
from service.bots.search.playout import Judge, Playout
from service.bots.search.unknown import Deal, Unknown
from service.bots.view import BotView
from service.domain import knock
from service.domain.actions import Action, Discard, Draw, Knock
from service.domain.cards import Card
from service.domain.rule_values import LayOffRule
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
"""Turns of every seat a playout runs before it is scored at its horizon. Longer
playouts measured no better (six turns a seat, to the end of most hands: no
gain over `basic` in classic) and cost more; with wild cards, whose hands cost
four times as much to read, three turns took `strong`'s p99 past 100 ms."""
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
SEARCHED_ONLY_KNOCKING = True
"""The search plays only where it beats `basic`: Knock Rummy (arena, seed `ladder-a`:
61.5% [54.2, 68.8] of 96 games, H1). In classic it measured weaker (42.2% [32.8,
50.0] of 64 games, H0) and in wild no better (52.5% [47.0, 58.0] of 200), so a
`strong` seat there plays `basic`'s moves rather than worse ones (docs/bots.md)."""
SURE_KNOCK = 0.0
"""The same for Knock Rummy's play, where a knock is settled exactly on each deal:
there the best mean plays (70 % of 30 games against `basic`, 60 % with 1.3)."""


def search_western(view: GameView, bot: BotView, rng: Random, budget: Budget) -> Move:
    """The move of the seat whose view this is, searched under `budget`; `basic`'s
    outside Knock Rummy (`SEARCHED_ONLY_KNOCKING`)."""
    # basic's own move is the first candidate, which the search must beat clearly.
    basic = play_basic(view, Random(rng.random()))
    if SEARCHED_ONLY_KNOCKING and not bot.rules.features.knocking:
        return basic
    if isinstance(basic, Draw):
        if len(bot.legal.draw) == 1 or bot.discard_top is None:
            return basic
        return Draw(_Search.of(view, bot, rng, budget).draw(basic.source))
    if bot.rules.features.knocking and isinstance(basic, Knock | Discard):
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
        turns = TURNS * max(seats, 2)
        return cls(bot, Unknown.of(view, bot), judge, rng, budget, turns)

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
        dead = set(self.judge.dead(bot.hand).cards)
        choices.sort(
            key=lambda card: (card != preferred, card not in dead, -card_value(card, rules))
        )

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
                return candidates[_sure(scores, indices, sure)]
        ranked = sorted(indices, key=lambda index: (-sum(scores[index]), index))
        kept = sorted({0, *ranked[: _keep(samples)]})
        for deal in deals[first:]:
            for index in kept:
                scores[index].append(score(candidates[index], deal))
            if guard.passed():
                break
        return candidates[_sure(scores, kept, sure)]

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


def _sure(scores: Sequence[Sequence[float]], indices: Sequence[int], sure: float) -> int:
    """The index of the best mean score among `indices` if its lead over index 0 is
    sure (`SURE` standard errors of the paired differences), else 0."""
    best = max(indices, key=lambda index: (sum(scores[index]), -index))
    if best == 0:
        return 0
    leads = [mine - first for mine, first in zip(scores[best], scores[0], strict=True)]
    count = len(leads)
    mean = sum(leads) / count
    if count < 2:
        return 0
    spread = sum((lead - mean) ** 2 for lead in leads) / (count - 1)
    return best if mean > 0 and mean * mean * count > sure * sure * spread else 0


def _without(hand: Sequence[Card], card: Card) -> tuple[Card, ...]:
    left = list(hand)
    left.remove(card)
    return tuple(left)


def _card(move: Knock) -> Card:
    assert move.card is not None, "a Western knock has its card"
    return move.card
