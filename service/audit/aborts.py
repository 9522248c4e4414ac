"""The verifier's side of an abort by the admin or for idleness: it comes from
outside the rules, at any time before the game is over, with a reason
(docs/rules.md "Aborted games"). Aborts at a cap are the rules' own
(`flow.next_event`), checked like any event the rules make by themselves."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.audit.mismatch import Mismatch
from service.domain import events as domain
from service.domain.state import ABORT_REASON_LENGTH, AbortedBy, Table


def from_outside(data: Mapping[str, Any]) -> bool:
    """Whether a logged `game_aborted` says it came from outside the rules."""
    return data.get("by") in (AbortedBy.ADMIN, AbortedBy.IDLE)


def aborted(table: Table, data: Mapping[str, Any]) -> domain.GameAborted:
    """An abort by the admin or for idleness: any time before the game is over, with
    a reason (docs/rules.md "Aborted games")."""
    if table.over:
        raise Mismatch("game_aborted cannot happen here: the game is already over")
    reason = data.get("reason")
    if not isinstance(reason, str) or not 1 <= len(reason) <= ABORT_REASON_LENGTH:
        raise Mismatch(
            f"an abort by {data['by']} gives a reason of 1 to {ABORT_REASON_LENGTH} "
            f"characters, not {reason!r}"
        )
    return domain.GameAborted(by=AbortedBy(data["by"]), reason=reason)
