"""Replaces `Enum.MEMBER` lookups in the rules' hot paths: 65 ns each on 3.11, a constant 5 ns.

Attribute lookups on Enum classes are slow on Python 3.11 (`EnumType.__getattr__`),
and the rules read these members for every move; a module constant is a plain
global. The figure is docs/performance.md's "The variants and the classic engine"
(with it `bench.engine` kept 0.969 of the classic engine before the variants). The
rules import them from here (`from service.domain.enum_members import PLAY_PHASE as
_PLAY_PHASE`), which binds the same global. tests/domain/test_enum_members.py holds
each to the member it copies (`is`), and finds no such copy in another domain
module but beside the enum it copies from (groups.py's `GroupKind`, melds.py's
`MeldKind` and `End`: this module would have to import theirs) and melds.py's
`Aces.LOW` (state.py, imported here, imports melds.py).
"""

from __future__ import annotations

from service.domain.melds import MeldKind
from service.domain.rule_values import GoingOut, SwappedWild
from service.domain.state import DealStatus, Phase, Status

DRAW_PHASE = Phase.DRAW
SECOND_DRAW_PHASE = Phase.SECOND_DRAW
PLAY_PHASE = Phase.PLAY
SHOW_PHASE = Phase.SHOW
UPCARD_OFFER_PHASE = Phase.UPCARD_OFFER
DEAL_IN = DealStatus.IN
PLAYING = Status.PLAYING
"""A seat dealt into an Indian hand (`DealStatus.IN`)."""
GOING_OUT_DISCARD = GoingOut.DISCARD
MELD_NOW = SwappedWild.MELD_NOW
SET_MELD = MeldKind.SET
RUN_MELD = MeldKind.RUN
