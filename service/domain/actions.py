"""The things a player can do on a turn: the classic four, and the variants'.

`as_` (`as` in plain form) says what each card of a meld, or a laid-off card,
stands for in games with wild cards; None lets the server read it.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.domain.cards import Card
from service.domain.state import Source


@dataclass(frozen=True, slots=True)
class Draw:
    source: Source
    count: int = 1
    """How many cards to take from the top of the discard pile (500 Rum's spread
    pile); 1 everywhere else (`checks.count_problem`)."""


@dataclass(frozen=True, slots=True)
class Meld:
    cards: tuple[Card, ...]
    as_: tuple[Card, ...] | None = None
    """Parallel to `cards`: what each stands for (a natural card names itself)."""


@dataclass(frozen=True, slots=True)
class LayOff:
    card: Card
    meld_id: str
    as_: Card | None = None
    """What a wild `card` stands for in the meld."""


@dataclass(frozen=True, slots=True)
class Discard:
    card: Card


@dataclass(frozen=True, slots=True)
class Swap:
    """Put `card` into meld `meld_id` where one of its wilds stands for it, and take
    that wild into hand."""

    meld_id: str
    card: Card


@dataclass(frozen=True, slots=True)
class Knock:
    """Knock Rummy and Gin: end the hand, discarding `card` face down. Gin only:
    no `card` is big gin, and `melds` the knocker's own arrangement of the rest."""

    card: Card | None
    melds: tuple[tuple[Card, ...], ...] | None = None


@dataclass(frozen=True, slots=True)
class Pass:
    """Gin, in the upcard offer: leave the upcard."""


@dataclass(frozen=True, slots=True)
class Declare:
    """Indian: show the hand in `groups` (exactly the other 13 cards), putting the
    finish `card` out of play."""

    card: Card
    groups: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class SubmitGroups:
    """Indian, in the show: show the hand in `groups` (cards in none are ungrouped)."""

    groups: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class Drop:
    """Indian: leave the deal before drawing, for the format's drop points."""


Action = Draw | Meld | LayOff | Discard | Swap | Knock | Declare | SubmitGroups | Drop | Pass
