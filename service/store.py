"""Opening the event store: the application on the store the settings name.

On PostgreSQL every process opens the store under the schema's advisory lock
(`service.game.postgres.schema_lock`, which says why).
"""

from __future__ import annotations

from service.bots.seats import BotSeats
from service.config import Settings, Store
from service.game.application import RummyApplication
from service.game.errors import StoreUnavailable
from service.game.postgres import schema_lock

# `StoreUnavailable` lives in `service.game.errors`; `service.cli` imports it from here.
__all__ = ["StoreUnavailable", "open_games", "prepare_store"]


def open_games(settings: Settings) -> RummyApplication:
    """The application on the store `settings` names, safe with other processes."""
    env = settings.event_store_env()
    if settings.store is not Store.POSTGRES:
        return RummyApplication(env=env, bots=BotSeats())
    with schema_lock(settings):
        return RummyApplication(env=env, bots=BotSeats())


def prepare_store(settings: Settings) -> None:
    """Open the store once (creating its tables) and close it, or raise
    `StoreUnavailable` saying where and why, so a bad setting fails at start."""
    try:
        open_games(settings).close()
    except StoreUnavailable:
        raise
    except Exception as error:  # each store raises its own driver's errors
        raise StoreUnavailable(
            f"cannot open the event store ({settings.describe_store()}): "
            f"{type(error).__name__}: {error}".strip()
        ) from error
