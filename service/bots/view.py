"""What a bot knows: its own player view, read back into typed cards.

A strategy is handed the `GameView` its seat would get over HTTP and
nothing else. `BotView.read` turns that view's card codes into domain
values and refuses any view that is not a player's own (the public view
has no hand; the admin view shows every hidden card), so a bot cannot
cheat even by mistake.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from service.domain.actions import Action
from service.domain.cards import FULL_DECK, Card, Rank
from service.domain.engine import engine_for
from service.domain.legal import LegalMoves
from service.domain.melds import MeldKind, TableMeld
from service.domain.rule_values import Family
from service.domain.rules import RuleSet
from service.domain.state import Phase, Source
from service.projections.views import GameView

REMEMBER_STOCK = 4
"""The fewest stock cards at which a remembering seat counts the pile under the top
as seen: the pile turns over into the stock when the stock runs out, so within a
few draws of that its cards are live again."""


class NotAPlayerView(ValueError):
    """A strategy was handed something other than one seat's own view."""


@dataclass(frozen=True)
class BotView:
    """One seat's view of the table, with typed cards."""

    seat: int
    rules: RuleSet
    phase: Phase | None
    hand: tuple[Card, ...]
    legal: LegalMoves
    """The view's `legal` block read back into the domain's moves."""
    melds: tuple[TableMeld, ...]
    """The melds on the table, copies: a strategy may try lay-offs on them."""
    discard_top: Card | None
    stock_count: int
    hand_counts: tuple[int, ...]
    """Cards held by each seat, in seat order."""
    deal_wild: Rank | None = None
    """Indian: the wild rank cut for this deal."""
    pile: tuple[Card, ...] = ()
    """500 Rum: the whole spread discard pile, oldest first; Gin: the whole pile too
    (`below` and `discard_top`: public, never taken from but its top), which its
    searches read at every level. Empty in the other variants."""
    called: Card | None = None
    """500 Rum: the called card this seat must still meld or lay off this turn."""
    known: tuple[tuple[Card, ...], ...] = ()
    """Per seat in seat order, the cards the table saw it take and that it still
    holds (the view's `players[].known_cards`: public)."""
    below: tuple[Card, ...] = ()
    """The discard pile under its top, oldest first (the view's `pile_below`: public,
    every card thrown face up), in every variant but 500 Rum (whole in `pile`)."""
    remembers: bool = False
    """Whether this seat counts the pile under the top as seen (`remembering`): what
    a player who remembers the play knows. Off unless a level turns it on."""

    @classmethod
    def read(cls, view: GameView) -> BotView:
        """The typed form of `view`; `NotAPlayerView` unless it is one seat's own view."""
        if view.hidden is not None:
            raise NotAPlayerView("A bot plays from its own view, never from the admin view.")
        if view.my_seat is None or view.my_hand is None or view.legal is None:
            raise NotAPlayerView("A bot plays from its own seat's view, not the public view.")
        legal = view.legal
        rules = _rules(tuple(sorted(view.rules.items())))
        top = None if view.discard_top is None else Card.parse(view.discard_top)
        below = _cards(view.pile_below or [])
        return cls(
            seat=view.my_seat,
            rules=rules,
            phase=None if view.phase is None else Phase(view.phase),
            hand=_cards(view.my_hand),
            legal=LegalMoves(
                draw=tuple(Source(source) for source in legal.draw),
                melds=tuple(_cards(cards) for cards in legal.melds),
                lay_offs=tuple(
                    (Card.parse(option.card), option.meld_id)
                    for option in legal.lay_offs
                    if option.as_ is None
                ),
                discard=_cards(legal.discard),
                # The variants' moves, where the view has them.
                meld_readings=tuple(
                    (_cards(reading.cards), _cards(reading.as_))
                    for reading in legal.meld_readings or ()
                ),
                wild_lay_offs=tuple(
                    (Card.parse(option.card), option.meld_id, Card.parse(option.as_))
                    for option in legal.lay_offs
                    if option.as_ is not None
                ),
                swaps=tuple(
                    (option.meld_id, Card.parse(option.card), Card.parse(option.wild))
                    for option in legal.swaps or ()
                ),
                knock=_cards(legal.knock or []),
                can_go_out=legal.can_go_out,
                can_declare=bool(legal.can_declare),
                can_drop=bool(legal.can_drop),
                drop_points=legal.drop_points,
                can_submit=bool(legal.can_submit),
                can_pass=bool(legal.can_pass),
                big_gin=bool(legal.big_gin),
                deadwood=legal.deadwood,
                pile_counts=tuple(legal.pile_counts or ()),
            ),
            melds=tuple(
                TableMeld(
                    id=meld.id,
                    kind=MeldKind(meld.kind),
                    cards=list(_cards(meld.cards)),
                    owner=meld.owner,
                    laid_off=[(Card.parse(laid.card), laid.seat) for laid in meld.laid_off],
                    as_=None if meld.as_ is None else list(_cards(meld.as_)),
                )
                for meld in view.melds
            ),
            discard_top=top,
            stock_count=view.stock_count,
            hand_counts=tuple(player.hand_count for player in view.players),
            deal_wild=None
            if view.wild is None or view.wild.indicator is None or view.wild.rank is None
            else Rank.parse(view.wild.rank),
            pile=_pile(view, rules, below, top),
            called=None if view.called_card is None else Card.parse(view.called_card),
            known=tuple(_cards(player.known_cards or []) for player in view.players),
            below=below,
        )

    def remembering(self) -> BotView:
        """This view, with the pile under the top counted as seen (`unseen`,
        `remembered`): for a level that remembers the play."""
        return replace(self, remembers=True)

    @cached_property
    def remembered(self) -> tuple[Card, ...]:
        """The cards under the top of the pile this seat counts as seen: `below` when
        it remembers and the stock is not nearly out (`REMEMBER_STOCK`), else none."""
        if not self.remembers or self.stock_count < REMEMBER_STOCK:
            return ()
        return self.below

    def actions(self) -> list[Action]:
        """Every legal action now, in the view's order."""
        return self.legal.actions()

    @cached_property
    def played_this_hand(self) -> bool:
        """Whether this seat has a meld or a laid-off card on the table this hand."""
        return any(
            meld.owner == self.seat or any(seat == self.seat for _, seat in meld.laid_off)
            for meld in self.melds
        )

    @cached_property
    def unseen(self) -> frozenset[Card]:
        """Every card this seat cannot see: in other hands, the stock, or under the
        top discard (unless it remembers them: `remembered`)."""
        seen: set[Card] = set(self.hand)
        for meld in self.melds:
            seen.update(meld.cards)
        if self.discard_top is not None:
            seen.add(self.discard_top)
        seen.update(self.remembered)
        return frozenset(card for card in FULL_DECK if card not in seen)

    def opponents_holding(self) -> Iterable[int]:
        """How many cards each other seat holds."""
        return (count for seat, count in enumerate(self.hand_counts) if seat != self.seat)


def _pile(
    view: GameView, rules: RuleSet, below: tuple[Card, ...], top: Card | None
) -> tuple[Card, ...]:
    if view.discard_pile:
        return _cards(view.discard_pile)
    if engine_for(rules).family is Family.GIN and top is not None:
        return (*below, top)
    return ()


@lru_cache(maxsize=64)
def _rules(items: tuple[tuple[str, object], ...]) -> RuleSet:
    # A view carries its rules as plain data; games keep theirs for life, so
    # the parsed rule set is cached rather than checked again on every move.
    return RuleSet.from_dict(dict(items))


def _cards(codes: list[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes)
