"""A game's events as each caller may see them.

The redaction rules of docs/api.md: a player learns its own cards, every face-up
card and the counts of everything face down. So the deal shows a player
only its own cards and the upcard, a draw from the stock by someone else
shows the source but not the card, and a recycle shows the new stock size
but not its order. The admin sees every card; nobody sees the seed, a token
hash or another seat's idempotency key here.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Protocol, get_args

import msgspec

from service.domain import events as domain
from service.domain.cards import card_codes, sorted_cards
from service.domain.fairness import DealMode
from service.domain.hand_chain import SeedScheme, rules_digest
from service.domain.indian.judge import GroupKind
from service.domain.melds import End, MeldKind
from service.domain.rules import RuleSet
from service.domain.state import AbortedBy, DropKind, KnockKind, LeaveReason, Source, Table
from service.projections.hand_results import (
    GinResultSeat,
    GroupView,
    LastHand,
    gin_result,
    last_hand,
)
from service.projections.views import Viewer


class StoredEvent(Protocol):
    """What the projections need of a stored event."""

    @property
    def originator_version(self) -> int: ...

    @property
    def timestamp(self) -> datetime: ...

    @property
    def seat(self) -> int | None: ...

    @property
    def event_type(self) -> str: ...

    @property
    def derived_fields(self) -> tuple[str, ...]:
        """Fields of `data()` its stored record did not hold (an upcaster derived them)."""
        ...

    def data(self) -> dict[str, Any]: ...


ChainHead = Annotated[
    str,
    msgspec.Meta(
        pattern="^[0-9a-f]{64}$",
        description=(
            "The live chain head after this event (lowercase hex): the audit export's hash "
            "of the stored event, salted with the game's chain salt (revealed as the "
            "export's `chain_salt` once the game is over). The same for every caller, "
            "however redacted the event. Keep it to hold the service to its log later "
            "(`rummy verify --heads`, docs/fairness.md)."
        ),
    ),
]
"""The `chain` of every event view (docs/fairness.md, "Live chain heads")."""


class _Event(msgspec.Struct, kw_only=True, tag_field="type", omit_defaults=True):
    version: int
    at: datetime
    seat: int | None = None
    """The seat that caused the event; absent for the system."""
    chain: ChainHead


class SeatJoined(msgspec.Struct, kw_only=True):
    seat: int
    name: str | None
    bot: str | None = None


class GameCreatedView(_Event, kw_only=True, tag="game_created"):
    rules: dict[str, Any]
    players: list[SeatJoined]
    seed_commitment: str
    deal: DealMode
    """`commit_reveal` or `explicit`: how the deals are decided (docs/fairness.md)."""
    dealer: int | None = None
    seed_scheme: SeedScheme
    """`hand_chain` or `game` (docs/fairness.md)."""
    rules_digest: str
    """SHA-256 (hex) of `rules` as stored (sorted keys, no spaces, UTF-8)."""


class PlayerJoinedView(_Event, tag="player_joined"):
    name: str
    bot: str | None = None


class HandDealtView(_Event, tag="hand_dealt"):
    hand_number: int
    dealer: int
    upcard: str | None
    """The first card of the discard pile; null in Wrotham, which deals none (its
    starter gets an eighth card instead)."""
    stock_count: int
    hand_size: int
    my_cards: list[str] | None = None
    """The caller's own cards, for a player."""
    deck: list[str] | None = None
    """The whole deck order: admin only (and in the audit export)."""
    seats: list[int] | None = None
    """The seats dealt in, where not every seat is: in Indian those not eliminated or
    sitting out, in any game those that have not forfeited (absent: every seat)."""
    wild_rank: str | None = None
    """Indian: the deal's wild rank."""
    wild_indicator: str | None = None
    """Indian: the card cut face up that makes its rank wild (a `JK`: aces)."""
    client_seeds: list[str] | None = None
    """`hand_chain` games: every seat's client seed, in seat order (`""` for none),
    public from the deal on: with the hand's seed (`hand_ended`) anyone recomputes
    the deal (docs/fairness.md "A seed per hand"). Absent in `game` games."""


class CardDrawnView(_Event, tag="card_drawn"):
    source: Source
    card: str | None = None
    """Absent when another player drew it from the stock."""
    second: bool = False
    """Boathouse: the second card of a turn that took the top discard (absent if not)."""
    count: int = 1
    """500 Rum: how many cards were taken from the spread pile (absent: 1); with more
    than one, `card` is the deepest (the called card)."""
    cards: list[str] | None = None
    """500 Rum: the cards a draw of several took, deepest first (public, as the pile
    is)."""


class MeldLaidView(_Event, tag="meld_laid", rename={"as_": "as"}):
    meld_id: str
    kind: MeldKind
    cards: list[str]
    as_: list[str] | None = None
    """Games with wild cards: what each card stands for, parallel to `cards`."""


class CardLaidOffView(_Event, tag="card_laid_off", rename={"as_": "as"}):
    meld_id: str
    card: str
    end: End
    as_: str | None = None
    """Games with wild cards: what the laid-off card stands for."""


class WildSwappedView(_Event, tag="wild_swapped", rename={"as_": "as"}):
    """`card` went into meld `meld_id` where `wild` stood for it (`as`); the wild went
    to the seat's hand."""

    meld_id: str
    card: str
    wild: str
    as_: str


class KnockedView(_Event, tag="knocked"):
    """Knock Rummy and Gin: the seat knocked, discarding a card face down. Which card
    is shown to players only in `hand_ended`."""

    card: str | None = None
    """The knock card: admin only (gin's big gin has none)."""
    kind: KnockKind | None = None
    """Gin: `knock`, `gin` or `big_gin` (clients must tolerate values they do not
    know)."""
    melds: list[list[str]] | None = None
    """Gin: the knocker's arrangement, laid face up."""


class UpcardPassedView(_Event, tag="upcard_passed"):
    """Gin: the seat left the upcard in the offer."""


class DeclaredView(_Event, tag="declared"):
    """Indian: the seat showed its hand in groups, finishing with `card`. Valid: it
    wins the deal once the others have shown; wrong: `points` (the full count) and
    out of the deal."""

    card: str
    groups: list[GroupView]
    valid: bool
    points: int


class GroupsSubmittedView(_Event, tag="groups_submitted"):
    """Indian, in the show: the seat showed its hand in groups, for `points`."""

    groups: list[GroupView]
    points: int


class PlayerDroppedView(_Event, tag="player_dropped"):
    """Indian: the seat left the deal before drawing (its hand is never shown)."""

    kind: DropKind
    points: int


class PlayerEliminatedView(_Event, tag="player_eliminated"):
    """Indian pools: `seat` (the player, not a mover: the rules eliminate it) reached
    the limit with `score` and is out of the game."""

    score: int


class TurnTimedOutView(_Event, tag="turn_timed_out"):
    """`seat`'s time to act ran out (the rule `turn_seconds`): the server's bot's move
    for it follows, as that seat's ordinary events. `timeouts`: the seat's
    consecutive timeouts with this one."""

    timeouts: int


class TimeBankUsedView(_Event, tag="time_bank_used"):
    """`seat` spent `seconds` of its time bank (the rule `time_bank_seconds`): its
    turn's clock had run out, and its move follows, or its `turn_timed_out` once the
    bank ran out too. The bank is never refilled."""

    seconds: int


class PlayerLeftView(_Event, tag="player_left"):
    """`seat`'s player left for good (`reason`): `replaced`, the server's bot plays
    the seat on; else the seat forfeited. Indian: a forfeit in the deal scores as a
    drop of `drop` kind for `points`."""

    reason: LeaveReason
    replaced: bool
    drop: DropKind | None = None
    points: int | None = None


class CardDiscardedView(_Event, tag="card_discarded"):
    card: str


class StockRecycledView(_Event, tag="stock_recycled"):
    stock_count: int
    shuffled: bool
    stock: list[str] | None = None
    """The new stock order, top first: admin only."""


class HandEndedView(LastHand, kw_only=True, tag_field="type", tag="hand_ended", omit_defaults=True):
    """The hand's result (`LastHand`, as a game's view shows it: one struct, made by
    one function) as the event that ended the hand, with the envelope of every event
    view (`_Event`'s fields, after the result's as in every event view: msgspec
    cannot take the fields of two bases)."""

    version: int
    at: datetime
    seat: int | None = None
    chain: ChainHead
    hand_seed: str | None = None
    """`hand_chain` games: the seed this hand was dealt from, revealed with its result
    (docs/fairness.md "A seed per hand"). Absent in `game` games."""


class GameFinishedView(_Event, tag="game_finished"):
    winner: int
    totals: list[int]
    result: list[GinResultSeat] | None = None
    """Gin: each seat's hands won, bonuses and final total (`totals`)."""


class GameAbortedView(_Event, tag="game_aborted"):
    """The game ended without a winner: `by` `cap` (a cap of its rules, docs/rules.md
    "Caps", which `reason` names); `admin` and `idle` may come (clients must tolerate
    values they do not know). Public: everyone sees all of it."""

    by: AbortedBy
    reason: str


EventView = (
    GameCreatedView
    | PlayerJoinedView
    | HandDealtView
    | CardDrawnView
    | MeldLaidView
    | CardLaidOffView
    | CardDiscardedView
    | StockRecycledView
    | HandEndedView
    | GameFinishedView
    | WildSwappedView
    | KnockedView
    | DeclaredView
    | GroupsSubmittedView
    | PlayerDroppedView
    | PlayerEliminatedView
    | TurnTimedOutView
    | PlayerLeftView
    | GameAbortedView
    | TimeBankUsedView
    | UpcardPassedView
)

EVENT_TYPES: tuple[str, ...] = tuple(view.__struct_config__.tag for view in get_args(EventView))
"""Every event type a game's feed shows (`type`), from the one union of event views:
what a webhook's `events` filter may name."""


def event_view(
    event: StoredEvent, viewer: Viewer, rules: RuleSet, seat_count: int, chain: str
) -> EventView:
    """`event` redacted for `viewer`. `rules` and `seat_count` are the game's; `chain`
    the live head after the stored event (service/projections/chain_heads.py), the same
    whoever the viewer."""
    data = event.data()
    envelope: dict[str, Any] = {
        "version": event.originator_version,
        "at": event.timestamp,
        "seat": event.seat,
        "chain": chain,
    }
    match event.event_type:
        case "game_created":
            return GameCreatedView(
                **envelope,
                rules=data["rules"],
                players=[
                    SeatJoined(seat=seat, name=None)
                    if entry is None
                    else SeatJoined(seat=seat, name=entry["name"], bot=entry["bot"])
                    for seat, entry in enumerate(data["seats"])
                ],
                seed_commitment=data["seed_commitment"],
                deal=DealMode(data["deal"]),
                dealer=data["dealer"],
                # Every stored creation has both (`GameCreated.upcast_v3_v4`); a log
                # built without them reads as the upcaster reads an old one.
                seed_scheme=SeedScheme(data.get("seed_scheme", SeedScheme.GAME)),
                rules_digest=data.get("rules_digest") or rules_digest(data["rules"]),
            )
        case "player_joined":
            return PlayerJoinedView(**envelope, name=data["name"], bot=data["bot"])
        case "hand_dealt":
            return _hand_dealt(envelope, data, viewer, rules, seat_count)
        case "card_drawn":
            visible = data["source"] == "discard" or viewer.sees_hand_of(event.seat)
            return CardDrawnView(
                **envelope,
                source=Source(data["source"]),
                card=data["card"] if visible else None,
                second=data.get("second", False),
                count=data.get("count", 1),
                cards=data.get("cards"),
            )
        case "meld_laid":
            return MeldLaidView(
                **envelope,
                meld_id=data["meld_id"],
                kind=MeldKind(data["kind"]),
                cards=data["cards"],
                as_=data.get("as"),
            )
        case "card_laid_off":
            return CardLaidOffView(
                **envelope,
                meld_id=data["meld_id"],
                card=data["card"],
                end=End(data["end"]),
                as_=data.get("as"),
            )
        case "wild_swapped":
            return WildSwappedView(
                **envelope,
                meld_id=data["meld_id"],
                card=data["card"],
                wild=data["wild"],
                as_=data["as"],
            )
        case "knocked":
            # Face down: only the result (`hand_ended`) shows it to the players.
            kind = data.get("kind")
            return KnockedView(
                **envelope,
                card=data["card"] if viewer.admin else None,
                kind=None if kind is None else KnockKind(kind),
                melds=data.get("melds"),
            )
        case "upcard_passed":
            return UpcardPassedView(**envelope)
        case "card_discarded":
            return CardDiscardedView(**envelope, card=data["card"])
        case "declared":
            return DeclaredView(
                **envelope,
                card=data["card"],
                groups=_groups(data["groups"]),
                valid=data["valid"],
                points=data["points"],
            )
        case "groups_submitted":
            return GroupsSubmittedView(
                **envelope, groups=_groups(data["groups"]), points=data["points"]
            )
        case "player_dropped":
            return PlayerDroppedView(**envelope, kind=DropKind(data["kind"]), points=data["points"])
        case "player_eliminated":
            return PlayerEliminatedView(
                **(envelope | {"seat": data["player"]}), score=data["score"]
            )
        case "turn_timed_out":
            # The system's event, about the seat it names.
            return TurnTimedOutView(
                **(envelope | {"seat": data["player"]}), timeouts=data["timeouts"]
            )
        case "player_left":
            drop = data.get("drop")
            return PlayerLeftView(
                **(envelope | {"seat": data["player"]}),
                reason=LeaveReason(data["reason"]),
                replaced=data["replaced"],
                drop=None if drop is None else DropKind(drop),
                points=data.get("points"),
            )
        case "stock_recycled":
            return StockRecycledView(
                **envelope,
                stock_count=len(data["stock"]),
                shuffled=data["shuffled"],
                stock=data["stock"] if viewer.admin else None,
            )
        case "hand_ended":
            return _hand_ended(envelope, data)
        case "game_finished":
            finished = domain.from_plain("game_finished", None, data)
            assert isinstance(finished, domain.GameFinished)
            return GameFinishedView(
                **envelope,
                winner=finished.winner,
                totals=list(finished.totals),
                result=None if finished.result is None else gin_result(finished.result),
            )
        case "game_aborted":
            return GameAbortedView(**envelope, by=AbortedBy(data["by"]), reason=data["reason"])
        case "time_bank_used":
            # The system's event, about the seat it names.
            return TimeBankUsedView(
                **(envelope | {"seat": data["player"]}), seconds=data["seconds"]
            )
    raise ValueError(f"No view for event type {event.event_type!r}")


def _hand_dealt(
    envelope: dict[str, Any], data: dict[str, Any], viewer: Viewer, rules: RuleSet, seat_count: int
) -> HandDealtView:
    """The deal as `viewer` sees it, read off the hand the game's engine deals from the
    event (`Engine.apply_deal`, as `changes.apply` does): one source for who holds
    what, whichever seats were dealt in."""
    event = domain.from_plain("hand_dealt", None, data)
    assert isinstance(event, domain.HandDealt)
    table = Table(rules=rules, seat_count=seat_count, seated=[True] * seat_count)
    table.engine.apply_deal(table, event)
    hand = table.hand
    assert hand is not None, "a deal makes a hand"
    seats = event.seats
    wild = table.engine.wild_now(table)
    indicator = None if wild is None else wild.indicator
    return HandDealtView(
        **envelope,
        hand_number=event.hand_number,
        dealer=event.dealer,
        upcard=hand.discard[0].code if hand.discard else None,
        stock_count=len(hand.stock),
        hand_size=rules.hand_size_for(seat_count if seats is None else len(seats)),
        my_cards=None if viewer.seat is None else card_codes(sorted_cards(hand.hands[viewer.seat])),
        deck=data["deck"] if viewer.admin else None,
        seats=None if seats is None else list(seats),
        wild_rank=None if indicator is None or wild is None else wild.rank,
        wild_indicator=None if indicator is None else indicator.code,
        client_seeds=data.get("client_seeds"),
    )


def _groups(groups: list[dict[str, Any]]) -> list[GroupView]:
    return [GroupView(cards=group["cards"], kind=GroupKind(group["kind"])) for group in groups]


def _hand_ended(envelope: dict[str, Any], data: dict[str, Any]) -> HandEndedView:
    result = domain.from_plain("hand_ended", None, data)
    assert isinstance(result, domain.HandEnded)
    shown = msgspec.structs.asdict(last_hand(result))
    return HandEndedView(**envelope, **shown, hand_seed=data.get("hand_seed"))
