"""A platform's signing keys: what is accepted, and the key PyJWT verifies with.

HS256 keys are shared secrets (base64url, at least 256 bits, as RFC 7518 §3.2
asks of an HMAC-SHA256 key); EdDSA (Ed25519) and ES256 (ECDSA on P-256) keys
are public keys in PEM, whose private halves the platform alone holds. Every
assertion is verified with the algorithm of the key it names, never the one
its header claims, so a public key can never be used as an HMAC secret.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from cryptography.hazmat.primitives.serialization import load_pem_public_key

from service.players.errors import InvalidKey
from service.store.player_tables import KeyRow

ALGORITHMS = ("HS256", "EdDSA", "ES256")
SHORTEST_SECRET = 32
"""Bytes of an HS256 secret, at least."""
KID_PATTERN = r"^[A-Za-z0-9._-]{1,64}$"


def checked_key(alg: str, kid: str, secret: str | None, public_key: str | None) -> KeyRow:
    """The key as stored, once it is one this service can verify with (422 `invalid_key`
    otherwise, naming what is wrong)."""
    if not re.fullmatch(KID_PATTERN, kid):
        raise InvalidKey(f"kid: 1 to 64 letters, digits, '.', '_' or '-', not {kid!r}.")
    if alg not in ALGORITHMS:
        raise InvalidKey(f"alg: one of {', '.join(ALGORITHMS)}, not {alg!r}.")
    if alg == "HS256":
        if secret is None or public_key is not None:
            raise InvalidKey("An HS256 key is a `secret` (base64url), without `public_key`.")
        key = KeyRow(kid=kid, alg=alg, material=secret)
    else:
        if public_key is None or secret is not None:
            raise InvalidKey(f"An {alg} key is a `public_key` (PEM), without `secret`.")
        key = KeyRow(kid=kid, alg=alg, material=public_key)
    verifying_key(key)
    return key


def verifying_key(key: KeyRow) -> Any:
    """What PyJWT verifies `key`'s signatures with: the secret's bytes, or the public key."""
    if key.alg == "HS256":
        try:
            secret = base64.urlsafe_b64decode(key.material + "=" * (-len(key.material) % 4))
        except (binascii.Error, ValueError):
            raise InvalidKey("secret: not base64url.") from None
        if len(secret) < SHORTEST_SECRET:
            raise InvalidKey(f"secret: at least {SHORTEST_SECRET} bytes, not {len(secret)}.")
        return secret
    try:
        loaded = load_pem_public_key(key.material.encode("utf-8"))
    except (ValueError, TypeError):
        raise InvalidKey("public_key: not a PEM public key.") from None
    if key.alg == "EdDSA" and isinstance(loaded, ed25519.Ed25519PublicKey):
        return loaded
    if (
        key.alg == "ES256"
        and isinstance(loaded, ec.EllipticCurvePublicKey)
        and isinstance(loaded.curve, ec.SECP256R1)
    ):
        return loaded
    wanted = "an Ed25519 key" if key.alg == "EdDSA" else "an EC key on P-256"
    raise InvalidKey(f"public_key: {key.alg} needs {wanted}.")
