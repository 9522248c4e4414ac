"""The audit export: a game's complete event log, hash-chained, with everything
needed to check it without trusting the service (docs/audit.md).

Every event is exported with all its stored data except token hashes (only
the hash of a token is stored, and not even that leaves the service) and the
idempotency keys of the requests behind it (transport, not play). A field
that a game stored by earlier code did not hold (its `deal`) is derived when
read but never exported in its events, so their hash chain stays the one
they always had; the top-level fields show it. The seed
is not part of any event: it stands at the top of the export, and only once
the game is finished, so the chain of a game never changes when the seed is
revealed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from service.audit.chain import ALGORITHM, FORMAT, genesis, link
from service.domain.fairness import DealMode
from service.domain.state import Status
from service.projections.events import StoredEvent

_SECRET_FIELDS = frozenset({"token_hash"})


class AuditEvent(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One stored event, unredacted, with its place in the hash chain."""

    version: int
    type: str
    at: str
    """When it was recorded (RFC 3339, UTC)."""
    seat: int | None = None
    """The seat that caused it; absent for the system."""
    data: dict[str, Any]
    """Everything the event stored, but token hashes."""
    previous_hash: str
    hash: str
    """SHA-256 (hex) of the canonical form of this object without `hash` (docs/audit.md)."""


class AuditPlayer(msgspec.Struct, kw_only=True):
    seat: int
    name: str | None
    """None while the seat is open."""
    bot: str | None
    client_seed: str
    """The entropy the player added to the shuffle; "" if none."""


class AuditHand(msgspec.Struct, kw_only=True):
    hand_number: int
    dealer: int
    deck: list[str]
    """The deck order the hand was dealt from; index 0 was dealt first."""
    from_seed: bool
    """False for a deck the creator gave explicitly: no seed derives it."""


class AuditChain(msgspec.Struct, kw_only=True):
    algorithm: str
    genesis: str
    """The `previous_hash` of the first event."""
    head: str
    """The `hash` of the last event: the fingerprint of the whole log."""
    length: int


class AuditExport(msgspec.Struct, kw_only=True):
    """Everything needed to check a game independently: `rummy verify` reads this."""

    format: str
    game_id: str
    version: int
    status: Status
    rules: dict[str, Any]
    players: list[AuditPlayer]
    seed_commitment: str
    """SHA-256 (hex) of the seed, shown from the game's creation on."""
    seed: str | None
    """The shuffle seed: revealed once the game is finished, never before."""
    deal: DealMode
    """`commit_reveal` (the seed is the server's, committed to) or `explicit` (a seed
    or decks chosen at creation), as the creation recorded it (docs/fairness.md)."""
    client_seeds: list[str]
    """One per seat, in seat order, as docs/fairness.md takes them."""
    dealer_named: bool
    """True if the creator named the first dealer; otherwise the seed drew it."""
    explicit_decks: int
    """How many hands, from the first, were dealt from decks the creator gave."""
    hands: list[AuditHand]
    winner: int | None
    totals: list[int]
    events: list[AuditEvent]
    chain: AuditChain


def audit_export(game_id: str, events: Sequence[StoredEvent]) -> AuditExport:
    """The export of a game from all its stored events, oldest first."""
    if not events or events[0].event_type != "game_created":
        raise ValueError("an audit export starts from the game's creation")
    created = events[0].data()
    seats: list[dict[str, Any] | None] = [
        None if seat is None else dict(seat) for seat in created["seats"]
    ]
    exported: list[dict[str, Any]] = []
    previous = genesis(game_id)
    hands: list[AuditHand] = []
    totals = [0] * len(seats)
    winner: int | None = None
    for event in events:
        data = event.data()
        kind = event.event_type
        if kind == "player_joined":
            seats[_seat(event)] = data
        elif kind == "hand_dealt":
            hands.append(
                AuditHand(
                    hand_number=data["hand_number"],
                    dealer=data["dealer"],
                    deck=list(data["deck"]),
                    from_seed=data["hand_number"] > len(created["decks"]),
                )
            )
        elif kind == "hand_ended":
            totals = list(data["totals"])
        elif kind == "game_finished":
            winner, totals = data["winner"], list(data["totals"])
        linked = link(_plain_event(event, data), previous)
        previous = linked["hash"]
        exported.append(linked)
    finished = events[-1].event_type == "game_finished"
    status = Status.FINISHED if finished else (Status.PLAYING if hands else Status.WAITING)
    return AuditExport(
        format=FORMAT,
        game_id=game_id,
        version=events[-1].originator_version,
        status=status,
        rules=created["rules"],
        players=[_player(seat, entry) for seat, entry in enumerate(seats)],
        seed_commitment=created["seed_commitment"],
        seed=created["seed"] if finished else None,
        deal=DealMode(created["deal"]),
        client_seeds=["" if entry is None else entry["client_seed"] for entry in seats],
        dealer_named=created["dealer"] is not None,
        explicit_decks=len(created["decks"]),
        hands=hands,
        winner=winner,
        totals=totals,
        events=msgspec.convert(exported, list[AuditEvent]),
        chain=AuditChain(
            algorithm=ALGORITHM, genesis=genesis(game_id), head=previous, length=len(exported)
        ),
    )


def _plain_event(event: StoredEvent, data: dict[str, Any]) -> dict[str, Any]:
    """The event as plain JSON values, exactly as the export encodes it."""
    plain: dict[str, Any] = {
        "version": event.originator_version,
        "type": event.event_type,
        "at": msgspec.to_builtins(event.timestamp),
        "data": _public(
            {name: value for name, value in data.items() if name not in event.derived_fields},
            top=event.event_type == "game_created",
        ),
    }
    if event.seat is not None:
        plain["seat"] = event.seat
    # Round-trip through msgspec, so the hash covers the very values the client receives.
    converted: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(plain))
    return converted


def _public(value: Any, *, top: bool = False) -> Any:
    """`value` without token hashes anywhere (and, for the creation, without the seed)."""
    if isinstance(value, dict):
        return {
            key: _public(item)
            for key, item in value.items()
            if key not in _SECRET_FIELDS and not (top and key == "seed")
        }
    if isinstance(value, list | tuple):
        return [_public(item) for item in value]
    return value


def _player(seat: int, entry: dict[str, Any] | None) -> AuditPlayer:
    if entry is None:
        return AuditPlayer(seat=seat, name=None, bot=None, client_seed="")
    return AuditPlayer(
        seat=seat, name=entry["name"], bot=entry["bot"], client_seed=entry["client_seed"]
    )


def _seat(event: StoredEvent) -> int:
    seat = event.seat
    if seat is None:
        raise ValueError(f"event {event.originator_version} ({event.event_type}) names no seat")
    return seat
