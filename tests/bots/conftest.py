"""The searching levels' wall-clock guard out of reach in every bot test.

The guard (`Budget.cap_seconds`) only protects a loaded server: when it is
reached a search plays its best so far, and its move then depends on the
machine's speed. Tests here compare moves (the same view and seed, the hidden
cards dealt again), so on a loaded CI machine the guard would make them flaky;
the budgets in samples stay as they are.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from service.bots import search
from service.bots.search import budget


@pytest.fixture(autouse=True)
def _search_guard_out_of_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "STRONG", replace(budget.STRONG, cap_seconds=600.0))
    monkeypatch.setattr(search, "EXPERT", replace(budget.EXPERT, cap_seconds=600.0))
