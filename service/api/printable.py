"""Text that other people read: player names as printable text, client seeds
without control characters. Each rule is one regular expression, which the
body decoder enforces (msgspec's `pattern`, schemas.py) and the OpenAPI
document states (a name's up to U+FFFF only, and the rest in words:
`DOCUMENTED_NAME_PATTERN`); the `*_problem` functions say in words what is wrong.

A player's name is shown to everyone at the table. It may hold letters,
marks, digits, punctuation, symbols and spaces of any script, but none of:

- control characters (Unicode category Cc: NUL, tab, line breaks, escape, C1);
- format characters (Cf), which change how the text around them shows
  without showing themselves: bidi embeddings, overrides, isolates and marks
  (`Ann` + U+202E + `gnp.exe` reads as `Annexe.png`), zero-width space,
  joiner and non-joiner, word joiner, byte order mark, soft hyphen, tags;
- separators other than the plain space: line and paragraph separators, and
  the no-break, wide and narrow spaces that look like a space but are not;
- letters that render as nothing (the Hangul fillers, the blank braille cell),
  and the rest of plane 14 but its variation selectors (tags, and code points
  kept for more invisible ones);
- noncharacters. (Surrogates never get this far: the JSON decoder refuses them.)

A name starts and ends with something other than a space (so it is never
blank, and never differs from another by spaces at its ends alone), and has
1 to 64 characters (code points).

Private-use and unassigned code points are let through: they show as a
font's own glyph or as a box, never as nothing and never reorder the text
around them. Which code points are unassigned changes with each Unicode
version, so no fixed pattern could name them alike for every client; and a
pattern that names the 137,000 private-use ones (or the planes never
assigned) is a range that tools which generate text from patterns walk one
code point at a time (hypothesis, so schemathesis: our contract tests took
ten times as long).

A `client_seed` is entropy, not display: any text of up to 256 characters,
but no control characters (NUL cuts strings short in many tools).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

NAME_MAX_LENGTH = 64
CLIENT_SEED_MAX_LENGTH = 256

_NOT_IN_NAMES: tuple[tuple[int, int, str], ...] = (
    (0x0000, 0x001F, "a control character"),
    (0x007F, 0x009F, "a control character"),
    (0x00A0, 0x00A0, "a space other than the plain space"),
    (0x00AD, 0x00AD, "an invisible format character"),
    (0x0600, 0x0605, "an invisible format character"),
    (0x061C, 0x061C, "a bidi control"),
    (0x06DD, 0x06DD, "an invisible format character"),
    (0x070F, 0x070F, "an invisible format character"),
    (0x0890, 0x0891, "an invisible format character"),
    (0x08E2, 0x08E2, "an invisible format character"),
    (0x115F, 0x1160, "a letter that shows as nothing"),
    (0x1680, 0x1680, "a space other than the plain space"),
    (0x180E, 0x180E, "an invisible format character"),
    (0x2000, 0x200A, "a space other than the plain space"),
    (0x200B, 0x200D, "a zero-width character"),
    (0x200E, 0x200F, "a bidi control"),
    (0x2028, 0x2029, "a line or paragraph separator"),
    (0x202A, 0x202E, "a bidi control"),
    (0x202F, 0x202F, "a space other than the plain space"),
    (0x205F, 0x205F, "a space other than the plain space"),
    (0x2060, 0x2065, "an invisible format character"),
    (0x2066, 0x2069, "a bidi control"),
    (0x206A, 0x206F, "an invisible format character"),
    (0x2800, 0x2800, "a letter that shows as nothing"),
    (0x3000, 0x3000, "a space other than the plain space"),
    (0x3164, 0x3164, "a letter that shows as nothing"),
    (0xFDD0, 0xFDEF, "a noncharacter"),
    (0xFEFF, 0xFEFF, "a zero-width character"),
    (0xFFA0, 0xFFA0, "a letter that shows as nothing"),
    (0xFFF0, 0xFFFB, "an invisible format character"),
    (0xFFFE, 0xFFFF, "a noncharacter"),
    (0x110BD, 0x110BD, "an invisible format character"),
    (0x110CD, 0x110CD, "an invisible format character"),
    (0x13430, 0x1343F, "an invisible format character"),
    (0x1BCA0, 0x1BCA3, "an invisible format character"),
    (0x1D173, 0x1D17A, "an invisible format character"),
    *(
        (plane + 0xFFFE, plane + 0xFFFF, "a noncharacter")
        for plane in range(0x10000, 0xE0000, 0x10000)
    ),
    (0xE0000, 0xE00FF, "an invisible tag character"),
    (0xE01F0, 0xE0FFF, "an invisible code point"),
    *(
        (plane + 0xFFFE, plane + 0xFFFF, "a noncharacter")
        for plane in range(0xE0000, 0x110000, 0x10000)
    ),
)
"""What a name may not hold: (first, last, what it is), in code point order.
tests/api/test_printable.py holds it to Python's own Unicode categories."""

_CONTROLS: tuple[tuple[int, int, str], ...] = _NOT_IN_NAMES[:2]


def _char_class(ranges: tuple[tuple[int, int, str], ...]) -> str:
    """The body of a regular expression class of `ranges`, adjacent ones joined."""
    joined: list[list[int]] = []
    for first, last, _ in ranges:
        if joined and joined[-1][1] + 1 == first:
            joined[-1][1] = last
        else:
            joined.append([first, last])
    # The characters themselves, not escapes: `\uXXXX` is unknown to some regular
    # expression dialects, `\U0010FFFF` to most; none of these needs escaping here.
    return "".join(
        chr(first) if first == last else f"{chr(first)}-{chr(last)}" for first, last in joined
    )


def _name_pattern(ranges: tuple[tuple[int, int, str], ...]) -> str:
    char, end = f"[^{_char_class(ranges)}]", f"[^ {_char_class(ranges)}]"
    # `\Z`, not `$`: Python's `$` also matches before a final newline, and msgspec
    # searches with the pattern. The OpenAPI document says `$` (`json_schema_pattern`).
    return f"^{end}(?:{char}*{end})?\\Z"


NAME_PATTERN = _name_pattern(_NOT_IN_NAMES)
DOCUMENTED_NAME_PATTERN = _name_pattern(tuple(item for item in _NOT_IN_NAMES if item[1] <= 0xFFFF))
"""The part of `NAME_PATTERN` in the Basic Multilingual Plane, which the OpenAPI
document states: a class with ranges above U+FFFF is read as pairs of UTF-16
halves, "out of order", by every engine that compiles patterns without Unicode
mode (JavaScript's without the `u` flag: Spectral, ajv by default, several
client generators). This one reads alike in both modes (a code point above
U+FFFF passes it as one character or as two halves), and `NAME_RULE` says in
words what the service refuses above U+FFFF too."""
CLIENT_SEED_PATTERN = f"^[^{_char_class(_CONTROLS)}]*\\Z"

NAME_RULE = (
    "Printable text of 1 to 64 characters that neither starts nor ends with a space. "
    "Not allowed: control characters, invisible format characters (bidi controls, "
    "zero-width space, joiner and non-joiner, byte order mark, soft hyphen, tags), "
    "separators other than the plain space U+0020 (no-break and other spaces, line and "
    "paragraph separators), letters that show as nothing (Hangul fillers, blank braille "
    "cell), plane 14 other than its variation selectors, and noncharacters. The pattern "
    "states the rule up to U+FFFF only, so that engines without Unicode mode read it "
    "alike; above, the service also refuses the invisible format characters U+110BD, "
    "U+110CD, U+13430-U+1343F, U+1BCA0-U+1BCA3 and U+1D173-U+1D17A, plane 14's tags "
    "U+E0000-U+E00FF and U+E01F0-U+E0FFF, and the noncharacters U+nFFFE and U+nFFFF of "
    "every plane."
)
CLIENT_SEED_RULE = "Any text of up to 256 characters without control characters."


def name_problem(name: str) -> str | None:
    """What makes `name` no printable name, in words; None if it is one."""
    if not name:
        return "A name must not be empty."
    for char in name:
        what = _forbidden(char, _NOT_IN_NAMES)
        if what is not None:
            return f"A name must be printable text: it holds {_described(char)}, {what}."
    if name[:1] == " " or name[-1:] == " ":
        return "A name must not start or end with a space."
    return None


def client_seed_problem(seed: str) -> str | None:
    """What makes `seed` no client seed, in words; None if it is one."""
    for char in seed:
        what = _forbidden(char, _CONTROLS)
        if what is not None:
            return f"A client seed must not hold control characters: it holds {_described(char)}."
    return None


TEXT_RULES: dict[str, Callable[[str], str | None]] = {
    NAME_PATTERN: name_problem,
    CLIENT_SEED_PATTERN: client_seed_problem,
}
"""Each pattern and the function that explains a text it refuses."""


def json_schema_pattern(pattern: str) -> str:
    """`pattern` as the OpenAPI document states it: in JSON Schema's (ECMA-262)
    dialect, where `$` is the end of the text, and the name's in the BMP."""
    if pattern == NAME_PATTERN:
        pattern = DOCUMENTED_NAME_PATTERN
    return pattern[: -len("\\Z")] + "$" if pattern.endswith("\\Z") else pattern


def _forbidden(char: str, ranges: tuple[tuple[int, int, str], ...]) -> str | None:
    point = ord(char)
    for first, last, what in ranges:
        if first <= point <= last:
            return what
    return None


def _described(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")
