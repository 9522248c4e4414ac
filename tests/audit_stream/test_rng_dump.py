"""`rummy rng-dump` (docs/fairness.md, "For test labs"): what it prints is the
generator's own output, the very words and decks the shuffle makes for that seed.

The words are held to HMAC-SHA-256 in counter mode written here from
docs/fairness.md (and to worked example A's block), the decks to
`deck_order` and to example A's first cards."""

from __future__ import annotations

import hashlib
import hmac
import re
from collections import Counter

import pytest

from service import cli
from service.domain.cards import card_codes
from service.domain.rules import RuleSet
from service.domain.shuffle import deck_order

SEED = "example-seed-0001"
"""docs/fairness.md's example A: two seats, no client seed."""


def words_from_the_doc(seed: str, count: int) -> list[int]:
    material = b"straight-rummy/fairness/v1"
    for part in (seed, "", ""):
        data = part.encode()
        material += len(data).to_bytes(8, "big") + data
    key = hashlib.sha256(material).digest()
    words: list[int] = []
    counter = 0
    while len(words) < count:
        block = hmac.new(key, b"deck/1" + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        words += [int.from_bytes(block[at : at + 4], "big") for at in range(0, 32, 4)]
        counter += 1
    return words[:count]


def dumped(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[list[str], str]:
    assert cli.main(["rng-dump", *args]) == 0
    out, err = capsys.readouterr()
    assert out.endswith("\n")
    return out.splitlines(), err


def test_the_words_are_the_generators_one_unsigned_decimal_a_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines, err = dumped(capsys, "--words", "1000", "--seed", SEED)
    assert err == ""
    assert all(re.fullmatch(r"0|[1-9][0-9]*", line) for line in lines)
    assert [int(line) for line in lines] == words_from_the_doc(SEED, 1000)
    # Worked example A: "deck hand 1, block 0".
    block = "8c2174996f6733155ee7a21da54b9c82db055ac7074802b5a44e9100af443b3b"
    assert lines[:8] == [str(int(block[at : at + 8], 16)) for at in range(0, 64, 8)]


def test_the_decks_are_the_hands_the_shuffle_deals(capsys: pytest.CaptureFixture[str]) -> None:
    lines, _ = dumped(capsys, "--decks", "50", "--seed", SEED)
    assert lines == [
        " ".join(card_codes(deck_order(SEED, ("", ""), hand))) for hand in range(1, 51)
    ]
    # Worked example A: "deck hand 1, first ten" and "deck hand 2, first ten".
    assert lines[0].split()[:10] == ["8C", "6S", "7D", "5D", "7C", "4C", "3S", "JD", "2D", "3H"]
    assert lines[1].split()[:10] == ["10C", "5H", "KH", "3H", "10D", "7S", "7C", "KC", "JC", "2D"]


@pytest.mark.parametrize("variant", ["indian", "wrotham"])
def test_a_variants_decks_shuffle_its_whole_pack(
    capsys: pytest.CaptureFixture[str], variant: str
) -> None:
    lines, _ = dumped(capsys, "--decks", "3", "--seed", SEED, "--variant", variant)
    pack = RuleSet.from_dict({"variant": variant}).pack
    for hand, line in enumerate(lines, start=1):
        assert Counter(line.split(" ")) == Counter(card_codes(pack))
        assert line == " ".join(card_codes(deck_order(SEED, ("", ""), hand, pack)))


def test_without_a_seed_a_fresh_one_is_drawn_and_printed_to_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines, err = dumped(capsys, "--words", "16")
    found = re.fullmatch(r"seed: ([0-9a-f]{64})\n", err)
    assert found is not None
    assert [int(line) for line in lines] == words_from_the_doc(found.group(1), 16)
    again, other = dumped(capsys, "--words", "16")
    assert other != err
    assert again != lines


def test_a_dump_needs_one_kind_and_a_count(capsys: pytest.CaptureFixture[str]) -> None:
    for args in ([], ["--words", "3", "--decks", "3"], ["--words", "-1"]):
        with pytest.raises(SystemExit) as exit_:
            cli.main(["rng-dump", *args])
        assert exit_.value.code == 2
    assert cli.main(["rng-dump", "--decks", "1", "--variant", "poker"]) == 2
    assert "Rule 'variant'" in capsys.readouterr().err
