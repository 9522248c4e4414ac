"""Player assertions as `verify` judges them: each refusal by its own code, and the
edges of time (the leeway, the longest life) on either side."""

from __future__ import annotations

import base64
import hmac
import json
import time
from collections.abc import Sequence

import jwt
import pytest

from service.players.assertions import LEEWAY_SECONDS, LONGEST_SECONDS, Asserted, verify
from service.players.errors import (
    AssertionExpired,
    AssertionInvalid,
    AssertionRefused,
    UnknownKey,
    WrongAudience,
)
from service.players.keys import checked_key
from service.store.player_tables import KeyRow
from tests.players.signing import SigningKey, assertion, ed25519_key, es256_key, hmac_key

PLATFORM = "0123456789abcdef"


def row(key: SigningKey) -> KeyRow:
    body = key.body
    return checked_key(body["alg"], body["kid"], body.get("secret"), body.get("public_key"))


def keys_of(*keys: SigningKey) -> dict[str, list[KeyRow]]:
    return {PLATFORM: [row(key) for key in keys]}


def check(token: str, keys: dict[str, list[KeyRow]]) -> Asserted:
    def lookup(platform_id: str) -> Sequence[KeyRow]:
        return keys.get(platform_id, [])

    return verify(token, lookup)


@pytest.mark.parametrize(
    "make", [hmac_key, ed25519_key, es256_key], ids=["HS256", "EdDSA", "ES256"]
)
def test_each_algorithm_vouches_for_its_player(make) -> None:
    key = make()
    found = check(assertion(key, PLATFORM, "alice", "Alice"), keys_of(key))
    assert found == Asserted(platform_id=PLATFORM, player="alice", name="Alice")


@pytest.mark.parametrize(
    "make", [hmac_key, ed25519_key, es256_key], ids=["HS256", "EdDSA", "ES256"]
)
def test_a_forged_signature_is_refused(make) -> None:
    registered, forger = make(), make()  # same kid, another secret or private key
    token = assertion(forger, PLATFORM, "alice")
    with pytest.raises(AssertionRefused) as refused:
        check(token, keys_of(registered))
    assert type(refused.value) is AssertionInvalid
    assert refused.value.code == "assertion_invalid"


def test_a_tampered_claim_breaks_the_signature() -> None:
    key = hmac_key()
    header, payload, signature = assertion(key, PLATFORM, "alice").split(".")
    other = assertion(key, PLATFORM, "mallory").split(".")[1]
    with pytest.raises(AssertionRefused) as refused:
        check(f"{header}.{other[:-2]}{payload[-2:]}.{signature}", keys_of(key))
    assert refused.value.code == "assertion_invalid"
    with pytest.raises(AssertionRefused):
        check(f"{header}.{other}.{signature}", keys_of(key))


def test_a_public_key_is_never_taken_as_an_hmac_secret() -> None:
    """Algorithm confusion: an HS256 token 'signed' with the registered PEM."""
    key = ed25519_key()
    pem = key.body["public_key"].encode()
    claims = {"iss": PLATFORM, "sub": "alice", "name": "A", "aud": "rummy", "exp": 2**31}
    signed = b".".join(
        _b64(json.dumps(part).encode())
        for part in ({"alg": "HS256", "typ": "JWT", "kid": key.kid}, claims)
    )
    # PyJWT will not sign so; an attacker does it by hand.
    forged = signed + b"." + _b64(hmac.digest(pem, signed, "sha256"))
    with pytest.raises(AssertionRefused) as refused:
        check(forged.decode(), keys_of(key))
    assert refused.value.code == "assertion_invalid"


def _b64(raw: bytes) -> bytes:
    return base64.urlsafe_b64encode(raw).rstrip(b"=")


def test_an_expired_assertion_is_refused_past_the_leeway_only() -> None:
    key = hmac_key()
    keys = keys_of(key)
    within = assertion(key, PLATFORM, "alice", expires_in=-(LEEWAY_SECONDS - 20))
    assert check(within, keys).player == "alice", "a clock 40 s behind is tolerated"
    with pytest.raises(AssertionExpired) as refused:
        check(assertion(key, PLATFORM, "alice", expires_in=-(LEEWAY_SECONDS + 20)), keys)
    assert refused.value.code == "assertion_expired"


def test_an_assertion_issued_slightly_in_the_future_passes_within_the_leeway() -> None:
    key = hmac_key()
    now = time.time()
    early = assertion(key, PLATFORM, "alice", iat=int(now + LEEWAY_SECONDS - 20))
    assert check(early, keys_of(key)).player == "alice"
    with pytest.raises(AssertionRefused):
        check(assertion(key, PLATFORM, "alice", iat=int(now + 600)), keys_of(key))


def test_an_assertion_living_more_than_an_hour_is_refused() -> None:
    key = hmac_key()
    assert check(assertion(key, PLATFORM, "a", expires_in=LONGEST_SECONDS - 60), keys_of(key))
    with pytest.raises(AssertionRefused) as refused:
        check(assertion(key, PLATFORM, "a", expires_in=2 * LONGEST_SECONDS), keys_of(key))
    assert refused.value.code == "assertion_invalid"
    assert "exp" in refused.value.message


@pytest.mark.parametrize("audience", ["another-service", None])
def test_another_audience_is_refused(audience: str | None) -> None:
    key = hmac_key()
    with pytest.raises(WrongAudience) as refused:
        check(assertion(key, PLATFORM, "alice", audience=audience), keys_of(key))
    assert refused.value.code == "assertion_wrong_audience"


def test_an_unknown_kid_or_platform_is_refused() -> None:
    key = hmac_key("k1")
    with pytest.raises(UnknownKey) as refused:
        check(assertion(key, PLATFORM, "alice", kid="k9"), keys_of(key))
    assert refused.value.code == "assertion_unknown_key"
    with pytest.raises(UnknownKey):
        check(assertion(key, "fedcba9876543210", "alice"), keys_of(key))


def test_two_keys_are_valid_at_once_and_then_the_kid_is_required() -> None:
    old, new = hmac_key("old"), ed25519_key("new")
    keys = keys_of(old, new)
    assert check(assertion(old, PLATFORM, "alice"), keys).player == "alice"
    assert check(assertion(new, PLATFORM, "bob"), keys).player == "bob"
    with pytest.raises(UnknownKey, match="kid"):
        check(assertion(old, PLATFORM, "alice", kid=None), keys)
    # With one key, the kid may be left out.
    assert check(assertion(old, PLATFORM, "alice", kid=None), keys_of(old)).player == "alice"


def test_missing_claims_and_non_jwts_are_invalid() -> None:
    key = hmac_key()
    no_sub = jwt.encode(
        {"iss": PLATFORM, "aud": "rummy", "name": "x", "exp": int(time.time() + 60)},
        key.signing,
        algorithm="HS256",
    )
    for token in ("not-a-jwt", no_sub, assertion(key, PLATFORM, "alice", name=None)):
        with pytest.raises(AssertionRefused) as refused:
            check(token, keys_of(key))
        assert refused.value.code == "assertion_invalid"


def test_an_assertion_is_reusable_until_it_expires() -> None:
    key = hmac_key()
    token = assertion(key, PLATFORM, "alice")
    assert check(token, keys_of(key)) == check(token, keys_of(key))
