"""500 Rum's engine (docs/rules.md "500 Rum").

Its phase table (a phase → the actions it allows → the phases the hand may be in
next):

| phase | allows | next |
| --- | --- | --- |
| `draw` | draw (the stock's top, or the pile's top `count`) | `play` |
| `play` | meld, lay off, discard | `draw` (the next seat's) |

The melds, lay-offs and discards are the Western family's (`western.turn`); the
spread pile, the called card (`turn.py`, `pile.py`) and the meld credit
(`credit.py`, `hands.py`) are its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.domain.actions import Action, Discard, Draw, LayOff, Meld
from service.domain.engine import PhaseTable, PlainView, Step
from service.domain.errors import IllegalMove
from service.domain.rule_values import Family
from service.domain.rules import RuleSet
from service.domain.rummy500 import credit, hands, turn
from service.domain.state import Phase, Table
from service.domain.western import turn as western_turn

PHASES: PhaseTable = {
    Phase.DRAW: Step(allows=(Draw,), then=(Phase.PLAY,)),
    Phase.PLAY: Step(allows=(Meld, LayOff, Discard), then=(Phase.DRAW,)),
}

_ALLOWED = frozenset(action for step in PHASES.values() for action in step.allows)
_LEGAL_KEYS = frozenset(("pile_counts",))


@dataclass(frozen=True, slots=True)
class Rummy500(PlainView):
    """500 Rum's engine (`engine.Engine`)."""

    family: Family = Family.RUMMY500

    def phases(self, rules: RuleSet) -> PhaseTable:
        return PHASES

    def allowed_actions(self, rules: RuleSet) -> frozenset[type[Action]]:
        return _ALLOWED

    first_deal = staticmethod(hands.first_deal)
    apply_deal = staticmethod(hands.apply_deal)

    def action_problem(
        self, table: Table, seat: int, action: Action, *, going_out_list: bool = False
    ) -> IllegalMove | None:
        if type(action) not in _ALLOWED:
            return western_turn.absent_problem(table, seat, action, going_out_list)
        return turn.action_problem(table, seat, action, going_out_list=going_out_list)

    legal_moves = staticmethod(turn.legal_moves)
    decide = staticmethod(turn.decide)
    next_event = staticmethod(hands.next_event)
    hand_ended_without_out = staticmethod(hands.hand_ended_without_out)

    def legal_keys(self, rules: RuleSet) -> frozenset[str]:
        return _LEGAL_KEYS

    melded_points = staticmethod(credit.melded_now)
    called_card = staticmethod(credit.called_card)


RUMMY500 = Rummy500()
