"""How a game's deals are decided, and which client seeds can change them.

docs/fairness.md: a game either deals from a seed the server chose and
committed to, with every client seed mixed in (`commit_reveal`), or from a
deal someone chose (`explicit`: a `seed` or `decks` given at creation),
which every participant is told before joining.
"""

from __future__ import annotations

import re
from enum import StrEnum

from service.domain.errors import ClientSeedNotUsed

SERVER_SEED_PATTERN = re.compile(r"[0-9a-f]{64}")
"""The shape of every seed the server chooses: 256 random bits in lowercase hex."""


class DealMode(StrEnum):
    COMMIT_REVEAL = "commit_reveal"
    """The server's secret seed, committed before the first deal, and every client seed."""
    EXPLICIT = "explicit"
    """A seed or deck orders chosen by the creator: known to whoever chose them."""


def deal_mode(*, seed_chosen: bool, decks: int) -> DealMode:
    """How the deals of a new game are decided: chosen if its creator gave a seed or
    any deck order."""
    return DealMode.EXPLICIT if seed_chosen or decks else DealMode.COMMIT_REVEAL


def is_server_seed(seed: str) -> bool:
    """Whether `seed` has the shape of a seed the server chose. A creator may send
    a seed of that shape too, so this tells only that a seed of another shape was chosen."""
    return SERVER_SEED_PATTERN.fullmatch(seed) is not None


def apparent_deal(seed: str, decks: int) -> DealMode:
    """How a game's deals were decided, as far as its seed and its number of deck
    orders tell: a chosen seed of the server's shape reads as the server's."""
    return deal_mode(seed_chosen=not is_server_seed(seed), decks=decks)


def check_client_seed(decks: int, client_seed: str) -> None:
    """Refuse a client seed that could not change the next deal: with deck orders
    given at creation, hand 1 (the first deal after any seat is taken) is dealt
    from them as they are."""
    if client_seed and decks:
        raise ClientSeedNotUsed(
            "This game deals its first hands from deck orders chosen at creation "
            "(deal: explicit), so a client_seed would not change them: leave out "
            "client_seed, or play a game whose deals the server commits to."
        )
