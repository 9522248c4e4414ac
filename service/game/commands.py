"""What the application's commands are asked: plain frozen values, checked by the
commands themselves (`service.game.application`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from service.domain.cards import Card
from service.domain.rules import RuleSet


@dataclass(frozen=True, slots=True)
class NewSeat:
    name: str
    client_seed: str = ""
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class NewGame:
    """What a creator asks for. A seat that is None stays open for a player to join."""

    seats: Sequence[NewSeat | None]
    rules: RuleSet = field(default_factory=RuleSet)
    seed: str | None = None
    decks: Sequence[Sequence[Card]] = ()
    dealer: int | None = None
    by_admin: bool = False
    """The creator holds the admin token: it may choose the deal with seats open."""
    unlisted: bool = False
    """Keep the game out of the lobby (its open seats are joined by its id alone)."""


@dataclass(frozen=True, slots=True)
class Idempotency:
    """A client's `Idempotency-Key` and a digest of its request's body: the same key
    and body again is a retry of the same request (docs/api.md, `Idempotency-Key`)."""

    key: str
    digest: str
