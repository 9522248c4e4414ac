"""Replaces eventsourcing's `Application.save` for one `Game`: 4% of an action POST's CPU.

The figure (cProfile) and the measure are docs/performance.md's "One `Game` saved
without the library's Protocol checks".

The library's `save` collects what it saves through `ProcessingEvent.collect_events`,
which asks two runtime-checkable Protocols of every object (an event? can it collect
events?): `isinstance` calls that walk the Protocols' members. A command saves one
`Game`, which is no event and collects its own: this does what the library's `save`
does for it (collect its events, record them, take snapshots, notify) without asking.
Any other call goes to the library's `save`. tests/game/test_fast_save.py holds it to
the library's own path: the same stored rows and notifications, the same hooks and
observers told, the same error when the version is stored already.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.application import Application, ProcessingEvent
from eventsourcing.domain import DomainEventProtocol, MutableOrImmutableAggregate
from eventsourcing.persistence import Recording

from service.game.aggregate import Game


class SavesGamesDirectly(Application[UUID]):
    """The library's application, saving one `Game` without its Protocol checks."""

    def save(
        self,
        *objs: MutableOrImmutableAggregate[UUID] | DomainEventProtocol[UUID] | None,
        **kwargs: Any,
    ) -> list[Recording[UUID]]:
        """The library's `save` (`Application.save`); for one `Game` its steps, without
        asking the Protocols."""
        if len(objs) != 1 or kwargs or not isinstance(objs[0], Game):
            return super().save(*objs, **kwargs)
        game = objs[0]
        processing_event: ProcessingEvent[UUID] = ProcessingEvent()
        processing_event.events.extend(game.collect_events())
        processing_event.aggregates[game.id] = game
        recordings = self._record(processing_event)
        self._take_snapshots(processing_event)
        self._notify(recordings)
        self.notify(processing_event.events)
        return recordings
