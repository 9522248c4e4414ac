"""The event store's health, as `/ready` asks it: does it answer, does it write.

Apart from the application's verbs (`service.game.application`): the
composition root (service/bootstrap.py) builds one over the application's unit
of work, which remembers whether its last write failed (`UnitOfWork.writing`).
(Named apart from `service/api/health.py`, the route.)
"""

from __future__ import annotations

from functools import partial

from service.game.unit import UnitOfWork
from service.store.probe import probe_write


class StoreHealth:
    """Checks of the store the unit of work `games` writes to."""

    def __init__(self, games: UnitOfWork) -> None:
        self.games = games

    def check_store(self) -> None:
        """Ask the event store something; raises whatever its driver raises."""
        self.games.recorder.max_notification_id()

    def check_writes(self) -> None:
        """If a write failed since the last one that succeeded, try a test write
        (`service.store.probe`): raises whatever the driver raises while the store
        cannot write, and clears the failure once it can."""
        if self.games.write_failure is not None:
            self.games.writing(partial(probe_write, self.games.recorder))
