"""The actions a player view offers, as the bodies a client POSTs.

A view's `legal` (docs/api.md) lists the draws, melds, lay-offs and discards the
seat may make now; clients that play at random over HTTP (the fault and bot
tests, the benches) choose among these bodies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def offered_actions(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every action body the view's `legal` offers (none if it has no `legal`)."""
    legal = view.get("legal") or {}
    actions: list[dict[str, Any]] = [
        {"type": "draw", "source": source} for source in legal.get("draw", [])
    ]
    actions.extend({"type": "meld", "cards": cards} for cards in legal.get("melds", []))
    actions.extend(
        {"type": "lay_off", "card": option["card"], "meld_id": option["meld_id"]}
        for option in legal.get("lay_offs", [])
    )
    actions.extend({"type": "discard", "card": card} for card in legal.get("discard", []))
    return actions
