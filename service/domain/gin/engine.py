"""Gin Rummy's engine (docs/rules.md "Gin Rummy").

Its phase table (a phase → the actions it allows → the phases the hand may be in
next; after the non-dealer's pass the dealer is offered it, after both passes the
non-dealer draws from the stock):

| phase | allows | next |
| --- | --- | --- |
| `upcard_offer` | draw (the upcard only), pass | `play` (taken); `upcard_offer`, `draw` (passed) |
| `draw` | draw | `play` |
| `play` | discard, knock | `draw` (the other seat's); the hand's end (a knock) |
"""

from __future__ import annotations

from dataclasses import dataclass

from service.domain.actions import Action, Discard, Draw, Knock, Pass
from service.domain.engine import KnockTerms, PhaseTable, PlainView, Step
from service.domain.errors import IllegalMove
from service.domain.gin import hands, turn
from service.domain.rule_values import Family
from service.domain.rules import RuleSet
from service.domain.state import Phase, Table

PHASES: PhaseTable = {
    Phase.UPCARD_OFFER: Step(
        allows=(Draw, Pass), then=(Phase.PLAY, Phase.UPCARD_OFFER, Phase.DRAW)
    ),
    Phase.DRAW: Step(allows=(Draw,), then=(Phase.PLAY,)),
    Phase.PLAY: Step(allows=(Discard, Knock), then=(Phase.DRAW,)),
}

_ALLOWED = frozenset(action for step in PHASES.values() for action in step.allows)
_LEGAL_KEYS = frozenset(("can_pass", "knock", "big_gin", "deadwood"))


@dataclass(frozen=True, slots=True)
class Gin(PlainView):
    """Gin Rummy's engine (`engine.Engine`)."""

    family: Family = Family.GIN

    def phases(self, rules: RuleSet) -> PhaseTable:
        return PHASES

    def allowed_actions(self, rules: RuleSet) -> frozenset[type[Action]]:
        return _ALLOWED

    # The rules themselves, called as they are (one call less on every move).
    first_deal = staticmethod(hands.first_deal)
    apply_deal = staticmethod(hands.apply_deal)

    def action_problem(
        self, table: Table, seat: int, action: Action, *, going_out_list: bool = False
    ) -> IllegalMove | None:
        if type(action) not in table.allows:
            return turn.absent_problem(action)
        return turn.action_problem(table, seat, action)

    legal_moves = staticmethod(turn.legal_moves)
    decide = staticmethod(turn.decide)
    next_event = staticmethod(hands.next_event)
    hand_ended_without_out = staticmethod(hands.hand_ended_without_out)

    def legal_keys(self, rules: RuleSet) -> frozenset[str]:
        return _LEGAL_KEYS

    def knock_terms(self, table: Table) -> KnockTerms | None:
        hand = table.hand
        gin = None if hand is None else hand.gin
        return KnockTerms(
            knock_limit=None if gin is None else gin.knock_limit,
            doubled=None if gin is None else gin.doubled,
            hands_won=tuple(table.hands_won),
        )


GIN = Gin()
