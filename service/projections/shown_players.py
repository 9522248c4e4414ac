"""Who a vouched-for seat is shown as: the lookup the views and the audit export ask.

The events keep a player's pseudonym only (service/players/pseudonyms.py); the
caller of a projection looks pseudonyms up beside the events and hands the
answer in (`PlayerLookup`). The projections never read that table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol


class ShownPlayer(Protocol):
    """What a view shows of a vouched-for seat's player (service/players/identities.py)."""

    @property
    def player(self) -> str | None:
        """`platform:player`, or None once erased."""

    @property
    def name(self) -> str: ...


PlayerLookup = Callable[[Sequence[str]], Mapping[str, ShownPlayer]]
"""What each of some pseudonyms stands for now: the caller of the views looks them up
beside the events (the projections never read that table)."""


def nobody(wanted: Sequence[str]) -> Mapping[str, ShownPlayer]:
    """The lookup of a caller without the players' table: every vouched-for seat then
    shows no player and its stored name (`""`)."""
    return {}
