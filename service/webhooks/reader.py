"""The sender's reader: the feed's items (service/projections/feed_items.py, the
items of `GET /feed`) after a position, each encoded as the body of one message,
so a webhook carries exactly what the feed shows."""

from __future__ import annotations

import msgspec

from service.projections.chain_heads import GameEvents
from service.projections.feed_items import FeedSource, Setups, feed_page
from service.webhooks.sender import Batch, FeedReader, Message

SETUPS_KEPT = 100_000
"""Games whose setup the sender's reader keeps (a few hundred bytes each), so a page
of events of many games does not read each game's first event again."""


def feed_reader(feed: FeedSource, games: GameEvents) -> FeedReader:
    """The sender's reader: `GET /feed`'s items after a position, as messages (each
    game's setup read from `games`)."""
    encoder = msgspec.json.Encoder()
    setups = Setups(games)

    def read(after: int, limit: int) -> Batch:
        if len(setups.known) > SETUPS_KEPT:
            setups.known.clear()
        # No wait for events held back (PostgreSQL): the sender reads again at once.
        page = feed_page(feed, setups, after, limit, settle=False)
        return Batch(
            messages=[
                Message(
                    position=item.position,
                    game_id=item.game_id,
                    version=item.event.version,
                    event_type=str(item.event.__struct_config__.tag),
                    body=encoder.encode(item),
                )
                for item in page.events
            ],
            next_after=page.next_after,
        )

    return read
