"""What a finished hand shows, in every view and in `hand_ended`: each seat's cards
and points, and what its variant adds (Knock Rummy's and gin's arrangements, gin's
lay-offs and final reckoning, Indian's shown groups, 500 Rum's put-down points).
Every hand is shown whole: at its end the cards are laid face up to be counted.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from service.domain.cards import card_codes, sorted_cards
from service.domain.indian.judge import Group, GroupKind
from service.domain.state import DealStatus, GinFinal, HandEnding, HandResult, Show


class GroupView(msgspec.Struct, kw_only=True):
    cards: list[str]
    kind: GroupKind


class ShowView(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Indian: a declaration (with its finish `card` and `valid`) or a submission."""

    seat: int
    groups: list[GroupView]
    points: int
    card: str | None = None
    valid: bool | None = None


class GinLaidOff(msgspec.Struct, kw_only=True):
    """Gin: a defender's card laid off on the knocker's meld number `meld` (an index
    into the knocker's `melds`)."""

    card: str
    meld: int


class GinResultSeat(msgspec.Struct, kw_only=True):
    """Gin: one seat's final reckoning at the game's end."""

    seat: int
    hands_won: int
    box: int
    """`box_bonus` for each hand won."""
    game_bonus: int
    shutout: bool
    """The winner whose total was doubled (the loser won no hand)."""
    total: int


class HandResultSeat(msgspec.Struct, kw_only=True, omit_defaults=True):
    seat: int
    cards: list[str]
    value: int
    points: int
    total: int
    count: int | None = None
    """Knock Rummy: what the cards outside `melds` count."""
    unmatched: list[str] | None = None
    """Knock Rummy: the cards outside `melds`, sorted."""
    melds: list[list[str]] | None = None
    """Knock Rummy: the melds of a best arrangement of the hand."""
    groups: list[GroupView] | None = None
    """Indian: the groups the seat showed (absent if it showed none)."""
    status: DealStatus | None = None
    """Indian: the seat's status when the deal ended."""
    deadwood: list[str] | None = None
    """Gin: the cards left outside `melds` after the defender's lay-offs, sorted."""
    laid_off: list[GinLaidOff] | None = None
    """Gin: the defender's cards laid off on the knocker's melds (the knocker: [])."""
    melded_points: int | None = None
    """500 Rum: the values of the cards the seat put down this hand; `points` is
    that less the value of `in_hand`."""
    in_hand: list[str] | None = None
    """500 Rum: the cards left in the seat's hand (a forfeiter's face down: none;
    its `value` still counts)."""


class LastHand(msgspec.Struct, kw_only=True, omit_defaults=True):
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
    hand_winner: int | None = None
    """Gin: the one seat that scored the hand (absent when void)."""


def last_hand(result: HandResult) -> LastHand:
    """A finished hand's result. Every hand is shown: at the end of a hand the
    cards are laid face up to be counted."""
    shown = {show.seat: group_views(show.groups) for show in result.shows or ()}
    return LastHand(
        hand_number=result.hand_number,
        how=result.how,
        out_seat=result.out_seat,
        rummy=result.rummy,
        players=[
            HandResultSeat(
                seat=seat,
                cards=card_codes(sorted_cards(cards)),
                value=result.values[seat],
                points=result.points[seat],
                total=result.totals[seat],
                count=None if result.counts is None else result.counts[seat],
                unmatched=None
                if result.unmatched is None
                else card_codes(sorted_cards(result.unmatched[seat])),
                melds=None
                if result.arranged is None
                else [card_codes(meld) for meld in result.arranged[seat]],
                groups=shown.get(seat),
                status=None if result.statuses is None else result.statuses[seat],
                deadwood=None
                if result.deadwood is None
                else card_codes(sorted_cards(result.deadwood[seat])),
                laid_off=None
                if result.laid_off is None
                else [
                    GinLaidOff(card=each.card.code, meld=each.meld)
                    for each in result.laid_off[seat]
                ],
                melded_points=None if result.melded is None else result.melded[seat],
                in_hand=None if result.melded is None else card_codes(sorted_cards(cards)),
            )
            for seat, cards in enumerate(result.remaining)
        ],
        knocker=result.knocker,
        knock_card=None if result.knock_card is None else result.knock_card.code,
        pot=result.pot,
        eliminated=None if result.eliminated is None else list(result.eliminated),
        hand_winner=result.hand_winner,
    )


def gin_result(final: Sequence[GinFinal]) -> list[GinResultSeat]:
    """Gin's final reckoning, seat by seat."""
    return [
        GinResultSeat(
            seat=seat,
            hands_won=each.hands_won,
            box=each.box,
            game_bonus=each.game_bonus,
            shutout=each.shutout,
            total=each.total,
        )
        for seat, each in enumerate(final)
    ]


def show_view(show: Show) -> ShowView:
    return ShowView(
        seat=show.seat,
        groups=group_views(show.groups),
        points=show.points,
        card=None if show.card is None else show.card.code,
        valid=show.valid,
    )


def group_views(groups: Sequence[Group]) -> list[GroupView]:
    return [GroupView(cards=card_codes(group.cards), kind=group.kind) for group in groups]
