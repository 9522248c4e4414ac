"""Matchmaking's use cases: a ticket opened, read by its holder, cancelled; and the
`match_found` items the webhooks send.

A ticket is opened for a player a platform vouched for (the API verified the
assertion: here the player is its pseudonym). It waits in its **pool**: the
variant, the rules in canonical form (`RuleSet.to_dict`, every option of the
variant named, as JSON with sorted keys: two bodies that ask for the same
rules, one naming a default and one leaving it out, land in one pool), the
table size and `rated`; its SHA-256 is the pool's name. The player's rating
for that variant (and Indian format) is read when the ticket is opened (1500
for a player not yet rated) and kept with it.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from service.domain.rules import RuleSet
from service.game.tokens import hash_matches
from service.matchmaking.errors import PlayerAlreadyQueued, TicketForbidden, TicketNotFound
from service.matchmaking.sealing import (
    hash_ticket_token,
    new_ticket_token,
    open_sealed,
    seal_key,
)
from service.store.match_tickets import TicketRow, TicketTable

DEFAULT_RATING = 1500.0
"""The rating of a player with no rated game in the variant (Glicko-2's start)."""
DEFAULT_MAX_WAIT = 300
DEFAULT_BOT = "basic"

RatingOf = Callable[[str, RuleSet], float | None]
"""A player's (pseudonym's) rating for the variant and format of the rules, or None."""
Shown = Callable[[Iterable[str]], Mapping[str, tuple[str | None, str]]]
"""For each pseudonym, its `platform:player` (None once erased) and its name."""


@dataclass(frozen=True, slots=True)
class Wanted:
    """What a ticket asks for."""

    pseudonym: str
    rules: RuleSet
    seats: int
    rated: bool = True
    max_wait_seconds: float = DEFAULT_MAX_WAIT
    bots_after_seconds: float | None = None
    bot: str = DEFAULT_BOT


@dataclass(frozen=True, slots=True)
class Opened:
    ticket_id: str
    token: str
    """The ticket's bearer token, shown once: it reads the ticket and opens its seat
    token (service/matchmaking/sealing.py)."""


@dataclass(frozen=True, slots=True)
class Ticket:
    """A ticket as its holder reads it."""

    ticket_id: str
    status: str
    variant: str
    seats: int
    rated: bool
    game_id: str | None = None
    seat: int | None = None
    token: str | None = None
    """The seat's token, once matched."""


def canonical_rules(rules: RuleSet) -> str:
    return json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"))


def pool_of(variant: str, rules_json: str, seats: int, rated: bool) -> str:
    """The name of the tickets that may play together."""
    key = json.dumps([variant, rules_json, seats, rated], separators=(",", ":"))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class Matchmaking:
    """The tickets of one service, in `table`."""

    def __init__(
        self,
        table: TicketTable,
        rating_of: RatingOf,
        shown: Shown,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.table = table
        self.rating_of = rating_of
        self.shown = shown
        self.now = now

    def open(self, wanted: Wanted) -> Opened:
        """A new waiting ticket; 409 `player_already_queued` if the player waits (or is
        being matched) for the variant already."""
        now = self.now()
        token = new_ticket_token()
        rules_json = canonical_rules(wanted.rules)
        variant = wanted.rules.variant.value
        rating = self.rating_of(wanted.pseudonym, wanted.rules)
        row = TicketRow(
            ticket_id=uuid.uuid4().hex,
            token_hash=hash_ticket_token(token),
            seal_key=seal_key(token),
            pseudonym=wanted.pseudonym,
            variant=variant,
            pool=pool_of(variant, rules_json, wanted.seats, wanted.rated),
            rules=rules_json,
            seats=wanted.seats,
            rated=wanted.rated,
            rating=DEFAULT_RATING if rating is None else rating,
            created=now,
            expires=now + wanted.max_wait_seconds,
            bots_at=None if wanted.bots_after_seconds is None else now + wanted.bots_after_seconds,
            bot=wanted.bot,
        )
        if not self.table.insert(row):
            raise PlayerAlreadyQueued(
                f"The player already waits for a game of {variant}: cancel that ticket "
                "(DELETE /matchmaking/{ticket_id}) or wait for it."
            )
        return Opened(row.ticket_id, token)

    def read(self, ticket_id: str, token: str) -> Ticket:
        """The ticket as its holder sees it, with its seat token once matched."""
        row = self._held(ticket_id, token)
        if row.status == "waiting" and row.expires <= self.now():
            self.table.expire(self.now())
            row = self._held(ticket_id, token)
        seat_token = None
        if row.status == "matched" and row.sealed is not None:
            seat_token = open_sealed(token, row.sealed)
        return _ticket(row, seat_token)

    def cancel(self, ticket_id: str, token: str) -> Ticket:
        """Cancel a waiting ticket; one matched (or being matched), expired or cancelled
        already is answered as it is."""
        self._held(ticket_id, token)
        row = self.table.cancel(ticket_id)
        if row is None:
            raise TicketNotFound(f"No ticket {ticket_id}.")
        return _ticket(row, None)

    def _held(self, ticket_id: str, token: str) -> TicketRow:
        row = self.table.get(ticket_id)
        if row is None:
            raise TicketNotFound(f"No ticket {ticket_id}.")
        if not hash_matches(hash_ticket_token(token), row.token_hash):
            raise TicketForbidden("That token is not this ticket's: each ticket has its own.")
        return row

    def found(self, game_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The `match_found` item of each of `game_ids` a match made (the webhooks send
        it just before the game's `game_created`; service/webhooks/reader.py)."""
        items: dict[str, dict[str, Any]] = {}
        for game_id in game_ids:
            rows = self.table.of_game(game_id)
            if not rows:
                continue
            shown = self.shown(row.pseudonym for row in rows)
            items[game_id] = {
                "type": "match_found",
                "game_id": game_id,
                "variant": rows[0].variant,
                "ticket_ids": [row.ticket_id for row in rows],
                "players": [
                    {
                        "seat": row.seat,
                        "player": shown[row.pseudonym][0],
                        "name": shown[row.pseudonym][1],
                    }
                    for row in rows
                ],
            }
        return items


def _ticket(row: TicketRow, seat_token: str | None) -> Ticket:
    matched = row.status == "matched"
    return Ticket(
        ticket_id=row.ticket_id,
        status=row.status if row.status != "matching" else "waiting",
        variant=row.variant,
        seats=row.seats,
        rated=row.rated,
        game_id=row.game_id if matched else None,
        seat=row.seat if matched else None,
        token=seat_token,
    )
