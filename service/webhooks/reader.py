"""The sender's reader: the feed's items (service/projections/feed_items.py, the
items of `GET /feed`) after a position, each encoded as the body of one message,
so a webhook carries exactly what the feed shows."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from service.projections.chain_heads import GameEvents
from service.projections.feed_items import FeedSource, Setups, feed_page
from service.webhooks.sender import Batch, FeedReader, Message

SETUPS_KEPT = 100_000
"""Games whose setup the sender's reader keeps (a few hundred bytes each), so a page
of events of many games does not read each game's first event again."""


MatchesFound = Callable[[Sequence[str]], Mapping[str, Mapping[str, Any]]]
"""The `match_found` item of each of the games named that a match made
(service/matchmaking/tickets.py, `Matchmaking.found`)."""


def feed_reader(
    feed: FeedSource, games: GameEvents, matches: MatchesFound | None = None
) -> FeedReader:
    """The sender's reader: `GET /feed`'s items after a position, as messages (each
    game's setup read from `games`).

    With `matches`, a game a match made is preceded by its `match_found` item (not a
    feed event: it has no position of its own). It goes just before the game's
    `game_created`, at the position before it (so a delivered `match_found` moves
    the endpoint to no event, and a failed `game_created` sends it again), with the
    `webhook-id` `<game_id>:0` (a game's events start at version 1)."""
    encoder = msgspec.json.Encoder()
    setups = Setups(games)

    def read(after: int, limit: int) -> Batch:
        if len(setups.known) > SETUPS_KEPT:
            setups.known.clear()
        # No wait for events held back (PostgreSQL): the sender reads again at once.
        page = feed_page(feed, setups, after, limit, settle=False)
        messages = [
            Message(
                position=item.position,
                game_id=item.game_id,
                version=item.event.version,
                event_type=str(item.event.__struct_config__.tag),
                body=encoder.encode(item),
            )
            for item in page.events
        ]
        if matches is not None:
            messages = _with_matches(messages, matches, encoder)
        return Batch(messages=messages, next_after=page.next_after)

    return read


def _with_matches(
    messages: list[Message], matches: MatchesFound, encoder: msgspec.json.Encoder
) -> list[Message]:
    created = [m.game_id for m in messages if m.event_type == "game_created"]
    found = matches(created) if created else {}
    if not found:
        return messages
    merged: list[Message] = []
    for message in messages:
        item = found.get(message.game_id) if message.event_type == "game_created" else None
        if item is not None:
            merged.append(
                Message(
                    position=message.position - 1,
                    game_id=message.game_id,
                    version=0,
                    event_type="match_found",
                    body=encoder.encode(item),
                )
            )
        merged.append(message)
    return merged
