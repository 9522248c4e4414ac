"""The four things a player can do on a turn."""

from __future__ import annotations

from dataclasses import dataclass

from service.domain.cards import Card
from service.domain.state import Source


@dataclass(frozen=True, slots=True)
class Draw:
    source: Source


@dataclass(frozen=True, slots=True)
class Meld:
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class LayOff:
    card: Card
    meld_id: str


@dataclass(frozen=True, slots=True)
class Discard:
    card: Card


Action = Draw | Meld | LayOff | Discard
