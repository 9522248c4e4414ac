"""The Western family's engine: classic, wild, Boathouse, Knock and Wrotham, each a
combination of features (`presets.Features`) of one game.

Its phase table (a phase → the actions it allows → the phases the hand may be in
next), the whole family's; `phases` drops what a game's features lack:

| phase | allows | next |
| --- | --- | --- |
| `draw` | draw | `play`; `second_draw` (Boathouse, on taking the top discard) |
| `second_draw` | draw (Boathouse only) | `play` |
| `play` | meld, lay off, swap (wilds), knock (Knock Rummy), discard | `draw` (next seat) |

Knock Rummy melds only in the count: its `play` allows no meld, lay-off or swap.
A starter deal (Wrotham) opens its hand in `play`.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.domain.actions import Action, Discard, Draw, Knock, LayOff, Meld, Swap
from service.domain.engine import PhaseTable, PlainView, Step, WildNow
from service.domain.errors import IllegalMove
from service.domain.presets import Features
from service.domain.rule_values import Family
from service.domain.rules import RuleSet
from service.domain.state import Phase, Table
from service.domain.western import hands, turn

PHASES: PhaseTable = {
    Phase.DRAW: Step(allows=(Draw,), then=(Phase.PLAY, Phase.SECOND_DRAW)),
    Phase.SECOND_DRAW: Step(allows=(Draw,), then=(Phase.PLAY,)),
    Phase.PLAY: Step(allows=(Meld, LayOff, Swap, Knock, Discard), then=(Phase.DRAW,)),
}


def phases_of(features: Features, wilds: bool) -> PhaseTable:
    """`PHASES` for a game with these features (and wilds, or not)."""
    table: dict[Phase, Step] = {}
    for phase, step in PHASES.items():
        if phase is Phase.SECOND_DRAW and not features.second_draw:
            continue
        table[phase] = Step(
            allows=tuple(action for action in step.allows if _has(action, features, wilds)),
            then=tuple(
                each for each in step.then if each is not Phase.SECOND_DRAW or features.second_draw
            ),
        )
    return table


def _has(action: type[Action], features: Features, wilds: bool) -> bool:
    if action is Knock:
        return features.knocking
    if action is Meld or action is LayOff:
        return not features.knocking
    if action is Swap:
        return wilds and not features.knocking
    return True


_TABLES: dict[tuple[str, bool], tuple[PhaseTable, frozenset[type[Action]]]] = {}


def _table(rules: RuleSet) -> tuple[PhaseTable, frozenset[type[Action]]]:
    """The game's phase table and every action it allows, made once per variant (whose
    preset gives its features) with wilds or without: asked on every move, so the key
    is cheap to hash, as a `Features` is not."""
    key = (rules.variant, rules.has_wilds)
    found = _TABLES.get(key)
    if found is None:
        phases = phases_of(rules.features, rules.has_wilds)
        found = (phases, frozenset(action for step in phases.values() for action in step.allows))
        _TABLES[key] = found
    return found


@dataclass(frozen=True, slots=True)
class Western(PlainView):
    """The engine of every Western variant (`engine.Engine`)."""

    family: Family = Family.WESTERN

    def phases(self, rules: RuleSet) -> PhaseTable:
        return _table(rules)[0]

    def allowed_actions(self, rules: RuleSet) -> frozenset[type[Action]]:
        return _table(rules)[1]

    # The rules themselves, called as they are (one call less on every move).
    first_deal = staticmethod(hands.first_deal)
    apply_deal = staticmethod(hands.apply_deal)

    def action_problem(
        self, table: Table, seat: int, action: Action, *, going_out_list: bool = False
    ) -> IllegalMove | None:
        if type(action) not in table.allows:
            return turn.absent_problem(table, seat, action, going_out_list)
        return turn.action_problem(table, seat, action, going_out_list=going_out_list)

    legal_moves = staticmethod(turn.legal_moves)
    decide = staticmethod(turn.decide)
    next_event = staticmethod(hands.next_event)
    hand_ended_without_out = staticmethod(hands.hand_ended_without_out)

    def legal_keys(self, rules: RuleSet) -> frozenset[str]:
        features = rules.features
        keys = set()
        if rules.has_wilds:
            keys.add("meld_readings")
        if features.knocking:
            keys.add("knock")
        if features.concealed_from == 1:
            # Every turn concealed: `can_go_out` is always there (false off turn).
            keys.add("can_go_out")
        return frozenset(keys)

    def wild_now(self, table: Table) -> WildNow | None:
        rules = table.rules
        return WildNow(jokers=rules.jokers, rank=rules.wild_rank) if rules.has_wilds else None


WESTERN = Western()
