"""Provably fair shuffling: the algorithm of docs/fairness.md, as coded and as documented."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.domain import shuffle
from service.domain.cards import FULL_DECK, Card, card_codes, pack, parse_cards
from service.domain.shuffle import (
    _block,
    _fisher_yates,
    _key,
    _key_material,
    _uniform,
    _words,
    commitment,
    deck_order,
    first_dealer,
    recycle_order,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
SEED = "example-seed-0001"
TWO_EMPTY = ("", "")
WORD_RANGE = 2**32


# --- reading docs/fairness.md ------------------------------------------------------------


def _fenced_blocks_after(marker: str) -> list[str]:
    """The body of every fenced code block that directly follows an HTML comment `marker`."""
    pattern = re.compile(rf"<!-- {re.escape(marker)}\b[^>]*-->\s*```[a-z]*\n(.*?)^```", re.M | re.S)
    return pattern.findall(DOC.read_text(encoding="utf-8"))


def _reference_implementation() -> dict[str, Any]:
    """Execute the doc's reference implementation; its functions, by name."""
    (code,) = _fenced_blocks_after("reference-implementation")
    namespace: dict[str, Any] = {"__name__": "fairness_reference"}
    exec(compile(code, f"{DOC}:reference-implementation", "exec"), namespace)
    return namespace


def _worked_examples() -> list[list[tuple[str, Any]]]:
    """Each worked example as (name, JSON value) pairs, in the doc's order."""
    examples = []
    for block in _fenced_blocks_after("worked-example"):
        fields = []
        for line in block.splitlines():
            name, _, value = line.partition(":")
            fields.append((name.strip(), json.loads(value)))
        examples.append(fields)
    return examples


# --- what a worked-example line means --------------------------------------------------


def _recorded_rejections(
    seed: str, client_seeds: Sequence[str], hand_number: int
) -> list[list[int]]:
    """[word index, n, word] for each word the deck of the hand rejects."""
    rejections: list[list[int]] = []
    stream = _words(_key(seed, client_seeds), f"deck/{hand_number}")
    index = 0
    for i in range(len(FULL_DECK) - 1, 0, -1):
        n = i + 1
        while (word := next(stream)) >= WORD_RANGE - WORD_RANGE % n:
            rejections.append([index, n, word])
            index += 1
        index += 1
    return rejections


def _line_value(name: str, seed: str, client_seeds: Sequence[str], pile: list[str]) -> Any:
    """What the code says the worked-example line `name` should be."""
    key = _key(seed, client_seeds)
    line_kinds: list[tuple[str, Callable[..., Any]]] = [
        (
            r"deck hand (\d+), (first twenty|all \d+) \((\d+) packs?, (\d+) jokers?\)",
            lambda h, how, packs, jokers: _pack_deck_line(
                seed, client_seeds, int(h), how, int(packs), int(jokers)
            ),
        ),
        (r"commitment", lambda: commitment(seed)),
        (r"key material", lambda: _key_material(seed, client_seeds).hex()),
        (r"key", lambda: key.hex()),
        (r"deck hand (\d+), block (\d+)", lambda h, c: _block(key, f"deck/{h}", int(c)).hex()),
        (
            r"deck hand (\d+), first ten",
            lambda h: card_codes(deck_order(seed, client_seeds, int(h))[:10]),
        ),
        (r"deck hand (\d+), all 52", lambda h: card_codes(deck_order(seed, client_seeds, int(h)))),
        (
            r"deck hand (\d+), rejected \(word index, n, word\)",
            lambda h: _recorded_rejections(seed, client_seeds, int(h)),
        ),
        (r"first dealer, (\d+) players", lambda p: first_dealer(seed, client_seeds, int(p))),
        (
            r"recycle hand (\d+) #(\d+)",
            lambda h, r: card_codes(
                recycle_order(seed, client_seeds, int(h), int(r), parse_cards(pile))
            ),
        ),
    ]
    for pattern, compute in line_kinds:
        if match := re.fullmatch(pattern, name):
            return compute(*match.groups())
    raise AssertionError(f"docs/fairness.md has a worked-example line nobody checks: {name!r}")


def _pack_deck_line(
    seed: str, client_seeds: Sequence[str], hand: int, how: str, packs: int, jokers: int
) -> list[str]:
    """A deck of a pack with more than 52 cards, whole or its first twenty."""
    deck = card_codes(deck_order(seed, client_seeds, hand, pack(packs, jokers)))
    if how == "first twenty":
        return deck[:20]
    assert how == f"all {len(deck)}", f"{how}: the pack has {len(deck)} cards"
    return deck


def _render_example(
    seed: str, client_seeds: Sequence[str], pile: list[str], names: list[str]
) -> str:
    """A worked-example block as the doc prints it (used to regenerate the doc's examples)."""
    lines = [("seed", seed), ("client seeds", list(client_seeds))]
    if pile:
        lines.append(("recycle pile", pile))
    lines += [(name, _line_value(name, seed, client_seeds, pile)) for name in names]
    width = max(len(name) for name, _ in lines) + 2
    body = "\n".join(
        f"{name + ':':<{width}}{json.dumps(value, ensure_ascii=False)}" for name, value in lines
    )
    return f"<!-- worked-example -->\n```text\n{body}\n```"


EXAMPLES = _worked_examples()
EXAMPLE_IDS = [f"example-{chr(ord('A') + i)}" for i in range(len(EXAMPLES))]


# --- the doc and the code agree --------------------------------------------------------


def test_the_doc_lists_the_reference_deck_order_of_the_code():
    (listing,) = _fenced_blocks_after("reference-deck")
    assert listing.split() == card_codes(FULL_DECK)


def test_the_doc_has_the_promised_worked_examples():
    names = {name for example in EXAMPLES for name, _ in example}
    assert len(EXAMPLES) >= 3
    assert {"commitment", "key", "deck hand 1, first ten", "first dealer, 2 players"} <= names
    assert any(name.startswith("recycle hand") for name in names)
    assert any(name.startswith("deck hand") and "rejected" in name for name in names)
    client_seed_lists = [dict(example)["client seeds"] for example in EXAMPLES]
    assert ["", ""] in client_seed_lists  # nobody gave a client seed
    assert any(sum(seed != "" for seed in seeds) == 1 for seeds in client_seed_lists)


@pytest.mark.parametrize("example", EXAMPLES, ids=EXAMPLE_IDS)
def test_every_worked_example_value_matches_the_code(example):
    fields = dict(example)
    seed, client_seeds = fields.pop("seed"), fields.pop("client seeds")
    pile = fields.pop("recycle pile", [])
    for name, printed in fields.items():
        assert printed == _line_value(name, seed, client_seeds, pile), name


@pytest.mark.parametrize("example", EXAMPLES, ids=EXAMPLE_IDS)
def test_the_reference_implementation_reproduces_every_worked_example(example):
    reference = _reference_implementation()
    fields = dict(example)
    seed, client_seeds = fields["seed"], fields["client seeds"]
    for name, printed in fields.items():
        if name == "commitment":
            assert reference["commitment"](seed) == printed
        if match := re.fullmatch(r"deck hand (\d+), (first ten|all 52)", name):
            assert reference["deck"](seed, client_seeds, int(match[1]))[: len(printed)] == printed
        pattern = r"deck hand (\d+), (?:first twenty|all \d+) \((\d+) packs?, (\d+) jokers?\)"
        if match := re.fullmatch(pattern, name):
            hand, packs, jokers = map(int, match.groups())
            dealt = reference["deck"](seed, client_seeds, hand, packs, jokers)
            assert dealt[: len(printed)] == printed
        if match := re.fullmatch(r"first dealer, (\d+) players", name):
            assert reference["first_dealer"](seed, client_seeds, int(match[1])) == printed
        if match := re.fullmatch(r"recycle hand (\d+) #(\d+)", name):
            cards = fields["recycle pile"]
            assert reference["recycle"](seed, client_seeds, *map(int, match.groups()), cards) == (
                printed
            )


CLIENT_SEED_LISTS: list[tuple[str, ...]] = [
    (),
    ("", ""),
    ("", "bob"),
    ("é🂡", "", "x"),
    ("a", "b", "c", "d", "e", "f"),
]


def test_the_reference_implementation_deals_the_same_decks_as_the_code():
    reference = _reference_implementation()
    seeds = [f"seed-{i}" for i in range(150)] + ["", "0" * 64, hashlib.sha256(b"x").hexdigest()]
    for i, seed in enumerate(seeds):
        client_seeds = CLIENT_SEED_LISTS[i % len(CLIENT_SEED_LISTS)]
        hand = i % 9 + 1
        deck = card_codes(deck_order(seed, client_seeds, hand))
        assert reference["deck"](seed, client_seeds, hand) == deck, seed
        pile = deck[: i % 40]
        assert reference["recycle"](seed, client_seeds, hand, i % 3 + 1, pile) == card_codes(
            recycle_order(seed, client_seeds, hand, i % 3 + 1, parse_cards(pile))
        )
        for players in range(2, 7):
            assert reference["first_dealer"](seed, client_seeds, players) == first_dealer(
                seed, client_seeds, players
            )
        assert reference["commitment"](seed) == commitment(seed)


PACKS = [(1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 2), (2, 4)]


def test_the_reference_pack_is_the_extended_reference_order():
    reference = _reference_implementation()
    (listing,) = _fenced_blocks_after("reference-deck")
    fifty_two = listing.split()
    for packs, jokers in PACKS:
        # Pack 1 in the 52-card order, then pack 2, then the jokers.
        expected = fifty_two * packs + ["JK"] * jokers
        assert reference["pack"](packs, jokers) == expected
        assert card_codes(pack(packs, jokers)) == expected
    assert reference["pack"]() == fifty_two


def test_the_reference_implementation_deals_the_same_decks_of_every_pack_as_the_code():
    reference = _reference_implementation()
    for i in range(120):
        seed = f"pack-seed-{i}"
        client_seeds = CLIENT_SEED_LISTS[i % len(CLIENT_SEED_LISTS)]
        hand = i % 7 + 1
        packs, jokers = PACKS[i % len(PACKS)]
        deck = card_codes(deck_order(seed, client_seeds, hand, pack(packs, jokers)))
        assert reference["deck"](seed, client_seeds, hand, packs, jokers) == deck, seed
        assert Counter(deck) == Counter(reference["pack"](packs, jokers))


def test_a_pack_of_52_deals_as_before_jokers_existed():
    # The default pack is the 52 cards: classic decks are unchanged.
    for hand in range(1, 6):
        assert deck_order(SEED, TWO_EMPTY, hand, pack(1, 0)) == deck_order(SEED, TWO_EMPTY, hand)


@given(
    seed=st.text(max_size=40),
    client_seeds=st.lists(st.text(max_size=10), max_size=6),
    hand=st.integers(min_value=1, max_value=10**6),
    packs=st.integers(min_value=1, max_value=2),
    jokers=st.integers(min_value=0, max_value=4),
)
def test_the_reference_implementation_agrees_on_any_pack(seed, client_seeds, hand, packs, jokers):
    reference = _reference_implementation()
    deck = card_codes(deck_order(seed, client_seeds, hand, pack(packs, jokers)))
    assert reference["deck"](seed, client_seeds, hand, packs, jokers) == deck
    assert Counter(deck) == Counter(reference["pack"](packs, jokers))


@given(
    seed=st.text(max_size=80),
    client_seeds=st.lists(st.text(max_size=20), max_size=6),
    hand=st.integers(min_value=1, max_value=10**12),
)
def test_the_reference_implementation_agrees_on_any_unicode_seeds(seed, client_seeds, hand):
    reference = _reference_implementation()
    assert reference["deck"](seed, client_seeds, hand) == card_codes(
        deck_order(seed, client_seeds, hand)
    )


def test_the_rejection_example_catches_a_shuffle_without_rejection():
    (example,) = [e for e in EXAMPLES if any("rejected" in name for name, _ in e)]
    fields = dict(example)
    (name,) = [name for name in fields if "rejected" in name]
    hand = int(re.findall(r"\d+", name)[0])
    assert fields[name], "the example hand must reject at least one word"

    def modulo_only(words: Iterator[int], n: int) -> int:
        return next(words) % n

    biased = list(FULL_DECK)
    words = _words(_key(fields["seed"], fields["client seeds"]), f"deck/{hand}")
    for i in range(len(biased) - 1, 0, -1):
        j = modulo_only(words, i + 1)
        biased[i], biased[j] = biased[j], biased[i]
    assert biased != deck_order(fields["seed"], fields["client seeds"], hand)


# --- behaviour of the code -------------------------------------------------------------


def test_the_same_seeds_always_give_the_same_deck():
    assert deck_order(SEED, TWO_EMPTY, 1) == deck_order(SEED, TWO_EMPTY, 1)
    assert deck_order(SEED, ["", "x"], 3) == deck_order(SEED, ("", "x"), 3)
    assert first_dealer(SEED, TWO_EMPTY, 4) == first_dealer(SEED, TWO_EMPTY, 4)


@given(
    seed=st.text(max_size=40),
    client_seeds=st.lists(st.text(max_size=10), max_size=6),
    hand=st.integers(min_value=1, max_value=10**6),
)
def test_every_deck_is_a_permutation_of_the_52_cards(seed, client_seeds, hand):
    deck = deck_order(seed, client_seeds, hand)
    assert len(deck) == 52
    assert sorted(deck, key=FULL_DECK.index) == list(FULL_DECK)


@given(pile=st.permutations(FULL_DECK), size=st.integers(min_value=0, max_value=52))
def test_a_recycle_is_a_permutation_of_the_pile(pile, size):
    cards = pile[:size]
    assert Counter(recycle_order(SEED, TWO_EMPTY, 1, 1, cards)) == Counter(cards)


def test_a_recycle_does_not_change_the_pile_it_is_given():
    pile = list(FULL_DECK[:20])
    recycle_order(SEED, TWO_EMPTY, 1, 1, pile)
    assert pile == list(FULL_DECK[:20])


def test_a_pile_of_one_card_is_the_new_stock_as_it_is():
    assert recycle_order(SEED, TWO_EMPTY, 2, 1, [FULL_DECK[7]]) == [FULL_DECK[7]]
    assert recycle_order(SEED, TWO_EMPTY, 2, 1, []) == []


def test_each_hand_gets_its_own_deck():
    decks = {tuple(deck_order(SEED, TWO_EMPTY, hand)) for hand in range(1, 41)}
    assert len(decks) == 40


def test_each_recycle_gets_its_own_order_distinct_from_the_deck():
    orders = {
        tuple(recycle_order(SEED, TWO_EMPTY, hand, number, FULL_DECK))
        for hand in range(1, 6)
        for number in range(1, 5)
    }
    assert len(orders) == 20
    assert tuple(deck_order(SEED, TWO_EMPTY, 1)) not in orders


def test_a_client_seed_changes_the_deck_and_its_seat_matters():
    decks = [
        deck_order(SEED, client_seeds, 1)
        for client_seeds in [("", ""), ("", "x"), ("x", ""), ("", "y"), ("x", "x")]
    ]
    assert len({tuple(deck) for deck in decks}) == len(decks)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        (("ab", ["c"]), ("a", ["bc"])),
        (("abc", []), ("ab", ["c"])),
        (("a", []), ("a", [""])),
        (("a", ["", ""]), ("a", [""])),
        (("a", ["b", ""]), ("a", ["", "b"])),
        (("", ["a"]), ("a", [""])),
    ],
)
def test_seeds_are_combined_unambiguously(one, other):
    (seed, client_seeds), (other_seed, other_client_seeds) = one, other
    assert _key_material(seed, client_seeds) != _key_material(other_seed, other_client_seeds)
    assert deck_order(seed, client_seeds, 1) != deck_order(other_seed, other_client_seeds, 1)


def test_client_seeds_given_as_one_string_are_refused():
    with pytest.raises(TypeError, match="one per seat"):
        deck_order(SEED, "ab", 1)


def test_the_key_material_is_the_prefix_then_length_prefixed_utf8():
    assert _key_material("é", ["", "ab"]) == (
        b"straight-rummy/fairness/v1"
        + b"\x00\x00\x00\x00\x00\x00\x00\x02\xc3\xa9"
        + b"\x00\x00\x00\x00\x00\x00\x00\x00"
        + b"\x00\x00\x00\x00\x00\x00\x00\x02ab"
    )
    assert _key("é", ["", "ab"]) == hashlib.sha256(_key_material("é", ["", "ab"])).digest()


def test_the_word_stream_reads_the_blocks_in_order_as_big_endian_words():
    key = _key(SEED, TWO_EMPTY)
    stream = _words(key, "deck/1")
    words = [next(stream) for _ in range(24)]
    blocks = b"".join(_block(key, "deck/1", counter) for counter in range(3))
    assert words == [int.from_bytes(blocks[at : at + 4], "big") for at in range(0, 96, 4)]


def test_a_deck_costs_seven_hmac_blocks(monkeypatch):
    calls: list[int] = []

    def counting_block(key: bytes, label: str, counter: int) -> bytes:
        calls.append(counter)
        return _block(key, label, counter)

    monkeypatch.setattr(shuffle, "_block", counting_block)
    deck_order(SEED, TWO_EMPTY, 1)
    assert calls == list(range(7))  # 51 draws, 8 words a block, no rejection in hand 1


def test_the_first_dealer_is_one_of_the_seats():
    for players in range(2, 7):
        dealers = {first_dealer(f"seed-{i}", [""] * players, players) for i in range(200)}
        assert dealers == set(range(players))


# --- argument validation ---------------------------------------------------------------


@pytest.mark.parametrize("hand_number", [0, -1, True])
def test_hands_count_from_one(hand_number):
    with pytest.raises(ValueError, match="hand_number counts from 1"):
        deck_order(SEED, TWO_EMPTY, hand_number)
    with pytest.raises(ValueError, match="hand_number counts from 1"):
        recycle_order(SEED, TWO_EMPTY, hand_number, 1, FULL_DECK)


@pytest.mark.parametrize("recycle_number", [0, -3])
def test_recycles_count_from_one(recycle_number):
    with pytest.raises(ValueError, match="recycle_number counts from 1"):
        recycle_order(SEED, TWO_EMPTY, 1, recycle_number, FULL_DECK)


@pytest.mark.parametrize("players", [-1, 0, 1, 9])
def test_the_first_dealer_needs_two_to_eight_players(players):
    # Eight: 500 Rum's most seats, the most of any variant.
    with pytest.raises(ValueError, match="players must be between 2 and 8"):
        first_dealer(SEED, TWO_EMPTY, players)


# --- the commitment --------------------------------------------------------------------


def test_the_commitment_is_the_sha256_of_the_utf8_seed():
    # Standard SHA-256 test vectors, computed by no code of ours.
    assert commitment("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert commitment("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert commitment("é") == hashlib.sha256("é".encode()).hexdigest()


def test_the_commitment_is_64_lowercase_hex_digits_and_binds_the_seed():
    seed = "0123456789abcdef" * 4
    assert re.fullmatch(r"[0-9a-f]{64}", commitment(seed))
    assert commitment(seed) != commitment(seed.upper())


# --- unbiased integers -----------------------------------------------------------------


def test_uniform_rejects_words_at_or_above_the_largest_multiple_of_n():
    limit = WORD_RANGE - WORD_RANGE % 52  # 4294967248
    words = iter([limit, WORD_RANGE - 1, limit - 1, 5])
    assert _uniform(words, 52) == (limit - 1) % 52 == 51
    assert next(words) == 5  # exactly three words were read


def test_uniform_takes_the_remainder_of_an_accepted_word():
    assert _uniform(iter([0]), 52) == 0
    assert _uniform(iter([52 * 1000 + 17]), 52) == 17
    assert _uniform(iter([WORD_RANGE - 2]), 3) == (WORD_RANGE - 2) % 3
    with pytest.raises(ValueError, match="ended"):
        _uniform(iter([WORD_RANGE - 1]), 3)  # 2**32 - 1 is rejected for n = 3, nothing follows


def test_uniform_never_rejects_when_n_divides_two_to_the_32():
    assert _uniform(iter([WORD_RANGE - 1]), 4) == 3
    assert _uniform(iter([WORD_RANGE - 1]), 1) == 0


def test_fisher_yates_draws_j_from_zero_to_i_and_swaps():
    # Words 0 0 0: i=3 swaps with 0, i=2 with 0, i=1 with 0.
    assert _fisher_yates("abcd", iter([0, 0, 0])) == list("bcda")
    # Words i: every j = i, so nothing moves.
    assert _fisher_yates("abcd", iter([3, 2, 1])) == list("abcd")


# --- statistical sanity (fixed seeds: deterministic, cannot flake) ---------------------


def _chi_square(counts: Counter[Any], categories: int, total: int) -> float:
    expected = total / categories
    assert len(counts) <= categories
    missing = categories - len(counts)
    return sum((seen - expected) ** 2 / expected for seen in counts.values()) + missing * expected


def test_every_card_is_about_as_likely_to_come_first_and_last():
    decks = [deck_order(f"chi-square-{i}", TWO_EMPTY, 1) for i in range(5200)]
    # 51 degrees of freedom: mean 51, standard deviation 10; 120 is beyond p = 1e-6.
    assert _chi_square(Counter(deck[0] for deck in decks), 52, len(decks)) < 120
    assert _chi_square(Counter(deck[51] for deck in decks), 52, len(decks)) < 120


def test_every_seat_is_about_as_likely_to_deal_first():
    dealers = Counter(first_dealer(f"chi-square-{i}", [""] * 5, 5) for i in range(3000))
    # 4 degrees of freedom: 40 is beyond p = 1e-7.
    assert _chi_square(dealers, 5, 3000) < 40


def test_a_recycle_places_every_card_on_top_about_as_often():
    pile: list[Card] = list(FULL_DECK[:10])
    tops = Counter(recycle_order(f"chi-square-{i}", TWO_EMPTY, 1, 1, pile)[0] for i in range(2000))
    # 9 degrees of freedom: 60 is beyond p = 1e-8.
    assert _chi_square(tops, 10, 2000) < 60
