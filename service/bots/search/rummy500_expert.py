"""500 Rum's `expert` as an opponent model (docs/bots.md): OFF for now
(`rummy500.MODELLED_EXPERT`), as the arena measured it weaker than `strong`.

`strong` (`rummy500.py`) judges a move by the plan it leaves and what the next
seat's *uniformly* sampled hand gains from the pile the move leaves. This search
differs in two ways:

- **the other hand is modelled from the public pile**: the seat that threw the
  top card of the spread pile saw every card beneath it when it drew, and did not
  dig for them. A sampled hand (with that thrown card) that would have gained
  from digging then is unlikely, so it is dealt again (up to `TRIES` times):
  the deals judged on are those consistent with what that seat did not take.
- **a card held costs more as the hand's end nears** (`end_weight`): from the
  public counts (the stock's size, the fewest cards another seat holds), a card
  held counts against a plan from half its value up to all of it, and as that
  weight rises the highest deadwood cards are judged as throws too.

Covers are cached for the move on the hand's cards (hands repeat across
candidates and deals).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import TypeVar

from service.bots.melding import Cover, best_cover, layable
from service.bots.search.budget import Budget, Guard
from service.bots.search.unknown import Deal, Unknown
from service.bots.view import BotView
from service.domain.actions import Draw
from service.domain.cards import Card
from service.domain.rummy500 import pile
from service.domain.scoring import card_value
from service.domain.state import Source

Candidate = TypeVar("Candidate")

TRIES = 6
"""Deals of the other hands tried per sample before one consistent with the pile
is found (the last is kept if none is: the model is a preference, not a proof)."""
LEFTOVER_WEIGHT = 0.5
"""As `strong`'s: how much of a card left in hand a plan counts against."""
REPLY_WEIGHT = 1.0
"""How much of the next seat's gain counts against a move."""
REPLY_DEPTH = 10
"""The deepest pile draw a sampled seat is tried with."""
SAMPLE_WEIGHT = 0.5
"""Expert's samples per level sample, as `strong`'s (`rummy500.SAMPLE_WEIGHT`)."""
CALM = 5
"""Turns before the hand may end from which a card held counts as `strong` counts
it (`end_weight`)."""
OUT_CARDS = 2
"""A seat holding this many cards or fewer may go out on its next turn."""


class Plans:
    """The move's covers and plan values, cached on the hand's cards."""

    def __init__(self, bot: BotView, leftover: float = LEFTOVER_WEIGHT) -> None:
        self.bot = bot
        self.leftover = leftover
        self._covers: dict[tuple[str, ...], Cover] = {}

    def cover(self, hand: Sequence[Card]) -> Cover:
        key = tuple(sorted(card.code for card in hand))
        found = self._covers.get(key)
        if found is None:
            rules = self.bot.rules
            found = best_cover(hand, rules, layable(hand, self.bot.melds, rules))
            self._covers[key] = found
        return found

    def value(self, hand: Sequence[Card]) -> float:
        """What the plan of `hand` puts down (it scores now) less part of what stays."""
        cover = self.cover(hand)
        rules = self.bot.rules
        down = sum(card_value(card, rules) for meld in cover.melds for card in meld)
        down += sum(card_value(card, rules) for card in cover.laid_off)
        return down - self.leftover * cover.points

    def worst(self, hand: Sequence[Card]) -> Card | None:
        """The card the plan of `hand` throws: its highest deadwood (None: goes out)."""
        cover = self.cover(hand)
        if not cover.deadwood:
            return None
        rules = self.bot.rules
        return max(cover.deadwood, key=lambda card: (card_value(card, rules), card.sort_key))

    def dig(self, hand: Sequence[Card], left: Sequence[Card]) -> tuple[float, int]:
        """The best gain of `hand` taking the pile `left` to some depth (the called card
        usable), and that depth (0: no depth gains)."""
        bot = self.bot
        rules = bot.rules
        base = self.value(hand)
        best, depth = 0.0, 0
        for count in range(1, min(len(left), REPLY_DEPTH) + 1):
            taken = left[-count:]
            held = (*hand, *taken)
            if count > 1 and not pile.usable(
                taken[0], held, bot.melds, rules.aces, rules.going_out
            ):
                continue
            gain = self.value(held) - base
            if gain > best:
                best, depth = gain, count
        return best, depth


def modelled_deals(
    unknown: Unknown, bot: BotView, plans: Plans, rng: Random, samples: int, guard: Guard
) -> list[Deal]:
    """`samples` deals of the unseen cards, each the first of `TRIES` in which the seat
    that threw the pile's top card could not have gained by digging beneath it."""
    thrower = _seat_before(bot)
    under = bot.pile[:-1]
    deals: list[Deal] = []
    for _ in range(samples):
        deal = unknown.sample(rng)
        if thrower is not None and under:
            for _ in range(TRIES - 1):
                if plans.dig((*deal.hands[thrower], bot.pile[-1]), under)[0] <= 0:
                    break
                deal = unknown.sample(rng)
        deals.append(deal)
        if guard.passed():
            break
    return deals


def end_weight(bot: BotView) -> float:
    """How much of a card held counts against a plan, from the public counts: the
    hand may end (a seat goes out, or the stock runs dry) before a card held now is
    melded, and then it counts in full. `LEFTOVER_WEIGHT` while that is `CALM`
    turns or more away, rising to 1 as it nears."""
    seats = sum(1 for count in bot.hand_counts if count) or 1
    draws_left = bot.stock_count // seats
    others = [count for seat, count in enumerate(bot.hand_counts) if count and seat != bot.seat]
    # A seat holding few cards may meld them all on its next turn.
    out_soon = max(0, min(others, default=13) - OUT_CARDS)
    near = min(draws_left, out_soon)
    if near >= CALM:
        return LEFTOVER_WEIGHT
    return LEFTOVER_WEIGHT + (1 - LEFTOVER_WEIGHT) * (CALM - near) / CALM


def best_on_deals(
    candidates: Sequence[Candidate],
    deals: Sequence[Deal],
    value: Callable[[Candidate, Deal], float],
    margin: float,
    guard: Guard,
) -> Candidate:
    """The candidate of the best mean `value` over `deals` (the same deals for all);
    the first (`basic`'s) stays unless another beats it by more than `margin` a deal."""
    totals = [0.0] * len(candidates)
    taken = 0
    for deal in deals:
        taken += 1
        for at, candidate in enumerate(candidates):
            totals[at] += value(candidate, deal)
        if guard.passed():
            break
    best = max(range(len(candidates)), key=lambda at: (totals[at], -at))
    if totals[best] - totals[0] <= margin * taken:
        return candidates[0]
    return candidates[best]


def drawn_cards(
    bot: BotView, choice: Draw, deal: Deal
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """What `choice` brings the hand on `deal`, and the pile it leaves: the stock's top
    (none when the stock is out), or the pile's cards from the one chosen up."""
    if choice.source is Source.STOCK:
        return ((deal.stock[-1],) if deal.stock else ()), bot.pile
    return bot.pile[-choice.count :], bot.pile[: -choice.count]


def expert_samples(budget: Budget) -> int:
    return max(1, round(budget.samples * SAMPLE_WEIGHT))


def _seat_before(bot: BotView) -> int | None:
    """The seat that played just before this one (None if every other is empty)."""
    seats = len(bot.hand_counts)
    for step in range(1, seats):
        seat = (bot.seat - step) % seats
        if bot.hand_counts[seat]:
            return seat
    return None
