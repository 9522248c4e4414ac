"""Old topics of stored classes, so games stored before a class moved still load.

Every stored event names the class it was made from by its topic,
`module:Class` (`service.game.events:CardDrawn`), and each game's creation
event also names the aggregate class (`service.game.aggregate:Game`). Those
names are in the store for ever. (The stored events' module was renamed
`service.game.event_records`; its classes keep their topics themselves:
`event_records.TOPIC_MODULE`.) When one of these classes is moved or
renamed, add a line to `MOVED`, old topic → the class as it is now, e.g.
after moving `CardDrawn` to a module `service.game.moves`::

    "service.game.events:CardDrawn": moves.CardDrawn,

and keep the line for as long as any store may hold the old name. The
application module calls `register_moved_topics()` when it is imported, so
the aliases are in place before any game is read.
tests/game/test_event_schema.py rebuilds a game stored by earlier code
(tests/game/fixtures/) and fails when an old topic no longer resolves.
"""

from __future__ import annotations

from eventsourcing.utils import register_topic

MOVED: dict[str, type] = {}
"""Old topic → the class it now names. None yet: the stored events keep their
topics themselves (`TOPIC`)."""


def register_moved_topics() -> None:
    """Make every old topic resolve to its class (safe to call more than once)."""
    for topic, cls in MOVED.items():
        register_topic(topic, cls)
