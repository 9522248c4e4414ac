"""An independent reading of docs/fairness.md "A seed per hand", for tests: the
hand chain, the rules digest and the commitment, from the standard library only
(nothing of service/ is imported, so it cannot share the service's mistakes)."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any


def rules_digest(rules: dict[str, Any]) -> str:
    text = json.dumps(rules, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def hand_seeds(seed: str, length: int) -> list[str]:
    """Seeds of hands 1 to `length`: the last is HMAC(seed, label), each earlier one
    the SHA-256 of the next."""
    link = hmac.new(seed.encode("utf-8"), b"straight-rummy/hand-chain/v1", hashlib.sha256).digest()
    backwards = [link]
    for _ in range(length - 1):
        link = hashlib.sha256(link).digest()
        backwards.append(link)
    return [link.hex() for link in reversed(backwards)]


def chain_of(seed: str, rules: dict[str, Any]) -> list[str]:
    """The game's chain: as long as its `max_hands` (500, the bound, without one)."""
    return hand_seeds(seed, rules.get("max_hands") or 500)


def commitment(seed: str, rules: dict[str, Any]) -> str:
    head = hashlib.sha256(bytes.fromhex(chain_of(seed, rules)[0])).digest()
    material = b"straight-rummy/commitment/v2" + head + bytes.fromhex(rules_digest(rules))
    return hashlib.sha256(material).hexdigest()


def creation_rules(games: Any, game_id: Any) -> dict[str, Any]:
    """The rules a game stored in its `game_created` (what the digest covers)."""
    created = games.events_after(game_id)[0]
    rules: dict[str, Any] = created.data()["rules"]
    return rules


def reseal(export: dict[str, Any]) -> dict[str, Any]:
    """What a forger holding the game's seed does after editing the stored rules: the
    digest and the commitment made again to match (the hashes are `rechain`'s)."""
    created = export["events"][0]["data"]
    rules = created["rules"]
    created["rules_digest"] = rules_digest(rules)
    if export.get("seed") is None:
        return export  # the commitment cannot be checked before the seed is revealed
    sealed = commitment(export["seed"], rules)
    created["seed_commitment"] = export["seed_commitment"] = sealed
    return export
