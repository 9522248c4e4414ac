"""What the application's commands are asked: plain frozen values, checked by the
commands themselves (`service.game.application`), and who may choose a new game's
deal (`check_deal_choice`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from service.domain.cards import Card
from service.domain.rules import RuleSet
from service.game.errors import ExplicitDealForbidden


@dataclass(frozen=True, slots=True)
class NewSeat:
    name: str
    client_seed: str = ""
    bot: str | None = None
    player: str | None = None
    """The pseudonym of the player a platform vouched for (service/players/); its name
    is kept beside the events, so `name` is what the events may hold of it (`""`)."""


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
    rated: bool = False
    """For the ratings: every human seat, and every later join, vouched for."""


@dataclass(frozen=True, slots=True)
class Idempotency:
    """A client's `Idempotency-Key` and a digest of its request's body: the same key
    and body again is a retry of the same request (docs/api.md, `Idempotency-Key`)."""

    key: str
    digest: str


def check_deal_choice(new: NewGame) -> None:
    """Who may choose the deal (docs/fairness.md): the admin, or a creator who
    fills every seat, so no stranger joins a game whose cards someone knows."""
    chosen = " and ".join(
        f"`{name}`"
        for name, given in (("seed", new.seed is not None), ("decks", new.decks))
        if given
    )
    open_seats = [str(seat) for seat, wanted in enumerate(new.seats) if wanted is None]
    if chosen and open_seats and not new.by_admin:
        plural = len(open_seats) > 1
        seats = f"Seat{'s' * plural} {', '.join(open_seats)} {'are' if plural else 'is'}"
        raise ExplicitDealForbidden(
            f"{seats} open for anyone to join, so only the admin token may choose this "
            f"game's deal ({chosen}): a stranger would play cards its creator can know. Name "
            f"a player or bot for every seat, send the admin token, or leave out {chosen} "
            f"so the server commits to a seed of its own."
        )
