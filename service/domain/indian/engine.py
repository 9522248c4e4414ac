"""Indian Rummy's engine (docs/rules.md "Indian 13-card Rummy").

Its phase table (a phase → the actions it allows → the phases the hand may be in
next):

| phase | allows | next |
| --- | --- | --- |
| `draw` | draw, drop | `play` |
| `play` | discard, declare | `draw` (the next seat's); `show` (a valid declaration) |
| `show` | submit groups (every seat still in, in any order) | (the deal's end) |
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from service.domain.actions import Action, Declare, Discard, Draw, Drop, SubmitGroups
from service.domain.engine import PhaseTable, PlainView, Step, WildNow
from service.domain.errors import IllegalMove
from service.domain.indian import deals, turn
from service.domain.rule_values import Family
from service.domain.rules import RuleSet
from service.domain.state import DealStatus, Phase, Show, Table, indian_of

PHASES: PhaseTable = {
    Phase.DRAW: Step(allows=(Draw, Drop), then=(Phase.PLAY,)),
    Phase.PLAY: Step(allows=(Discard, Declare), then=(Phase.DRAW, Phase.SHOW)),
    Phase.SHOW: Step(allows=(SubmitGroups,), then=()),
}

_ALLOWED = frozenset(action for step in PHASES.values() for action in step.allows)
_LEGAL_KEYS = frozenset(("can_declare", "can_drop", "drop_points", "can_submit"))


@dataclass(frozen=True, slots=True)
class Indian(PlainView):
    """Indian Rummy's engine (`engine.Engine`)."""

    family: Family = Family.INDIAN

    def phases(self, rules: RuleSet) -> PhaseTable:
        return PHASES

    def allowed_actions(self, rules: RuleSet) -> frozenset[type[Action]]:
        return _ALLOWED

    # The rules themselves, called as they are (one call less on every move).
    first_deal = staticmethod(deals.first_deal)
    apply_deal = staticmethod(deals.apply_deal)

    def action_problem(
        self, table: Table, seat: int, action: Action, *, going_out_list: bool = False
    ) -> IllegalMove | None:
        if type(action) not in table.allows:
            return turn.absent_problem(action)
        return turn.action_problem(table, seat, action)

    legal_moves = staticmethod(turn.legal_moves)
    decide = staticmethod(turn.decide)
    next_event = staticmethod(deals.next_event)
    hand_ended_without_out = staticmethod(deals.void_deal)

    def legal_keys(self, rules: RuleSet) -> frozenset[str]:
        return _LEGAL_KEYS

    def wild_now(self, table: Table) -> WildNow | None:
        # The wild rank is cut afresh each deal.
        indian = None if table.hand is None else table.hand.indian
        return WildNow(
            jokers=table.rules.jokers,
            rank=None if indian is None else indian.wild.code,
            indicator=None if indian is None else indian.indicator,
        )

    def seat_status(self, table: Table, seat: int) -> DealStatus | None:
        hand = table.hand
        if hand is not None and hand.indian is not None:
            return hand.indian.statuses[seat]
        last = table.last_hand
        if table.eliminated[seat]:
            return DealStatus.ELIMINATED
        if last is not None and last.statuses is not None:
            return last.statuses[seat]
        return DealStatus.IN if table.seated[seat] else None

    def shows(self, table: Table) -> Sequence[Show] | None:
        hand = table.hand
        return () if hand is None else indian_of(hand).shows


INDIAN = Indian()
