"""A ticket's seat token, sealed so that only the ticket's holder can open it.

The matcher must hand each ticket its seat token long after the request that
opened the ticket has gone, and the token must reach that ticket only. Kept in
clear, anyone who reads the database (a backup, a replica's operator) could
play the seat; kept hashed, nobody could give it back. So a ticket's token is
also its key: the service derives an X25519 key pair from it (`seal_key` keeps
the public half, never the token: only its SHA-256 authenticates), the
matcher seals the seat token to that public key (an ephemeral X25519 exchange,
HKDF-SHA256, AES-256-GCM: an ECIES "sealed box"), and `GET
/matchmaking/{ticket_id}` opens it with the private half derived again from
the token the caller presents. The stored row holds nothing that opens a seat
without the ticket's token.
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

PREFIX = "mt_"
"""Every ticket token starts so (a seat token has a dot, a stream ticket `st_`)."""
_INFO = b"rummy matchmaking seat token v1"


def new_ticket_token() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def hash_ticket_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _private(token: str) -> X25519PrivateKey:
    # A distinct hash from the stored one: the stored hash never yields the key.
    seed = hashlib.sha256(b"seal/" + token.encode("utf-8")).digest()
    return X25519PrivateKey.from_private_bytes(seed)


def _raw(key: X25519PublicKey) -> bytes:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def seal_key(token: str) -> str:
    """The public key a ticket's token derives (stored with the ticket)."""
    return base64.urlsafe_b64encode(_raw(_private(token).public_key())).decode()


def _aead(exchanged: bytes, ephemeral: bytes, recipient: bytes) -> AESGCM:
    key = HKDF(hashes.SHA256(), 32, salt=ephemeral + recipient, info=_INFO).derive(exchanged)
    return AESGCM(key)


def seal(public_key: str, secret: str) -> str:
    """`secret` sealed to `public_key`: ephemeral key, nonce and ciphertext, base64."""
    recipient = base64.urlsafe_b64decode(public_key)
    ephemeral = X25519PrivateKey.generate()
    exchanged = ephemeral.exchange(X25519PublicKey.from_public_bytes(recipient))
    sender = _raw(ephemeral.public_key())
    nonce = os.urandom(12)
    sealed = _aead(exchanged, sender, recipient).encrypt(nonce, secret.encode("utf-8"), None)
    return base64.urlsafe_b64encode(sender + nonce + sealed).decode()


def open_sealed(token: str, sealed: str) -> str:
    """The secret `seal` sealed to the key of `token` (raises if another token's)."""
    data = base64.urlsafe_b64decode(sealed)
    sender, nonce, body = data[:32], data[32:44], data[44:]
    private = _private(token)
    exchanged = private.exchange(X25519PublicKey.from_public_bytes(sender))
    recipient = _raw(private.public_key())
    return _aead(exchanged, sender, recipient).decrypt(nonce, body, None).decode("utf-8")
