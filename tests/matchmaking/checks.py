"""What every matchmaking test of many tickets checks at the end: each ticket matched
once (or cancelled, or expired), each match's game the one game made for it, no
player seated twice, every table within its band."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from uuid import UUID

from eventsourcing.utils import get_topic

from service.game.application import RummyApplication
from service.game.event_records import GameCreated
from service.store.match_tickets import TicketRow
from service.store.postgres import read_now

SETTLED = {"matched", "cancelled", "expired"}


def games_created(games: RummyApplication) -> list[str]:
    """The id of every game in the store, read from the feed."""
    recorder = games.recorder
    found: list[str] = []
    after = 0
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        page = read_now(recorder, after, 500, (get_topic(GameCreated),))
        if not page:
            break
        found += [str(note.originator_id) for note in page]
        after = page[-1].id
    return found


def check_matches(games: RummyApplication, rows: Sequence[TicketRow]) -> dict[str, int]:
    """Assert what matchmaking promises of `rows` (every ticket opened) and the games
    in the store; the tickets counted by status."""
    statuses = Counter(row.status for row in rows)
    assert set(statuses) <= SETTLED | {"waiting"}, statuses
    matched = [row for row in rows if row.status == "matched"]
    by_game: dict[str, list[TicketRow]] = {}
    for row in matched:
        assert row.game_id is not None
        assert row.sealed is not None
        assert row.match_key is None, "the creation key is forgotten once finished"
        by_game.setdefault(row.game_id, []).append(row)
    created = Counter(games_created(games))
    assert all(count == 1 for count in created.values())
    # Exactly the matches' games were made: none twice, none orphaned by a crash.
    assert set(by_game) == set(created), (len(by_game), len(created))
    seated: Counter[str] = Counter()
    for game_id, tickets in by_game.items():
        assert len({row.match_id for row in tickets}) == 1
        state = games.state(UUID(game_id))
        players = [seat.pseudonym for seat in state.seats if seat is not None]
        for row in tickets:
            entry = state.seats[row.seat or 0]
            assert entry is not None
            assert entry.pseudonym == row.pseudonym
        humans = [player for player in players if player is not None]
        assert len(humans) == len(tickets)
        seated.update(humans)
    assert all(count == 1 for count in seated.values()), "no player seated twice"
    return dict(statuses)
