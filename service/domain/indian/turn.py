"""Indian Rummy's turn (docs/rules.md "Indian 13-card Rummy"): draw, then discard or
declare; drop before drawing; and, after a valid declaration, the show.

As in `turns`, each rule is a `*_problem` function returning the error a move
would raise, so `legal_moves` and the checks cannot disagree. A declaration
and a submission are judged by `groups`; which groups a player shows is the
player's choice, so `legal` offers them as flags, never as lists.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from service.domain import checks
from service.domain.actions import Action, Declare, Discard, Draw, Drop, SubmitGroups
from service.domain.cards import Card, sorted_cards
from service.domain.decks import DeckSource
from service.domain.enum_members import DRAW_PHASE as _DRAW_PHASE
from service.domain.enum_members import PLAY_PHASE as _PLAY_PHASE
from service.domain.enum_members import SHOW_PHASE as _SHOW_PHASE
from service.domain.errors import (
    DiscardTakenCard,
    IllegalMove,
    IncompleteDeclaration,
    NotInVariant,
    WrongPhase,
)
from service.domain.events import (
    CardDiscarded,
    Declared,
    Event,
    GroupsSubmitted,
    PlayerDropped,
)
from service.domain.indian import judge
from service.domain.indian.judge import Group
from service.domain.indian.options import indian_options
from service.domain.legal import NO_MOVES, LegalMoves
from service.domain.state import (
    DealStatus,
    DropKind,
    HandState,
    Source,
    Table,
    indian_of,
)

_SOURCES = tuple(Source)


def action_problem(table: Table, seat: int, action: Action) -> IllegalMove | None:
    """The error `action` by `seat` would raise now, or None if it is legal. The engine
    has checked that the phase table allows it (`absent_problem` otherwise)."""
    match action:
        case Draw(source=source):
            return checks.draw_problem(table, seat, source)
        case Discard(card=card):
            return checks.discard_problem(table, seat, card)
        case Declare(card=card, groups=shown):
            return _declare_problem(table, seat, card, shown)
        case SubmitGroups(groups=shown):
            return _submit_problem(table, seat, shown)
        case Drop():
            return _drop_problem(table, seat)
    raise AssertionError(f"{action} is in the phase table but has no rule")


def absent_problem(action: Action) -> IllegalMove:
    """The error of an action no phase of Indian Rummy allows: no meld is ever on the
    table."""
    name = type(action).__name__.lower().replace("layoff", "lay-off")
    return NotInVariant(
        f"There is no {name} in Indian rummy: no meld is on the table. Draw, then "
        f"discard or declare; see `legal` for the moves you may make."
    )


def legal_moves(table: Table, seat: int) -> LegalMoves:
    """What `seat` may do now, from the same checks that enforce it."""
    hand = table.hand
    if hand is None:
        return NO_MOVES
    if hand.phase is _SHOW_PHASE:
        return LegalMoves(can_submit=_submit_turn_problem(table, seat) is None)
    if checks.turn_problem(table, seat, hand.phase) is not None:
        return NO_MOVES
    if hand.phase is _DRAW_PHASE:
        return LegalMoves(
            draw=tuple(source for source in _SOURCES if checks.pile_problem(hand, source) is None),
            can_drop=True,
            drop_points=drop_cost(table, hand, seat)[1],
        )
    held = hand.hands[seat]
    return LegalMoves(
        discard=tuple(
            card
            for card in sorted_cards(list(dict.fromkeys(held)))
            if checks.taken_problem(hand, seat, card) is None
        ),
        can_declare=True,
    )


def decide(table: Table, seat: int, action: Action, decks: DeckSource) -> list[Event]:
    """The events `action` makes, once `action_problem` has found none."""
    hand = checks.hand_of(table)
    match action:
        case Draw(source=source):
            return checks.draw(table, hand, seat, source, decks)
        case Discard(card=card):
            return [CardDiscarded(seat=seat, card=card)]
        case Declare(card=card, groups=shown):
            held = list(hand.hands[seat])
            held.remove(card)
            judged, _ = _judge(table, hand, held, shown)
            valid = judged.valid_declaration
            return [
                Declared(
                    seat=seat,
                    card=card,
                    groups=_groups(shown, judged.kinds),
                    valid=valid,
                    points=0 if valid else indian_options(table.rules).full_count,
                )
            ]
        case SubmitGroups(groups=shown):
            judged, points = _judge(table, hand, hand.hands[seat], shown)
            return [GroupsSubmitted(seat=seat, groups=_groups(shown, judged.kinds), points=points)]
        case Drop():
            kind, points = drop_cost(table, hand, seat)
            return [PlayerDropped(seat=seat, kind=kind, points=points)]
    raise AssertionError(f"verified above: {action} is refused")


def drop_cost(table: Table, hand: HandState, seat: int) -> tuple[DropKind, int]:
    """A drop before the seat's first draw of the deal is a first drop, any later one a
    middle drop; each costs its rule's points."""
    options = indian_options(table.rules)
    if indian_of(hand).drawn[seat]:
        return DropKind.MIDDLE, options.middle_drop
    return DropKind.FIRST, options.first_drop


def _judge(
    table: Table, hand: HandState, held: Sequence[Card], shown: Sequence[Sequence[Card]]
) -> tuple[judge.Shown, int]:
    full_count = indian_options(table.rules).full_count
    return judge.judge(held, shown, indian_of(hand).wild, full_count)


def _groups(shown: Sequence[Sequence[Card]], kinds: Sequence[judge.GroupKind]) -> tuple[Group, ...]:
    return tuple(
        Group(cards=tuple(cards), kind=kind) for cards, kind in zip(shown, kinds, strict=True)
    )


def _declare_problem(
    table: Table, seat: int, card: Card, shown: Sequence[Sequence[Card]]
) -> IllegalMove | None:
    problem = checks.turn_problem(table, seat, _PLAY_PHASE)
    if problem is not None:
        return problem
    hand = checks.hand_of(table)
    problem = checks.not_held(table, hand, seat, (card,))
    if problem is not None:
        return problem
    if checks.taken_problem(hand, seat, card) is not None:
        return DiscardTakenCard(
            f"{card} was taken from the discard pile this turn: finish with another card."
        )
    others = Counter(card.code for card in hand.hands[seat])
    others[card.code] -= 1
    named = Counter(each.code for group in shown for each in group)
    if named != +others:
        return IncompleteDeclaration(_incomplete_sentence(+others, named))
    return None


def _incomplete_sentence(wanted: Counter[str], named: Counter[str]) -> str:
    missing = sorted((wanted - named).elements())
    extra = sorted((named - wanted).elements())
    parts = [f"they leave out {' '.join(missing)}"] if missing else []
    if extra:
        parts.append(f"they name {' '.join(extra)}, which the rest of your hand does not hold")
    return (
        "The groups of a declaration are exactly the 13 cards of your hand besides the "
        f"finish card: {'; '.join(parts)}."
    )


def _submit_problem(table: Table, seat: int, shown: Sequence[Sequence[Card]]) -> IllegalMove | None:
    problem = _submit_turn_problem(table, seat)
    if problem is not None:
        return problem
    # Every card named must be held as often as it is named: the check a meld meets.
    named = [card for group in shown for card in group]
    return checks.not_held(table, checks.hand_of(table), seat, named)


def _submit_turn_problem(table: Table, seat: int) -> IllegalMove | None:
    problem = checks.turn_problem(table, seat, _SHOW_PHASE)
    if problem is not None:
        return problem
    status = indian_of(checks.hand_of(table)).statuses[seat]
    if status is DealStatus.SUBMITTED:
        return WrongPhase("You have submitted your groups: each player shows once.")
    if status is DealStatus.DECLARED:
        return WrongPhase("You declared: the others submit their groups.")
    return None


def _drop_problem(table: Table, seat: int) -> IllegalMove | None:
    problem = checks.turn_problem(table, seat, _DRAW_PHASE)
    if isinstance(problem, WrongPhase) and checks.hand_of(table).phase is _PLAY_PHASE:
        return WrongPhase("You have drawn this turn: a drop comes before the draw.")
    return problem
