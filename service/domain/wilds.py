"""Wild cards (docs/rules.md "Wild cards"): readings of melds, lay-offs and swaps.

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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations

from service.domain import melds
from service.domain.cards import FULL_DECK, SUITS, Card, Rank, Suit
from service.domain.errors import InvalidLayOff, InvalidMeld, SwappedWildUnused, WildAmbiguous
from service.domain.events import CardLaidOff, Event, MeldLaid, WildSwapped
from service.domain.melds import End, MeldKind, TableMeld
from service.domain.rules import Aces, RuleSet

_MIN_MELD = 3
_FULL_SET = 4  # never over 4, even with two packs: the suits must differ
_FULL_RUN = 13
_SET, _RUN = MeldKind.SET, MeldKind.RUN
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
    assert rules.min_natural is not None, "a game with wilds sets min_natural"
    found: list[Found] = []
    # Each wild-rank card stands for itself (natural) or for another card.
    for size in range(len(either) + 1):
        for chosen in combinations(range(len(either)), size):
            fixed = natural + [either[i] for i in chosen]
            if len(fixed) < rules.min_natural:
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
        options = "; ".join(_reading_codes(reading) for reading in kept)
        raise WildAmbiguous(
            f"{_codes(cards)} reads more than one way ({options}): say what each wild "
            f"stands for with `as`."
        )
    return kept[0]


def _given_reading(cards: Sequence[Card], as_: Sequence[Card], rules: RuleSet) -> Reading:
    assert rules.min_natural is not None, "a game with wilds sets min_natural"
    lead = f"{_codes(cards)} as {_codes(as_)} is not a reading"
    if len(as_) != len(cards):
        raise InvalidMeld(f"{lead}: `as` names one card for each card of the meld.")
    for card, stands in zip(cards, as_, strict=True):
        if stands.is_joker:
            raise InvalidMeld(f"{lead}: a card stands for a natural card, never for JK.")
        if card != stands and not is_wild(card, rules):
            raise InvalidMeld(f"{lead}: {card} is not wild, so it stands for itself.")
    naturals = sum(1 for card, stands in zip(cards, as_, strict=True) if card == stands)
    if naturals < rules.min_natural:
        raise InvalidMeld(
            f"{lead}: at least {rules.min_natural} cards must stand for themselves, not {naturals}."
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
    return (
        f"{_codes(cards)} is not a meld under any reading: with its wilds standing for "
        f"other cards it must be a set or a run with at least {rules.min_natural} cards "
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
    assert rules.min_natural is not None, "a game with wilds sets min_natural"
    aces = rules.aces
    wild = rules.wild
    wilds = tuple(sorted((card for card in held if _wild(card, wild)), key=_sort_key))
    selfs = list({card.code: card for card in held if not card.is_joker}.values())
    held_wilds = Counter(card.code for card in wilds)
    pools = [(free, Counter(card.code for card in free), _orders(free)) for free in _pools(wilds)]
    found: dict[tuple[str, ...], list[Found]] = {}
    for fixed in _fixed_candidates(selfs, len(wilds), rules.min_natural, aces):
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


# --- lay-offs ----------------------------------------------------------------


def lay_off_readings(meld: TableMeld, card: Card, rules: RuleSet) -> list[tuple[Card, End]]:
    """What `card` may stand for when laid off onto `meld` (a meld with readings),
    with the end it goes to. A natural card stands for itself; a wild for any card
    that extends the represented cards, a wild-rank card also for itself."""
    assert meld.as_ is not None, "a meld of a game with wilds keeps its reading"
    first = meld.as_[0]
    if not is_wild(card, rules):
        # Most cards held are of another rank (a set) or suit (a run): say no cheaply.
        other = (
            (card.rank is not first.rank) if meld.kind is _SET else (card.suit is not first.suit)
        )
        if other:
            return []
        candidates = [card]
    elif meld.kind is _SET:
        candidates = [_CARDS[first.rank, suit] for suit in SUITS]
    else:
        suit = first.suit
        below = _CARDS[_rank_at(first.rank.value - 1 + _FULL_RUN), suit]
        above = _CARDS[_rank_at(meld.as_[-1].rank.value + 1), suit]
        candidates = [above, below] if above != below else [above]
    represented = TableMeld(meld.id, meld.kind, list(meld.as_), meld.owner)
    found: list[tuple[Card, End]] = []
    for stands in candidates:
        if melds.can_lay_off(represented, stands, rules.aces):
            found.append((stands, melds.lay_off_end(represented, stands, rules.aces)))
    return found


def lay_off_reading(
    meld: TableMeld, card: Card, as_: Card | None, rules: RuleSet
) -> tuple[Card, End]:
    """What a laid-off `card` stands for and where it goes: `as_` if given, else the
    one reading left when a wild-rank card stands for itself where it can.
    Raises `InvalidLayOff` or `WildAmbiguous`."""
    found = lay_off_readings(meld, card, rules)
    if as_ is not None:
        for stands, end in found:
            if stands == as_:
                return stands, end
        if as_ != card and not is_wild(card, rules):
            raise InvalidLayOff(
                f"{_lead(meld, card)}: {card} is not wild, so it stands for itself."
            )
        raise InvalidLayOff(f"{_lead(meld, card)} as {as_}: {_why_not(meld, as_, rules)}")
    if not found:
        raise InvalidLayOff(f"{_lead(meld, card)}: {_why_not(meld, card, rules)}")
    natural = [pair for pair in found if pair[0] == card]
    if natural:
        return natural[0]
    if len(found) > 1:
        options = " or ".join(stands.code for stands, _ in found)
        raise WildAmbiguous(
            f"{card} laid off on meld {meld.id} could stand for {options}: say which with `as`."
        )
    return found[0]


def _lead(meld: TableMeld, card: Card) -> str:
    return f"{card} cannot be laid off on meld {meld.id} ({_reading_codes_of(meld)})"


def _why_not(meld: TableMeld, stands: Card, rules: RuleSet) -> str:
    assert meld.as_ is not None
    if stands.is_joker:
        return "a card stands for a natural card, never for JK."
    if stands in meld.as_:
        return f"the meld already holds {stands} (a place a wild holds is filled only by a swap)."
    represented = TableMeld(meld.id, meld.kind, list(meld.as_), meld.owner)
    try:
        melds.lay_off_end(represented, stands, rules.aces)
    except InvalidLayOff as invalid:
        return invalid.message.split(": ", 1)[-1]
    return "it does not fit there."  # pragma: no cover - only called for a misfit


# --- swaps -------------------------------------------------------------------


def swap_place(meld: TableMeld, card: Card, rules: RuleSet) -> int | None:
    """Where in `meld` a wild stands for exactly `card` (a wild-rank card standing for
    itself never moves), or None."""
    if meld.as_ is None:
        return None
    for index, (placed, stands) in enumerate(zip(meld.cards, meld.as_, strict=True)):
        if stands == card and placed != stands and is_wild(placed, rules):
            return index
    return None


def swaps_for(meld: TableMeld, held: Iterable[Card], rules: RuleSet) -> list[tuple[Card, Card]]:
    """(card put in, wild taken) for each card of `held` a wild of `meld` stands for."""
    codes = {card.code for card in held}
    if meld.as_ is None:
        return []
    return [
        (stands, placed)
        for placed, stands in zip(meld.cards, meld.as_, strict=True)
        if placed != stands and stands.code in codes and is_wild(placed, rules)
    ]


def unused_swapped_wild(events: Sequence[Event], seat: int) -> SwappedWildUnused | None:
    """Under `swapped_wild: meld_now`: each wild `seat` took by a swap must leave its
    hand by a later meld or lay-off in the same request (copies are not told apart)."""
    pending: Counter[Card] = Counter()
    for event in events:
        if isinstance(event, WildSwapped) and event.seat == seat:
            pending[event.wild] += 1
        elif isinstance(event, MeldLaid) and event.seat == seat:
            for card in event.cards:
                if pending[card] > 0:
                    pending[card] -= 1
        elif isinstance(event, CardLaidOff) and event.seat == seat and pending[event.card] > 0:
            pending[event.card] -= 1
    left = sorted(card.code for card, count in pending.items() for _ in range(count))
    if not left:
        return None
    return SwappedWildUnused(
        f"Under swapped_wild meld_now a wild taken by a swap must be melded or laid off in "
        f"the same request: {' '.join(left)} would stay in your hand."
    )


# --- wording -----------------------------------------------------------------


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(card.code for card in cards)


def _reading_codes(reading: Reading) -> str:
    return " ".join(
        card.code if card == stands else f"{card.code}={stands.code}"
        for card, stands in zip(reading.cards, reading.as_, strict=True)
    )


def _reading_codes_of(meld: TableMeld) -> str:
    if meld.as_ is None:
        return _codes(meld.cards)
    return _reading_codes(Reading(meld.kind, tuple(meld.cards), tuple(meld.as_)))
