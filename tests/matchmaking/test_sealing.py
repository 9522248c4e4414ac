"""A seat token sealed to a ticket opens with that ticket's token only, and the stored
ticket holds neither token."""

from __future__ import annotations

import pytest
from cryptography.exceptions import InvalidTag

from service.matchmaking.sealing import (
    hash_ticket_token,
    new_ticket_token,
    open_sealed,
    seal,
    seal_key,
)


def test_the_ticket_s_token_opens_what_was_sealed_to_its_key() -> None:
    token = new_ticket_token()
    sealed = seal(seal_key(token), "game.seat-token")
    assert open_sealed(token, sealed) == "game.seat-token"


def test_another_token_cannot_open_it() -> None:
    token, other = new_ticket_token(), new_ticket_token()
    sealed = seal(seal_key(token), "game.seat-token")
    with pytest.raises(InvalidTag):
        open_sealed(other, sealed)


def test_what_is_stored_holds_neither_token() -> None:
    token = new_ticket_token()
    stored = [hash_ticket_token(token), seal_key(token), seal(seal_key(token), "seat-secret")]
    assert all(token not in kept and "seat-secret" not in kept for kept in stored)
    # Each sealing is fresh (an ephemeral key and nonce): equal tokens do not show.
    assert seal(seal_key(token), "x") != seal(seal_key(token), "x")
