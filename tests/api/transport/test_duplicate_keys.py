"""`first_duplicate_key` against a simple oracle: the standard library's decoder
given every key of every object (`object_pairs_hook`), walked by hand.

The JSON texts are written here as text, so an object can hold a key twice
(no dict can), keys can be spelled with escapes, and colons can sit in keys
and strings, where the quick colon count would be misled.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from service.api.transport.bodies import first_duplicate_key


class Pairs(list[tuple[str, Any]]):
    """An object as the oracle keeps it: every key, in order, repeats too."""


def oracle(body: bytes) -> set[tuple[str, str]]:
    """Every (key, place) that an object of `body` holds more than once."""
    found: set[tuple[str, str]] = set()

    def walk(value: Any, place: str) -> None:
        if isinstance(value, Pairs):
            keys = [key for key, _ in value]
            for key, inner in value:
                here = f"{place}.{key}" if place else key
                if keys.count(key) > 1:
                    found.add((key, here))
                walk(inner, here)
        elif isinstance(value, list):
            for index, inner in enumerate(value):
                walk(inner, f"{place}[{index}]")

    walk(json.loads(body, object_pairs_hook=Pairs), "")
    return found


# Few key names, so that objects often repeat one; some hold colons, some are
# spelled two ways ("a" and "\u0061" are the same key once decoded).
KEYS = st.sampled_from(['"a"', '"\\u0061"', '"b"', '"a:b"', '":"', '"type"', '"t\\u0079pe"'])
SPACE = st.sampled_from(["", " ", "\n", "\t "])
SCALARS = st.one_of(
    st.sampled_from(['"x"', '":"', '"a:b:c"', '"\\":"', "1", "-2.5e3", "true", "null", '""']),
    st.text(max_size=8).map(lambda text: json.dumps(text, ensure_ascii=False)),
)


def _object(members: list[tuple[str, str, str, str]]) -> str:
    return (
        "{"
        + ",".join(f"{key}{before}:{after}{value}" for key, before, after, value in members)
        + "}"
    )


def _array(items: list[str]) -> str:
    return "[" + ",".join(items) + "]"


JSON_TEXT = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(st.tuples(KEYS, SPACE, SPACE, inner), max_size=5).map(_object),
        st.lists(inner, max_size=4).map(_array),
    ),
    max_leaves=25,
)


@settings(max_examples=600, deadline=None)
@given(JSON_TEXT)
def test_first_duplicate_key_agrees_with_the_oracle(text: str) -> None:
    body = text.encode("utf-8")
    duplicates = oracle(body)
    found = first_duplicate_key(body, msgspec.json.decode(body))
    if duplicates:
        assert found in duplicates
    else:
        assert found is None


def test_the_first_duplicate_is_the_outermost_then_leftmost() -> None:
    body = b'[{"b":{"c":1,"c":2}},{"a":1,"a":{"d":1,"d":2}}]'
    assert first_duplicate_key(body, msgspec.json.decode(body)) == ("c", "[0].b.c")
    body = b'{"a":{"d":1,"d":2},"a":3}'
    assert first_duplicate_key(body, msgspec.json.decode(body)) == ("a", "a")


def test_bodies_without_objects_have_no_duplicates() -> None:
    for body in (b"3", b'"a:b"', b"[]", b'[":",[":"]]', b"{}"):
        assert first_duplicate_key(body, msgspec.json.decode(body)) is None
