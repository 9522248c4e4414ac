"""A time source the test sets by hand, for the application's `now=` (the turn
clocks and the time bank read it): `now` is what it answers until the test moves it."""

from __future__ import annotations

from datetime import UTC, datetime


class SetTime:
    """The time now, as the test set it (UTC)."""

    def __init__(self, start: datetime = datetime(2000, 1, 1, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now
