"""A platform as the tests play it: its keys, and the assertions it signs with them
(PyJWT, the library the service verifies with, as docs/players.md shows)."""

from __future__ import annotations

import base64
import secrets
import time
from dataclasses import dataclass
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519


@dataclass(frozen=True)
class SigningKey:
    """A key the platform signs with, and what it registers of it (`body`)."""

    alg: str
    kid: str
    signing: Any
    body: dict[str, str]


def hmac_key(kid: str = "k1") -> SigningKey:
    raw = secrets.token_bytes(32)
    secret = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    return SigningKey("HS256", kid, raw, {"alg": "HS256", "kid": kid, "secret": secret})


def public_pem(private: Any) -> str:
    pem: bytes = private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return pem.decode()


def ed25519_key(kid: str = "ed1") -> SigningKey:
    private = ed25519.Ed25519PrivateKey.generate()
    return SigningKey(
        "EdDSA", kid, private, {"alg": "EdDSA", "kid": kid, "public_key": public_pem(private)}
    )


def es256_key(kid: str = "es1") -> SigningKey:
    private = ec.generate_private_key(ec.SECP256R1())
    return SigningKey(
        "ES256", kid, private, {"alg": "ES256", "kid": kid, "public_key": public_pem(private)}
    )


def assertion(
    key: SigningKey,
    platform_id: str,
    player: str,
    name: str | None = "Ada",
    *,
    expires_in: float = 600,
    audience: str | None = "rummy",
    kid: str | bool | None = True,
    **claims: Any,
) -> str:
    """A player assertion signed with `key`; `kid` True names the key, a string another,
    None or False leaves it out."""
    payload: dict[str, Any] = {
        "iss": platform_id,
        "sub": player,
        "name": name,
        "exp": int(time.time() + expires_in),
        **claims,
    }
    if audience is not None:
        payload["aud"] = audience
    headers = {} if kid in (None, False) else {"kid": key.kid if kid is True else kid}
    return jwt.encode(payload, key.signing, algorithm=key.alg, headers=headers)
