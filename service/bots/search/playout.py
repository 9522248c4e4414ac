"""A quick playout of a Western hand on one sampled deal: what the search scores.

The Western search (`western`) judges a candidate move by playing the hand on
from it, on a deal of the unseen cards (`unknown.Deal`), for a few turns of
every seat, each seat following one greedy rule: take the upcard when it
fits, throw the worst card left outside the hand's best melds, go out as soon
as the hand allows (Knock Rummy: knock once the count is low). The playout
is not the domain's game: it keeps hands, stock and upcard as plain lists and
reads the table's melds as the view shows them (lay-offs count in a hand's
deadwood), which is hundreds of times cheaper than playing the engine, and
close enough to tell a good move from a poor one on average.

The score is in points for the searching seat: what it wins when it goes out
(or its knock wins), less what it gives away when another seat does; a
playout that reaches its horizon scores the difference of the deadwood left,
damped (`LEAF_WEIGHT`), since nobody has won those points yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from service.bots.melding import best_cover, layable
from service.bots.wildplay import wild_cover
from service.domain import knock
from service.domain.cards import Card
from service.domain.melds import TableMeld
from service.domain.rules import RuleSet
from service.domain.scoring import card_value
from service.domain.wilds import is_wild

LEAF_WEIGHT = 0.5
"""A playout stopped at its horizon scores this share of the deadwood difference:
the points are likely, not won."""
RACE = 3.0
"""What a deadwood card fewer than the others' is worth at the horizon: the hand
nearer going out wins the others' points more often."""
PARTNER_WORTH = 12
"""What a deadwood partner (half a meld) is worth against a card's points when the
playout throws a card: `basic`'s weighing (`_waste`, points halved)."""
KNOCK_AT = 30
"""The count at or under which a seat knocks in a Knock Rummy playout (the
`basic` level's own threshold, `service.bots.knocking.KNOCK_AT`: the model of
how an ordinary opponent plays)."""


@dataclass(frozen=True, slots=True)
class Dead:
    """A hand's best split, as the playout needs it."""

    count: int
    """Deadwood cards (Knock Rummy: unmatched cards)."""
    points: int
    """What they count."""
    cards: tuple[Card, ...]


@dataclass(slots=True)
class Judge:
    """Reads hands under one game's rules and table, remembering each hand it read."""

    rules: RuleSet
    table: Sequence[TableMeld]
    """The melds the seat may lay off onto (empty where it may not)."""
    knocking: bool
    concealed: bool
    """A concealed hand: the loser's whole hand counts (nothing of it is on the table)."""
    _seen: dict[tuple[Card, ...], Dead] = field(default_factory=dict)

    def dead(self, hand: Sequence[Card]) -> Dead:
        key = tuple(sorted(hand, key=_sort_key))
        found = self._seen.get(key)
        if found is None:
            found = self._read(key)
            self._seen[key] = found
        return found

    def _read(self, hand: tuple[Card, ...]) -> Dead:
        rules = self.rules
        if self.knocking:
            arranged = knock.arrange(hand, rules)
            return Dead(len(arranged.unmatched), arranged.count, arranged.unmatched)
        if rules.has_wilds:
            cover = wild_cover(hand, rules, self.table)
        else:
            cover = best_cover(hand, rules, layable(hand, self.table, rules))
        return Dead(len(cover.deadwood), cover.points, cover.deadwood)

    def lost(self, hand: Sequence[Card]) -> int:
        """What a hand gives away when another seat goes out."""
        if self.concealed:
            return sum(card_value(card, self.rules) for card in hand)
        return self.dead(hand).points

    def worth_throwing(self, card: Card, dead: Sequence[Card]) -> float:
        """How readily `throw` lets `card` go (higher first), against the hand's
        deadwood `dead`: its points less its partners there."""
        return card_value(card, self.rules) - PARTNER_WORTH * _partners(card, dead)

    def throw(self, hand: Sequence[Card], kept: Card | None) -> Card:
        """The greedy discard: the deadwood card worth least to keep, by its points
        against the partners it has in the deadwood (same rank, or same suit up to
        two ranks away), as `basic` weighs it; never a wild while a natural card may
        go, never `kept`, the card just taken from the pile (unless it is all the
        hand holds)."""
        rules = self.rules
        dead = self.dead(hand).cards
        # A hand of the taken card alone (Wrotham's, after melding all): it goes back.
        pool = (
            [card for card in dead if card != kept]
            or [card for card in hand if card != kept]
            or list(hand)
        )
        natural = [card for card in pool if not is_wild(card, rules)] if rules.has_wilds else pool
        chosen = natural or pool
        return max(
            chosen,
            key=lambda card: (self.worth_throwing(card, dead), card.sort_key),
        )


@dataclass(slots=True)
class Playout:
    """One hand on one deal, from a given point, played greedily by every seat."""

    judge: Judge
    me: int
    hands: dict[int, list[Card]]
    stock: list[Card]
    """Top LAST."""
    top: Card | None
    second_draw: bool
    """Boathouse: taking the upcard draws a second card (here: the stock's)."""
    knock_penalty: int = 0
    knock_bonus: int = 0

    def run(self, seat: int, turns: int) -> float:
        """Play from `seat`'s draw for `turns` turns in all; the score for `me`."""
        seats = sorted(self.hands)
        at = seats.index(seat)
        for _ in range(turns):
            ended = self.turn(seats[at])
            if ended is not None:
                return ended
            at = (at + 1) % len(seats)
        return self.leaf()

    def turn(self, seat: int) -> float | None:
        """One greedy turn of `seat`: draw, then finish (`finish`)."""
        hand = self.hands[seat]
        taken: Card | None = None
        top = self.top
        if top is not None and self._wants(hand, top):
            hand.append(top)
            taken = top
            self.top = None
            if self.second_draw and self.stock:
                hand.append(self.stock.pop())
        elif self.stock:
            hand.append(self.stock.pop())
        else:
            return self.leaf()
        return self.finish(seat, taken)

    def finish(self, seat: int, taken: Card | None) -> float | None:
        """After `seat`'s draw: go out (or knock) if the greedy rule says so, else throw
        the worst card. The score if the hand ended, else None."""
        hand = self.hands[seat]
        judge = self.judge
        dead = judge.dead(hand)
        if judge.knocking:
            card = judge.throw(hand, taken)
            hand.remove(card)
            if judge.dead(hand).points <= KNOCK_AT:
                return self.knocked(seat)
            self.top = card
            return None
        if dead.count == 0 or (dead.count == 1 and dead.cards[0] != taken):
            return self.out(seat)
        card = judge.throw(hand, taken)
        hand.remove(card)
        self.top = card
        return None

    def out(self, seat: int) -> float:
        judge = self.judge
        if seat == self.me:
            return float(
                sum(judge.lost(held) for other, held in self.hands.items() if other != seat)
            )
        return -float(judge.lost(self.hands[self.me]))

    def knocked(self, seat: int) -> float:
        """The knock of `seat` (its knock card already out of its hand), settled."""
        seats = sorted(self.hands)
        counts = [self.judge.dead(self.hands[each]).points for each in seats]
        settled = knock.pot(
            counts, seats.index(seat), penalty=self.knock_penalty, bonus=self.knock_bonus
        )
        return _relative(settled.points, seats.index(self.me))

    def leaf(self) -> float:
        judge = self.judge
        mine = judge.dead(self.hands[self.me])
        others = [judge.dead(held) for seat, held in self.hands.items() if seat != self.me]
        points = sum(dead.points for dead in others) / len(others) - mine.points
        count = sum(dead.count for dead in others) / len(others) - mine.count
        return LEAF_WEIGHT * points + RACE * count

    def _wants(self, hand: list[Card], card: Card) -> bool:
        """The upcard fits: with it (and the best card thrown) the hand is better."""
        judge = self.judge
        before = judge.dead(hand)
        hand.append(card)
        after = judge.dead(hand)
        hand.pop()
        if judge.knocking:
            return after.points - _highest(after.cards, card, judge.rules) < before.points
        return card not in after.cards and after.count <= before.count


def _partners(card: Card, dead: Sequence[Card]) -> int:
    rank = card.rank.value
    found = 0
    for other in dead:
        if other is card or other == card:
            continue
        if other.rank == card.rank or (
            other.suit is card.suit and abs(other.rank.value - rank) <= 2
        ):
            found += 1
    return found


def _highest(cards: Sequence[Card], kept: Card, rules: RuleSet) -> int:
    return max((card_value(card, rules) for card in cards if card != kept), default=0)


def _relative(points: Sequence[int], me: int) -> float:
    """A seat's share of a pot less the others' average share."""
    others = [share for seat, share in enumerate(points) if seat != me]
    return points[me] - sum(others) / len(others)


def _sort_key(card: Card) -> tuple[int, str]:
    return card.sort_key
