"""The search behind Indian Rummy's best grouping and best declaration
(`groupings`): the groups that make a hand count the least, as `judge` counts it.

The search works on the hand's **naturals** (cards that are not wild). Wilds
(every `JK` and every wild-rank card) count 0 and, standing in for others, are
interchangeable, so they are a counted resource, not cards to place one by one:
a group is its naturals and the fewest wilds it needs (`candidates`). Only a
wild-rank card standing for *itself* is placed, inside a pure sequence, so the
pure sequences name their wild-rank cards among their members.

Take the first natural left; it is left out of every group, or it goes with
later naturals into one of the groups it can start. When no natural is left,
the wilds the groups did not need are placed (`Search.spare`, the leaves): a
group of wilds only is a sequence when one wild-rank card among them stands for
itself; a sequence takes any number more (up to 13 cards), a set of 3 one more,
and a pure sequence that takes some is pure no more. The best of each remainder
is remembered: its cards (two bit masks: held once, held twice), the wilds owed
to the groups taken, and a small state (what the groups taken still need or
bring, whether the finish card is out).

The finish card of a declaration is one of the cards left out (a card taken out
of a group is left out), and the best one is the dearest: whatever else is
shown, it saves its own value and one card left over. So the naturals are taken
dearest first, and the first card left out is the finish card (unless it is
`keep`); when none is, a spare wild is.

The life rule makes a hand's count one of two sums: with the life (two
sequences, one pure) the ungrouped cards count, without it all of them do. So
there are two searches. `with_life` keeps the least (points, cards left over)
among groupings that end with the life; it is asked only if a pure sequence
can be made at all, and it gives up on any remainder where a pure sequence is
still wanted and none is left to make. `without_life` keeps the groupings'
least (-finish value, cards) and (cards, -finish value), whatever the life;
it is asked only when the first might lose to it once capped at `full_count`
(without the life the count is at least every card but the dearest). Under the
cap only the number of cards left over decides, which is what its second best
is for. The bests are whole numbers (`_CARDS_UNIT`) so that a move costs one
addition and one comparison.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from service.domain.cards import JOKER, Card, Rank
from service.domain.indian.candidates import MIN_GROUP as _MIN_GROUP
from service.domain.indian.candidates import PURE as _PURE
from service.domain.indian.candidates import SEQUENCE as _SEQUENCE
from service.domain.indian.candidates import SET3 as _SET3
from service.domain.indian.candidates import Candidate, candidates
from service.domain.indian.judge import card_points

_MAX_COPIES = 2  # two packs: a code comes at most twice, and `Search` keeps two masks

# Each best is one int, smaller is better, so that a move costs one addition and
# bests compare in one operation: with the life, (points, cards) as
# points * 64 + cards; without it, (-finish value, cards) as -value * 64 + cards
# and (cards, -finish value) as cards * 32 + 16 - value (a card is worth 0 to 10).
_CARDS_UNIT = 64
_VALUE_UNIT = 32
_VALUE_ZERO = 16
_NEVER = 1 << 40
"""No grouping of the remainder reaches the objective: above any real best."""
_REACHED = _NEVER // 2

# A remainder's state beside its cards, in one int. Both searches: whether the
# finish card is out (or none is wanted). With the life: whether a pure sequence,
# and another sequence, are still wanted. Without: whether there is a sequence
# (it takes every spare wild), else how many sets of 3 (each takes one).
_FINISHED = 1
_WANT_PURE = 2
_WANT_SEQUENCE = 4
_HAS_SEQUENCE = 2
_SETS_UNIT = 4
_STATES = 1 << 7

_JOKER_FINISH, _WILD_RANK_FINISH, _NO_FINISH = 1, 2, -1
_LEFT_OUT = -1
"""The move that leaves the first natural out of every group (`Search.follow`)."""


class Search:
    """One hand's search: its codes as bits, its groups, the remembered bests."""

    def __init__(self, held: Sequence[Card], wild: Rank, *, finish: bool, keep: Card | None):
        counts = Counter(card.code for card in held)
        codes = {card.code: card for card in held}
        # Naturals take the low bits, so the first natural left is the lowest bit,
        # and the dearest come first: the first card left out is the finish card.
        naturals = sorted(
            (card for card in codes.values() if not card.is_joker and card.rank is not wild),
            key=lambda card: (-card_points(card, wild), _run_order(card)),
        )
        wilds = sorted(
            (card for card in codes.values() if not card.is_joker and card.rank is wild),
            key=_run_order,
        )
        self.cards: list[Card] = naturals + wilds
        self.natural_mask = (1 << len(naturals)) - 1
        self.wild_shift = len(naturals)
        self.shift = len(self.cards)
        bit = {card.code: index for index, card in enumerate(self.cards)}
        present = double = 0
        for code, count in counts.items():
            if code == JOKER.code:
                continue
            if count > _MAX_COPIES:
                raise ValueError(f"{code} is held {count} times: Indian Rummy plays two packs.")
            present |= 1 << bit[code]
            if count == _MAX_COPIES:
                double |= 1 << bit[code]
        self.start = (present, double)
        self.jokers = counts[JOKER.code]
        wild_count = self.jokers + sum(counts[card.code] for card in wilds)
        self.owed_bits = wild_count.bit_length()
        self.points = [card_points(card, wild) for card in self.cards]
        self.total = sum(card_points(card, wild) for card in held)
        self.finish = finish
        self.keep = keep
        self.keep_bit = (1 << bit[keep.code]) if keep is not None and keep.code in bit else 0
        self.keep_joker = keep is not None and keep.is_joker
        self.starting: list[list[Candidate]] = [[] for _ in naturals]
        for group in candidates(naturals, bit, wild_count):
            first = group[0] & self.natural_mask
            self.starting[(first & -first).bit_length() - 1].append(group)
        self.pure_masks = [
            mask for groups in self.starting for mask, _, kind in groups if kind == _PURE
        ]
        self.life_next, self.other_next = _next_states(min(wild_count, _STATES // _SETS_UNIT - 1))
        self.life_memo: dict[int, int] = {}
        self.other_memo: dict[int, tuple[int, int]] = {}
        self.taken: dict[tuple[int, int, int], list[tuple[int, int, int, int, int]]] = {}

    def key(self, present: int, double: int, owed: int, state: int) -> int:
        """A remainder as one int: the codes left (`present`: at least one copy,
        `double`: two), the fillers owed to the groups taken, the state."""
        return ((state << self.owed_bits | owed) << self.shift | double) << self.shift | present

    def with_life(
        self, present: int, double: int, owed: int, state: int, follow: bool = False
    ) -> int:
        """The least (points, cards) left over by groupings of the remainder that end
        with the life; with `follow`, the first move that reaches it instead."""
        key = self.key(present, double, owed, state)
        memo = self.life_memo
        found = memo.get(key)
        if found is not None and not follow:
            return found
        naturals = present & self.natural_mask
        if not naturals:
            found = self.life_leaf(present, double, owed, state)
            memo[key] = found
            return found
        if state & _WANT_PURE and not any(mask & present == mask for mask in self.pure_masks):
            memo[key] = _NEVER  # no pure sequence left to make
            return _NEVER
        low = naturals & -naturals
        first = low.bit_length() - 1
        solve = self.with_life
        # Left out: the finish card if it is still owed (and may be), else it counts.
        left, left_double = (present & ~low) | (double & low), double & ~low
        if state & _FINISHED or low & self.keep_bit:
            best = solve(left, left_double, owed, state) + self.points[first] * _CARDS_UNIT + 1
        else:
            best = solve(left, left_double, owed, state | _FINISHED)
        if follow and best == found:
            return _LEFT_OUT
        next_state = self.life_next
        for index, left, left_double, need, kind in self.takes(present, double, owed, first):
            if not best:
                break  # nothing left over: no grouping does better
            child = solve(left, left_double, need, next_state[kind][state])
            if follow and child == found:
                return index
            if child < best:
                best = child
        memo[key] = best
        return best

    def takes(
        self, present: int, double: int, owed: int, first: int
    ) -> list[tuple[int, int, int, int, int]]:
        """The groups the first natural can go into among the cards left, each as (its
        index, the cards left after it, the fillers owed, its kind); both searches
        ask, so the answer is remembered."""
        key = (present, double, owed)
        found = self.taken.get(key)
        if found is not None:
            return found
        found = []
        shift = self.wild_shift
        jokers = self.jokers
        for index, (mask, fillers, kind) in enumerate(self.starting[first]):
            if mask & present != mask:
                continue
            left, left_double = (present & ~mask) | (double & mask), double & ~mask
            need = owed + fillers
            if need:
                # Wild-rank cards placed as themselves leave the wilds; the fillers
                # come from the jokers and the other wild-rank cards.
                wilds = jokers + (left >> shift).bit_count() + (left_double >> shift).bit_count()
                if need > wilds:
                    continue
            found.append((index, left, left_double, need, kind))
        self.taken[key] = found
        return found

    def life_leaf(self, present: int, double: int, owed: int, state: int) -> int:
        jokers, wild_rank, finish = self.spare(present, double, owed, state)
        if finish == _NO_FINISH:
            return _NEVER
        want = state & (_WANT_PURE | _WANT_SEQUENCE)
        # The spare wilds join a sequence there is (a pure one that takes them is
        # no longer pure, so then there are two), or make one of their own (one
        # wild-rank card stands for itself): a sequence, maybe the life's second.
        if not want or (want == _WANT_SEQUENCE and jokers + wild_rank >= _MIN_GROUP and wild_rank):
            return 0
        return _NEVER

    def without_life(
        self, present: int, double: int, owed: int, state: int, follow: int = 0
    ) -> tuple[int, int]:
        """The least (-finish value, cards) and (cards, -finish value) of all
        groupings of the remainder, the life or not; with `follow` (1 or 2), the
        first move that reaches the first or the second instead, as (move, 0)."""
        key = self.key(present, double, owed, state)
        memo = self.other_memo
        found = memo.get(key)
        if found is not None and not follow:
            return found
        naturals = present & self.natural_mask
        if not naturals:
            found = self.other_leaf(present, double, owed, state)
            memo[key] = found
            return found
        low = naturals & -naturals
        first = low.bit_length() - 1
        solve = self.without_life
        left, left_double = (present & ~low) | (double & low), double & ~low
        if state & _FINISHED or low & self.keep_bit:
            by_value, by_cards = solve(left, left_double, owed, state)
            by_value += 1
            by_cards += _VALUE_UNIT
        else:
            by_value, by_cards = solve(left, left_double, owed, state | _FINISHED)
            value = self.points[first]
            by_value -= value * _CARDS_UNIT
            by_cards -= value
        if follow and (by_value, by_cards)[follow - 1] == found[follow - 1]:  # type: ignore[index]
            return _LEFT_OUT, 0
        next_state = self.other_next
        for index, left, left_double, need, kind in self.takes(present, double, owed, first):
            child = solve(left, left_double, need, next_state[kind][state])
            if follow and child[follow - 1] == found[follow - 1]:  # type: ignore[index]
                return index, 0
            if child[0] < by_value:
                by_value = child[0]
            if child[1] < by_cards:
                by_cards = child[1]
        found = (by_value, by_cards)
        memo[key] = found
        return found

    def other_leaf(self, present: int, double: int, owed: int, state: int) -> tuple[int, int]:
        jokers, wild_rank, finish = self.spare(present, double, owed, state)
        if finish == _NO_FINISH:
            return _NEVER, _NEVER
        spare = jokers + wild_rank
        if not spare or state & _HAS_SEQUENCE or (spare >= _MIN_GROUP and wild_rank):
            left = 0
        else:  # each set of 3 takes one
            left = spare - min(spare, state // _SETS_UNIT)
        return left, left * _VALUE_UNIT + _VALUE_ZERO

    def spare(self, present: int, double: int, owed: int, state: int) -> tuple[int, int, int]:
        """When no natural is left: the wilds over once the fillers are taken and the
        finish card is out (jokers, wild-rank cards), and where the finish card
        comes from (`_NO_FINISH` when no wild may be it, 0 when it is already out)."""
        wild_rank = present.bit_count() + double.bit_count()  # only wild-rank bits left
        # Fillers are jokers first: a wild-rank card does all a joker does, and
        # more (it stands for itself in a group of wilds).
        jokers = max(0, self.jokers - owed)
        wild_rank -= max(0, owed - self.jokers)
        finish = 0
        if not state & _FINISHED:
            if jokers and not self.keep_joker:
                jokers, finish = jokers - 1, _JOKER_FINISH
            elif wild_rank and present & ~self.keep_bit:
                # The fillers take the copies of `keep` first, so another is left.
                wild_rank, finish = wild_rank - 1, _WILD_RANK_FINISH
            else:
                finish = _NO_FINISH
        return jokers, wild_rank, finish

    def best(self, full_count: int) -> tuple[tuple[tuple[Card, ...], ...], Card | None]:
        """The groups and finish card of the grouping that counts the least once
        capped, then leaves the fewest cards (the life's on a tie)."""
        present, double = self.start
        start = 0 if self.finish else _FINISHED
        options: list[tuple[int, int, int]] = []
        if self.pure_masks:
            life = self.with_life(present, double, 0, start | _WANT_PURE | _WANT_SEQUENCE)
            if life < _REACHED:
                points, cards = divmod(life, _CARDS_UNIT)
                options.append((min(points, full_count), cards, 0))
        # Without the life every card but the finish counts: no less than this.
        dearest = max(
            (self.points[index] for index in range(self.wild_shift) if self.finish),
            default=0,
        )
        if not options or options[0][0] >= min(self.total - dearest, full_count):
            by_value, by_cards = self.without_life(present, double, 0, start)
            if by_value < _REACHED:
                value, cards = divmod(by_value, _CARDS_UNIT)
                options.append((min(self.total + value, full_count), cards, 1))
                cards, value = divmod(by_cards, _VALUE_UNIT)
                options.append((min(self.total + value - _VALUE_ZERO, full_count), cards, 2))
        if not options:
            raise ValueError("No grouping: a declaration needs a card to finish with.")
        return self.follow(min(options)[2], start)

    def follow(
        self, objective: int, state: int
    ) -> tuple[tuple[tuple[Card, ...], ...], Card | None]:
        """The groups (and finish card) the best moves of `objective` (0 with the
        life, 1 and 2 without) lead to."""
        present, double = self.start
        owed = 0
        if objective == 0:
            state |= _WANT_PURE | _WANT_SEQUENCE
        next_state = self.life_next if objective == 0 else self.other_next
        taken: list[tuple[list[Card], int, int]] = []  # cards, fillers, kind
        finish: Card | None = None
        while present & self.natural_mask:
            if objective == 0:
                move = self.with_life(present, double, owed, state, follow=True)
            else:
                move = self.without_life(present, double, owed, state, follow=objective)[0]
            naturals = present & self.natural_mask
            low = naturals & -naturals
            if move == _LEFT_OUT:
                if not state & _FINISHED and not low & self.keep_bit:
                    finish = self.cards[low.bit_length() - 1]
                    state |= _FINISHED
                present, double = (present & ~low) | (double & low), double & ~low
                continue
            mask, fillers, kind = self.starting[low.bit_length() - 1][move]
            cards = [card for index, card in enumerate(self.cards) if mask >> index & 1]
            taken.append((cards, fillers, kind))
            present, double = (present & ~mask) | (double & mask), double & ~mask
            owed += fillers
            state = next_state[kind][state]
        return self.place_wilds(present, double, owed, state, taken, objective == 0, finish)

    def place_wilds(
        self,
        present: int,
        double: int,
        owed: int,
        state: int,
        taken: list[tuple[list[Card], int, int]],
        life: bool,
        finish: Card | None,
    ) -> tuple[tuple[tuple[Card, ...], ...], Card | None]:
        """Hand out the wilds left as the leaves counted them: each group its fillers
        (jokers first, then copies of `keep`), the finish card if still owed, then
        the spares."""
        wild_rank = [
            card
            for index, card in enumerate(self.cards)
            for copies in (present, double)
            if copies >> index & 1
        ]
        wild_rank.sort(key=lambda card: card != self.keep)
        pool = [JOKER] * self.jokers + wild_rank
        groups = [cards for cards, _, _ in taken]
        for cards, fillers, _ in taken:
            cards.extend(pool[:fillers])
            del pool[:fillers]
        _, _, source = self.spare(present, double, owed, state)
        if source == _JOKER_FINISH:
            finish = pool.pop(pool.index(JOKER))
        elif source == _WILD_RANK_FINISH:
            finish = pool.pop(
                next(i for i, card in enumerate(pool) if not card.is_joker and card != self.keep)
            )
        if pool:
            kinds = [kind for _, _, kind in taken]
            if _SEQUENCE in kinds:
                groups[kinds.index(_SEQUENCE)].extend(pool)
            elif kinds.count(_PURE) >= (2 if life else 1):
                # A pure sequence takes them and is pure no more: another pure one
                # keeps the life (or the count does not need it).
                groups[kinds.index(_PURE)].extend(pool)
            elif len(pool) >= _MIN_GROUP and not all(card.is_joker for card in pool):
                groups.append(sorted(pool, key=lambda card: card.is_joker))
            else:
                for cards, kind in zip(groups, kinds, strict=True):
                    if kind == _SET3 and pool:
                        cards.append(pool.pop())
        return tuple(tuple(cards) for cards in groups), finish


@cache
def _next_states(sets_cap: int) -> tuple[tuple[list[int], ...], tuple[list[int], ...]]:
    """For each kind of group taken, the state after it by the state before, with
    the life and without (tables: the searches ask them at every move). Sets of 3
    beyond the wilds held change nothing, so they are not counted."""
    with_life = []
    without = []
    for kind in range(4):
        life_row: list[int] = []
        other_row: list[int] = []
        for state in range(_STATES):
            if kind == _PURE:
                # The first pure sequence is the life's pure one, the next its second.
                want = _WANT_PURE if state & _WANT_PURE else _WANT_SEQUENCE
                life_row.append(state & ~want)
            elif kind == _SEQUENCE:
                life_row.append(state & ~_WANT_SEQUENCE)
            else:
                life_row.append(state)
            if kind in (_PURE, _SEQUENCE):
                other_row.append(state & _FINISHED | _HAS_SEQUENCE)
            elif kind == _SET3 and not state & _HAS_SEQUENCE and state // _SETS_UNIT < sets_cap:
                other_row.append(state + _SETS_UNIT)
            else:
                other_row.append(state)
        with_life.append(life_row)
        without.append(other_row)
    return tuple(with_life), tuple(without)


def _run_order(card: Card) -> tuple[str, int]:
    """By suit (C D H S), then rank (ace first), read off the card's sort key."""
    rank, suit = card.sort_key
    return suit, rank
