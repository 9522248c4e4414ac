"""Cards: typed ranks, suits and cards, and the card codes of docs/rules.md.

`Card.parse("10H")` and `str(card)` are the only places a card is a string;
everything inside the domain works with `Card` values.

The printed joker (`JK`, `JOKER`) is a card of its own rank and suit: neither
is one of the 13 ranks or 4 suits (`RANKS`, `SUITS`), so code that walks a
deck's ranks and suits never meets it, and only packs with jokers hold it.
Packs may repeat codes (two packs, several jokers): hands, piles and melds
are multisets, and equal codes are the same card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from operator import attrgetter

from service.domain.errors import UnknownCard


class Rank(IntEnum):
    """A rank, valued by its position in a low-ace run (A=1 … K=13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    JOKER = 0
    """Not a rank of the deck: the printed joker's, outside every run and set."""

    @property
    def code(self) -> str:
        return _RANK_CODES[self]

    @classmethod
    def parse(cls, code: str) -> Rank:
        try:
            return _RANKS_BY_CODE[code]
        except KeyError:
            raise UnknownCard(rank_code_problem(code)) from None


class Suit(StrEnum):
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"
    JOKER = "*"
    """Not a suit of the deck: the printed joker's."""

    @property
    def code(self) -> str:
        return self.value


RANKS: tuple[Rank, ...] = tuple(rank for rank in Rank if rank is not Rank.JOKER)
"""The 13 ranks of a deck, ace first."""
SUITS: tuple[Suit, ...] = tuple(suit for suit in Suit if suit is not Suit.JOKER)
"""The 4 suits in their order: C D H S."""

_RANK_CODES: dict[Rank, str] = {
    **{rank: str(rank.value) for rank in RANKS},
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
}
_RANKS_BY_CODE: dict[str, Rank] = {code: rank for rank, code in _RANK_CODES.items()}
_JOKER_CODE = "JK"
_JOKER_SORT = (Rank.KING + 1, "")  # after every natural card


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a natural card of the 52, or the printed joker (`JOKER`)."""

    rank: Rank
    suit: Suit
    # Derived, and worked out once when the card is made: a view or a search for
    # legal moves reads them many times over.
    code: str = field(init=False, repr=False, compare=False)
    """The card code: `10H`, `AS`, `JK`."""
    sort_key: tuple[int, str] = field(init=False, repr=False, compare=False)
    """Display order: by rank (ace first), then suit; the joker last."""

    def __post_init__(self) -> None:
        if self.rank is Rank.JOKER or self.suit is Suit.JOKER:
            if self.rank is not Rank.JOKER or self.suit is not Suit.JOKER:
                raise UnknownCard(
                    "The joker has the joker's rank and suit, and no other card does."
                )
            object.__setattr__(self, "code", _JOKER_CODE)
            object.__setattr__(self, "sort_key", _JOKER_SORT)
            return
        object.__setattr__(self, "code", f"{self.rank.code}{self.suit.code}")
        object.__setattr__(self, "sort_key", (self.rank.value, self.suit.value))

    @property
    def is_joker(self) -> bool:
        return self.code == _JOKER_CODE

    # The rules ask "is this card in the hand?" in their tightest loops: one
    # string comparison answers it faster than the fields compared one by one.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.code == other.code

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    # Immutable: copies of a game's state (the aggregate cache copies on every
    # read) share cards instead of rebuilding them.
    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @staticmethod
    def parse(code: str) -> Card:
        """Parse a card code such as `10H`, `AS` or `JK`; anything else is `UnknownCard`."""
        card = _CARDS_BY_CODE.get(code) if isinstance(code, str) else None
        if card is None:
            raise UnknownCard(card_code_problem(code))
        return card


NOT_A_CARD_CODE = "is not a card code:"
"""What `card_code_problem` says of every code it is given."""


def card_code_problem(code: object) -> str:
    """Why `code` is no card code, with the format of one."""
    return (
        f"{code!r} {NOT_A_CARD_CODE} write the rank (A 2-10 J Q K; a ten is 10, not T) "
        f"then the suit (C D H S), as in 10S or AS, or JK for a joker."
    )


def rank_code_problem(code: object) -> str:
    """Why `code` is no rank code, with the ranks there are."""
    return f"{code!r} is not a rank: use one of A 2-10 J Q K (a ten is 10, not T)."


FULL_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
"""The 52 cards in a fixed reference order: clubs A-K, diamonds, hearts, spades."""

JOKER = Card(Rank.JOKER, Suit.JOKER)
"""The printed joker, `JK`: in a pack only where the rules give it jokers."""

ALL_CARDS: tuple[Card, ...] = (*FULL_DECK, JOKER)
"""Every card code there is: the 52, then `JK`."""

_CARDS_BY_CODE: dict[str, Card] = {card.code: card for card in ALL_CARDS}


def pack(packs: int = 1, jokers: int = 0) -> tuple[Card, ...]:
    """A game's whole pack in reference order (docs/fairness.md): each 52-card pack
    in turn, then the jokers."""
    return FULL_DECK * packs + (JOKER,) * jokers


def parse_cards(codes: list[str] | tuple[str, ...]) -> list[Card]:
    """Parse many card codes; the first bad code raises `UnknownCard` naming it."""
    return [Card.parse(code) for code in codes]


def card_codes(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [card.code for card in cards]


def sorted_cards(cards: list[Card] | tuple[Card, ...] | set[Card] | frozenset[Card]) -> list[Card]:
    """Cards in display order: by rank, then suit, jokers last."""
    return sorted(cards, key=attrgetter("sort_key"))
