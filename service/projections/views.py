"""What each caller sees of a game: a player's view, the public view, the admin view.

A player sees exactly what a player at a real table would: its own cards,
every face-up card, and counts of everything face down. `legal` comes from
the domain's own rule functions. The public view is the player view without
`my_seat`, `my_hand` and `legal`; the admin view adds every hidden card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any, Protocol
from uuid import UUID

import msgspec

from service.domain import legal as domain_legal
from service.domain import turns
from service.domain.cards import card_codes, sorted_cards
from service.domain.engine import WildNow
from service.domain.fairness import DealMode
from service.domain.hand_chain import SeedScheme
from service.domain.melds import MeldKind
from service.domain.rule_values import Variant
from service.domain.rules import RuleSet
from service.domain.state import (
    DealStatus,
    HandState,
    Phase,
    Source,
    Status,
    Table,
)
from service.projections.hand_results import (
    GinResultSeat,
    LastHand,
    ShowView,
    gin_result,
    last_hand,
    show_view,
)
from service.projections.shown_players import ShownPlayer


class SeatInfo(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def bot(self) -> str | None: ...

    @property
    def pseudonym(self) -> str | None:
        """A vouched-for player's pseudonym as stored (never shown), or None."""


def pseudonyms(game: GameSnapshot) -> list[str]:
    """The pseudonyms of `game`'s vouched-for seats, in seat order."""
    return [info.pseudonym for info in game.seats if info is not None and info.pseudonym]


class GameSnapshot(Protocol):
    """A game at one version, as the application hands it out."""

    @property
    def game_id(self) -> UUID: ...

    @property
    def version(self) -> int: ...

    @property
    def table(self) -> Table: ...

    @property
    def seats(self) -> Sequence[SeatInfo | None]: ...

    @property
    def seed_commitment(self) -> str: ...

    @property
    def deal_mode(self) -> DealMode: ...

    @property
    def seed_scheme(self) -> SeedScheme: ...

    @property
    def rules_digest(self) -> str: ...

    @property
    def hand_seeds(self) -> tuple[str, ...]: ...

    @property
    def turn_deadline(self) -> datetime | None: ...


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: a seat (a player), nobody (the public), or the admin."""

    seat: int | None = None
    admin: bool = False

    def sees_hand_of(self, seat: int | None) -> bool:
        return self.admin or (seat is not None and seat == self.seat)


PUBLIC = Viewer()
ADMIN = Viewer(admin=True)


class PlayerSummary(msgspec.Struct, kw_only=True, omit_defaults=True):
    seat: int
    name: str | None
    """None while the seat is open; for a player a platform vouched for, the name its
    assertion gave (`erased` once the player is erased)."""
    player: str | None
    """`<platform_id>:<player>` for a seat a platform vouched for (docs/players.md);
    null for an anonymous seat, a bot, an open seat, or an erased player."""
    score: int
    hand_count: int
    bot: str | None
    """The bot's strategy, or null for a person (always present)."""
    status: DealStatus | None = None
    """Indian: where the seat stands in the deal in play (or in the game)."""
    left: bool = False
    """Its player left, resigned or was taken over by its clock (absent: false)."""
    replaced: bool = False
    """It left and the server's bot plays the seat on (`bot` names it)."""
    forfeited: bool = False
    """It left and forfeited: it takes no more turns and cannot win."""
    timeouts: int = 0
    """Its consecutive turn timeouts (absent: none)."""
    time_bank_left: int | None = None
    """Games with a time bank (`time_bank_seconds`): the whole seconds of it the seat
    has left, as recorded (what it spent in requests and timeouts taken off; the
    seat to act may be spending it now: it runs out at `turn_deadline`). Absent in
    games without one."""
    hands_won: int | None = None
    """Gin: the hands the seat has won so far."""
    melded_points: int | None = None
    """500 Rum: the values of the cards the seat has put down this hand (absent
    between hands and in the other variants)."""
    known_cards: list[str] | None = None
    """The cards the table saw the seat take into its hand this hand and that it
    still holds as far as anyone can tell: taken face up from the discard pile, or a
    wild taken back from a meld, and not played since (a card of the same face
    played counts as that one). What a player at the table would remember; in the
    order taken. Absent when none (and between hands)."""


class LaidOffCard(msgspec.Struct, kw_only=True):
    card: str
    seat: int


class MeldView(msgspec.Struct, kw_only=True, omit_defaults=True, rename={"as_": "as"}):
    id: str
    kind: MeldKind
    cards: list[str]
    owner: int
    laid_off: list[LaidOffCard]
    as_: list[str] | None = None
    """Games with wild cards: what each card stands for, parallel to `cards` (a
    natural card itself). Absent in games without wilds."""


class LayOffOption(msgspec.Struct, kw_only=True, omit_defaults=True, rename={"as_": "as"}):
    card: str
    meld_id: str
    as_: str | None = None
    """For a wild `card`: what it would stand for (one option per reading)."""


class MeldReading(msgspec.Struct, kw_only=True, rename={"as_": "as"}):
    cards: list[str]
    as_: list[str]
    """What each of `cards` stands for: send it as the meld's `as`."""


class SwapOption(msgspec.Struct, kw_only=True):
    meld_id: str
    card: str
    """The natural card to put in."""
    wild: str
    """The wild it frees, which goes to your hand."""


class LegalMoves(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A player view's `legal` block, in card codes (its name is the OpenAPI schema's);
    the domain's typed moves it shows are `service.domain.legal.LegalMoves`. The four lists of the
    classic game are always there; the others only in variants that have the move."""

    draw: list[Source]
    melds: list[list[str]]
    lay_offs: list[LayOffOption]
    discard: list[str]
    meld_readings: list[MeldReading] | None = None
    """Games with wild cards: every valid reading of each legal meld holding a wild."""
    swaps: list[SwapOption] | None = None
    """Games with `swap`: every swap you may make now."""
    knock: list[str] | None = None
    """Knock Rummy: the cards you may knock with now."""
    can_go_out: bool | None = None
    """Concealed turns (Boathouse; Wrotham deals 4-6): whether a list of actions that
    goes out exists now (melds are laid only in that list)."""
    can_declare: bool | None = None
    """Indian: a declaration may be posted now (its groups are judged when posted)."""
    can_drop: bool | None = None
    """Indian: a drop is allowed now (before your draw)."""
    drop_points: int | None = None
    """Indian: what a drop would cost now (absent when a drop is not allowed)."""
    can_submit: bool | None = None
    """Indian, in the show: you still have to submit your groups."""
    pile_counts: list[int] | None = None
    """500 Rum: every `count` of cards you may take from the discard pile now (a
    count above 1 calls the deepest card, which must be used this turn)."""
    can_pass: bool | None = None
    """Gin: you are offered the upcard and may pass."""
    big_gin: bool | None = None
    """Gin: you may knock without a card (big gin: all eleven cards in melds)."""
    deadwood: int | None = None
    """Gin: the least deadwood of all the cards you hold now, arranged as the server
    would (absent between hands)."""


class HiddenCards(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Admin only: every face-down card of the hand in play."""

    hands: list[list[str]]
    stock: list[str]
    """Top first."""
    discard_pile: list[str]
    """Oldest first; the last is the top."""
    out_of_play: list[str] | None = None
    """Variants: the cards out of play this hand (a knock card)."""


class WildView(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The game's wild cards (public)."""

    jokers: int
    """How many `JK` the pack holds."""
    rank: str | None
    """The wild rank (every card of it is wild), or null."""
    indicator: str | None = None
    """Indian: the deal's wild indicator (face up, out of play; a `JK` makes aces
    wild). Absent in the other variants."""


class GameView(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A game as one caller sees it. The caller-specific fields are absent
    where they do not apply (the public view has no `my_hand`)."""

    game_id: str
    version: int
    status: Status
    rules: dict[str, Any]
    variant: Variant
    players: list[PlayerSummary]
    hand_number: int
    dealer: int | None
    turn: int | None
    phase: Phase | None
    stock_count: int
    discard_top: str | None
    discard_count: int
    melds: list[MeldView]
    last_hand: LastHand | None
    winner: int | None
    seed_commitment: str
    deal: DealMode
    """How the deals are decided (docs/fairness.md): `commit_reveal`, from the seed
    committed to above and every player's client seed; or `explicit`, from a seed or
    deck orders the creator chose, which the creator knows."""
    seed_scheme: SeedScheme
    """`hand_chain` (a seed per hand, each revealed when its hand ends) or `game` (one
    seed, revealed at the game's end): docs/fairness.md."""
    rules_digest: str
    """SHA-256 (hex) of the rules as stored in `game_created` (sorted keys, no spaces,
    UTF-8): `hand_chain`'s commitment binds it."""
    hand_seeds: list[str] | None = None
    """`hand_chain`: the seeds of hands 1, 2, … revealed so far (each once its hand
    has ended; every dealt hand's once the game is over). Absent for `game`."""
    turn_deadline: datetime | None = None
    """Games with a turn clock (`turn_seconds`): when the seat to act (in Indian's
    show: the first of the seats still to show) is timed out, in UTC: the turn's
    clock, then (`time_bank_seconds`) the seat's time bank as it stood when the turn
    began. Absent otherwise."""
    wild: WildView | None = None
    """Games with wild cards only."""
    out_of_play_count: int | None = None
    """Variants only: cards out of play this hand (a knock card)."""
    shows: list[ShowView] | None = None
    """Indian: the deal's declaration and submissions, in the order made."""
    knock_limit: int | None = None
    """Gin: this hand's knock limit (Oklahoma: the upcard's value; 0: gin only)."""
    doubled: bool | None = None
    """Gin, Oklahoma: a spade upcard doubles this hand's points."""
    result: list[GinResultSeat] | None = None
    """Gin, once finished: each seat's hands won, bonuses and final total (`score`)."""
    discard_pile: list[str] | None = None
    """500 Rum: the whole spread discard pile, oldest first (public). Absent in the
    other variants, which show `discard_top` and `pile_below`."""
    pile_below: list[str] | None = None
    """The discard pile under `discard_top`, oldest first, in every variant but 500 Rum
    (whose `discard_pile` shows it whole); absent between hands. Public: each card in
    it was thrown face up (the event feed shows every seat each throw), so a player
    at the table could remember it; bots read it here (docs/bots.md)."""
    called_card: str | None = None
    """500 Rum, the seat to play's own view only: the called card it took from the pile
    and must still meld or lay off this turn."""
    my_seat: int | None = None
    my_hand: list[str] | None = None
    legal: LegalMoves | None = None
    hidden: HiddenCards | None = None


def game_view(
    game: GameSnapshot, viewer: Viewer, shown: Mapping[str, ShownPlayer] | None = None
) -> GameView:
    """The view of `game` for `viewer`; `shown` says who each vouched-for seat's
    pseudonym stands for (without it, such a seat shows no player and its stored name)."""
    table = game.table
    hand = table.hand
    engine = table.engine
    view = GameView(
        game_id=str(game.game_id),
        version=game.version,
        status=table.status,
        rules=dict(_rules(table.rules)),  # a copy: the cached one is every view's
        variant=table.rules.variant,
        players=_players(game, shown or {}),
        hand_number=table.hand_number,
        dealer=table.dealer,
        turn=None
        if hand is None or table.status is not Status.PLAYING or hand.phase is Phase.SHOW
        else hand.turn,
        phase=None if hand is None or table.status is not Status.PLAYING else hand.phase,
        stock_count=0 if hand is None else len(hand.stock),
        discard_top=None if hand is None or not hand.discard else hand.discard[-1].code,
        discard_count=0 if hand is None else len(hand.discard),
        melds=[] if hand is None else [_meld(meld) for meld in hand.melds],
        wild=_wild(engine.wild_now(table)),
        out_of_play_count=(0 if hand is None else len(hand.out_of_play))
        if table.features.shows_out_of_play
        else None,
        last_hand=None if table.last_hand is None else last_hand(table.last_hand),
        winner=table.winner,
        seed_commitment=game.seed_commitment,
        deal=game.deal_mode,
        seed_scheme=game.seed_scheme,
        rules_digest=game.rules_digest,
        hand_seeds=list(game.hand_seeds) if game.seed_scheme is SeedScheme.HAND_CHAIN else None,
        turn_deadline=game.turn_deadline,
    )
    shows = engine.shows(table)
    if shows is not None:
        view.shows = [show_view(show) for show in shows]
    terms = engine.knock_terms(table)
    if terms is not None:
        view.knock_limit = terms.knock_limit
        view.doubled = terms.doubled
        for summary, won in zip(view.players, terms.hands_won, strict=True):
            summary.hands_won = won
        if table.final is not None:
            view.result = gin_result(table.final)
    if table.rules.spread_pile and hand is not None:
        view.discard_pile = card_codes(hand.discard)
    elif hand is not None:
        # Every card under the top was thrown face up: public, remembered at a table.
        view.pile_below = card_codes(hand.discard[:-1])
    if viewer.seat is not None:
        seat = viewer.seat
        called = engine.called_card(table, seat)
        view.called_card = None if called is None else called.code
        view.my_seat = seat
        view.my_hand = [] if hand is None else card_codes(sorted_cards(hand.hands[seat]))
        view.legal = _legal(table, seat)
    if viewer.admin and hand is not None:
        view.hidden = HiddenCards(
            hands=[card_codes(sorted_cards(held)) for held in hand.hands],
            stock=card_codes(hand.stock[::-1]),
            discard_pile=card_codes(hand.discard),
            out_of_play=card_codes(hand.out_of_play) if table.features.shows_out_of_play else None,
        )
    return view


@lru_cache(maxsize=64)
def _rules(rules: RuleSet) -> dict[str, Any]:
    """`rules` as plain data: a game's rules never change, and most games share them.
    Views show the variant and its pack too (`shown`), the classic game's included."""
    return rules.shown()


def _wild(wild: WildNow | None) -> WildView | None:
    if wild is None:
        return None
    indicator = None if wild.indicator is None else wild.indicator.code
    return WildView(jokers=wild.jokers, rank=wild.rank, indicator=indicator)


def _players(game: GameSnapshot, shown: Mapping[str, ShownPlayer]) -> list[PlayerSummary]:
    hand = game.table.hand
    engine = game.table.engine
    melded = engine.melded_points(game.table)
    summaries = []
    for seat, info in enumerate(game.seats):
        player = None if info is None or info.pseudonym is None else shown.get(info.pseudonym)
        summaries.append(
            PlayerSummary(
                seat=seat,
                name=None if info is None else info.name if player is None else player.name,
                player=None if player is None else player.player,
                score=game.table.totals[seat],
                hand_count=0 if hand is None else len(hand.hands[seat]),
                bot=None if info is None else info.bot,
                status=engine.seat_status(game.table, seat),
                left=game.table.left[seat],
                replaced=game.table.left[seat] and not game.table.forfeited[seat],
                forfeited=game.table.forfeited[seat],
                timeouts=game.table.timeouts[seat],
                time_bank_left=game.table.bank_left[seat]
                if game.table.rules.time_bank_seconds
                else None,
                melded_points=None if melded is None else melded[seat],
                known_cards=_known_cards(hand, seat),
            )
        )
    return summaries


def _known_cards(hand: HandState | None, seat: int) -> list[str] | None:
    known = None if hand is None else hand.known.get(seat)
    return card_codes(known) if known else None


def _meld(meld: Any) -> MeldView:
    return MeldView(
        id=meld.id,
        kind=meld.kind,
        cards=card_codes(meld.cards),
        owner=meld.owner,
        laid_off=[LaidOffCard(card=card.code, seat=seat) for card, seat in meld.laid_off],
        as_=None if meld.as_ is None else card_codes(meld.as_),
    )


def _legal(table: Table, seat: int) -> LegalMoves:
    """The caller's legal moves. A key is there only where the variant has the move
    (the classic game's four always), so a classic view is as it always was."""
    moves: domain_legal.LegalMoves = turns.legal_moves(table, seat)
    rules = table.rules
    legal = LegalMoves(
        draw=list(moves.draw),
        melds=[card_codes(cards) for cards in moves.melds],
        lay_offs=[
            LayOffOption(card=card.code, meld_id=meld_id) for card, meld_id in moves.lay_offs
        ],
        discard=card_codes(moves.discard),
    )
    keys = table.engine.legal_keys(rules)
    if "meld_readings" in keys:
        legal.meld_readings = [
            MeldReading(cards=card_codes(cards), as_=card_codes(as_))
            for cards, as_ in moves.meld_readings
        ]
        legal.lay_offs.extend(
            LayOffOption(card=card.code, meld_id=meld_id, as_=as_.code)
            for card, meld_id, as_ in moves.wild_lay_offs
        )
    if rules.swap:
        legal.swaps = [
            SwapOption(meld_id=meld_id, card=card.code, wild=wild.code)
            for meld_id, card, wild in moves.swaps
        ]
    if "knock" in keys:
        legal.knock = card_codes(moves.knock)
    if moves.can_go_out is not None or "can_go_out" in keys:
        legal.can_go_out = bool(moves.can_go_out)
    if "can_declare" in keys:
        legal.can_declare = moves.can_declare
        legal.can_drop = moves.can_drop
        legal.drop_points = moves.drop_points
        legal.can_submit = moves.can_submit
    if "can_pass" in keys:
        legal.can_pass = moves.can_pass
        legal.big_gin = moves.big_gin
        legal.deadwood = moves.deadwood
    if "pile_counts" in keys:
        legal.pile_counts = list(moves.pile_counts)
    return legal
