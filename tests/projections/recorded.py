"""Stored events as the projections read them, written out in their stored form.

The projections read a stored event through `StoredEvent`
(service/projections/event_views.py): its version, time, seat, type and `data()`,
the plain fields the store holds (card codes, lists, strings). `Recorded` is
one given by hand, so these tests describe a game event by event without the
game room; test_recorded.py holds each kind's fields to the committed
stored-event fixture (tests/game/fixtures), so they are the stored form.

`ann_and_bob()` is one short game of one deal, as the domain plays it
(test_recorded.py replays it): Ann (seat 0, named at creation) deals from an
explicit deck; Bob joins; Bob draws 8D, lays 5D 6D 7D 8D and discards 2C; Ann
draws KS, lays AS 2S 3S 4S, lays 9D off on Bob's run and goes out with
KD KH KS: rummy, twice Bob's 28 points, and the game.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from service.domain import shuffle
from service.domain.cards import card_codes
from service.domain.rules import RuleSet
from tests.domain.tables import deck_for

ANN, BOB = 0, 1
HANDS = ["AS 2S 3S 4S 9D KH KD", "QC 8H 5D 6D 7D JH 2C"]
UPCARD, STOCK = "10H", "8D KS 3C"
DECK = card_codes(deck_for(HANDS, UPCARD, STOCK, dealer=ANN))
RULES = RuleSet.from_dict({"hand_size": 7, "deals": 1})
SEED = "the seed of ann and bob"
ANN_HASH, BOB_HASH = "a" * 64, "b" * 64
"""Token hashes: stored, never shown."""
STARTED = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Recorded:
    """A stored event (`StoredEvent`) given by hand."""

    originator_version: int
    event_type: str
    fields: Mapping[str, Any]
    seat: int | None = None
    timestamp: datetime = STARTED
    derived_fields: tuple[str, ...] = field(default=())

    def data(self) -> dict[str, Any]:
        return copy.deepcopy(dict(self.fields))


class Log:
    """A game's events, each added as the table describes it."""

    def __init__(self) -> None:
        self.events: list[Recorded] = []

    def add(self, event_type: str, seat: int | None = None, **fields: Any) -> Recorded:
        version = len(self.events) + 1
        at = STARTED + timedelta(seconds=version)
        self.events.append(Recorded(version, event_type, fields, seat, at))
        return self.events[-1]


def created(log: Log, *, seats: list[dict[str, Any] | None], decks: list[list[str]]) -> None:
    log.add(
        "game_created",
        rules=RULES.to_dict(),
        seats=seats,
        seed=SEED,
        seed_commitment=shuffle.commitment(SEED),
        decks=decks,
        dealer=ANN,
        deal="explicit" if decks else "commit_reveal",
    )


def ann_and_bob(*, finished: bool = True) -> list[Recorded]:
    """The whole game (or up to Bob's discard if not `finished`)."""
    log = Log()
    ann = {"name": "Ann", "token_hash": ANN_HASH, "client_seed": "", "bot": None}
    created(log, seats=[ann, None], decks=[DECK])
    log.add("player_joined", BOB, name="Bob", token_hash=BOB_HASH, client_seed="bob's", bot=None)
    log.add("hand_dealt", hand_number=1, dealer=ANN, deck=DECK)
    log.add("card_drawn", BOB, source="stock", card="8D")
    log.add("meld_laid", BOB, meld_id="h1-m1", kind="run", cards=["5D", "6D", "7D", "8D"])
    log.add("card_discarded", BOB, card="2C")
    if not finished:
        return log.events
    log.add("card_drawn", ANN, source="stock", card="KS")
    log.add("meld_laid", ANN, meld_id="h1-m2", kind="run", cards=["AS", "2S", "3S", "4S"])
    log.add("card_laid_off", ANN, meld_id="h1-m1", card="9D", end="high")
    log.add("meld_laid", ANN, meld_id="h1-m3", kind="set", cards=["KD", "KH", "KS"])
    log.add(
        "hand_ended",
        hand_number=1,
        how="rummy",
        out_seat=ANN,
        remaining=[[], ["QC", "8H", "JH"]],  # as Bob held them
        values=[0, 28],
        points=[56, 0],
        totals=[56, 0],
    )
    log.add("game_finished", winner=ANN, totals=[56, 0])
    return log.events


def recycled(seat: int, stock: list[str], shuffled: bool) -> Recorded:
    """`seat` found the stock empty and turned the discard pile but its top over
    (`stock`: the new stock, top first)."""
    return Recorded(40, "stock_recycled", {"stock": stock, "shuffled": shuffled}, seat)
