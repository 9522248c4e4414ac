"""docs/fairness.md "A seed per hand": its reference code and its worked example
agree with the service's code (service/domain/hand_chain.py, shuffle.py), and the
chain has the properties the page promises."""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from service.domain import hand_chain, shuffle
from service.domain.cards import card_codes

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"


def _block(marker: str) -> str:
    pattern = re.compile(rf"<!-- {re.escape(marker)}\b[^>]*-->\s*```[a-z]*\n(.*?)^```", re.M | re.S)
    (block,) = pattern.findall(DOC.read_text(encoding="utf-8"))
    return str(block)


def _reference() -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "hand_chain_reference"}
    exec(compile(_block("hand-chain-reference"), f"{DOC}:hand-chain-reference", "exec"), namespace)
    return namespace


def _example() -> dict[str, Any]:
    lines = [line.split(":", 1) for line in _block("hand-chain-example").splitlines() if line]
    return {name.strip(): json.loads(value) for name, value in lines}


REF = _reference()
EXAMPLE = _example()


def test_the_worked_example_is_what_the_code_computes() -> None:
    seed, rules, clients = EXAMPLE["seed"], EXAMPLE["rules"], EXAMPLE["client seeds"]
    seeds = hand_chain.hand_seeds(seed, hand_chain.chain_length(rules["max_hands"]))
    digest = hand_chain.rules_digest(rules)
    head = hand_chain.chain_head(seeds)
    assert digest == EXAMPLE["rules digest"]
    assert list(seeds) == [EXAMPLE[f"hand seed {k}"] for k in (1, 2, 3)]
    assert head == EXAMPLE["chain head"]
    assert hand_chain.chain_commitment(head, digest) == EXAMPLE["commitment"]
    for hand in (1, 2):
        deck = card_codes(shuffle.deck_order(seeds[hand - 1], clients, hand))
        assert deck[:10] == EXAMPLE[f"deck hand {hand}, first ten"]
    assert shuffle.first_dealer(seeds[0], clients, 2) == EXAMPLE["first dealer, 2 players"]


def test_the_reference_code_reproduces_the_worked_example() -> None:
    seed, rules = EXAMPLE["seed"], EXAMPLE["rules"]
    seeds = REF["hand_seeds"](seed, rules["max_hands"])
    digest = REF["rules_digest"](rules)
    head = REF["previous_link"](seeds[0])
    assert digest == EXAMPLE["rules digest"]
    assert seeds == [EXAMPLE[f"hand seed {k}"] for k in (1, 2, 3)]
    assert REF["chain_commitment"](head, digest) == EXAMPLE["commitment"]
    assert REF["check_hand_seed"](1, seeds[0], None, EXAMPLE["commitment"], digest)
    assert REF["check_hand_seed"](2, seeds[1], seeds[0], EXAMPLE["commitment"], digest)
    assert not REF["check_hand_seed"](3, seeds[1], seeds[1], EXAMPLE["commitment"], digest)


def test_the_digest_is_the_sha256_of_the_sorted_compact_json() -> None:
    # Independently of both: the bytes written out by hand.
    text = '{"deals":2,"max_hands":3,"variant":"classic"}'
    assert EXAMPLE["rules digest"] == hashlib.sha256(text.encode()).hexdigest()


def test_the_commitment_is_the_sha256_of_the_92_bytes_the_page_names() -> None:
    material = (
        b"straight-rummy/commitment/v2"
        + bytes.fromhex(EXAMPLE["chain head"])
        + bytes.fromhex(EXAMPLE["rules digest"])
    )
    assert len(material) == 92
    assert hashlib.sha256(material).hexdigest() == EXAMPLE["commitment"]


@given(seed=st.text(max_size=40), length=st.integers(1, 40))
def test_each_seed_is_the_sha256_of_the_next_and_the_code_agrees_with_the_page(
    seed: str, length: int
) -> None:
    seeds = hand_chain.hand_seeds(seed, length)
    assert list(seeds) == REF["hand_seeds"](seed, length)
    for earlier, later in itertools.pairwise(seeds):
        assert hashlib.sha256(bytes.fromhex(later)).hexdigest() == earlier
    assert all(hand_chain.is_hand_seed(one) for one in seeds)


@given(rules=st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=8) | st.none()))
def test_the_rules_digest_agrees_with_the_page(rules: dict[str, Any]) -> None:
    assert hand_chain.rules_digest(rules) == REF["rules_digest"](rules)


def test_a_chain_of_another_length_deals_every_hand_from_another_seed() -> None:
    # The chain's length (max_hands) is part of what is committed to.
    shorter, longer = hand_chain.hand_seeds("s", 3), hand_chain.hand_seeds("s", 4)
    assert all(one != other for one, other in zip(shorter, longer, strict=False))
