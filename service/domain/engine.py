"""The engine seam: what differs between rule families, chosen once per rule set.

Every rule family is one engine: the Western family (classic, wild, Boathouse,
Knock, Wrotham: one engine, its variants combinations of `presets.Features`) in
`western/`, Indian Rummy in `indian/`, 500 Rum in `rummy500/`. A table asks
`engine_for(rules)` once, when it is made (`Table.engine`), and the rest of the
service asks that engine where the families differ and never tests a variant itself:
`turns` (verify, legal, decide), `flow` (the first deal, what follows by itself, a
hand that ends without going out), `changes.apply` (the deal), `projections` (the
views' extra fields, the deal as each caller sees it), the bots (`family`) and the
verifier (through `turns` and `flow`).

Each engine module starts with its phase table (`Step`s: a phase → the actions
it allows → the phases that may follow), which its turn reads: an action no phase
allows is not in the variant, refused before any other check.

A new family is a room with an engine that meets `Engine`, registered once in
`_families`; a new Western variant needs only its `Preset` in `presets.VARIANTS`, with
its `Features` (docs/architecture.md, "A new variant").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from service.domain.presets import VARIANTS
from service.domain.rule_values import Family, Variant
from service.domain.rules import RuleSet

if TYPE_CHECKING:
    from service.domain.actions import Action
    from service.domain.cards import Card
    from service.domain.decks import DeckSource
    from service.domain.errors import IllegalMove
    from service.domain.events import Event, HandDealt, HandEnded
    from service.domain.legal import LegalMoves
    from service.domain.state import DealStatus, HandEnding, HandState, Phase, Show, Table


@dataclass(frozen=True, slots=True)
class Step:
    """One row of a phase table: the actions a phase allows, and the phases that may
    follow it within the hand (a hand's end or the next seat's turn aside)."""

    allows: tuple[type[Action], ...]
    then: tuple[Phase, ...]


PhaseTable = Mapping["Phase", Step]


@dataclass(frozen=True, slots=True)
class WildNow:
    """The game's wild cards as a view shows them."""

    jokers: int
    rank: str | None
    indicator: Card | None = None


@dataclass(frozen=True, slots=True)
class KnockTerms:
    """Gin: the hand's knock limit and doubling (None between hands), and the hands
    each seat has won, as the views show them."""

    knock_limit: int | None
    doubled: bool | None
    hands_won: tuple[int, ...]


class Engine(Protocol):
    """What differs between rule families. Every method takes the table (or rules) it
    plays, so an engine holds no game's state and one serves every game of its
    family."""

    @property
    def family(self) -> Family:
        """The family it plays (the bots choose their play by it)."""
        ...

    def phases(self, rules: RuleSet) -> PhaseTable:
        """The phase table of a game under `rules`."""
        ...

    def allowed_actions(self, rules: RuleSet) -> frozenset[type[Action]]:
        """Every action some phase of `phases(rules)` allows: any other is not in the
        variant (kept on the table, `Table.allows`, as it is asked on every move)."""
        ...

    # --- the deal --------------------------------------------------------------

    def first_deal(self, table: Table, decks: DeckSource) -> Event:
        """The deal that starts a game whose seats are all taken."""
        ...

    def apply_deal(self, table: Table, event: HandDealt) -> None:
        """`changes.apply` of a `HandDealt`: the new hand on the table (the deal's
        redacted view reads the same hand, `projections.event_views`)."""
        ...

    # --- the turn ----------------------------------------------------------------

    def action_problem(
        self, table: Table, seat: int, action: Action, *, going_out_list: bool = False
    ) -> IllegalMove | None:
        """The error `action` by `seat` would raise now, or None (`turns.verify`)."""
        ...

    def legal_moves(self, table: Table, seat: int) -> LegalMoves:
        """Every move `seat` may make now, from the same checks (`turns.legal_moves`)."""
        ...

    def decide(self, table: Table, seat: int, action: Action, decks: DeckSource) -> list[Event]:
        """The events a verified `action` makes (`turns.decide`)."""
        ...

    # --- what follows by itself ---------------------------------------------------

    def next_event(self, table: Table, decks: DeckSource) -> Event | None:
        """In a game in play: the event that now happens by itself (a hand's end, the
        next deal, the game's end), or None when a player must act (`flow`)."""
        ...

    def hand_ended_without_out(self, table: Table, hand: HandState, how: HandEnding) -> HandEnded:
        """A hand that ends with nobody out (the stock exhausted, the turn cap)."""
        ...

    # --- views and bots -------------------------------------------------------------

    def legal_keys(self, rules: RuleSet) -> frozenset[str]:
        """The keys of a view's `legal` beyond the classic four that a game under
        `rules` always shows (a classic view is as it always was)."""
        ...

    def wild_now(self, table: Table) -> WildNow | None:
        """The game's wild cards now, for the views; None where it has none."""
        ...

    def seat_status(self, table: Table, seat: int) -> DealStatus | None:
        """A seat's status in the deal (or the game), where the family has one."""
        ...

    def shows(self, table: Table) -> Sequence[Show] | None:
        """The shows of the hand in play, where the family has them."""
        ...

    def knock_terms(self, table: Table) -> KnockTerms | None:
        """Gin's knock limit, doubling and hands won, where the family has them."""
        ...

    def melded_points(self, table: Table) -> list[int] | None:
        """Each seat's meld credit in the hand in play, where the family keeps one."""
        ...

    def called_card(self, table: Table, seat: int) -> Card | None:
        """The card `seat` took from a spread pile and must still use this turn, where
        the family has one (only that seat's view shows it)."""
        ...


_ENGINES: dict[Variant, Engine] = {}


class PlainView:
    """The view hooks of a family that adds nothing to a view: no wild card, no seat
    status, no shows, no knock terms, no meld credit, no called card. An engine
    derives from it and overrides only what its views show (`Engine`'s last six
    hooks)."""

    __slots__ = ()

    def wild_now(self, table: Table) -> WildNow | None:
        return None

    def seat_status(self, table: Table, seat: int) -> DealStatus | None:
        return None

    def shows(self, table: Table) -> Sequence[Show] | None:
        return None

    def knock_terms(self, table: Table) -> KnockTerms | None:
        return None

    def melded_points(self, table: Table) -> list[int] | None:
        return None

    def called_card(self, table: Table, seat: int) -> Card | None:
        return None


def engine_for(rules: RuleSet) -> Engine:
    """The engine that plays a game under `rules`: one dictionary look-up. A table
    asks it once, when it is made (`Table.engine`), and the turn, the flow and
    `changes.apply` read the table's."""
    try:
        return _ENGINES[rules.variant]
    except KeyError:
        _ENGINES.update(_register())
        return _ENGINES[rules.variant]


def _register() -> dict[Variant, Engine]:
    """Each variant's engine, from its preset's family. The engines are imported here,
    on the first call, as their rooms import the modules that ask for them."""
    families = _families()
    return {variant: families[preset.family] for variant, preset in VARIANTS.items()}


def _families() -> dict[Family, Engine]:
    """The one registration of each family's engine."""
    from service.domain.gin.engine import GIN
    from service.domain.indian.engine import INDIAN
    from service.domain.rummy500.engine import RUMMY500
    from service.domain.western.engine import WESTERN

    return {
        Family.WESTERN: WESTERN,
        Family.INDIAN: INDIAN,
        Family.GIN: GIN,
        Family.RUMMY500: RUMMY500,
    }
