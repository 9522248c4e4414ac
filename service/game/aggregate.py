"""The Game aggregate: commands check through the domain rules, then trigger events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from service.domain import changes
from service.domain import events as domain
from service.domain.actions import Action
from service.domain.cards import Card, card_codes
from service.domain.decks import ChainedDecks, DeckSource, SeededDecks
from service.domain.errors import GameOver
from service.domain.fairness import DealMode, check_client_seed, deal_mode
from service.domain.flow import decide_join, settle
from service.domain.hand_chain import (
    SeedScheme,
    chain_commitment,
    chain_head,
    chain_length,
    hand_seeds,
    rules_digest,
)
from service.domain.leaving import decide_bank_use, decide_leave, decide_timeout, turn_key
from service.domain.play import play
from service.domain.rules import RuleSet
from service.domain.state import AbortedBy, Table
from service.game.event_records import GameCreated, GameEvent, joined_seat, stored_fields


@dataclass(frozen=True, slots=True)
class SeatEntry:
    """Who sits in a seat, as the creator or the joining player gave it."""

    name: str
    token_hash: str
    client_seed: str = ""
    bot: str | None = None
    player: str | None = None
    """The pseudonym of the player a platform vouched for (service/players/), None for an
    anonymous seat. Stored only when there is one: an anonymous seat's record is the
    same as before players existed, so no upcaster is needed and no export changes."""

    def as_plain(self) -> dict[str, Any]:
        plain = {
            "name": self.name,
            "token_hash": self.token_hash,
            "client_seed": self.client_seed,
            "bot": self.bot,
        }
        if self.player is not None:
            plain["player"] = self.player
        return plain


@dataclass(frozen=True, slots=True)
class IdempotentRequest:
    """An idempotent request: the seat that sent it, the client's key and a digest of
    its body. Creating and joining are sent by no seat (None), and their key stands
    for the tokens they give, so what they hold of it is its hash (tokens.key_digest)."""

    seat: int | None
    key: str
    digest: str

    def as_plain(self) -> dict[str, Any]:
        return {"seat": self.seat, "key": self.key, "digest": self.digest}

    @classmethod
    def from_plain(cls, plain: dict[str, Any]) -> IdempotentRequest:
        return cls(plain["seat"], plain["key"], plain["digest"])

    @property
    def slot(self) -> str:
        """Where the game remembers it: one key space per seat, and one for no seat."""
        return f"{'-' if self.seat is None else self.seat}/{self.key}"


class Game(Aggregate):
    """One game of Straight Rummy, from the lobby to the winner."""

    table: Table
    seats: list[dict[str, Any] | None]
    seed: str
    seed_commitment: str
    deal_mode: DealMode
    seed_scheme: SeedScheme
    rules_digest: str
    rated: bool
    """Created for the ratings (`GameCreated.rated`)."""
    hand_seeds: tuple[str, ...]
    """A `hand_chain` game's seeds of hands 1, 2, … (secret until each hand ends);
    empty in a `game` game. Derived from `seed` when the creation is applied."""
    explicit_decks: tuple[tuple[Card, ...], ...]
    hands_dealt: int
    """The number of the latest hand dealt (0 before the first deal)."""
    turn_started: datetime | None
    """When the seat to act began to wait: the stored time of the event that made
    it so (service/game/clock.py); None while nobody is to act."""
    turn_of: tuple[int, int, bool] | None
    """The turn `turn_started` belongs to (`leaving.turn_key`)."""
    turn_banks: tuple[int, ...]
    """Each seat's time bank left when that turn began (the rule `time_bank_seconds`):
    its deadline is the turn's clock and then this bank (service/game/clock.py)."""
    requests: dict[str, tuple[str, int]]
    """Idempotent requests applied: their slot (`"seat/key"`, `"-/key hash"` for
    creating and joining) → (body digest, version after it)."""
    command_id: str | None = None
    """The command this copy of the game runs for: stamped on every event it records.
    Not state: the application sets it on its private copy before the command."""

    def __init__(self) -> None:
        """Empty: `GameCreated.apply` sets the state, so creation replays like any event."""

    @classmethod
    def create(
        cls,
        *,
        game_id: UUID,
        rules: RuleSet,
        seats: Sequence[SeatEntry | None],
        seed: str,
        seed_chosen: bool,
        command_id: str,
        decks: Sequence[Sequence[Card]] = (),
        dealer: int | None = None,
        request: IdempotentRequest | None = None,
        unlisted: bool = False,
        rated: bool = False,
    ) -> Game:
        """A new game; the first hand is dealt at once if every seat is taken.

        The caller has checked the arguments (`service.domain.setup.check_new_game`)
        and who may choose the deal; `seed_chosen` says whether the creator gave `seed`.
        `request` is the idempotent request that creates it, if any; `unlisted` keeps
        it out of the lobby; `rated` marks it for the ratings (every human seat vouched
        for by a platform: the application checks).
        """
        for seat in seats:
            if seat is not None:
                check_client_seed(len(decks), seat.client_seed)
        plain = None if request is None else request.as_plain()
        stored_rules = rules.to_dict()
        digest = rules_digest(stored_rules)
        head = chain_head(hand_seeds(seed, chain_length(rules.max_hands)))
        game = cls._create(
            GameCreated,
            id=game_id,
            rules=stored_rules,
            seats=[None if seat is None else seat.as_plain() for seat in seats],
            seed=seed,
            seed_commitment=chain_commitment(head, digest),
            decks=[card_codes(list(deck)) for deck in decks],
            dealer=dealer,
            deal=deal_mode(seed_chosen=seed_chosen, decks=len(decks)).value,
            seed_scheme=SeedScheme.HAND_CHAIN.value,
            rules_digest=digest,
            command_id=command_id,
            request=plain,
            unlisted=unlisted,
            rated=rated,
        )
        game.command_id = command_id
        game._settle(plain)
        return game

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        # The repository copies a cached game before every command; the
        # generic deepcopy of a table costs more than the command itself.
        copied = object.__new__(type(self))
        copied.__dict__.update(self.__dict__)
        copied.table = self.table.copy()
        # The list only: a seat's entry is never changed in place (`apply_stored`).
        copied.seats = list(self.seats)
        copied.requests = dict(self.requests)
        copied.__dict__["_pending_events"] = list(self.__dict__["_pending_events"])
        return copied

    @property
    def decks(self) -> DeckSource:
        client_seeds = self.client_seeds
        if self.seed_scheme is SeedScheme.HAND_CHAIN:
            return ChainedDecks(
                hand_seeds=self.hand_seeds,
                client_seeds=client_seeds,
                explicit=self.explicit_decks,
                pack=self.table.rules.pack,
            )
        return SeededDecks(
            seed=self.seed,
            client_seeds=client_seeds,
            explicit=self.explicit_decks,
            pack=self.table.rules.pack,
        )

    @property
    def takeover_bot(self) -> str:
        """The server's bot, the game's rule `takeover_bot`: it plays a seat whose
        player left (rule `abandon: bot`) and what is left of a timed-out turn
        (`RummyApplication.time_out`). Replays read it too (a replaced seat's `bot`)
        from the stored rules, where a game stored before the rule has `basic`."""
        return self.table.rules.takeover_bot.value

    @property
    def client_seeds(self) -> tuple[str, ...]:
        """Each seat's client seed, in seat order (`""` for none or an open seat)."""
        return tuple("" if seat is None else seat["client_seed"] for seat in self.seats)

    def revealed_hand_seeds(self) -> list[str]:
        """The seeds of the hands that have ended (`hand_chain`; empty for `game`), and,
        once the game is over, of the hand it was aborted in, if any: every hand dealt."""
        if self.seed_scheme is not SeedScheme.HAND_CHAIN:
            return []
        shown = self.hands_dealt if self.table.over else self.table.hands_played
        return list(self.hand_seeds[:shown])

    def join(self, entry: SeatEntry, request: IdempotentRequest | None = None) -> int:
        """Seat a player in the first open seat; deal once the table is full."""
        joined = decide_join(self.table)
        check_client_seed(len(self.explicit_decks), entry.client_seed)
        plain = None if request is None else request.as_plain()
        self._record(joined, plain, **entry.as_plain())
        self._settle(plain)
        return joined.seat

    def act(
        self, seat: int, actions: Sequence[Action], request: IdempotentRequest | None = None
    ) -> None:
        """Play `actions` in order. If one is refused the error propagates and this
        object holds a partial change: the caller must not save it (nor keep it)."""
        plain = None if request is None else request.as_plain()
        play(self.table, seat, actions, self.decks, lambda event: self._record(event, plain))

    def leave(self, seat: int, *, resign: bool, request: IdempotentRequest | None = None) -> None:
        """`seat`'s player leaves or resigns (docs/rules.md "Leaving and turn clocks")."""
        plain = None if request is None else request.as_plain()
        for event in decide_leave(self.table, seat, self.decks, resign=resign):
            self._record(event, plain)
        self._settle(plain)

    def time_out(self, seat: int) -> None:
        """The clock ran out on `seat`: record its timeout (and the takeover it may
        bring). Its move is the caller's to make, as that seat's."""
        for event in decide_timeout(self.table, seat, self.decks):
            self._record(event, None)
        self._settle()

    def abort(self, by: AbortedBy, reason: str) -> None:
        """End the game void, by the admin or for idleness (docs/rules.md "Aborted
        games"); a game already over refuses (409 `game_over`)."""
        if self.table.over:
            raise GameOver(f"This game is already {self.table.status.value}: it cannot be aborted.")
        self._record(domain.GameAborted(by=by, reason=reason), None)

    def spend_bank(self, seat: int, seconds: int, request: IdempotentRequest | None = None) -> None:
        """`seat` spends `seconds` of its time bank, as the application's clock
        found them used (service/game/clock.py's `bank_to_spend`), before its move
        or its timeout."""
        plain = None if request is None else request.as_plain()
        for event in decide_bank_use(self.table, seat, seconds):
            self._record(event, plain)

    def applied_request(self, request: IdempotentRequest) -> tuple[str, int] | None:
        """(digest, version after it) if this idempotent request was applied before."""
        return self.requests.get(request.slot)

    def remember_request(self, request: dict[str, Any], version: int) -> None:
        self.requests[IdempotentRequest.from_plain(request).slot] = (request["digest"], version)

    def apply_stored(self, stored: GameEvent) -> None:
        """Change this game by a stored event (when recorded, and on every replay)."""
        event = stored.to_domain()
        changes.apply(self.table, event)
        if isinstance(event, domain.HandDealt):
            self.hands_dealt = event.hand_number
        elif isinstance(event, domain.PlayerJoined):
            self.seats[event.seat] = joined_seat(stored)
        elif isinstance(event, domain.PlayerLeft) and event.replaced:
            entry = self.seats[event.player]
            assert entry is not None, "a seat that left was taken"
            # A new dict: the cached game's seats are shared with its readers.
            self.seats[event.player] = {**entry, "bot": self.takeover_bot}
        turn = turn_key(self.table)
        if turn != self.turn_of:
            self.turn_of = turn
            self.turn_started = None if turn is None else stored.timestamp
            self.turn_banks = tuple(self.table.bank_left)
        if stored.request is not None:
            self.remember_request(stored.request, stored.originator_version)

    def _settle(self, request: dict[str, Any] | None = None) -> None:
        """Record what follows by itself (a deal), as part of `request` if given."""
        settle(self.table, self.decks, lambda event: self._record(event, request))

    def _record(self, event: domain.Event, request: dict[str, Any] | None, **details: Any) -> None:
        """Store `event` (the library applies it at once: `apply_stored`)."""
        event_class, fields = stored_fields(event, request, self.command_id)
        if self.seed_scheme is SeedScheme.HAND_CHAIN:
            # The client seeds are public from the deal on, and the hand's seed is
            # revealed with its result (docs/fairness.md "A seed per hand").
            if isinstance(event, domain.HandDealt):
                details = {**details, "client_seeds": list(self.client_seeds)}
            elif isinstance(event, domain.HandEnded):
                details = {**details, "hand_seed": self.hand_seeds[event.hand_number - 1]}
        self.trigger_event(event_class, **fields, **details)
