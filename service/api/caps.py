"""What one request may ask of this deployment: deck orders and rule values of a
new game, and how many events a page holds when the caller does not say.

These are settings (`RUMMY_DECKS_CAP`, `RUMMY_MAX_TURNS_CAP`, `RUMMY_RECYCLES_CAP`,
`RUMMY_WILD_HAND_CAP`, `RUMMY_EVENTS_PAGE`), not rules of the game: docs/rules.md does not
bound `recycles`, bounds `max_turns` for a new game at 1000 only (its "Caps": a deployment
may accept less), lets a game with wild cards deal any hand size (whose `legal` readings
grow steeply with it), and the verifier must accept any game the rules allow. So they
live here, and the OpenAPI document states each deployment's own (`finish_openapi`),
so a body valid against the document served is never refused for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service.api.errors import problem
from service.config import Settings
from service.domain.errors import InvalidRules
from service.domain.rules import RuleSet


@dataclass(frozen=True, slots=True)
class Caps:
    decks: int
    max_turns: int
    recycles: int
    wild_hand: int
    events_page: int

    @classmethod
    def from_settings(cls, settings: Settings) -> Caps:
        return cls(
            decks=settings.decks_cap,
            max_turns=settings.max_turns_cap,
            recycles=settings.recycles_cap,
            wild_hand=settings.wild_hand_cap,
            events_page=settings.events_page,
        )

    def check_decks(self, decks: int) -> None:
        """Refuse more deck orders than this service keeps for a game (422)."""
        if decks > self.decks:
            raise problem(
                422,
                "too_many_decks",
                f"A game here may be given at most {self.decks} deck orders, not {decks}: "
                "the hands after them are dealt from the seed.",
            )

    def check_rules(self, given: Mapping[str, Any], rules: RuleSet) -> None:
        """Refuse rule values given beyond this service's caps (422 `invalid_rules`).
        Only what the caller gave (`rules` is the rule set it makes): a rule left out
        takes the rules' own default, and the document's bound is on the value sent."""
        for name, cap in (("max_turns", self.max_turns), ("recycles", self.recycles)):
            value = given.get(name)
            if isinstance(value, int) and value > cap:
                raise InvalidRules(f"{name} may be at most {cap} on this service, not {value}.")
        hand_size = given.get("hand_size")
        if rules.has_wilds and isinstance(hand_size, int) and hand_size > self.wild_hand:
            raise InvalidRules(
                f"hand_size may be at most {self.wild_hand} in a game with wild cards on this "
                f"service (variant {rules.variant.value!r}), not {hand_size}: the readings "
                f"`legal` lists grow steeply with the hand."
            )
