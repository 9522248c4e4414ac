"""What the Indian search judges a hand by: its best declaration's count after a
draw, and whether a discard feeds the next player.

A hand of 14 (13 held and a draw) is scored by the engine's own grouping search
(`best_declaration`): a valid declaration is a win now, worth `WIN` points
below nothing; any other hand is worth its count once the finish card is
thrown, plus `LEFT_OVER` for each card left over and `NO_LIFE` without the life
(a hand racing to declare needs cards grouped, not only low ones). Scores are
cached per move on the hand's cards, so a draw met again in another sample costs
a look-up.

Feeding is judged on each sample's hand of the next player: a discard that
completes a group of three with two of its cards (or with one and a wild) is a
card it would take.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from service.bots.search.indian_shape import deficiency, lowering_draws
from service.domain.cards import Card, Rank
from service.domain.indian.groupings import best_declaration, best_grouping
from service.domain.indian.judge import is_wild

WIN = 60.0
"""A valid declaration's score below a count of 0: it ends the deal now."""


LEFT_OVER = 10.0
"""Added for each card left out of a group besides its count: the race is won by
cards grouped. Measured against `basic` in format `points`: 60 % in 150 games,
against 54 % at 5 and 52 % at 2; in `pool_101` counting the points more (2, and 6
without the life) won no more (52 % against 55 % in 60 games)."""
NO_LIFE = 20.0
"""Added to a hand without the life (two sequences, one pure)."""

LATE = 200.0
"""A rollout that has not declared by its last draw adds its last score over this:
under one draw for any hand, so fewer draws always come first."""

_ACE_LOW, _ACE_HIGH = 1, 14


class Scorer:
    """Scores of 14-card hands for one move, cached on their cards."""

    def __init__(self, wild: Rank, full_count: int) -> None:
        self.wild = wild
        self.full_count = full_count
        self._cache: dict[tuple[tuple[str, ...], str], tuple[float, Card]] = {}
        self._held: dict[tuple[str, ...], float] = {}
        self._shapes: dict[tuple[str, ...], int] = {}

    def best(self, held: Sequence[Card], keep: Card | None = None) -> tuple[float, Card]:
        """The score of `held` (14 cards) after its best discard or declaration, never
        throwing `keep` (lower is better), and the card that discard throws."""
        key = (_key(held), "" if keep is None else keep.code)
        found = self._cache.get(key)
        if found is not None:
            return found
        best = best_declaration(held, self.wild, self.full_count, keep)
        if best.valid:
            value = -WIN
        else:
            value = self._value(best.points, best.shown.ungrouped, best.shown.has_life)
        self._cache[key] = value, best.finish
        return value, best.finish

    def score(self, held: Sequence[Card], keep: Card | None = None) -> float:
        """`best`'s score alone."""
        return self.best(held, keep)[0]

    def shape(self, held: Sequence[Card]) -> int:
        """`indian_shape.deficiency` of `held`: the fewest cards it must still draw."""
        key = _key(held)
        found = self._shapes.get(key)
        if found is None:
            found = deficiency(held, self.wild)
            self._shapes[key] = found
        return found

    def lowering(self, rest: Sequence[Card], cards: Iterable[Card]) -> set[str]:
        """The codes of those of `cards` whose draw lowers `shape(rest)`
        (`indian_shape.lowering_draws`)."""
        return lowering_draws(rest, cards, self.wild, self.shape(rest))

    def score13(self, held: Sequence[Card]) -> float:
        """The score of `held` (13 cards) as it stands, in the same units."""
        key = _key(held)
        found = self._held.get(key)
        if found is None:
            best = best_grouping(held, self.wild, self.full_count)
            found = self._value(best.points, best.shown.ungrouped, best.shown.has_life)
            self._held[key] = found
        return found

    def rollout(
        self, held: Sequence[Card], draws: Sequence[Card], keep: Card | None = None
    ) -> float:
        """How soon `held` (13 cards, or 14 with `keep` just taken) declares when it
        draws `draws` in turn and throws the finish card `best` names each time: the
        draws it takes less one (`keep` is the first), or past the last draw their
        number plus the last hand's score over `LATE`."""
        hand = list(held)
        first = 0
        if keep is not None:
            # The card kept is this turn's draw.
            value, finish = self.best(hand, keep)
            if value <= -WIN:
                return 0.0
            hand.remove(finish)
            first = 1
        if not draws:
            return first + self.score13(hand) / LATE
        value = 0.0
        for turn, drawn in enumerate(draws, start=first):
            hand.append(drawn)
            value, finish = self.best(hand)
            if value <= -WIN:
                return float(turn)
            hand.remove(finish)
        return first + len(draws) + value / LATE

    @staticmethod
    def _value(points: int, ungrouped: Sequence[Card], has_life: bool) -> float:
        return points + LEFT_OVER * len(ungrouped) + (0.0 if has_life else NO_LIFE)

    def is_wild(self, card: Card) -> bool:
        return is_wild(card, self.wild)


def feeds(card: Card, hand: Sequence[Card], scorer: Scorer) -> bool:
    """Whether `card` completes a group of three in `hand`: a set (other suits of its
    rank), a run of its suit, or a pair of either with a wild; a wild always does."""
    if scorer.is_wild(card):
        return True
    wilds = 0
    suits = set()
    near: set[int] = set()
    positions = _positions(card)
    for other in hand:
        if scorer.is_wild(other):
            wilds += 1
            continue
        if other.rank is card.rank:
            if other.suit is not card.suit:
                suits.add(other.suit)
        elif other.suit is card.suit:
            for mine in positions:
                for theirs in _positions(other):
                    if abs(theirs - mine) <= 2:
                        near.add(theirs - mine)
    if len(suits) >= 2 or (suits and wilds):
        return True
    # A run through the card: two neighbours (-2,-1), (-1,1) or (1,2); with a wild,
    # one neighbour within two ranks.
    if {-2, -1} <= near or {-1, 1} <= near or {1, 2} <= near:
        return True
    return bool(near) and wilds > 0


def _positions(card: Card) -> tuple[int, ...]:
    rank = int(card.rank)
    return (_ACE_LOW, _ACE_HIGH) if rank == _ACE_LOW else (rank,)


def _key(held: Sequence[Card]) -> tuple[str, ...]:
    """A hand's cache key: its card codes in order, so any order of it hits."""
    return tuple(sorted(card.code for card in held))
