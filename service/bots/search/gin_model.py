"""Gin's model of the other hand for `expert` (docs/bots.md): what the public play
says about it, and the knock it may make on its next turn.

- **What it threw or passed**: the top of the pile, when the other player threw it
  (or passed it as the upcard), is a card its hand did not meld: no player throws
  a card out of a set or run. Sampled other hands in which it would lie in a meld
  are dealt again (`Shown.sample`, a few tries), so the samples lean toward the
  hands the play so far makes likely.
- **What it took**: the cards the table saw it take from the pile and keep (the
  view's `players[].known_cards`) are dealt to it in every sample
  (`Unknown.remembering`), and a sample in which one of them would lie in no
  meld is dealt again the same way: no player takes a card its hand cannot use.
- **Its knock coming**: after my throw, the other hand takes it if it helps
  (`basic`'s test) or else draws the stock's next card, and knocks when it then
  may; what that knock costs me (my deadwood against its, an undercut my gain) is
  what a throw or a draw is charged on that sample. A throw that hands it the
  knock, or keeps high cards while it is close, then costs.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from random import Random

from service.bots.search import gin_masks as gm
from service.bots.search.unknown import Deal, Unknown
from service.bots.view import BotView
from service.domain.rules import RuleSet
from service.projections.views import GameView

TRIES = 6
"""Deals tried for one sample before the last is kept as it is."""


def helps(hand: int, top: int) -> bool:
    """`basic`'s test: taking `top` (and throwing another card) lowers the deadwood."""
    if not gm.touches(hand, top):
        return False
    return gm.best_discard(hand | 1 << top, top)[0] < gm.deadwood(hand)


def melds_with(hand: int, bit: int) -> bool:
    """Whether the card `bit` would lie in a meld of `hand`'s best arrangement with it
    (it lowers the deadwood of the hand with it by less than its own value)."""
    if not gm.touches(hand, bit):
        return False
    return gm.deadwood(hand | 1 << bit) < gm.deadwood(hand) + gm.VALUE[bit]


def refused(view: GameView, bot: BotView) -> int:
    """The bit of the card the other player last threw or passed, if the top of the
    pile is one (-1 if not): in the draw (but the first offer of the upcard, which
    no one has passed yet), or after a draw from the stock (every card may be thrown:
    none was taken from the pile)."""
    top = bot.discard_top
    legal = bot.legal
    if top is None:
        return -1
    if legal.can_pass:
        return gm.BIT[top] if view.dealer == bot.seat else -1
    if legal.draw:
        return gm.BIT[top]
    if legal.discard and len(legal.discard) == len(bot.hand):
        return gm.BIT[top]
    return -1


@dataclass(frozen=True, slots=True)
class Shown(Unknown):
    """`Unknown` whose samples of the other hand would not meld the card it refused,
    and hold the cards it took, each in a meld."""

    other: int = -1
    refused: int = -1

    @classmethod
    def of_seat(cls, view: GameView, bot: BotView) -> Shown:
        unknown = Unknown.of(view, bot).remembering(bot)
        # Every field of the seat's `Unknown`, so none added there is dropped here.
        return cls(
            **{place.name: getattr(unknown, place.name) for place in fields(Unknown)},
            other=next(iter(unknown.hand_counts)),
            refused=refused(view, bot),
        )

    def sample(self, rng: Random) -> Deal:
        deal = Unknown.sample(self, rng)
        taken = [gm.BIT[card] for card in self.known.get(self.other, ())]
        if self.refused < 0 and not taken:
            return deal
        for _ in range(TRIES - 1):
            # The hand as dealt, not as built: building it costs ten counts a try.
            if self._likely(gm.mask_of(deal.hands[self.other]), taken):
                break
            deal = Unknown.sample(self, rng)
        return deal

    def _likely(self, hand: int, taken: list[int]) -> bool:
        """Whether the other hand fits its play: the card it refused would lie in no
        meld of it, and each card it took from the pile lies in one (no player takes
        a card its hand cannot use; `basic`'s rule, which every level keeps)."""
        if self.refused >= 0 and melds_with(hand, self.refused):
            return False
        return all(melds_with(hand ^ 1 << bit, bit) for bit in taken)


def drawn_by_other(view: GameView) -> int:
    """How many cards the other hand has drawn and thrown, about: half the throws
    under the pile's top (the two players' throws alternate)."""
    return max(0, view.discard_count - 1) // 2


def built(deal: Deal, seat: int, count: int) -> int:
    """The sampled other hand as a hand in play: it has drawn `count` more cards and
    kept its best ten. The cards are unseen ones no one draws soon (the pile shown
    whole, none of the buried cards is unseen): those buried face down (a knock
    card), then the stock's bottom."""
    hand = gm.mask_of(deal.hands[seat])
    for card in (deal.buried + deal.stock)[:count]:
        hand |= 1 << gm.BIT[card]
        hand ^= 1 << gm.best_discard(hand)[1]
    return hand


@dataclass(frozen=True, slots=True)
class Stakes:
    """What a knock scores: the knock limit, the bonuses and the factor (Oklahoma)."""

    rules: RuleSet
    limit: int
    gin_bonus: int
    undercut_bonus: int
    factor: int


def threat(kept: int, thrown: int, other: int, next_draw: int, stakes: Stakes) -> float:
    """What the other hand's knock on its next turn costs me, holding `kept` after
    throwing `thrown` (0 when it cannot knock; negative: an undercut, my gain). It
    takes `thrown` if that helps it, else draws `next_draw` (-1: no card left)."""
    if helps(other, thrown):
        held, keep = other | 1 << thrown, thrown
    elif next_draw >= 0:
        held, keep = other | 1 << next_draw, -1
    else:
        return 0.0
    left, _ = gm.best_discard(held, keep)
    if left > stakes.limit:
        return 0.0
    if left == 0:
        return stakes.factor * (stakes.gin_bonus + gm.deadwood(kept))
    # My deadwood without the lay-offs on its melds: they would cost a domain count
    # per knock (most of the model's time), and spare about as much on every throw.
    mine = gm.deadwood(kept)
    if mine <= left:
        return -stakes.factor * (stakes.undercut_bonus + left - mine)
    return stakes.factor * (mine - left)
