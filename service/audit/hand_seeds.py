"""The verifier's side of a seed per hand (`seed_scheme: hand_chain`,
docs/fairness.md "A seed per hand"): the rules digest against the stored
rules, the commitment against the chain's head, and each revealed hand seed
against the one before it.

With the game's secret seed revealed (a game over), the whole chain is
derived from it and every hand seed the log reveals must be its own link.
While the seed is secret, the log's hand seeds are checked link by link as
they are asked for: hand 1's hashes to the head the commitment binds, hand
k's to hand k-1's. A hand that has not ended has no seed yet: its deck is
then taken from the log on trust, as every deck is under the `game` scheme.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from service.audit.mismatch import Mismatch
from service.domain.hand_chain import (
    SeedScheme,
    chain_commitment,
    chain_head,
    chain_length,
    hand_seeds,
    is_hand_seed,
    previous_link,
    rules_digest,
)


def scheme_of(created: Mapping[str, Any]) -> SeedScheme:
    """The creation's seed scheme: `game` for a game stored before it was recorded."""
    recorded = created.get("seed_scheme", SeedScheme.GAME.value)
    if recorded not in {scheme.value for scheme in SeedScheme}:
        raise Mismatch(f"its seed_scheme {recorded!r} is neither hand_chain nor game")
    return SeedScheme(recorded)


def check_digest(created: Mapping[str, Any]) -> None:
    """A recorded `rules_digest` must be the digest of the rules stored beside it."""
    if "rules_digest" not in created:
        return
    wanted = rules_digest(created["rules"])
    if created["rules_digest"] != wanted:
        raise Mismatch(
            f"its rules_digest {created['rules_digest']!r} is not the SHA-256 of the rules "
            f"it stores ({wanted}): the rules shown are not the rules committed to"
        )


@dataclass
class ChainSeeds:
    """The hand seeds of one `hand_chain` game, checked as they are used."""

    commitment: str
    digest: str
    recorded: Sequence[Mapping[str, Any]]
    chain: tuple[str, ...] = ()
    """The whole chain, once the game's seed is revealed."""
    checked: dict[int, str] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        created: Mapping[str, Any],
        seed: str | None,
        max_hands: int | None,
        recorded: Sequence[Mapping[str, Any]],
    ) -> ChainSeeds:
        if "rules_digest" not in created:
            raise Mismatch("a hand_chain game records its rules_digest in game_created")
        seeds = cls(str(created["seed_commitment"]).lower(), created["rules_digest"], recorded)
        if seed is not None:
            seeds.chain = hand_seeds(seed, chain_length(max_hands))
            found = chain_commitment(chain_head(seeds.chain), seeds.digest)
            if found != seeds.commitment:
                raise Mismatch(
                    f"the revealed seed does not match the seed_commitment that event 1 "
                    f"(game_created) published ({seeds.commitment}): the commitment of its "
                    f"chain's head and the rules digest is {found}",
                    field="seed",
                )
        return seeds

    def seed_of(self, hand_number: int) -> str | None:
        """Hand `hand_number`'s seed, checked; None while the log has not revealed it."""
        if self.chain:
            if not 1 <= hand_number <= len(self.chain):
                raise Mismatch(f"hand {hand_number} is past the chain of {len(self.chain)} seeds")
            return self.chain[hand_number - 1]
        if hand_number in self.checked:
            return self.checked[hand_number]
        revealed = self._revealed(hand_number)
        if revealed is None:
            return None
        if hand_number == 1:
            found = chain_commitment(previous_link(revealed), self.digest)
            if found != self.commitment:
                raise Mismatch(
                    f"hand 1's seed {revealed} does not match the seed_commitment: the "
                    f"commitment of its hash and the rules digest is {found}, not "
                    f"{self.commitment}"
                )
        else:
            before = self.seed_of(hand_number - 1)
            if before is None or previous_link(revealed) != before:
                raise Mismatch(
                    f"hand {hand_number}'s seed {revealed} does not hash to hand "
                    f"{hand_number - 1}'s seed ({before}): it is not the chain's next link"
                )
        self.checked[hand_number] = revealed
        return revealed

    def check_revealed(self, hand_number: int, shown: Any) -> None:
        """The `hand_seed` a `hand_ended` shows must be that hand's link of the chain."""
        if not is_hand_seed(shown):
            raise Mismatch(
                f"hand {hand_number} ended without its hand_seed (64 lowercase hex "
                f"characters): it shows {shown!r}"
            )
        wanted = self.seed_of(hand_number)
        if shown != wanted:
            raise Mismatch(
                f"hand {hand_number}'s hand_seed is {shown}, but the chain's seed for it is "
                f"{wanted}"
            )

    def without_seeds(
        self, kind: str, data: Mapping[str, Any], client_seeds: Sequence[str]
    ) -> Mapping[str, Any]:
        """An event's data without the seeds the service stores beside the rules' data,
        once checked: a `hand_dealt`'s `client_seeds` must be the seats' own, a
        `hand_ended`'s `hand_seed` the chain's. The rules' own event is compared
        with the rest."""
        if kind == "hand_dealt":
            shown = data.get("client_seeds")
            if shown != list(client_seeds):
                raise Mismatch(
                    f"the deal shows client_seeds {shown!r}, but the seats gave "
                    f"{list(client_seeds)!r}"
                )
            return {key: value for key, value in data.items() if key != "client_seeds"}
        if kind != "hand_ended":
            return data
        number = data.get("hand_number")
        if type(number) is not int:
            return data  # the comparison with the rules' hand_ended names it
        self.check_revealed(number, data.get("hand_seed"))
        return {key: value for key, value in data.items() if key != "hand_seed"}

    def _revealed(self, hand_number: int) -> str | None:
        for event in self.recorded:
            data = event.get("data")
            if (
                event.get("type") == "hand_ended"
                and isinstance(data, Mapping)
                and data.get("hand_number") == hand_number
            ):
                shown = data.get("hand_seed")
                if not is_hand_seed(shown):
                    raise Mismatch(f"hand {hand_number}'s hand_seed {shown!r} is not a hand seed")
                return str(shown)
        return None
