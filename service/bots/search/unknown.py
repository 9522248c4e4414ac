"""The cards a seat cannot see, and deals of them consistent with its view.

What is hidden from a seat: the other seats' hands (their sizes are public),
the stock (its size is public), and cards out of play (a knock card; Indian's
wild indicator is out of play but face up, so seen). The pool of unseen cards
is the pack less every card the seat counts as seen; a sample deals that pool,
shuffled by the bot's generator, into those hidden places. Nothing here reads
anything but the view, so two tables that show a seat the same view give it the
same samples.

Some cards in the pool are not unknown to a player who remembers the play:
- the discard pile under its top card, which every view shows (`pile_below`) but
  only Gin's and 500 Rum's searches read at every level: elsewhere it is in the
  pool, and in the buried places, unless the seat remembers it
  (`BotView.remembering`, `BotView.remembered`);
- the cards it saw another seat take face up and keep (the view's
  `players[].known_cards`). `Unknown.remembering` takes them out of the pool and
  deals them back to that seat in every sample; a level that forgets them
  (`strong`) deals them at random with the rest.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from random import Random

from service.bots.view import BotView
from service.domain.cards import Card
from service.projections.views import GameView


@dataclass(frozen=True, slots=True)
class Deal:
    """One sample of the hidden cards."""

    hands: dict[int, list[Card]]
    """Each other seat's hand."""
    stock: list[Card]
    """Top of the stock LAST, as in `HandState.stock`."""
    buried: list[Card]
    """The discard pile under its top card, and any card out of play."""


@dataclass(frozen=True, slots=True)
class Unknown:
    """The unseen cards of one seat's view, and the hidden places they fill."""

    pool: tuple[Card, ...]
    """Every unseen card, in a fixed order (the pack's sort order)."""
    hand_counts: dict[int, int]
    stock_count: int
    buried_count: int
    remembered: tuple[Card, ...] = ()
    """The pile under the top that the seat remembers (`BotView.remembered`): out of
    the pool, and among the buried cards of every sample."""
    known: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    """Cards of other seats' hands the table saw them take (`remembering`): out of
    the pool, and in that seat's hand in every sample."""

    @classmethod
    def of(cls, view: GameView, bot: BotView) -> Unknown:
        seen: Counter[Card] = Counter(bot.hand)
        for meld in bot.melds:
            seen.update(meld.cards)
        pile = bot.pile if bot.pile else ((bot.discard_top,) if bot.discard_top else ())
        seen.update(pile)
        remembered = () if bot.pile else bot.remembered
        seen.update(remembered)
        # Indian's wild indicator lies face up, out of play: seen, so not unseen
        # and not among the hidden cards out of play.
        indicator = None if view.wild is None else view.wild.indicator
        shown_out = (Card.parse(indicator),) if indicator is not None else ()
        seen.update(shown_out)
        pool = Counter(bot.rules.pack)
        pool.subtract(seen)
        cards = tuple(sorted(pool.elements(), key=lambda card: card.sort_key))
        hand_counts = {
            seat: count for seat, count in enumerate(bot.hand_counts) if seat != bot.seat
        }
        out_of_play = max(0, (view.out_of_play_count or 0) - len(shown_out))
        buried = max(0, view.discard_count - len(pile)) + out_of_play
        return cls(
            pool=cards,
            hand_counts=hand_counts,
            stock_count=bot.stock_count,
            buried_count=buried,
            remembered=remembered,
        )

    def remembering(self, bot: BotView) -> Unknown:
        """These unseen cards less the ones the table saw another seat take and keep
        (`BotView.known`), which every sample deals back to that seat: what a player
        who remembers the play knows. `strong` forgets them (docs/bots.md)."""
        known = {
            seat: cards
            for seat, cards in enumerate(bot.known)
            if cards and seat in self.hand_counts
        }
        if not known:
            return self
        pool = Counter(self.pool)
        for cards in known.values():
            pool.subtract(cards)
        return replace(
            self,
            pool=tuple(sorted(pool.elements(), key=lambda card: card.sort_key)),
            known=known,
        )

    def sample(self, rng: Random) -> Deal:
        """A deal of the pool into the hidden places, each equally likely (the known
        cards first in their seats' hands)."""
        cards = list(self.pool)
        rng.shuffle(cards)
        hands: dict[int, list[Card]] = {}
        at = 0
        for seat, count in self.hand_counts.items():
            held = self.known.get(seat, ())
            dealt = max(0, count - len(held))
            hands[seat] = [*held, *cards[at : at + dealt]]
            at += dealt
        stock = cards[at : at + self.stock_count]
        at += self.stock_count
        return Deal(hands=hands, stock=stock, buried=[*self.remembered, *cards[at:]])
