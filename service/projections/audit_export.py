"""The audit export: a game's complete event log, hash-chained, with everything
needed to check it without trusting the service (docs/audit.md).

Every event is exported with all its stored data except token hashes (only
the hash of a token is stored, and not even that leaves the service) and the
idempotency keys of the requests behind it (transport, not play). A field
that a game stored by earlier code did not hold (its `deal`) is derived when
read but never exported in its events, so their hash chain stays the one
they always had; the top-level fields show it. The seed
is not part of any event: it stands at the top of the export, and only once
the game is over (finished or aborted), so the chain of a game never changes when the seed is
revealed.

A seat a platform vouched for holds only a pseudonym in the log (and `""` for
its name): the header's `players[]` shows who it stands for, looked up when the
export is made (`lookup`), `player: null` and `name: "erased"` once the player
is erased. That lookup is outside the log and its chain, so erasing a player
changes no hash (docs/privacy.md); the verifier checks such a seat was vouched
for, not who it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

from service.audit.chain import ALGORITHM, FORMAT, chain_salt, genesis, link
from service.domain.events import GAME_OVER_EVENTS
from service.domain.fairness import DealMode
from service.domain.state import Status
from service.projections.event_views import StoredEvent
from service.projections.shown_players import PlayerLookup, ShownPlayer, nobody

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
    player: str | UnsetType | None = UNSET
    """Only for a seat a platform vouched for: `platform:player`, null once erased (its
    `name` then `erased`). Looked up when the export is made, not in the log."""


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
    """The shuffle seed: revealed once the game is over (finished or aborted), never
    before."""
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
    chain_salt: str | None
    """The salt of the live chain heads (`chain` on every event served; docs/fairness.md,
    "Live chain heads"): revealed with the seed, once the game is over; `null` before."""
    events: list[AuditEvent]
    chain: AuditChain


def export_name(game_id: str, version: int) -> str:
    """What names one export, the same for every reader: its version, its format and
    its game (its `ETag`, and its file once kept)."""
    return f"{version}.audit-{FORMAT.rsplit('/', 1)[-1]}.{game_id}"


def audit_export(
    game_id: str, events: Sequence[StoredEvent], lookup: PlayerLookup = nobody
) -> AuditExport:
    """The export of a game from all its stored events, oldest first, built in memory
    (the tests' reference; the service writes `export_chunks`, the same bytes)."""
    if not events:
        raise ValueError("an audit export starts from the game's creation")
    header = _Header(game_id, events[0])
    exported: list[dict[str, Any]] = []
    previous = header.genesis
    for event in events:
        data = event.data()
        header.add(event, data)
        linked = link(exported_event(event, data), previous)
        previous = linked["hash"]
        exported.append(linked)
    return header.export(
        msgspec.convert(exported, list[AuditEvent]), previous, len(exported), lookup
    )


PAGE = 1000
"""Events read from the store at a time, and linked and written as one chunk (about
300 KB of export)."""

ReadPage = Callable[[int], Sequence[StoredEvent]]
"""The game's events after a version, oldest first, at most `PAGE` of them, and none
past the version the export shows (the same events on every call)."""


def export_chunks(
    game_id: str, read_page: ReadPage, lookup: PlayerLookup = nobody
) -> Iterator[bytes]:
    """The export of a game, in pieces whose concatenation is exactly
    `msgspec.json.encode(audit_export(game_id, every event))`, in memory bounded by a
    page and the hands' decks (about 300 bytes each, encoded) rather than by the log.

    Two passes over the store, a page at a time: the first gathers what the header
    says before the log (the version, the status, the players, the hands, the
    result); the second links and writes the events; the chain follows them.

    A speed measure: it replaces encoding `audit_export` whole (four exports of a
    269,654-event game at once: +1.59 GB of RSS before, +27.5 MB now;
    docs/performance.md, "Audit exports"); tests/projections/test_export_chunks.py
    compares the bytes."""
    header: _Header | None = None
    for page in _pages(read_page):
        for event in page:
            if header is None:
                header = _Header(game_id, event, encode_hands=True)
            header.add(event, event.data() if event.event_type in _HEADER_TYPES else {})
    if header is None:
        raise ValueError("an audit export starts from the game's creation")
    summary = header.export([], "", 0, lookup)
    # The members in the order msgspec writes the struct (it omits none: no defaults).
    fields = msgspec.structs.fields(AuditExport)
    before = fields[: [field.name for field in fields].index("events")]
    yield b"{" + b",".join(
        _member(field.encode_name, header.encoded(summary, field.name)) for field in before
    )
    yield b',"events":['
    previous, length = header.genesis, 0
    for page in _pages(read_page):
        linked: list[dict[str, Any]] = []
        for event in page:
            linked.append(link(exported_event(event, event.data()), previous))
            previous = linked[-1]["hash"]
        events = msgspec.json.encode(msgspec.convert(linked, list[AuditEvent]))
        yield (b"," if length else b"") + events[1:-1]
        length += len(linked)
    if length != header.length:
        raise ValueError(f"the log read {length} events, then {header.length}")
    chain = AuditChain(algorithm=ALGORITHM, genesis=header.genesis, head=previous, length=length)
    yield b"]," + _member("chain", msgspec.json.encode(chain)) + b"}"


def _pages(read_page: ReadPage) -> Iterator[Sequence[StoredEvent]]:
    after = 0
    while page := read_page(after):
        yield page
        after = page[-1].originator_version


def _member(name: str, value: bytes) -> bytes:
    return b'"' + name.encode() + b'":' + value


_HEADER_TYPES = frozenset(
    {"game_created", "player_joined", "hand_dealt", "hand_ended", "game_finished"}
)
"""The events whose data the header repeats."""


class _Header:
    """What the header of an export says, gathered event by event from the creation."""

    def __init__(self, game_id: str, first: StoredEvent, *, encode_hands: bool = False) -> None:
        if first.event_type != "game_created":
            raise ValueError("an audit export starts from the game's creation")
        self.game_id = game_id
        self.genesis = genesis(game_id)
        self.created = first.data()
        self.seats: list[dict[str, Any] | None] = [
            None if seat is None else dict(seat) for seat in self.created["seats"]
        ]
        self.hands: list[AuditHand] = []
        self.encode_hands = encode_hands
        self.encoded_hands: list[bytes] = []
        """With `encode_hands`: each hand encoded, instead of `hands` (a tenth of the
        memory: a deck is 52 or more strings)."""
        self.totals = [0] * len(self.seats)
        self.winner: int | None = None
        self.last: StoredEvent = first
        self.length = 0

    def add(self, event: StoredEvent, data: dict[str, Any]) -> None:
        """Take the next event in; `data` is its data (may be empty for a type outside
        `_HEADER_TYPES`)."""
        kind = event.event_type
        if kind == "player_joined":
            self.seats[_seat(event)] = data
        elif kind == "hand_dealt":
            hand = AuditHand(
                hand_number=data["hand_number"],
                dealer=data["dealer"],
                deck=list(data["deck"]),
                from_seed=data["hand_number"] > len(self.created["decks"]),
            )
            if self.encode_hands:
                self.encoded_hands.append(msgspec.json.encode(hand))
            else:
                self.hands.append(hand)
        elif kind == "hand_ended":
            self.totals = list(data["totals"])
        elif kind == "game_finished":
            self.winner, self.totals = data["winner"], list(data["totals"])
        self.last = event
        self.length += 1

    def export(
        self, events: list[AuditEvent], head: str, length: int, lookup: PlayerLookup
    ) -> AuditExport:
        created, seats = self.created, self.seats
        vouched = [entry["player"] for entry in seats if entry is not None and "player" in entry]
        shown = lookup(vouched) if vouched else {}
        last = self.last.event_type
        # Aborted is over too: its seed is revealed as a finished game's.
        over = last in GAME_OVER_EVENTS
        dealt = bool(self.hands or self.encoded_hands)
        status = (
            Status.FINISHED
            if last == "game_finished"
            else Status.ABORTED
            if last == "game_aborted"
            else (Status.PLAYING if dealt else Status.WAITING)
        )
        return AuditExport(
            format=FORMAT,
            game_id=self.game_id,
            version=self.last.originator_version,
            status=status,
            rules=created["rules"],
            players=[_player(seat, entry, shown) for seat, entry in enumerate(seats)],
            seed_commitment=created["seed_commitment"],
            seed=created["seed"] if over else None,
            deal=DealMode(created["deal"]),
            client_seeds=["" if entry is None else entry["client_seed"] for entry in seats],
            dealer_named=created["dealer"] is not None,
            explicit_decks=len(created["decks"]),
            hands=self.hands,
            winner=self.winner,
            totals=self.totals,
            chain_salt=chain_salt(created["seed"]) if over else None,
            events=events,
            chain=AuditChain(algorithm=ALGORITHM, genesis=self.genesis, head=head, length=length),
        )

    def encoded(self, export: AuditExport, name: str) -> bytes:
        """Member `name` of `export` as msgspec writes it, the hands from `encoded_hands`."""
        if name == "hands" and self.encode_hands:
            return b"[" + b",".join(self.encoded_hands) + b"]"
        return msgspec.json.encode(getattr(export, name))


def exported_event(event: StoredEvent, data: dict[str, Any]) -> dict[str, Any]:
    """The event as plain JSON values, exactly as the export encodes it (without its
    place in the chain): what its `hash` covers, and so every live head
    (service/projections/chain_heads.py)."""
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


def _player(
    seat: int, entry: dict[str, Any] | None, shown: Mapping[str, ShownPlayer]
) -> AuditPlayer:
    if entry is None:
        return AuditPlayer(seat=seat, name=None, bot=None, client_seed="")
    player = AuditPlayer(
        seat=seat, name=entry["name"], bot=entry["bot"], client_seed=entry["client_seed"]
    )
    if "player" in entry:
        found = shown.get(entry["player"])
        player.player = None if found is None else found.player
        player.name = entry["name"] if found is None else found.name
    return player


def _seat(event: StoredEvent) -> int:
    seat = event.seat
    if seat is None:
        raise ValueError(f"event {event.originator_version} ({event.event_type}) names no seat")
    return seat
