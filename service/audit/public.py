"""Checking a `hand_chain` game hand by hand from its public events alone (the
events page as anyone may read it), while it is still being played.

Each `hand_ended` reveals its hand's seed (docs/fairness.md "A seed per
hand"): the check hashes it back to the seed before it (hand 1's to the head
that the `seed_commitment` binds together with the `rules_digest`), derives
the hand's deck from it and the joined players' client seeds, and deals that
deck with the rules as the service does. What the public saw of the deal must
follow: the dealer (for hand 1 of a game whose dealer was not named, the one
hand 1's seed draws), the upcard, the stock's size and, where the variant has
one, the wild card cut face up. Then the hand is replayed with the rules on that
deck (service/audit/public_replay.py): every card the public events show a seat
play must be one the derived deal and its draws gave it, and each seat's cards
at the hand's end the ones the replay leaves it. The first thing that does not
fit is named, with the event it is in.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from service.audit.hand_seeds import check_digest
from service.audit.mismatch import Mismatch, error_text
from service.audit.public_replay import PublicReferee
from service.domain import events as domain
from service.domain import shuffle
from service.domain.cards import Card, card_codes
from service.domain.errors import RummyError
from service.domain.fairness import DealMode
from service.domain.hand_chain import SeedScheme, chain_commitment, is_hand_seed, previous_link
from service.domain.rules import RuleSet
from service.domain.state import Table


@dataclass
class HandChecked:
    """One hand checked from public events: its seed and the deck derived from it."""

    hand_number: int
    hand_seed: str
    deck: list[str]


@dataclass
class PublicVerdict:
    ok: bool
    hands: list[HandChecked] = field(default_factory=list)
    problem: str | None = None
    version: int | None = None
    """The version of the event at fault, if any."""
    moves: int = 0
    """The players' moves replayed on the derived decks."""

    def report(self) -> str:
        if self.ok:
            numbers = [hand.hand_number for hand in self.hands]
            shown = f"hands {numbers[0]} to {numbers[-1]}" if numbers else "no hand yet"
            return (
                f"VERIFIED from public events: {shown} (seed chain, deck, deal, and "
                f"{self.moves} moves replayed on the derived decks)."
            )
        return f"FAILED: event {self.version}: {self.problem}."


def verify_public(events: Sequence[Mapping[str, Any]]) -> PublicVerdict:
    """Check every ended hand of a `hand_chain` game from its public event views."""
    checker = _Public()
    for event in [*events, None]:
        try:
            if event is None:
                checker.replay()  # what follows the last hand ended, up to the next deal
            else:
                checker.take(event)
        except Mismatch as mismatch:
            return checker.failed(mismatch.message, event)
        except (KeyError, TypeError, ValueError, RummyError) as error:
            at = checker.replaying or event
            message = f"malformed {None if at is None else at.get('type')}: {error_text(error)}"
            return checker.failed(message, event)
    return PublicVerdict(True, checker.hands, moves=checker.referee.tally.moves)


@dataclass
class _Public:
    rules: RuleSet | None = None
    commitment: str = ""
    digest: str = ""
    named_dealer: bool = False
    explicit: bool = False
    """Whether the game's `deal` is `explicit`: its creator may have given deck orders."""
    deals: dict[int, Mapping[str, Any]] = field(default_factory=dict)
    hands: list[HandChecked] = field(default_factory=list)
    referee: PublicReferee = field(default_factory=lambda: PublicReferee(None, ()))
    unplayed: deque[Mapping[str, Any]] = field(default_factory=deque)
    """The events not replayed yet: those of the hand in play, whose seed is secret."""
    replaying: Mapping[str, Any] | None = None
    """The event being replayed, if any: a finding during the replay is its."""

    def failed(self, problem: str, event: Mapping[str, Any] | None) -> PublicVerdict:
        """The verdict on a finding about `event`, or about the event being replayed."""
        at = self.replaying or event
        version = None if at is None else at.get("version")
        return PublicVerdict(False, self.hands, problem, version, self.referee.tally.moves)

    def take(self, event: Mapping[str, Any]) -> None:
        kind = event["type"]
        if kind == "game_created":
            self._created(event)
            self.referee.take_public(event, ())
            return
        if self.rules is None:
            raise Mismatch("the events must start with game_created")
        self.unplayed.append(event)
        if kind == "hand_dealt":
            self.deals[event["hand_number"]] = event
        elif kind == "hand_ended":
            self._ended(event)

    def replay(self) -> None:
        """Replay the events not replayed yet, up to the deal of a hand whose seed is
        still secret: on the derived decks, every card they show must fit."""
        while self.unplayed:
            event = self.unplayed[0]
            if event["type"] == "hand_dealt" and event["hand_number"] not in self.referee.seeds:
                return
            self.replaying = event
            try:
                # Read lazily: only a knock looks ahead, and a long hand's events are many.
                self.referee.take_public(event, islice(self.unplayed, 1, None))
            except Mismatch as mismatch:
                raise Mismatch(self._where(event, mismatch.message)) from None
            self.unplayed.popleft()
        self.replaying = None

    def _given_decks(self) -> str:
        """Why a deck may differ in an `explicit` game, for its findings: said, not
        excused, as the public cannot tell which hands were given."""
        if not self.explicit:
            return ""
        return (
            " (this game's deal is explicit: if its creator gave deck orders, a hand dealt "
            "from one is not the one its seed gives, and no public event shows that order, "
            "so such a hand cannot be checked from public events)"
        )

    def _where(self, event: Mapping[str, Any], message: str) -> str:
        """A replay's finding, said as what the hand's derived deck contradicts."""
        table = self.referee.table
        number = event.get("hand_number") or (0 if table is None else table.hand_number)
        said = f"{event['type']}: {message}"
        if number:
            said = (
                f"{event['type']} does not fit the deck that hand {number}'s seed and the "
                f"deal's client_seeds give: {message}"
            )
        held = self.referee.holding(event.get("seat"))
        if held is not None and event["type"] not in ("hand_dealt", "hand_ended"):
            said += f" (seat {event['seat']} holds {held} there)"
        return said + (self._given_decks() if number else "")

    def _created(self, event: Mapping[str, Any]) -> None:
        if event.get("seed_scheme") != SeedScheme.HAND_CHAIN:
            raise Mismatch(
                f"the game's seed_scheme is {event.get('seed_scheme')!r}: only hand_chain "
                f"games reveal a seed with each hand"
            )
        check_digest(event)
        self.rules = RuleSet.from_dict(dict(event["rules"]))
        self.commitment = str(event["seed_commitment"]).lower()
        self.digest = event["rules_digest"]
        self.named_dealer = event.get("dealer") is not None
        self.explicit = event.get("deal") == DealMode.EXPLICIT

    def _ended(self, event: Mapping[str, Any]) -> None:
        number = event["hand_number"]
        shown = event.get("hand_seed")
        if not is_hand_seed(shown):
            raise Mismatch(f"hand {number} ended without its hand_seed: it shows {shown!r}")
        seed = str(shown)
        if number != len(self.hands) + 1:
            raise Mismatch(f"hand {number} ended after hand {len(self.hands)}: a hand is missing")
        if number == 1:
            found = chain_commitment(previous_link(seed), self.digest)
            if found != self.commitment:
                raise Mismatch(
                    f"hand 1's seed does not match the seed_commitment {self.commitment}: "
                    f"the commitment of its hash and the rules digest is {found}"
                )
        elif previous_link(seed) != self.hands[-1].hand_seed:
            raise Mismatch(
                f"hand {number}'s seed does not hash to hand {number - 1}'s: it is not the "
                f"chain's next link"
            )
        deck = self._deal_checked(number, seed)
        self.referee.seeds[number] = seed
        self.referee.clients[number] = list(self.deals[number]["client_seeds"])
        self.replay()
        self.hands.append(HandChecked(number, seed, card_codes(deck)))

    def _deal_checked(self, number: int, seed: str) -> list[Card]:
        """The deck hand `number`'s seed gives, dealt as the rules deal it: what the
        public saw of that deal must be what it shows."""
        rules = self.rules
        assert rules is not None, "game_created came first"
        shown = self.deals.get(number)
        if shown is None:
            raise Mismatch(f"hand {number} ended but was never dealt")
        # The client seeds are public from the deal on: the deal itself shows them.
        clients = list(shown["client_seeds"])
        seats = len(clients)
        if number == 1 and not self.named_dealer:
            drawn = shuffle.first_dealer(seed, clients, seats)
            if shown["dealer"] != drawn:
                raise Mismatch(
                    f"hand 1's dealer is seat {shown['dealer']}, but hand 1's seed draws seat "
                    f"{drawn}"
                )
        deck = shuffle.deck_order(seed, clients, number, rules.pack)
        dealt_in = shown.get("seats")
        table = Table(rules=rules, seat_count=seats, seated=[True] * seats)
        deal = domain.HandDealt(
            hand_number=number,
            dealer=shown["dealer"],
            deck=tuple(deck),
            seats=None if dealt_in is None else tuple(dealt_in),
        )
        table.engine.apply_deal(table, deal)
        hand = table.hand
        assert hand is not None, "a deal makes a hand"
        wild = table.engine.wild_now(table)
        indicator = None if wild is None or wild.indicator is None else wild.indicator.code
        derived = {
            "upcard": hand.discard[0].code if hand.discard else None,
            "stock_count": len(hand.stock),
            "wild_indicator": indicator,
        }
        for name, value in derived.items():
            if shown.get(name) != value:
                raise Mismatch(
                    f"hand {number}'s deal showed {name} {shown.get(name)!r}, but the deck its "
                    f"seed gives deals {value!r}: the deal is not the one committed to"
                    f"{self._given_decks()}"
                )
        return deck
