"""Concealed turns (docs/rules.md "Variants": Boathouse; Wrotham deals 4-6).

In a concealed turn nothing is melded except inside the one request that goes
out: its melds (and lay-offs onto them) take every card, less the final
discard where going out needs one. Two places enforce it, and both read this
module: `turns` refuses a meld, lay-off or swap played on its own
(`meld_only_going_out`), so `legal` offers none and says instead whether a
going-out list exists now (`can_go_out`); `play` accepts a request holding
melds only if it goes out (`going_out_list`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import cache

from service.domain import melds, wilds
from service.domain.actions import Action, Discard, Draw, LayOff, Meld
from service.domain.cards import Card
from service.domain.enum_members import GOING_OUT_DISCARD as _GOING_OUT_DISCARD
from service.domain.errors import MeldOnlyGoingOut
from service.domain.rule_values import GoingOut, MeldsPerTurn
from service.domain.rules import RuleSet
from service.domain.state import HandState, Table

MeldFinder = Callable[[Sequence[Card]], Iterable[Sequence[Card]]]
"""Every valid meld some of `cards` make (each a list of cards)."""


def is_concealed(table: Table) -> bool:
    """Whether the hand in play is played concealed."""
    hand = table.hand
    if hand is None:
        return False
    # From the rules' `concealed_from` on (Wrotham: deals 1-3 are played as `wild`,
    # 4-6 concealed; decided: the deals a tie adds after the sixth stay concealed).
    first = table.features.concealed_from
    return first is not None and hand.number >= first


def going_out(table: Table) -> GoingOut:
    """How the hand in play is gone out of: Wrotham's concealed deals always end with
    a discard (all the cards but one melded, then that one thrown), whatever the
    game's `going_out` says for its first deals."""
    if is_concealed(table) and table.features.concealed_discard_last:
        return _GOING_OUT_DISCARD
    return table.rules.going_out


def wants_discard_last(table: Table) -> bool:
    """Whether a concealed request that melds all but one card and stops there is
    `must_discard_last` (Wrotham) rather than `meld_only_going_out` (Boathouse)."""
    return table.features.concealed_discard_last


def is_rummy_possible(table: Table) -> bool:
    """No rummy in a concealed hand: going out in one turn is the rule there, not a
    feat (`last_hand.rummy` is false, `how` is `out`)."""
    return not is_concealed(table)


def meld_problem(table: Table, listed: bool) -> MeldOnlyGoingOut | None:
    """A meld, lay-off or swap now: refused in a concealed turn unless it is part of a
    request that goes out (`listed`, which `play` checks for the whole request)."""
    if listed or not is_concealed(table):
        return None
    return MeldOnlyGoingOut(
        "This hand is played concealed: melds, lay-offs and swaps are made only in "
        "the one list of actions that goes out (its melds, then the final discard "
        "where one is needed); send them together."
    )


def cards_spent(actions: Sequence[Action]) -> int:
    """How many cards `actions` would take out of a hand, less the ones they draw
    (a swap gives one card and takes one)."""
    spent = 0
    for action in actions:
        if isinstance(action, Meld):
            spent += len(action.cards)
        elif isinstance(action, LayOff | Discard):
            spent += 1
        elif isinstance(action, Draw):
            spent -= 1
    return spent


def meld_finder(rules: RuleSet) -> MeldFinder:
    """The melds a going-out search may use: with wilds, every meld the wild rules
    read (service/domain/wilds.py, the judge's own core); else the classic ones."""
    if rules.has_wilds:

        def find_wild(cards: Sequence[Card]) -> Iterable[Sequence[Card]]:
            return [cards for cards, _ in wilds.hand_melds(cards, rules)]

        return find_wild
    aces = rules.aces

    def find(cards: Sequence[Card]) -> Iterable[Sequence[Card]]:
        return melds.possible_melds(cards, aces)

    return find


def going_out_request(table: Table, seat: int) -> tuple[Action, ...] | None:
    """A request with which `seat` goes out now in a concealed turn (its melds, each
    with a reading where it holds a wild, then the final discard where one is
    needed or a card is left), or None if there is none. For players that choose
    a going out rather than work one out: bots, benchmarks, tests."""
    hand = table.hand
    if hand is None or not is_concealed(table):
        return None
    taken = hand.taken_cards()
    return going_out_list(
        hand.hands[seat],
        table.rules,
        discardable=[card for card in dict.fromkeys(hand.hands[seat]) if card not in taken],
        discard_needed=going_out(table) is _GOING_OUT_DISCARD,
    )


def going_out_list(
    held: Sequence[Card],
    rules: RuleSet,
    *,
    discardable: Sequence[Card],
    discard_needed: bool,
) -> tuple[Action, ...] | None:
    """A request that empties `held` (its melds, each with a reading where it holds a
    wild, then a final discard among `discardable` where one is needed or a card is
    left), or None. What `going_out_request` builds from a table, for a player that
    knows only its own hand: a bot reads `discardable` from its `legal`."""
    # Each meld the hand makes, by its cards sorted, as it is sent: its cards in
    # table order and, with wilds, the reading parallel to them.
    sendable: dict[_Key, Meld] = {}
    if rules.has_wilds:
        for cards, found in wilds.hand_melds(held, rules):
            _, cards_read, as_ = found[0]
            sendable[_key(cards)] = Meld(tuple(cards_read), tuple(as_))
    else:
        for natural in melds.possible_melds(held, rules.aces):
            sendable[_key(natural)] = Meld(tuple(natural))
    allowed = set(discardable)
    split = _going_out_split(
        held,
        list(sendable),
        discardable=allowed.__contains__,
        discard_needed=discard_needed,
        most_melds=1 if rules.melds_per_turn is MeldsPerTurn.ONE else None,
    )
    if split is None:
        return None
    used, discard = split
    request: list[Action] = [sendable[cards] for cards in used]
    if discard is not None:
        request.append(Discard(discard))
    return tuple(request)


def can_go_out(table: Table, seat: int) -> bool:
    """Whether `seat`, in its play phase, could go out now with one list of actions."""
    hand = table.hand
    assert hand is not None, "asked in a turn"
    limit = 1 if table.rules.melds_per_turn is MeldsPerTurn.ONE else None
    return going_out_exists(
        hand.hands[seat],
        meld_finder(table.rules),
        # The final discard is the one card left, so it must not be a code taken
        # from the pile this turn.
        discardable=lambda card: card not in hand.taken_cards(),
        discard_needed=going_out(table) is _GOING_OUT_DISCARD,
        most_melds=limit,
    )


def discard_allowed(hand: HandState, seat: int, card: Card) -> bool:
    """Whether `card` may be discarded: not if every copy held was taken from the
    pile this turn (copies are never told apart, so one other copy will do)."""
    taken, second = hand.taken, hand.taken_second
    # Most turns take nothing from the pile, or another card than this one.
    if taken is None or (card != taken and (second is None or card != second)):
        return True
    times_taken = (card == taken) + (second is not None and card == second)
    return hand.hands[seat].count(card) > times_taken


def going_out_exists(
    cards: Sequence[Card],
    finder: MeldFinder,
    *,
    discardable: Callable[[Card], bool],
    discard_needed: bool,
    most_melds: int | None = None,
) -> bool:
    """Whether `cards` split into valid melds (at most `most_melds` of them), all of
    them or all but one discardable card (which `discard_needed` requires).

    Lay-offs and swaps inside a going-out list only rearrange the cards among its own
    melds, so a split into melds is all a going-out list needs.
    """
    found = [_key(meld) for meld in finder(cards)]
    split = _going_out_split(
        cards,
        found,
        discardable=discardable,
        discard_needed=discard_needed,
        most_melds=most_melds,
    )
    return split is not None


def _going_out_split(
    cards: Sequence[Card],
    found: Sequence[_Key],
    *,
    discardable: Callable[[Card], bool],
    discard_needed: bool,
    most_melds: int | None,
) -> tuple[tuple[_Key, ...], Card | None] | None:
    """The melds among `found` (every meld of the hand, each once) that use up
    `cards`, or all of them but one discardable card, and that card; None if none.
    The one search behind `going_out_exists` and `going_out_list`."""
    melds_allowed = len(cards) if most_melds is None else most_melds
    in_a_meld = {card for meld in found for card in meld}
    loose = [card for card in set(cards) if card not in in_a_meld]
    # A card in no meld at all can only be the discard.
    if len(loose) > 1 or (loose and not discardable(loose[0])):
        return None
    cover = _cover_search(found)
    if not loose and not discard_needed:
        used = cover(_key(cards), melds_allowed)
        if used is not None:
            return used, None
    for card in _key(loose or set(cards)):
        if discardable(card):
            left = list(cards)
            left.remove(card)
            used = cover(_key(left), melds_allowed)
            if used is not None:
                return used, card
    return None


_Key = tuple[Card, ...]


def _key(cards: Iterable[Card]) -> _Key:
    return tuple(sorted(cards, key=lambda card: card.sort_key))


def _cover_search(found: Sequence[_Key]) -> Callable[[_Key, int], tuple[_Key, ...] | None]:
    """An exact-cover search over multisets of cards by the melds `found`: the melds
    that cover a multiset, remembered per multiset."""
    counted_melds = [(meld, Counter(meld)) for meld in found]
    by_card: dict[Card, list[tuple[_Key, Counter[Card]]]] = {}
    for meld, counts in counted_melds:
        for card in counts:
            by_card.setdefault(card, []).append((meld, counts))

    @cache
    def cover(left: _Key, melds_allowed: int) -> tuple[_Key, ...] | None:
        if not left:
            return ()
        if melds_allowed == 0:
            return None
        # Every card must lie in some meld: the card in fewest melds picks the melds
        # to try (the fewest branches).
        counted = Counter(left)
        pivot = min(counted, key=lambda card: len(by_card.get(card, ())))
        for meld, counts in by_card.get(pivot, ()):
            if all(counted[card] >= count for card, count in counts.items()):
                rest = cover(_key((counted - counts).elements()), melds_allowed - 1)
                if rest is not None:
                    return (meld, *rest)
        return None

    return cover
