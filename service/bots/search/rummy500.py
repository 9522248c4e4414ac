"""500 Rum's search (docs/bots.md): determinized sampling, one turn ahead.

In 500 Rum every card put down scores at once and the spread pile is public, so
what a move is worth is mostly seen from the hand: a plan's value
(`melding.best_cover`: what its melds and lay-offs put down, less part of what
it leaves in hand). What the hidden cards decide is the rest, and that is what
the samples judge:

- **the stock's top**: a stock draw is worth the plan of the hand with the
  sampled card, against the pile draws (each depth `legal` offers) with the
  cards they take;
- **the next player's reply**: the pile my turn leaves (less what I take, plus
  my throw) is offered to the next seat, whose sampled hand takes it to the
  depth that adds most to its plan (its called card usable, as the rules ask).
  What it gains is my loss, weighed by `REPLY_WEIGHT`.

`expert` judges on four times the samples, and remembers: the cards the table
saw another seat take from the pile and keep are dealt to that seat in every
sample (`Unknown.remembering`), so the next player's reply is judged on the
cards it is known to hold. That memory is its step over `strong` (docs/bots.md:
more samples alone measured 51% of 200 games, with the memory 58.7% of 288 and
63.9% of 144).

Melds and lay-offs are played as `basic` plays them (everything down at once:
a card held counts against, a card down scores); the search chooses the draw
and the throw, `basic`'s choices first among equals.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from service.bots.melding import Cover, best_cover, fits_table, layable
from service.bots.rummy500 import play_rummy500
from service.bots.search.budget import Budget, is_expert
from service.bots.search.rummy500_expert import (
    Plans,
    best_on_deals,
    drawn_cards,
    end_weight,
    expert_samples,
    modelled_deals,
)
from service.bots.search.sampled import best_by_samples, samples_of
from service.bots.search.unknown import Deal, Unknown
from service.bots.view import BotView
from service.domain.actions import Action, Discard, Draw
from service.domain.cards import Card
from service.domain.rummy500 import pile
from service.domain.scoring import card_value
from service.domain.state import Source
from service.projections.views import GameView

SAMPLE_WEIGHT = 0.5
"""500 Rum's samples per level sample: its plans cost more than gin's counts."""
LEFTOVER_WEIGHT = 0.5
"""How much of a card left in hand a plan counts against (it may meld later)."""
REPLY_WEIGHT = 1.0
"""How much of the next player's gain from the pile counts against a move."""
DRAWS = 4
"""The draws judged: `basic`'s, then the stock, the top card and the deepest."""
THROWS = 4
"""The throws judged: `basic`'s, then the next few by its order."""
MARGIN = 3.0
"""Points a move must gain on average over `basic`'s to be played instead: the
plan's value is a rough guide, and `basic`'s habits (keep high cards, they score
when melded) are worth more than a small difference in it."""
DRAW_MARGIN = 8.0
"""The same for a draw, whose plan value guesses more (the cards it takes may meld
later, or stay in hand when the hand ends): measured, 8 beat 3 and no search."""
REPLY_DEPTH = 10
"""The deepest pile draw a sampled next player is tried with."""
MODELLED_EXPERT = False
"""Whether `expert` plays `rummy500_expert`'s search (deals modelled on the pile, held
cards weighed by the hand's end) instead of this one with its larger budget. Off:
the arena measured it weaker than `strong` (docs/bots.md, "500 Rum"), 43.8% of 80
games (H0) and, with a second ply on throws instead of the end weight, 44.8% of 96."""
HIGH_THROWS = 2
"""`expert`, as the hand's end nears: its highest deadwood cards judged as throws too."""


def search_rummy500(view: GameView, bot: BotView, rng: Random, budget: Budget) -> Action:
    """500 Rum's move for the seat whose view this is (the family's `FamilySearch`)."""
    basic = play_rummy500(bot, rng)
    legal = bot.legal
    if not (legal.draw or (isinstance(basic, Discard) and len(legal.discard) > 1)):
        return basic
    expert = is_expert(budget)
    unknown = Unknown.of(view, bot)
    if expert:
        unknown = unknown.remembering(bot)
    samples = samples_of(budget, SAMPLE_WEIGHT)
    after = _next_seat(bot)
    if MODELLED_EXPERT and expert and after is not None:
        return _expert(bot, basic, unknown, budget, after, rng)
    if legal.draw:
        draws = _draw_candidates(bot, basic)

        def drawn(choice: Draw, deal: Deal, _: Random) -> float:
            taken, left = drawn_cards(bot, choice, deal)
            hand = (*bot.hand, *taken)
            cover = _cover(bot, hand)
            throw = _worst(bot, cover, hand)
            value = _value(bot, cover)
            if after is None or throw is None:
                return value
            return value - REPLY_WEIGHT * _reply(bot, deal.hands[after], (*left, throw))

        return best_by_samples(draws, unknown, rng, samples, budget.guard(), drawn, DRAW_MARGIN)
    assert isinstance(basic, Discard)
    throws = _throw_candidates(bot, basic.card)

    def thrown(card: Card, deal: Deal, _: Random) -> float:
        # What the throw hands the next seat; the cards kept are `basic`'s to judge.
        if after is None:
            return 0.0
        return -REPLY_WEIGHT * _reply(bot, deal.hands[after], (*bot.pile, card))

    return Discard(best_by_samples(throws, unknown, rng, samples, budget.guard(), thrown, MARGIN))


def _expert(
    bot: BotView, basic: Action, unknown: Unknown, budget: Budget, after: int, rng: Random
) -> Action:
    """`expert`'s move (`rummy500_expert`): deals modelled on the pile, and what a card
    held costs weighed by how near the hand's end is."""
    weight = end_weight(bot)
    mine, theirs = Plans(bot, weight), Plans(bot)
    guard = budget.guard()
    deals = modelled_deals(unknown, bot, theirs, rng, expert_samples(budget), guard)
    if bot.legal.draw:

        def drawn(choice: Draw, deal: Deal) -> float:
            taken, left = drawn_cards(bot, choice, deal)
            hand = (*bot.hand, *taken)
            throw = mine.worst(hand)
            value = mine.value(hand)
            if throw is None:
                return value
            return value - REPLY_WEIGHT * theirs.dig(deal.hands[after], (*left, throw))[0]

        draws = _draw_candidates(bot, basic)
        return best_on_deals(draws, deals, drawn, DRAW_MARGIN, guard)
    assert isinstance(basic, Discard)
    # The part of a held card's cost that comes from the hand's end drawing near.
    ending = (weight - LEFTOVER_WEIGHT) / (1 - LEFTOVER_WEIGHT)
    throws = _throw_candidates(bot, basic.card)
    if ending > 0:
        highest = sorted(
            (card for card in mine.cover(bot.hand).deadwood if card in bot.legal.discard),
            key=lambda card: (-card_value(card, bot.rules), card.sort_key),
        )
        throws += [card for card in highest[:HIGH_THROWS] if card not in throws]

    def thrown(card: Card, deal: Deal) -> float:
        kept = list(bot.hand)
        kept.remove(card)
        reply = theirs.dig(deal.hands[after], (*bot.pile, card))[0]
        return -ending * mine.cover(kept).points - REPLY_WEIGHT * reply

    return Discard(best_on_deals(throws, deals, thrown, MARGIN, guard))


def _next_seat(bot: BotView) -> int | None:
    """The seat that plays after this one (None if every other seat is empty)."""
    seats = len(bot.hand_counts)
    for step in range(1, seats):
        seat = (bot.seat + step) % seats
        if bot.hand_counts[seat]:
            return seat
    return None


def _draw_candidates(bot: BotView, basic: Action) -> list[Draw]:
    """`basic`'s draw first, then the stock, the top card and the deepest few takes."""
    options: list[Draw] = []
    if isinstance(basic, Draw):
        options.append(basic)
    if Source.STOCK in bot.legal.draw:
        options.append(Draw(Source.STOCK))
    if Source.DISCARD in bot.legal.draw and bot.pile:
        options.append(Draw(Source.DISCARD))
        deep = sorted((count for count in bot.legal.pile_counts if count > 1), reverse=True)
        options += [Draw(Source.DISCARD, count) for count in deep]
    unique: list[Draw] = []
    for option in options:
        if option not in unique:
            unique.append(option)
    return unique[:DRAWS]


def _throw_candidates(bot: BotView, basic: Card) -> list[Card]:
    """`basic`'s throw first, then the next by its order: not a card its plan melds
    or that fits the table, the lowest first."""
    saved = _cover(bot, bot.hand).meld_cards
    others = sorted(
        (card for card in set(bot.legal.discard) if card != basic),
        key=lambda card: (
            card in saved,
            fits_table(card, bot.melds, bot.rules),
            card_value(card, bot.rules),
            card.sort_key,
        ),
    )
    return [basic, *others][:THROWS]


def _cover(bot: BotView, hand: Sequence[Card]) -> Cover:
    return best_cover(hand, bot.rules, layable(hand, bot.melds, bot.rules))


def _value(bot: BotView, cover: Cover) -> float:
    """What a plan puts down (it scores now) less part of what it leaves in hand."""
    rules = bot.rules
    down = sum(card_value(card, rules) for meld in cover.melds for card in meld)
    down += sum(card_value(card, rules) for card in cover.laid_off)
    return down - LEFTOVER_WEIGHT * cover.points


def _worst(bot: BotView, cover: Cover, hand: Sequence[Card]) -> Card | None:
    """The card a plan would throw: its highest deadwood card (None: it goes out)."""
    if not cover.deadwood:
        return None
    return max(cover.deadwood, key=lambda card: (card_value(card, bot.rules), card.sort_key))


def _reply(bot: BotView, hand: Sequence[Card], left: Sequence[Card]) -> float:
    """What the next player's sampled `hand` gains by taking the pile `left` to its
    best depth (the called card usable, as the rules ask), or by its top card."""
    rules = bot.rules
    base = _value(bot, _cover(bot, hand))
    best = 0.0
    for count in range(1, min(len(left), REPLY_DEPTH) + 1):
        taken = left[-count:]
        held = (*hand, *taken)
        if count > 1 and not pile.usable(taken[0], held, bot.melds, rules.aces, rules.going_out):
            continue
        best = max(best, _value(bot, _cover(bot, held)) - base)
    return best
