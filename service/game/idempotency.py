"""Idempotency keys: what a request made before with the same key answers now.

docs/api.md, `Idempotency-Key`: the same key and body again answers with the first
run's outcome and applies nothing again; the same key with another body is
refused (`idempotency_key_reused`). A creation's or a join's key also names what
it made: the game's id and its players' tokens derive from it
(`service.game.tokens`), so a retry finds it on any replica. An applied request
is remembered by the game itself (`Game.requests`), a refused one beside it
(`service.store.refusals`). The application (`service.game.application`) asks
these before it acts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from uuid import UUID

from service.game.aggregate import Game, IdempotentRequest, SeatEntry
from service.game.commands import Idempotency, NewGame, NewSeat
from service.game.errors import GameNotFound, IdempotencyKeyReused
from service.game.results import CreateResult, GameState, JoinResult
from service.game.tokens import hash_token, key_digest, keyed_token, new_token
from service.store.refusals import RefusalLog, RefusedBefore


def seatless(idempotency: Idempotency) -> IdempotentRequest:
    """The request of a creation or a join: sent by no seat, its key kept as a hash."""
    return IdempotentRequest(None, key_digest(idempotency.key), idempotency.digest)


def earlier_outcome(
    game: Game,
    request: IdempotentRequest,
    refusals: RefusalLog,
    state_at: Callable[[UUID, int], GameState],
) -> GameState | None:
    """The game as `request` left it if it was applied before (`state_at` its
    version), or None if it is new; raises `RefusedBefore` if it was refused before."""
    applied = game.applied_request(request)
    if applied is not None:
        digest, version = applied
        if digest != request.digest:
            raise IdempotencyKeyReused.for_key(request.key)
        return state_at(game.id, version)
    refusal = refusals.find(game.id, request)
    if refusal is not None:
        raise RefusedBefore(refusal.answer(request))
    return None


def earlier_creation(
    current: Callable[[UUID], Game], game_id: UUID, new: NewGame, idempotency: Idempotency
) -> CreateResult | None:
    """What the creation with this key made (the game `current` reads), or None if it
    made nothing yet."""
    try:
        game = current(game_id)
    except GameNotFound:
        return None
    applied = game.applied_request(seatless(idempotency))
    if applied is None or applied[0] != idempotency.digest:
        raise IdempotencyKeyReused.for_key(
            idempotency.key, "to create a game with a different body"
        )
    # The same body: the same seats, so the same tokens.
    _, tokens = seat_entries(game_id, new.seats, idempotency)
    return CreateResult(game.id, tokens, applied[1], game.seed_commitment, game.deal_mode)


def earlier_join(game: Game, token: str, idempotency: Idempotency) -> JoinResult | None:
    """The seat the join with this key took, or None if it took none yet."""
    applied = game.applied_request(seatless(idempotency))
    if applied is None:
        return None
    digest, version = applied
    seat = GameState.of(game).seat_of(token)
    # The key's slot also holds the creation of a game made with the same key.
    if digest != idempotency.digest or seat is None:
        raise IdempotencyKeyReused.for_key(
            idempotency.key, "to join this game with a different body"
        )
    return JoinResult(seat=seat, token=token, version=version)


def seat_entries(
    game_id: UUID, seats: Sequence[NewSeat | None], idempotency: Idempotency | None = None
) -> tuple[list[SeatEntry | None], dict[int, str]]:
    """The seats of a new game, and the token of each seat a person fills (derived
    from the key of a keyed creation)."""
    entries: list[SeatEntry | None] = []
    tokens: dict[int, str] = {}
    for seat, wanted in enumerate(seats):
        if wanted is None:
            entries.append(None)
        elif wanted.bot is not None:
            # Nobody acts for a bot: its token is random and never handed out.
            entries.append(seat_entry(wanted, new_token(game_id)))
        else:
            tokens[seat] = (
                new_token(game_id)
                if idempotency is None
                else keyed_token(game_id, idempotency.key, f"seat{seat}")
            )
            entries.append(seat_entry(wanted, tokens[seat]))
    return entries, tokens


def seat_entry(wanted: NewSeat, token: str) -> SeatEntry:
    """The stored seat of `wanted`, whose player holds `token`."""
    return SeatEntry(
        name=wanted.name,
        token_hash=hash_token(token),
        client_seed=wanted.client_seed,
        bot=wanted.bot,
        player=wanted.player,
    )
