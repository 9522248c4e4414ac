"""Replaying an exported log with the rules: every event must be the one the
rules produce at that point.

The referee keeps its own table. Where the rules act by themselves (a deal,
the end of a hand, the end of the game) it computes the event and the log
must hold exactly that one. Where a player must act, it reads the move from
the logged event (a draw, a meld, a lay-off, a discard, a join), checks it
with the same functions the service enforces, and the log must hold exactly
the events that move makes. Every deck comes from the seed by
docs/fairness.md's algorithm (`service.domain.shuffle`), or, while the seed is
still secret, from the log itself (then the deals are taken on trust).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from service.audit import deal_mode
from service.audit.aborts import aborted, from_outside
from service.audit.hand_seeds import ChainSeeds, check_digest, scheme_of
from service.audit.limits import TurnLimitBroken, TurnLimits
from service.audit.log_decks import LogDecks
from service.audit.mismatch import Mismatch, error_text
from service.domain import changes, shuffle
from service.domain import events as domain
from service.domain.actions import (
    Action,
    Declare,
    Discard,
    Draw,
    Drop,
    Knock,
    LayOff,
    Meld,
    Pass,
    SubmitGroups,
    Swap,
)
from service.domain.cards import Card, card_codes, parse_cards
from service.domain.concealed import is_concealed
from service.domain.errors import IllegalMove, RummyError
from service.domain.flow import decide_join, next_event
from service.domain.hand_chain import SeedScheme
from service.domain.leaving import decide_bank_use, decide_leave, decide_timeout
from service.domain.rules import RuleSet
from service.domain.setup import check_playable
from service.domain.state import HandEnding, LeaveReason, Phase, Source, Status, Table
from service.domain.turns import decide


@dataclass
class Tally:
    """What the replay has checked so far."""

    hands: int = 0
    hands_from_seed: int = 0
    recycles: int = 0
    recycles_from_seed: int = 0
    moves: int = 0
    joins: int = 0


@dataclass
class Referee:
    """Replays one game's log, event by event (`take`)."""

    seed: str | None
    """The revealed seed, or None while it is secret (the deals are then taken from the log)."""
    recorded: Sequence[Mapping[str, Any]]
    """The whole log, to look up the deals while the seed is secret."""
    table: Table | None = None
    seats: list[Mapping[str, Any] | None] = field(default_factory=list)
    created: Mapping[str, Any] = field(default_factory=dict)
    explicit: tuple[tuple[Card, ...], ...] = ()
    pending: deque[tuple[domain.Event, int | None]] = field(default_factory=deque)
    tally: Tally = field(default_factory=Tally)
    limits: TurnLimits = field(default_factory=TurnLimits)
    """The rules on whole requests that a turn must settle (service/audit/limits.py)."""
    chain: ChainSeeds | None = None
    """A `hand_chain` game's hand seeds (service/audit/hand_seeds.py); None for `game`."""

    @property
    def client_seeds(self) -> list[str]:
        return ["" if seat is None else seat["client_seed"] for seat in self.seats]

    @property
    def waiting_for(self) -> str | None:
        """The event the log still owes when it ends here, if any: the rest of a move, or
        what follows it by itself (a deal, the end of a hand or of the game), which the
        service stores with the move that caused it."""
        if self.pending:
            return domain.name_of(type(self.pending[0][0]))
        if self.table is None:
            return None
        try:
            automatic = next_event(self.table, self._decks)
        except Mismatch:
            return "hand_dealt"  # the only event whose cards the log must hold: it lacks them
        return None if automatic is None else domain.name_of(type(automatic))

    def take(self, kind: str, data: Mapping[str, Any], actor: int | None) -> None:
        """Check one event against the rules and apply it; raises `Mismatch`."""
        if self.table is None:
            if kind != "game_created":
                raise Mismatch(f"the log must start with game_created, not {kind}")
            self._created(data)
            return
        table = self.table
        if kind == "game_created":
            raise Mismatch("a game is created only once: game_created must be the first event")
        if self.chain is not None:
            data = self.chain.without_seeds(kind, data, self.client_seeds)
        if self.pending:
            expected, expected_actor = self.pending.popleft()
        else:
            automatic = next_event(table, self._decks)
            if automatic is not None:
                expected, expected_actor = automatic, None
            else:
                expected, expected_actor = self._move(table, kind, data, actor)
        self._compare(expected, expected_actor, kind, data, actor)
        changes.apply(table, expected)
        try:
            self.limits.check(table, expected)
        except TurnLimitBroken as broken:
            raise Mismatch(broken.message) from None
        self._count(expected, data)

    # --- the creation -------------------------------------------------------------

    def _created(self, data: Mapping[str, Any]) -> None:
        try:
            rules = RuleSet.from_dict(dict(data["rules"]))
            seats = [None if seat is None else _player_entry(seat) for seat in data["seats"]]
            explicit = tuple(tuple(parse_cards(deck)) for deck in data["decks"])
            dealer = data["dealer"]
            check_playable(rules, len(seats), explicit, dealer)
            commitment = str(data["seed_commitment"])
            scheme = scheme_of(data)
            check_digest(data)
            if scheme is SeedScheme.HAND_CHAIN:
                self.chain = ChainSeeds.of(data, self.seed, rules.max_hands, self.recorded)
        except (KeyError, TypeError) as error:
            raise Mismatch(f"malformed game_created: {error_text(error)}") from None
        except RummyError as error:
            reason = error.message.rstrip(".")
            raise Mismatch(f"the game could never have been played: {reason}") from None
        if (
            self.chain is None
            and self.seed is not None
            and shuffle.commitment(self.seed) != commitment.lower()
        ):
            # The log is the truth: the seed, which no event holds, is what is wrong.
            raise Mismatch(
                f"the revealed seed does not match the seed_commitment that event 1 "
                f"(game_created) published ({commitment}): the SHA-256 of the revealed seed "
                f"is {shuffle.commitment(self.seed)}",
                field="seed",
            )
        contradiction = deal_mode.contradiction(data, self.seed)
        if contradiction is not None:
            raise Mismatch(contradiction)
        self.created = data
        self.seats = seats
        self.explicit = explicit
        self.table = Table(
            rules=rules,
            seat_count=len(seats),
            seated=[seat is not None for seat in seats],
            first_dealer=dealer,
        )

    # --- a player's move ------------------------------------------------------------

    def _move(
        self, table: Table, kind: str, data: Mapping[str, Any], actor: int | None
    ) -> tuple[domain.Event, int | None]:
        if kind == "player_joined":
            try:
                _player_entry(data)
            except TypeError as error:
                raise Mismatch(f"malformed player_joined: {error_text(error)}") from None
            try:
                joined = decide_join(table)
            except IllegalMove as error:
                raise Mismatch(f"nobody can join now: {error.message}") from None
            return joined, domain.actor(joined)
        if kind in ("turn_timed_out", "player_left", "time_bank_used"):
            return self._leaving(table, kind, data, actor)
        if kind == "game_aborted" and from_outside(data):
            return aborted(table, data), None
        if kind == "game_aborted":
            # The rules abort a game only at a cap (`flow.next_event` found none here).
            raise Mismatch(
                f"game_aborted cannot happen here: no cap of the rules is reached "
                f"({_waiting(table)})"
            )
        seat, action = self._action(table, kind, data, actor)
        try:
            # Melds in a concealed turn come from a going-out list; that the turn
            # does go out is the turn limits' check (service/audit/limits.py).
            listed = is_concealed(table)
            produced = decide(table, seat, action, self._decks, going_out_list=listed)
        except IllegalMove as error:
            raise Mismatch(
                f"seat {seat}'s {_describe(action)} breaks the rules: {error.message}"
            ) from None
        self.tally.moves += 1
        made = [(event, domain.actor(event)) for event in produced]
        self.pending.extend(made[1:])
        return made[0]

    def _leaving(
        self, table: Table, kind: str, data: Mapping[str, Any], actor: int | None
    ) -> tuple[domain.Event, int | None]:
        """A timeout, a time bank spent, or a player leaving: the rules decide what it
        records (the count, the takeover, the forfeit), and the log must hold exactly
        that."""
        try:
            seat = data["player"]
            if type(seat) is not int or not 0 <= seat < table.seat_count:
                raise ValueError(f"seat {seat!r} is not a seat of this table")
            if kind == "turn_timed_out":
                produced = decide_timeout(table, seat, self._decks)
            elif kind == "time_bank_used":
                # How long the seat took is the service's clock's to say; that the
                # bank is never refilled nor overdrawn, and spent before a timeout,
                # is the rules' (`bank_problem`, `timeout_problem`).
                produced = decide_bank_use(table, seat, data["seconds"])
            else:
                reason = LeaveReason(data["reason"])
                if reason is LeaveReason.TIMED_OUT:
                    raise Mismatch(
                        "player_left for timed_out follows only the turn_timed_out that "
                        "makes the seat's count reach timeouts_before_takeover"
                    )
                resign = reason is LeaveReason.RESIGNED
                produced = decide_leave(table, seat, self._decks, resign=resign)
        except (KeyError, TypeError, ValueError) as error:
            raise Mismatch(f"malformed {kind}: {error_text(error)}") from None
        except IllegalMove as error:
            raise Mismatch(f"{kind} cannot happen here: {error.message}") from None
        made = [(event, domain.actor(event)) for event in produced]
        self.pending.extend(made[1:])
        return made[0]

    def _action(
        self, table: Table, kind: str, data: Mapping[str, Any], actor: int | None
    ) -> tuple[int, Action]:
        """The move behind a player's event, and the seat that made it."""
        hand = table.hand
        if kind == "hand_ended" and data.get("how") == HandEnding.EXHAUSTED.value:
            # Drawing from an empty stock with no recycle left ends the hand: the
            # log shows only the end, made by the system for the seat to move.
            if hand is None or hand.phase not in (Phase.DRAW, Phase.SECOND_DRAW):
                raise Mismatch("a hand ends exhausted only when a player draws from the stock")
            return hand.turn, Draw(Source.STOCK)
        try:
            match kind:
                case "card_drawn":
                    # Boathouse's second card is a draw too: the phase tells the rules
                    # it is the second, and the comparison checks the logged `second`.
                    # 500 Rum's draw of several pile cards names its `count`; the
                    # called card and the cards taken are compared with the rules'.
                    action: Action = Draw(Source(data["source"]), _count(data))
                case "stock_recycled":
                    action = Draw(Source.STOCK)
                case "meld_laid":
                    # `as` is the reading the meld was laid with: as the player gave it,
                    # or as the server read it; either is a move the player could send.
                    readings = data.get("as")
                    if readings is not None and not isinstance(readings, list):
                        raise TypeError("as is a list of card codes, parallel to cards")
                    action = Meld(
                        tuple(parse_cards(data["cards"])),
                        None if readings is None else tuple(parse_cards(readings)),
                    )
                case "card_laid_off":
                    reading = data.get("as")
                    action = LayOff(
                        Card.parse(data["card"]),
                        str(data["meld_id"]),
                        None if reading is None else Card.parse(reading),
                    )
                case "wild_swapped":
                    # The wild taken and what it stood for follow from the meld: the
                    # rules produce them, and the comparison checks the logged ones.
                    action = Swap(str(data["meld_id"]), Card.parse(data["card"]))
                case "knocked":
                    # Gin: no card is big gin, and the arrangement logged is the move's
                    # (the player's, or the server's: either one the player could send).
                    card = data["card"]
                    arranged = data.get("melds")
                    action = Knock(
                        None if card is None else Card.parse(card),
                        None
                        if arranged is None
                        else tuple(tuple(parse_cards(meld)) for meld in arranged),
                    )
                case "upcard_passed":
                    action = Pass()
                case "card_discarded":
                    action = Discard(Card.parse(data["card"]))
                case "declared":
                    # The kinds, validity and points follow from the groups: the
                    # rules judge them again, and the comparison checks the logged ones.
                    action = Declare(Card.parse(data["card"]), _shown_groups(data["groups"]))
                case "groups_submitted":
                    action = SubmitGroups(_shown_groups(data["groups"]))
                case "player_dropped":
                    action = Drop()
                case _:
                    raise Mismatch(f"{kind} cannot happen here: {_waiting(table)}")
        except (KeyError, TypeError, ValueError, RummyError) as error:
            raise Mismatch(f"malformed {kind}: {error_text(error)}") from None
        if actor is None:
            raise Mismatch(f"{kind} is a player's move, but the event names no seat")
        return actor, action

    # --- comparing with what the rules produce ----------------------------------------

    def _compare(
        self,
        expected: domain.Event,
        expected_actor: int | None,
        kind: str,
        data: Mapping[str, Any],
        actor: int | None,
    ) -> None:
        wanted_kind, wanted = domain.plain(expected)
        if kind != wanted_kind:
            raise Mismatch(
                f"the rules call for {wanted_kind} here ({_summary(wanted)}), not {kind}"
            )
        if actor != expected_actor:
            who = "the system" if expected_actor is None else f"seat {expected_actor}"
            named = "no seat" if actor is None else f"seat {actor}"
            raise Mismatch(f"it names {named} as its cause, but it is {who}'s")
        for key, value in wanted.items():
            found = data.get(key)
            if found != value:
                raise Mismatch(self._difference(expected, key, value, found))
        # A member the rules do not produce (an `as` on a meld without wilds, a
        # `second` on an ordinary draw) is a changed event too, whatever its value.
        # (A join's data is the player's entry, checked when the seat is taken.)
        extra = next((key for key in data if key not in wanted), None)
        if extra is not None and not isinstance(expected, domain.PlayerJoined):
            raise Mismatch(f"it has {extra} {data[extra]!r}, which the rules do not produce here")

    def _difference(self, expected: domain.Event, key: str, value: Any, found: Any) -> str:
        match expected:
            case domain.HandDealt(hand_number=number) if key == "deck":
                return f"hand {number}'s deck is not {self._deck_origin(number)}: " + _first_gap(
                    value, found
                )
            case domain.HandDealt() if key == "dealer":
                return f"the dealer should be seat {value}, not {found!r}"
            case domain.CardDrawn(source=source) if key == "card":
                return f"the top of the {source.value} was {value}, not {found!r}"
            case domain.StockRecycled() if key == "stock":
                hand = self.table.hand if self.table is not None else None
                number = 0 if hand is None else hand.number
                recycle = 1 if hand is None else hand.recycles + 1
                origin = (
                    f"docs/fairness.md's recycle/{number}/{recycle} shuffle of the discard pile"
                    if self.seed is not None
                    else "the discard pile turned over"
                )
                return f"the new stock is not {origin}: " + _first_gap(value, found)
            case domain.HandEnded(hand_number=number):
                return f"hand {number} ended with {key} {value}, not {found!r}"
            case domain.GameFinished():
                return f"the game finished with {key} {value}, not {found!r}"
            case domain.GameAborted():
                return f"the game was aborted with {key} {value!r}, not {found!r}"
        return f"{key} should be {value!r}, not {found!r}"

    def _deck_origin(self, number: int) -> str:
        if number <= len(self.explicit):
            return f"deck {number} given at the game's creation"
        return f"the one docs/fairness.md derives from the seed (deck/{number})"

    def _count(self, event: domain.Event, data: Mapping[str, Any]) -> None:
        match event:
            case domain.PlayerJoined(seat=seat):
                self.seats[seat] = data
                self.tally.joins += 1
            case domain.HandDealt(hand_number=number):
                self.tally.hands += 1
                if number > len(self.explicit) and self.has_seed(number):
                    self.tally.hands_from_seed += 1
            case domain.StockRecycled(shuffled=shuffled):
                self.tally.recycles += 1
                hand = self.table.hand if self.table is not None else None
                if shuffled and hand is not None and self.has_seed(hand.number):
                    self.tally.recycles_from_seed += 1

    def has_seed(self, hand_number: int) -> bool:
        """Whether hand `hand_number` is dealt from a known seed: the game's, or in a
        `hand_chain` game its own once revealed."""
        if self.chain is not None:
            return self.chain.seed_of(hand_number) is not None
        return self.seed is not None

    def seed_for(self, hand_number: int) -> str | None:
        """The seed hand `hand_number` is derived from (docs/fairness.md), if known."""
        if self.chain is not None:
            return self.chain.seed_of(hand_number)
        return self.seed

    # --- where the cards come from ------------------------------------------------------

    @property
    def _decks(self) -> LogDecks:
        return LogDecks(self)


def _shown_groups(groups: Any) -> tuple[tuple[Card, ...], ...]:
    """The cards of an Indian show's groups (`[{cards, kind}]`)."""
    if not isinstance(groups, list):
        raise TypeError("groups is a list of {cards, kind}")
    return tuple(tuple(parse_cards(group["cards"])) for group in groups)


def _player_entry(entry: Any) -> Mapping[str, Any]:
    """A seated player as the log holds it; the export's `players` repeat these fields."""
    if (
        isinstance(entry, Mapping)
        and isinstance(entry.get("name"), str)
        and isinstance(entry.get("client_seed"), str)
        and isinstance(entry.get("bot"), str | None)
    ):
        return entry
    raise TypeError("a player has a name and a client_seed (strings) and a bot (a string or null)")


def _first_gap(expected: list[str], found: Any) -> str:
    if not isinstance(found, list):
        return f"expected {expected}, found {found!r}"
    for index, (want, got) in enumerate(zip(expected, found, strict=False)):
        if want != got:
            return f"first difference at index {index}: {want} expected, {got!r} found"
    return f"{len(expected)} cards expected, {len(found)} found"


def _waiting(table: Table) -> str:
    if table.status is Status.WAITING:
        return "the game is waiting for players to join"
    if table.over:
        return "the game is over"
    hand = table.hand
    assert hand is not None, "a game in play has a hand in play between its events"
    doing = {
        Phase.DRAW: "draw",
        Phase.UPCARD_OFFER: "take or pass the upcard",
    }.get(hand.phase, "meld, lay off or discard")
    return f"the rules wait for seat {hand.turn} to {doing}"


def _count(data: Mapping[str, Any]) -> int:
    """A draw's `count` (1 when the event has none): a whole number, at least 1."""
    count = data.get("count", 1)
    if type(count) is not int or count < 1:
        raise ValueError(f"count {count!r} is not a whole number of cards")
    return count


def _describe(action: Action) -> str:
    match action:
        case Draw(source=source, count=count) if count != 1:
            return f"draw of {count} from the {source.value}"
        case Draw(source=source):
            return f"draw from the {source.value}"
        case Meld(cards=cards):
            return f"meld {' '.join(card_codes(cards))}"
        case LayOff(card=card, meld_id=meld_id):
            return f"lay-off of {card} on {meld_id}"
        case Discard(card=card):
            return f"discard of {card}"
        case Swap(meld_id=meld_id, card=card):
            return f"swap of {card} into {meld_id}"
        case Knock():
            return "knock"
        case Declare(card=card):
            return f"declaration finishing with {card}"
        case SubmitGroups():
            return "submission of groups"
        case Drop():
            return "drop"
        case Pass():
            return "pass of the upcard"


def _summary(data: Mapping[str, Any]) -> str:
    shown = {key: value for key, value in data.items() if key not in {"deck", "stock"}}
    return ", ".join(f"{key} {value}" for key, value in shown.items()) or "no data"
