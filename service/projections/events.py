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
from typing import Any, Protocol

import msgspec

from service.domain.cards import Card, card_codes, parse_cards, sorted_cards
from service.domain.deal import Deal, StarterDeal, deal, deal_among, deal_to_starter
from service.domain.fairness import DealMode
from service.domain.groups import GroupKind, wild_rank_of
from service.domain.melds import End, MeldKind
from service.domain.rules import RuleSet, Variant
from service.domain.state import DealStatus, DropKind, HandEnding, LeaveReason, Source
from service.projections.views import GroupView, HandResultSeat, Viewer


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


class _Event(msgspec.Struct, kw_only=True, tag_field="type", omit_defaults=True):
    version: int
    at: datetime
    seat: int | None = None
    """The seat that caused the event; absent for the system."""


class SeatJoined(msgspec.Struct, kw_only=True):
    seat: int
    name: str | None
    bot: str | None = None


class GameCreatedView(_Event, tag="game_created"):
    rules: dict[str, Any]
    players: list[SeatJoined]
    seed_commitment: str
    deal: DealMode
    """`commit_reveal` or `explicit`: how the deals are decided (docs/fairness.md)."""
    dealer: int | None = None


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
    """Indian: the seats dealt in (the others are eliminated or sit out)."""
    wild_rank: str | None = None
    """Indian: the deal's wild rank."""
    wild_indicator: str | None = None
    """Indian: the card cut face up that makes its rank wild (a `JK`: aces)."""


class CardDrawnView(_Event, tag="card_drawn"):
    source: Source
    card: str | None = None
    """Absent when another player drew it from the stock."""
    second: bool = False
    """Boathouse: the second card of a turn that took the top discard (absent if not)."""


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
    """Knock Rummy: the seat knocked, discarding a card face down. Which card is
    shown to players only in `hand_ended`."""

    card: str | None = None
    """The knock card: admin only."""


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


class HandEndedView(_Event, tag="hand_ended"):
    hand_number: int
    how: HandEnding
    out_seat: int | None
    rummy: bool
    players: list[HandResultSeat]
    knocker: int | None = None
    """Knock Rummy: who knocked."""
    knock_card: str | None = None
    """Knock Rummy: the card the knocker discarded face down."""
    pot: int | None = None
    """Knock Rummy: what the winners shared."""
    eliminated: list[int] | None = None
    """Indian pools: the seats this deal eliminated."""


class GameFinishedView(_Event, tag="game_finished"):
    winner: int
    totals: list[int]


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
)


def event_view(event: StoredEvent, viewer: Viewer, rules: RuleSet, players: int) -> EventView:
    """`event` redacted for `viewer`. `rules` and `players` are the game's."""
    data = event.data()
    envelope: dict[str, Any] = {
        "version": event.originator_version,
        "at": event.timestamp,
        "seat": event.seat,
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
            )
        case "player_joined":
            return PlayerJoinedView(**envelope, name=data["name"], bot=data["bot"])
        case "hand_dealt":
            return _hand_dealt(envelope, data, viewer, rules, players)
        case "card_drawn":
            visible = data["source"] == "discard" or viewer.sees_hand_of(event.seat)
            return CardDrawnView(
                **envelope,
                source=Source(data["source"]),
                card=data["card"] if visible else None,
                second=data.get("second", False),
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
            return KnockedView(**envelope, card=data["card"] if viewer.admin else None)
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
            return GameFinishedView(**envelope, winner=data["winner"], totals=data["totals"])
    raise ValueError(f"No view for event type {event.event_type!r}")


def _hand_dealt(
    envelope: dict[str, Any], data: dict[str, Any], viewer: Viewer, rules: RuleSet, players: int
) -> HandDealtView:
    size = rules.hand_size_for(players)
    deck = parse_cards(data["deck"])
    seats = data.get("seats")
    if seats is not None:
        return _indian_deal(envelope, data, viewer, deck, seats, size)
    dealt: Deal | StarterDeal
    if rules.variant is Variant.WROTHAM:
        dealt = deal_to_starter(deck, data["dealer"], players, size)
        upcard = None
    else:
        dealt = deal(deck, data["dealer"], players, size)
        upcard = dealt.upcard.code
    return HandDealtView(
        **envelope,
        hand_number=data["hand_number"],
        dealer=data["dealer"],
        upcard=upcard,
        stock_count=len(dealt.stock),
        hand_size=size,
        my_cards=None
        if viewer.seat is None
        else card_codes(sorted_cards(dealt.hands[viewer.seat])),
        deck=data["deck"] if viewer.admin else None,
    )


def _indian_deal(
    envelope: dict[str, Any],
    data: dict[str, Any],
    viewer: Viewer,
    deck: list[Card],
    seats: list[int],
    size: int,
) -> HandDealtView:
    dealt = deal_among(deck, data["dealer"], seats, size)
    mine = None
    if viewer.seat is not None:
        mine = (
            card_codes(sorted_cards(dealt.hands[seats.index(viewer.seat)]))
            if viewer.seat in seats
            else []
        )
    return HandDealtView(
        **envelope,
        hand_number=data["hand_number"],
        dealer=data["dealer"],
        upcard=dealt.upcard.code,
        stock_count=len(dealt.stock),
        hand_size=size,
        my_cards=mine,
        deck=data["deck"] if viewer.admin else None,
        seats=list(seats),
        wild_rank=wild_rank_of(dealt.indicator).code,
        wild_indicator=dealt.indicator.code,
    )


def _groups(groups: list[dict[str, Any]]) -> list[GroupView]:
    return [GroupView(cards=group["cards"], kind=GroupKind(group["kind"])) for group in groups]


def _hand_ended(envelope: dict[str, Any], data: dict[str, Any]) -> HandEndedView:
    counts = data.get("counts")
    unmatched = data.get("unmatched")
    arranged = data.get("arranged")
    statuses = data.get("statuses")
    shown = {show["seat"]: _groups(show["groups"]) for show in data.get("shows") or ()}
    return HandEndedView(
        **envelope,
        hand_number=data["hand_number"],
        how=HandEnding(data["how"]),
        out_seat=data["out_seat"],
        rummy=data["how"] == "rummy",
        players=[
            HandResultSeat(
                seat=seat,
                cards=card_codes(sorted_cards(parse_cards(cards))),
                value=data["values"][seat],
                points=data["points"][seat],
                total=data["totals"][seat],
                count=None if counts is None else counts[seat],
                unmatched=None
                if unmatched is None
                else card_codes(sorted_cards(parse_cards(unmatched[seat]))),
                melds=None if arranged is None else [list(meld) for meld in arranged[seat]],
                groups=shown.get(seat),
                status=None if statuses is None else DealStatus(statuses[seat]),
            )
            for seat, cards in enumerate(data["remaining"])
        ],
        knocker=data.get("knocker"),
        knock_card=data.get("knock_card"),
        pot=data.get("pot"),
        eliminated=data.get("eliminated"),
    )
