"""The refusals of idempotent requests, kept so that a retry is refused alike.

docs/api.md: repeating an `Idempotency-Key` returns the original outcome. An applied
request is remembered by the game itself (`Game.requests`, from its events). A
refused one changes nothing in the game, and must not: its version, its
events and every player's view stay as they were. So its outcome is kept
beside the game, in a table of its own on the same event store
(`stored_refusals` on SQLite, `rummy_refusals` on PostgreSQL; the library's
aggregate recorder, as for its snapshots): one record per (game, seat, key),
written once. The first refusal stands; a retry of the same request is
refused with the same code and message even after the game has moved on and
would now allow it.
"""

from __future__ import annotations

from uuid import UUID, uuid5

import msgspec
from eventsourcing.persistence import AggregateRecorder, IntegrityError, StoredEvent

from service.domain.errors import IllegalMove, all_error_classes
from service.game.aggregate import IdempotentRequest
from service.game.errors import IdempotencyKeyReused
from service.store.freshness import SqliteFreshness

TOPIC = "refusal"
"""The topic of every refusal record (records are read only by this module)."""


class Refusal(msgspec.Struct, frozen=True):
    """How a request was refused: enough to refuse a retry of it alike."""

    digest: str
    """The digest of the refused request's body."""
    code: str
    message: str

    def answer(self, request: IdempotentRequest) -> IllegalMove | IdempotencyKeyReused:
        """The error that answers `request`: this refusal again if it is a retry of the
        same body, else `idempotency_key_reused`."""
        if request.digest != self.digest:
            return IdempotencyKeyReused.for_key(request.key)
        return refusal_error(self.code, self.message)


class RefusedBefore(Exception):
    """Raised in a command: the request was refused before; `answer` is its outcome."""

    def __init__(self, answer: IllegalMove | IdempotencyKeyReused) -> None:
        super().__init__(answer)
        self.answer = answer


class RefusedNow(Exception):
    """Raised in a command: the rules refuse `request` now (`error`), to be kept."""

    def __init__(self, request: IdempotentRequest, error: IllegalMove) -> None:
        super().__init__(error)
        self.request = request
        self.error = error


_DECODER = msgspec.json.Decoder(Refusal)


class RefusalLog:
    """Refusals of idempotent requests, on an aggregate recorder of the event store;
    looked up on `reads` where the store has it (SQLite's read-only connection of
    each thread: service/store/freshness.py), else through the recorder."""

    def __init__(self, recorder: AggregateRecorder, reads: SqliteFreshness | None = None) -> None:
        self.recorder = recorder
        self._reads = reads
        self._select: str | None = getattr(recorder, "select_events_statement", None)

    def find(self, game_id: UUID, request: IdempotentRequest) -> Refusal | None:
        """How this seat's request with this key was refused before, if it was."""
        record_id = _record_id(game_id, request)
        if self._reads is not None and self._select is not None:
            state = self._reads.first_state(self._select, record_id)
            return None if state is None else _DECODER.decode(state)
        records = self.recorder.select_events(record_id, limit=1)
        return _DECODER.decode(records[0].state) if records else None

    def keep(self, game_id: UUID, request: IdempotentRequest, error: IllegalMove) -> Refusal:
        """Keep `error` as the outcome of `request`, unless a refusal of the same
        key is kept already (another replica's, at the same moment): the first
        one stands, and is returned."""
        refusal = Refusal(digest=request.digest, code=error.code, message=error.message)
        record = StoredEvent(
            originator_id=_record_id(game_id, request),
            originator_version=1,
            topic=TOPIC,
            state=msgspec.json.encode(refusal),
        )
        try:
            self.recorder.insert_events([record])
        except IntegrityError:
            kept = self.find(game_id, request)
            if kept is None:  # the insert failed for another reason after all
                raise
            return kept
        return refusal


def refusal_error(code: str, message: str) -> IllegalMove:
    """The rules error `code` names, with `message`."""
    for cls in all_error_classes():
        if issubclass(cls, IllegalMove) and cls.code == code:
            return cls(message)
    # A code no longer raised by the rules still answers with the code it had.
    error = IllegalMove(message)
    error.code = code
    return error


def _record_id(game_id: UUID, request: IdempotentRequest) -> UUID:
    # Derived, not random: every replica finds the same record for the same key.
    return uuid5(game_id, request.slot)
