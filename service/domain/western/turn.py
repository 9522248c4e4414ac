"""The Western family's turn: what a seat may do now, and the events a move makes.

Every rule is written once, as a `*_problem` function that returns the
error a move would raise (or None). `turns.verify` raises it, `legal_moves`
keeps the candidates that have none, so what a view offers and what the
engine accepts can never disagree. The variants' features (`presets.Features`)
switch the rules: wilds, concealed turns, knocking; an action no phase of the
phase table allows (`western.engine.PHASES`) is not in the variant.
"""

from __future__ import annotations

from collections.abc import Sequence

from service.domain import concealed, melds, table_wilds, wilds
from service.domain.actions import Action, Discard, Draw, Knock, LayOff, Meld, Swap
from service.domain.cards import Card, sorted_cards
from service.domain.checks import (
    discard_problem,
    draw,
    draw_problem,
    hand_of,
    not_held,
    pile_problem,
    taken_problem,
    turn_problem,
)
from service.domain.decks import DeckSource
from service.domain.enum_members import GOING_OUT_DISCARD as _GOING_OUT_DISCARD
from service.domain.enum_members import PLAY_PHASE as _PLAY_PHASE
from service.domain.errors import (
    DiscardTakenCard,
    IllegalMove,
    InvalidLayOff,
    InvalidMeld,
    InvalidSwap,
    LayOffBeforeMeld,
    MeldLimit,
    MustDiscardLast,
    NotInVariant,
    UnknownMeld,
    WildAmbiguous,
    WouldStrandTakenCard,
)
from service.domain.events import (
    CardDiscarded,
    CardLaidOff,
    Event,
    Knocked,
    MeldLaid,
    WildSwapped,
)
from service.domain.legal import NO_MOVES, LegalMoves
from service.domain.melds import TableMeld
from service.domain.rule_values import LayOffRule, MeldsPerTurn
from service.domain.state import HandState, Source, Table

_SOURCES = tuple(Source)


def action_problem(
    table: Table, seat: int, action: Action, *, going_out_list: bool = False
) -> IllegalMove | None:
    """The error `action` by `seat` would raise now, or None if it is legal.

    `going_out_list`: the action belongs to a request that goes out, as `play` has
    checked (the only place a concealed turn allows melds, lay-offs and swaps).
    The engine has checked that the phase table allows it (`absent_problem`
    otherwise).
    """
    match action:
        case Draw(source=source):
            return draw_problem(table, seat, source)
        case Meld(cards=cards, as_=as_):
            return _meld_problem(table, seat, cards, as_, going_out_list)
        case LayOff(card=card, meld_id=meld_id, as_=as_):
            return _lay_off_problem(table, seat, card, meld_id, as_, going_out_list)
        case Discard(card=card):
            return discard_problem(table, seat, card)
        case Knock(card=card, melds=knock_melds):
            if card is None or knock_melds is not None:
                # Gin's big gin and declared arrangements: Knock Rummy arranges itself.
                return NotInVariant(
                    "A Knock Rummy knock names one card and nothing else: the server "
                    "arranges every hand (no big gin, no `melds`)."
                )
            return _knock_problem(table, seat, card)
        case Swap(meld_id=meld_id, card=card):
            return _swap_problem(table, seat, meld_id, card, going_out_list)
    raise AssertionError(f"{action} is in the phase table but has no rule")


def absent_problem(
    table: Table, seat: int, action: Action, going_out_list: bool = False
) -> IllegalMove:
    """The error of an action no phase of the game's table allows (Knock Rummy's
    melds, lay-offs and swaps, a knock elsewhere, Indian's actions)."""
    if isinstance(action, Swap) and not table.features.knocking:
        # A swap without wilds: the turn's own error first, as it always was.
        return _play_problem(table, seat, going_out_list) or _not_in_variant(table, action)
    return _not_in_variant(table, action)


def _not_in_variant(table: Table, action: Action) -> IllegalMove:
    name = {Swap: "swap", Knock: "knock", LayOff: "lay-off"}.get(
        type(action), type(action).__name__.lower()
    )
    return NotInVariant(
        f"There is no {name} in {table.rules.variant.value} rummy: see `legal` for the "
        f"moves you may make."
    )


def legal_moves(table: Table, seat: int) -> LegalMoves:
    """Every move `seat` may make now, from the same checks that enforce them."""
    hand = table.hand
    if hand is None or turn_problem(table, seat, hand.phase) is not None:
        return NO_MOVES
    if hand.phase is not _PLAY_PHASE:
        # A draw has no rule beyond whose turn, which phase and which pile has a card.
        # A concealed going-out list is judged from the hand after the draws (what the
        # stock gives is secret), so before them it is not offered.
        return LegalMoves(
            # The turn and phase are checked above: only the pile is left to ask.
            draw=tuple(source for source in _SOURCES if pile_problem(hand, source) is None),
            can_go_out=False if concealed.is_concealed(table) else None,
        )
    held = hand.hands[seat]
    if concealed.is_concealed(table):
        # Melds only inside a going-out list: say whether one exists now.
        return LegalMoves(
            discard=_discards(table, seat),
            can_go_out=concealed.can_go_out(table, seat),
        )
    if table.features.knocking:
        return LegalMoves(
            discard=tuple(
                card for card in sorted_cards(held) if discard_problem(table, seat, card) is None
            ),
            knock=tuple(
                card for card in sorted_cards(held) if _knock_problem(table, seat, card) is None
            ),
        )
    if table.rules.has_wilds:
        return _wild_legal_moves(table, hand, seat, held)
    aces = table.rules.aces
    return LegalMoves(
        melds=tuple(
            tuple(cards)
            for cards in melds.possible_melds(held, aces)
            if _meld_problem(table, seat, cards) is None
        ),
        lay_offs=tuple(
            (card, meld.id)
            for card, meld in melds.possible_lay_offs(held, hand.melds, aces)
            if _lay_off_problem(table, seat, card, meld.id) is None
        ),
        discard=_discards(table, seat),
    )


def _discards(table: Table, seat: int) -> tuple[Card, ...]:
    """The cards `seat` may discard, for `legal`, in its own play phase (checked by the
    caller): of `_discard_problem`'s checks only the last depends on the card, and
    every card of the hand is held."""
    hand = hand_of(table)
    held = hand.hands[seat]
    distinct = list(dict.fromkeys(held)) if table.features.counts_copies else held
    if hand.taken is None:  # nothing taken from the pile: every card may go
        return tuple(sorted_cards(distinct))
    return tuple(card for card in sorted_cards(distinct) if taken_problem(hand, seat, card) is None)


def decide(table: Table, seat: int, action: Action, decks: DeckSource) -> list[Event]:
    """The events a verified `action` makes (before any automatic follow-up)."""
    hand = hand_of(table)
    match action:
        case Draw(source=source):
            return draw(table, hand, seat, source, decks)
        case Meld(cards=cards, as_=as_) if table.rules.has_wilds:
            reading = wilds.meld_reading(cards, as_, table.rules)
            return [
                MeldLaid(
                    seat=seat,
                    meld_id=f"h{hand.number}-m{hand.melds_laid + 1}",
                    kind=reading.kind,
                    cards=reading.cards,
                    as_=reading.as_,
                )
            ]
        case Meld(cards=cards):
            arranged = melds.arrange(cards, table.rules.aces)
            return [
                MeldLaid(
                    seat=seat,
                    meld_id=f"h{hand.number}-m{hand.melds_laid + 1}",
                    kind=melds.meld_kind(cards, table.rules.aces),
                    cards=tuple(arranged),
                )
            ]
        case LayOff(card=card, meld_id=meld_id, as_=as_) if table.rules.has_wilds:
            meld = hand.meld(meld_id)
            assert meld is not None  # verified above
            stands, end = table_wilds.lay_off_reading(meld, card, as_, table.rules)
            return [CardLaidOff(seat=seat, meld_id=meld_id, card=card, end=end, as_=stands)]
        case LayOff(card=card, meld_id=meld_id):
            meld = hand.meld(meld_id)
            assert meld is not None  # verified above
            end = melds.lay_off_end(meld, card, table.rules.aces)
            return [CardLaidOff(seat=seat, meld_id=meld_id, card=card, end=end)]
        case Discard(card=card):
            return [CardDiscarded(seat=seat, card=card)]
        case Knock(card=card):
            return [Knocked(seat=seat, card=card)]
        case Swap(meld_id=meld_id, card=card):
            meld = hand.meld(meld_id)
            assert meld is not None  # verified above
            place = table_wilds.swap_place(meld, card, table.rules)
            assert place is not None  # verified above
            return [
                WildSwapped(seat=seat, meld_id=meld_id, card=card, wild=meld.cards[place], as_=card)
            ]
        case _:
            raise AssertionError(f"verified above: {action} is refused")


def _play_problem(table: Table, seat: int, going_out_list: bool) -> IllegalMove | None:
    """What every meld, lay-off and swap needs: the seat's play phase and, in a
    concealed turn, a request that goes out."""
    return turn_problem(table, seat, _PLAY_PHASE) or concealed.meld_problem(table, going_out_list)


def _meld_problem(
    table: Table,
    seat: int,
    cards: Sequence[Card],
    as_: Sequence[Card] | None = None,
    going_out_list: bool = False,
) -> IllegalMove | None:
    problem = _meld_turn_problem(table, seat, cards, going_out_list)
    if problem is not None:
        return problem
    rules = table.rules
    try:
        if rules.has_wilds:
            wilds.meld_reading(cards, as_, rules)
        else:
            _plain_as_check(cards, as_)
            melds.meld_kind(cards, rules.aces)
    except (InvalidMeld, WildAmbiguous) as invalid:
        return invalid
    return _leftover_problem(table, seat, cards)


def _meld_turn_problem(
    table: Table, seat: int, cards: Sequence[Card], going_out_list: bool = False
) -> IllegalMove | None:
    """What forbids laying any meld of `cards` now, whatever it reads as."""
    problem = _play_problem(table, seat, going_out_list)
    if problem is not None:
        return problem
    problem = not_held(table, hand_of(table), seat, cards)
    if problem is not None:
        return problem
    return _meld_limit_problem(table)


def _meld_limit_problem(table: Table) -> IllegalMove | None:
    if table.rules.melds_per_turn is MeldsPerTurn.ONE and hand_of(table).melds_this_turn >= 1:
        return MeldLimit("Only one meld may be laid per turn under these rules.")
    return None


def _plain_as_check(cards: Sequence[Card], as_: Sequence[Card] | None) -> None:
    """Without wilds every card stands for itself: an `as` may only say so."""
    if as_ is not None and list(as_) != list(cards):
        raise InvalidMeld(
            "No card is wild in this game: `as`, if given, names each card of the meld itself."
        )


def _card_to_meld(
    table: Table, seat: int, card: Card, meld_id: str, going_out_list: bool = False
) -> IllegalMove | TableMeld:
    """What a lay-off and a swap both need: the turn (and, in a concealed turn, a
    going-out list), the card in hand, the meld on the table (returned when all is
    well)."""
    problem = _play_problem(table, seat, going_out_list)
    if problem is not None:
        return problem
    hand = hand_of(table)
    problem = not_held(table, hand, seat, (card,))
    if problem is not None:
        return problem
    meld = hand.meld(meld_id)
    if meld is None:
        return UnknownMeld(f"There is no meld {meld_id!r} on the table.")
    return meld


def _lay_off_problem(
    table: Table,
    seat: int,
    card: Card,
    meld_id: str,
    as_: Card | None = None,
    going_out_list: bool = False,
) -> IllegalMove | None:
    meld = _card_to_meld(table, seat, card, meld_id, going_out_list)
    if isinstance(meld, IllegalMove):
        return meld
    hand = hand_of(table)
    if (
        meld.owner != seat
        and table.rules.lay_off is LayOffRule.AFTER_OWN_MELD
        and not hand.has_own_meld(seat)
    ):
        return LayOffBeforeMeld(
            "Under these rules you may lay off onto other players' melds only once "
            "you have a meld of your own on the table this hand."
        )
    try:
        if table.rules.has_wilds:
            table_wilds.lay_off_reading(meld, card, as_, table.rules)
        else:
            if as_ is not None and as_ != card:
                raise InvalidLayOff(
                    f"No card is wild in this game: `as`, if given, names {card} itself."
                )
            melds.lay_off_end(meld, card, table.rules.aces)
    except (InvalidLayOff, WildAmbiguous) as invalid:
        return invalid
    return _leftover_problem(table, seat, (card,))


def _swap_problem(
    table: Table, seat: int, meld_id: str, card: Card, going_out_list: bool = False
) -> IllegalMove | None:
    """A swap: the exact card a wild of the meld stands for, put in; the wild to hand.
    The `lay_off` rule does not apply (docs/rules.md "Wild cards" 5)."""
    if not table.rules.swap:
        return InvalidSwap("Swaps are off under these rules: a wild on the table stays there.")
    meld = _card_to_meld(table, seat, card, meld_id, going_out_list)
    if isinstance(meld, IllegalMove):
        return meld
    if table_wilds.swap_place(meld, card, table.rules) is None:
        return InvalidSwap(
            f"No wild in meld {meld_id} stands for {card}: a swap puts in the exact card "
            f"a wild stands for."
        )
    return None


def _knock_problem(table: Table, seat: int, card: Card) -> IllegalMove | None:
    """A knock discards face down: the card is held and was not just taken from the
    pile, the same as a discard face up, after the draw, on any turn, at any count."""
    problem = discard_problem(table, seat, card)
    if isinstance(problem, DiscardTakenCard):
        return DiscardTakenCard(
            f"{card} was taken from the discard pile this turn: knock with another card."
        )
    return problem


def _leftover_problem(table: Table, seat: int, spent: Sequence[Card]) -> IllegalMove | None:
    """A meld or lay-off must leave a hand that can still finish the turn."""
    hand = hand_of(table)
    held = hand.hands[seat]
    # `spent` is a meld or lay-off already judged valid, so no card in it repeats
    # unless the pack holds copies of it.
    left = len(held) - len(spent)
    if left == 0 and concealed.going_out(table) is _GOING_OUT_DISCARD:
        return MustDiscardLast(
            "Under these rules you go out only by discarding your last card: "
            "this play would empty your hand."
        )
    if left == 1 and hand.taken is not None:
        kept = list(held)
        for card in spent:  # copies (two jokers) go one at a time
            kept.remove(card)
        # A code taken from the pile stays taken all turn, even where a copy of it
        # was melded: copies are never told apart.
        if kept[0] in hand.taken_cards():
            return WouldStrandTakenCard(
                f"This play would leave you holding only {kept[0]}, the card you took from "
                f"the discard pile, which you may not discard this turn."
            )
    return None


# --- games with wild cards -----------------------------------------------------


def _wild_legal_moves(table: Table, hand: HandState, seat: int, held: list[Card]) -> LegalMoves:
    """`legal` in a game with wilds: melds found by `wilds.hand_melds` (the judge's own
    core) and kept by the same turn checks a meld meets; lay-offs and swaps from
    their `*_problem` functions."""
    rules = table.rules
    found_melds: list[tuple[Card, ...]] = []
    readings: list[tuple[tuple[Card, ...], tuple[Card, ...]]] = []
    # The melds come from the hand, so they are held; the turn is checked above:
    # of `_meld_turn_problem` only the meld limit is left to ask.
    found = [] if _meld_limit_problem(table) is not None else wilds.hand_melds(held, rules)
    for cards, read in found:
        if _leftover_problem(table, seat, cards) is not None:
            continue
        found_melds.append(cards)
        if any(wilds.is_wild(card, rules) for card in cards):
            readings.extend((cards_read, as_) for _, cards_read, as_ in read)
    lay_offs: list[tuple[Card, str]] = []
    wild_lay_offs: list[tuple[Card, str, Card]] = []
    distinct = sorted_cards(list({card.code: card for card in held}.values()))
    for meld in hand.melds:
        for card in distinct:
            # The readings only narrow the search (no sentence is written for a
            # misfit); `_lay_off_problem` decides.
            fits = table_wilds.lay_off_readings(meld, card, rules)
            if not wilds.is_wild(card, rules):
                if fits and _lay_off_problem(table, seat, card, meld.id) is None:
                    lay_offs.append((card, meld.id))
                continue
            for stands, _ in fits:
                if _lay_off_problem(table, seat, card, meld.id, stands) is None:
                    wild_lay_offs.append((card, meld.id, stands))
    swaps: list[tuple[str, Card, Card]] = []
    if rules.swap:
        for meld in hand.melds:
            for card, wild in table_wilds.swaps_for(meld, held, rules):
                if _swap_problem(table, seat, meld.id, card) is None:
                    swaps.append((meld.id, card, wild))
    return LegalMoves(
        melds=tuple(found_melds),
        lay_offs=tuple(lay_offs),
        discard=tuple(
            card for card in sorted_cards(distinct) if discard_problem(table, seat, card) is None
        ),
        meld_readings=tuple(readings),
        wild_lay_offs=tuple(wild_lay_offs),
        swaps=tuple(swaps),
    )
