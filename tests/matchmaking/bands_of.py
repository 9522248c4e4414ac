"""A stored ticket as the band's arithmetic sees it (service/matchmaking/bands.py)."""

from __future__ import annotations

from service.matchmaking.bands import Waiting
from service.store.match_tickets import TicketRow


def waiting_of(row: TicketRow) -> Waiting:
    return Waiting(row.ticket_id, row.rating, row.created, row.bots_at, row.bot)
