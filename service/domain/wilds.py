"""Wild cards (docs/rules.md "Wild cards"): which cards are wild, and readings of melds.

Every `JK` is wild, and so is every card of the game's wild rank. A
**reading** says what each card of a meld stands for: a natural card
itself, a wild another card (a wild-rank card may also stand for itself,
and is then natural). A meld is valid when some reading has at least
`min_natural` cards standing for themselves and the cards it stands for are
a classic set or run (`melds`' judge, so the ace rules are the same).

One core (`_fill`) reads a meld from the cards that stand for themselves
and the wilds that stand for others; the judge of one meld (`readings`) and
the search of a whole hand (`hand_melds`, for `legal`) both ask it, so what
`legal` offers and what a meld may be can never disagree. Readings that
differ only by swapping two identical cards (two `JK`s) are one reading.
Lay-offs and swaps onto the table's melds are `table_wilds`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations

from service.domain import melds
from service.domain.cards import FULL_DECK, SUITS, Card, Rank, Suit
from service.domain.enum_members import RUN_MELD as _RUN
from service.domain.enum_members import SET_MELD as _SET
from service.domain.errors import InvalidMeld, WildAmbiguous
from service.domain.melds import MeldKind
from service.domain.rule_values import Aces
from service.domain.rules import RuleSet

_MIN_MELD = 3
_FULL_SET = 4  # never over 4, even with two packs: the suits must differ
_FULL_RUN = 13
_CARDS: dict[tuple[int, Suit], Card] = {(card.rank, card.suit): card for card in FULL_DECK}
_SUIT_SLOT: dict[Suit, int] = {suit: slot for slot, suit in enumerate(SUITS)}
# A run's positions as `melds` counts them: A..K are 1..13, and past the king the
# ace is 14, the two 15, … up to each ace rule's ceiling.
_CEILING: dict[Aces, int] = {
    Aces.LOW: 13,
    Aces.HIGH_OR_LOW: 14,
    Aces.AROUND_THE_CORNER: 25,
}


def _rank_at(position: int) -> int:
    return (position - 1) % _FULL_RUN + 1


def card_at(position: int, suit: Suit) -> Card:
    """The card of `suit` at a run position as `melds` counts them (past the king the
    ace comes round again: 14 is the ace, 0 the king)."""
    return _CARDS[_rank_at(position), suit]


# Every window of run positions (start, length) as its ranks in run order, per ace
# rule: a run's represented cards fill exactly one of these.
_WINDOWS: dict[Aces, dict[int, tuple[tuple[tuple[int, ...], frozenset[int]], ...]]] = {
    aces: {
        length: tuple(
            (ranks, frozenset(ranks))
            for ranks in (
                tuple(_rank_at(position) for position in range(start, start + length))
                # A run starts at one of the 13 ranks: past the king the same
                # windows come round again.
                for start in range(1, min(ceiling - length + 2, _FULL_RUN + 1))
            )
        )
        for length in range(_MIN_MELD, _FULL_RUN + 1)
    }
    for aces, ceiling in _CEILING.items()
}


def is_wild(card: Card, rules: RuleSet) -> bool:
    """Every `JK`, and every card of the wild rank (all suits, all packs)."""
    return card.is_joker or (rules.wild_rank is not None and card.rank.code == rules.wild_rank)


@dataclass(frozen=True, slots=True)
class WildOptions:
    """The options every game with wilds sets (its preset: `presets.WILD_OPTIONS`)."""

    min_natural: int
    """The fewest cards of a meld standing for themselves."""
    wild_penalty: int
    """What a wild left in hand counts."""


def wild_options(rules: RuleSet) -> WildOptions:
    """The wild options of `rules`, which the caller knows to be a game with wilds."""
    min_natural, wild_penalty = rules.min_natural, rules.wild_penalty
    assert min_natural is not None, "a game with wilds sets min_natural"
    assert wild_penalty is not None, "a game with wilds sets wild_penalty"
    return _wild_options(min_natural, wild_penalty)


@lru_cache(maxsize=64)
def _wild_options(min_natural: int, wild_penalty: int) -> WildOptions:
    # Made once per pair of values: every meld check reads them (a cache hit
    # allocates nothing there).
    return WildOptions(min_natural, wild_penalty)


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of a meld: its cards in table order and what each stands for."""

    kind: MeldKind
    cards: tuple[Card, ...]
    as_: tuple[Card, ...]

    @property
    def key(self) -> tuple[tuple[str, str], ...]:
        """The reading up to the order of its cards: identical cards swapped give the
        same key, so they are one reading."""
        return tuple(
            sorted(
                (card.code, stands.code) for card, stands in zip(self.cards, self.as_, strict=True)
            )
        )

    def wild_rank_naturals(self, rules: RuleSet) -> int:
        """How many wild-rank cards stand for themselves (the reading the server picks
        without `as` has the most)."""
        return sum(
            1
            for card, stands in zip(self.cards, self.as_, strict=True)
            if card == stands and is_wild(card, rules)
        )


# --- the core: cards standing for themselves, wilds filling the rest ---------


def _orders(free: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    """The distinct orders of `free`: identical cards are never told apart."""
    return _orders_of(tuple(card.code for card in free))


@lru_cache(maxsize=1024)
def _orders_of(codes: tuple[str, ...]) -> tuple[tuple[Card, ...], ...]:
    return tuple(
        tuple(Card.parse(code) for code in order) for order in dict.fromkeys(permutations(codes))
    )


Found = tuple[MeldKind, tuple[Card, ...], tuple[Card, ...]]
"""A reading as plain tuples: kind, cards in table order, what each stands for."""


def _fill(
    fixed: Sequence[Card],
    free: tuple[Card, ...],
    aces: Aces,
    out: list[Found],
    orders: tuple[tuple[Card, ...], ...] | None = None,
) -> None:
    """Add to `out` every reading where `fixed` (natural, distinct) stand for
    themselves and each of `free` (wilds) stands for another card, as a set or a run.

    A wild-rank card among `free` never stands for itself here: that reading has it
    among `fixed`. Each reading comes once: a reading fixes which cards stand for
    themselves, the represented cards and (up to identical cards) who stands for which.
    `orders` are `free`'s distinct orders, if the caller has them.
    """
    count = len(fixed) + len(free)
    if not fixed or count < _MIN_MELD:
        return
    first = fixed[0]
    rank, suit = first.rank, first.suit
    if orders is None:
        orders = _orders(free)
    if count <= _FULL_SET and all(card.rank is rank for card in fixed):
        suits = {card.suit for card in fixed}
        if len(suits) == len(fixed):
            missing = [other for other in SUITS if other not in suits]
            for chosen in combinations(missing, len(free)):
                placed: list[Card | None] = [None] * _FULL_SET
                stood: list[Card | None] = [None] * _FULL_SET
                for card in fixed:
                    placed[_SUIT_SLOT[card.suit]] = stood[_SUIT_SLOT[card.suit]] = card
                slots = [_SUIT_SLOT[other] for other in chosen]
                for slot in slots:
                    stood[slot] = _CARDS[rank, SUITS[slot]]
                keep = [slot for slot in range(_FULL_SET) if stood[slot] is not None]
                as_ = tuple(stood[slot] for slot in keep)
                _place(_SET, placed, keep, slots, stood, orders, as_, out)  # type: ignore[arg-type]
    if count <= _FULL_RUN and all(card.suit is suit for card in fixed):
        # Ranks are IntEnum members: they hash and compare as the window's ints.
        by_rank: dict[int, Card] = {card.rank: card for card in fixed}
        if len(by_rank) != len(fixed):
            return
        held = by_rank.keys()
        # The whole suit is one run however it is read: keep it once, as A..K.
        windows = _WINDOWS[aces][count][:1] if count == _FULL_RUN else _WINDOWS[aces][count]
        for window, inside in windows:
            if not held <= inside:
                continue
            placed = [by_rank.get(r) for r in window]
            stood = [_CARDS[r, suit] for r in window]
            slots = [index for index, r in enumerate(window) if r not in by_rank]
            _place(_RUN, placed, None, slots, stood, orders, tuple(stood), out)  # type: ignore[arg-type]


def _place(
    kind: MeldKind,
    placed: list[Card | None],
    keep: Sequence[int] | None,
    slots: Sequence[int],
    stood: list[Card | None],
    orders: tuple[tuple[Card, ...], ...],
    as_: tuple[Card, ...],
    out: list[Found],
) -> None:
    """One reading per order of the wilds into the empty `slots` of `placed` (the
    places `keep` of it, or all of it)."""
    # Only a wild-rank card could land on its own place; jokers never do. The hot
    # loop compares codes (strings), not cards.
    own = {card.code for card in orders[0] if not card.is_joker} if orders else set()
    risky = [slot for slot in slots if stood[slot].code in own]  # type: ignore[union-attr]
    for order in orders:
        if risky and any(
            wild.code == stood[slot].code  # type: ignore[union-attr]
            for slot, wild in zip(slots, order, strict=True)
            if slot in risky
        ):
            continue  # a wild-rank card standing for itself is natural, not a wild
        for slot, wild in zip(slots, order, strict=True):
            placed[slot] = wild
        cards = tuple(placed) if keep is None else tuple([placed[index] for index in keep])
        out.append((kind, cards, as_))  # type: ignore[arg-type]


def _distinct(found: Iterable[Found]) -> list[Reading]:
    """Readings, once each (only two packs could make one twice)."""
    unique: dict[tuple[tuple[str, str], ...], Reading] = {}
    for kind, cards, as_ in found:
        reading = Reading(kind, cards, as_)
        unique.setdefault(reading.key, reading)
    return list(unique.values())


# --- one meld ----------------------------------------------------------------


def readings(cards: Sequence[Card], rules: RuleSet) -> list[Reading]:
    """Every valid reading of `cards` (distinct up to swapping identical cards)."""
    natural = [card for card in cards if not is_wild(card, rules)]
    either = [card for card in cards if not card.is_joker and is_wild(card, rules)]
    jokers = tuple(card for card in cards if card.is_joker)
    min_natural = wild_options(rules).min_natural
    found: list[Found] = []
    # Each wild-rank card stands for itself (natural) or for another card.
    for size in range(len(either) + 1):
        for chosen in combinations(range(len(either)), size):
            fixed = natural + [either[i] for i in chosen]
            if len(fixed) < min_natural:
                continue
            free = jokers + tuple(card for i, card in enumerate(either) if i not in chosen)
            _fill(fixed, free, rules.aces, found)
    return _distinct(found)


def meld_reading(cards: Sequence[Card], as_: Sequence[Card] | None, rules: RuleSet) -> Reading:
    """The reading a meld is laid with: `as_` if given (it must be a valid reading),
    else the one left when the most wild-rank cards stand for themselves.
    Raises `InvalidMeld` or `WildAmbiguous` with a sentence saying why."""
    if as_ is not None:
        return _given_reading(cards, as_, rules)
    found = readings(cards, rules)
    if not found:
        raise InvalidMeld(_no_reading_sentence(cards, rules))
    best = max(reading.wild_rank_naturals(rules) for reading in found)
    kept = [reading for reading in found if reading.wild_rank_naturals(rules) == best]
    if len(kept) > 1:
        options = "; ".join(reading_codes(reading) for reading in kept)
        raise WildAmbiguous(
            f"{_codes(cards)} reads more than one way ({options}): say what each wild "
            f"stands for with `as`."
        )
    return kept[0]


def _given_reading(cards: Sequence[Card], as_: Sequence[Card], rules: RuleSet) -> Reading:
    min_natural = wild_options(rules).min_natural
    lead = f"{_codes(cards)} as {_codes(as_)} is not a reading"
    if len(as_) != len(cards):
        raise InvalidMeld(f"{lead}: `as` names one card for each card of the meld.")
    for card, stands in zip(cards, as_, strict=True):
        if stands.is_joker:
            raise InvalidMeld(f"{lead}: a card stands for a natural card, never for JK.")
        if card != stands and not is_wild(card, rules):
            raise InvalidMeld(f"{lead}: {card} is not wild, so it stands for itself.")
    naturals = sum(1 for card, stands in zip(cards, as_, strict=True) if card == stands)
    if naturals < min_natural:
        raise InvalidMeld(
            f"{lead}: at least {min_natural} cards must stand for themselves, not {naturals}."
        )
    try:
        kind = melds.meld_kind(as_, rules.aces)
    except InvalidMeld as invalid:
        raise InvalidMeld(f"{lead}: {invalid.message}") from None
    # The represented cards are a meld, so no two are equal: each names its place.
    placed = {stands.code: card for card, stands in zip(cards, as_, strict=True)}
    order = melds.arrange(as_, rules.aces)
    return Reading(kind, tuple(placed[stands.code] for stands in order), tuple(order))


def _no_reading_sentence(cards: Sequence[Card], rules: RuleSet) -> str:
    if not any(is_wild(card, rules) for card in cards):
        try:
            melds.meld_kind(cards, rules.aces)
        except InvalidMeld as invalid:
            return invalid.message
    least = wild_options(rules).min_natural
    return (
        f"{_codes(cards)} is not a meld under any reading: with its wilds standing for "
        f"other cards it must be a set or a run with at least {least} cards "
        f"standing for themselves."
    )


# --- a whole hand (legal moves) ----------------------------------------------


def hand_melds(held: Sequence[Card], rules: RuleSet) -> list[tuple[tuple[Card, ...], list[Found]]]:
    """Every meld `held` can make (a multiset of its cards) with all its readings, in
    a deterministic order (by the meld's sorted codes); each meld's cards in the
    table order of its first reading.

    Each (cards standing for themselves, wilds standing for others) pair is read
    once by `_fill`, and a reading fixes its pair, so no reading comes twice.
    """
    min_natural = wild_options(rules).min_natural
    aces = rules.aces
    wild = rules.wild
    wilds = tuple(sorted((card for card in held if _wild(card, wild)), key=_sort_key))
    selfs = list({card.code: card for card in held if not card.is_joker}.values())
    held_wilds = Counter(card.code for card in wilds)
    pools = [(free, Counter(card.code for card in free), _orders(free)) for free in _pools(wilds)]
    found: dict[tuple[str, ...], list[Found]] = {}
    for fixed in _fixed_candidates(selfs, len(wilds), min_natural, aces):
        # A wild-rank card standing for itself is not free to stand for another.
        used = Counter(card.code for card in fixed if card.rank is wild)
        for free, counts, orders in pools:
            if len(fixed) + len(free) < _MIN_MELD:
                continue
            if used and any(counts[code] + n > held_wilds[code] for code, n in used.items()):
                continue
            out: list[Found] = []
            _fill(fixed, free, aces, out, orders)
            if out:
                meld = tuple(sorted([card.code for card in fixed] + [card.code for card in free]))
                found.setdefault(meld, []).extend(out)
    return [(read[0][1], read) for _, read in sorted(found.items())]


def _wild(card: Card, wild: Rank | None) -> bool:
    return card.rank is wild or card.is_joker


def _sort_key(card: Card) -> tuple[int, str]:
    return card.sort_key


def _pools(wilds: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """Every distinct sub-multiset of the wilds held (sorted tuples)."""
    return list(
        dict.fromkeys(
            combo for size in range(len(wilds) + 1) for combo in combinations(wilds, size)
        )
    )


def _fixed_candidates(
    selfs: list[Card], wilds: int, least: int, aces: Aces
) -> Iterator[tuple[Card, ...]]:
    """Groups of cards that might stand for themselves in one meld: one rank, distinct
    suits; or one suit, in a window a run could fill with the wilds held. Only a
    narrowing: `_fill` judges each."""
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[Suit, dict[int, Card]] = {}
    for card in selfs:
        by_rank.setdefault(card.rank, []).append(card)
        by_suit.setdefault(card.suit, {})[card.rank] = card
    seen: set[frozenset[str]] = set()
    for group in by_rank.values():
        for size in range(max(least, 1), min(len(group), _FULL_SET) + 1):
            for fixed in combinations(group, size):
                if len(fixed) + wilds >= _MIN_MELD:
                    seen.add(frozenset(card.code for card in fixed))
                    yield fixed
    for held in by_suit.values():
        longest = min(len(held) + wilds, _FULL_RUN)
        for length in range(_MIN_MELD, longest + 1):
            floor = max(least, length - wilds, 1)
            for window, _ in _WINDOWS[aces][length]:
                inside = [held[rank] for rank in window if rank in held]
                for size in range(floor, len(inside) + 1):
                    for fixed in combinations(inside, size):
                        key = frozenset(card.code for card in fixed)
                        if key not in seen:
                            seen.add(key)
                            yield fixed


# --- wording -----------------------------------------------------------------


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(card.code for card in cards)


def reading_codes(reading: Reading) -> str:
    """A reading as codes, each wild with what it stands for (`2H=5H`)."""
    return " ".join(
        card.code if card == stands else f"{card.code}={stands.code}"
        for card, stands in zip(reading.cards, reading.as_, strict=True)
    )
