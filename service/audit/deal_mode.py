"""Checking an export's `deal`: how the game said its deals are decided
(docs/fairness.md) must agree with its log.

A game records `deal` in its creation event. A game stored before that was
recorded has none in its log (its chain is as it always was); its `deal` is
then derived as the service derives it, from its decks and, once revealed,
its seed. A `deal` cannot hide a chosen deal: deck orders given at creation,
or a revealed seed of another shape than every seed the server chooses,
make it `explicit`. (A chosen seed of the server's shape cannot be told
from the server's by the log alone: there the recorded `deal` is the word.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.domain.fairness import DealMode, apparent_deal


def contradiction(created: Mapping[str, Any], seed: str | None) -> str | None:
    """What is wrong with the `deal` the creation event recorded, or None."""
    recorded = created.get("deal")
    if recorded is None:
        return None
    if recorded not in {mode.value for mode in DealMode}:
        return f"its deal {recorded!r} is neither commit_reveal nor explicit"
    if recorded == DealMode.COMMIT_REVEAL and _chosen(created, seed) is DealMode.EXPLICIT:
        how = "deck orders given at creation" if created.get("decks") else "a chosen seed"
        return f"it says deal commit_reveal, but the game dealt from {how}: the deal was explicit"
    return None


def misstated(stated: Any, created: Mapping[str, Any], seed: str | None) -> str | None:
    """What is wrong with the `deal` an export states at its top, or None. (A game
    stored before `deal` was recorded, without decks, its seed still secret, may
    state either: the log cannot tell yet.)"""
    recorded = created.get("deal")
    if stated not in {mode.value for mode in DealMode}:
        return f"it says {stated!r}, which is neither commit_reveal nor explicit"
    if isinstance(recorded, str):
        wanted: str | None = recorded
    else:
        chosen = _chosen(created, seed)
        wanted = None if chosen is None else chosen.value
    if wanted is not None and stated != wanted:
        return f"it says {stated!r}, but the log says {wanted!r}"
    return None


def _chosen(created: Mapping[str, Any], seed: str | None) -> DealMode | None:
    """What the log shows of the deal; None while the seed is secret and no decks
    were given."""
    decks = len(created.get("decks") or ())
    if seed is None:
        return DealMode.EXPLICIT if decks else None
    return apparent_deal(seed, decks)
