"""Indian Rummy tables for tests (docs/rules.md "Indian 13-card Rummy").

`indian_deck` is the deck order that deals the hands a test names among the
seats dealt in, then the upcard, the wild indicator and the stock; `indian_game`
seats everyone and deals from it. `Shoe` hands out cards from what is left of
the pack: a valid declaration, a hand that counts a given number of points, any
cards. `Deal` and `play_deal` script a whole deal from what each seat does in it
(declares, submits, drops, shows wrongly, is left), so the formats' worked
examples and tests read like the rules text.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from service.domain.actions import Declare, Discard, Drop, SubmitGroups
from service.domain.cards import RANKS, SUITS, Card, Rank
from service.domain.events import CardDrawn, Event
from service.domain.indian.judge import wild_rank_of
from service.domain.rules import RuleSet
from service.domain.state import DealStatus, Phase, indian_of
from tests.domain.tables import STOCK, Codes, Game, cards, completed_deck, seated_game

Groups = tuple[tuple[Card, ...], ...]


def indian_rules(players: int = 2, **options: object) -> RuleSet:
    """An Indian rule set as a game of `players` seats is created with it."""
    return RuleSet.from_dict({"variant": "indian", **options}, players=players)


def groups_of(*codes: str) -> Groups:
    """Groups from space-separated codes, one string per group."""
    return tuple(tuple(cards(group)) for group in codes)


def indian_deck(
    rules: RuleSet,
    hands: Mapping[int, Codes],
    *,
    dealer: int,
    upcard: str,
    indicator: str,
    stock: Codes = (),
) -> tuple[Card, ...]:
    """The deck order that deals `hands` (13 cards to each seat dealt in, by seat) one
    card at a time from the seat dealt in after `dealer`, then the upcard, the wild
    indicator, `stock` (top first) and the rest of the pack in reference order."""
    seats = sorted(hands)
    dealt = {seat: cards(hand) for seat, hand in hands.items()}
    size = len(dealt[seats[0]])
    first = seats.index(dealer)
    order: list[Card] = []
    for round_ in range(size):
        for offset in range(1, len(seats) + 1):
            order.append(dealt[seats[(first + offset) % len(seats)]][round_])
    order.extend(cards([upcard, indicator]))
    order.extend(cards(stock))
    return completed_deck(order, rules.pack)


def indian_game(
    hands: Sequence[Codes],
    *,
    indicator: str = "KC",
    upcard: str = "QD",
    stock: Codes = (),
    dealer: int | None = None,
    rules: RuleSet | None = None,
    **options: object,
) -> Game:
    """Every seat dealt its hand of `hands` (seat 0 moves first unless `dealer` says
    otherwise); kings are wild unless `indicator` says otherwise."""
    players = len(hands)
    rules = rules or indian_rules(players, **options)
    dealer = players - 1 if dealer is None else dealer
    deck = indian_deck(
        rules,
        dict(enumerate(hands)),
        dealer=dealer,
        upcard=upcard,
        indicator=indicator,
        stock=stock,
    )
    return seated_game(rules, players, dealer, (deck,))


# --- hands from what is left of the pack ------------------------------------------------------

_RUN = 3
_NATURAL_RANKS = RANKS
_TENS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)
"""The ranks that count 10."""


class Shoe:
    """The cards of a pack not yet handed out, with the deal's wild rank: hands are
    built from it so that no card is dealt twice."""

    def __init__(self, rules: RuleSet, indicator: str, taken: Codes = ()) -> None:
        self.left = Counter(rules.pack)
        self.wild = wild_rank_of(Card.parse(indicator))
        self.take(cards([indicator]))
        self.take(cards(taken))

    def take(self, taken: Sequence[Card]) -> list[Card]:
        for card in taken:
            assert self.left[card] > 0, f"{card} is not left in the pack"
            self.left[card] -= 1
        return list(taken)

    def _natural(self, card: Card) -> bool:
        return self.left[card] > 0 and card.rank is not self.wild

    def pure_run(self, length: int = _RUN) -> tuple[Card, ...]:
        """A run of `length` cards of one suit, none wild, from what is left."""
        for suit in SUITS:
            for start in range(len(_NATURAL_RANKS) - length + 1):
                run = tuple(Card(rank, suit) for rank in _NATURAL_RANKS[start : start + length])
                if all(self._natural(card) for card in run):
                    self.take(run)
                    return run
        raise AssertionError("no pure run is left in the pack")

    def worth(self, value: int) -> Card:
        """A card that is not wild and counts `value` (2 to 10)."""
        ranks = _TENS if value == 10 else (Rank(value),)
        for rank in ranks:
            for suit in SUITS:
                card = Card(rank, suit)
                if self._natural(card):
                    self.take([card])
                    return card
        raise AssertionError(f"no card worth {value} is left in the pack")

    def any_cards(self, count: int) -> list[Card]:
        """`count` cards that are not wild, the highest first (A K Q J 10, then 9 ...)."""
        found: list[Card] = []
        for rank in (*_TENS, *(Rank(value) for value in range(9, 1, -1))):
            for suit in SUITS:
                card = Card(rank, suit)
                while self._natural(card) and len(found) < count:
                    found.extend(self.take([card]))
        assert len(found) == count, "the pack is not that large"
        return found

    def runs(self, size: int) -> Groups:
        """Pure runs of 3 to 5 cards that make `size` cards (0 or 6 to 13)."""
        lengths = [_RUN] * (size // _RUN)
        for index in range(size % _RUN):
            lengths[index] += 1
        return tuple(self.pure_run(length) for length in lengths)

    def declaration(self) -> Groups:
        """13 cards in pure runs: a valid declaration."""
        return self.runs(13)

    def counting(self, points: int) -> tuple[list[Card], Groups]:
        """A hand of 13 that counts `points` (0, or 2 to 70) when shown in the groups
        returned: pure runs (so the life holds) and ungrouped cards worth `points`."""
        spare = math.ceil(points / 10)
        assert spare <= 7, f"{points} points cannot be left over by 7 cards"
        assert points != 1, "no card counts 1"
        values = [10] * spare
        over = 10 * spare - points
        for index in reversed(range(spare)):
            cut = min(over, values[index] - 2)
            values[index] -= cut
            over -= cut
        groups = self.runs(13 - spare)
        left = [self.worth(value) for value in values]
        return [card for group in groups for card in group] + left, groups

    def without_life(self) -> tuple[list[Card], Groups]:
        """A hand of 13 shown without a pure sequence: a set and high cards ungrouped,
        all 13 counting more than 80."""
        held = self.any_cards(13)
        ranks = Counter(card.rank for card in held)
        rank = max(ranks, key=lambda each: ranks[each])
        same = [card for card in held if card.rank is rank][:3]
        shown = (tuple(same),) if len(same) == 3 and len({c.suit for c in same}) == 3 else ()
        return held, shown


# --- a scripted deal ----------------------------------------------------------------------------


class Does(Enum):
    """What a seat does in a scripted deal."""

    DECLARES = "declares"
    SUBMITS = "submits"
    FIRST_DROP = "drops first"
    MIDDLE_DROP = "drops in the middle"
    WRONG_SHOW = "shows wrongly"
    IS_LEFT = "is left"


_EXITS = (Does.FIRST_DROP, Does.MIDDLE_DROP, Does.WRONG_SHOW)


@dataclass
class Part:
    """One seat's part in a deal: what it does, the hand it is dealt and the groups it
    shows (a declaration's, a submission's or a wrong show's)."""

    does: Does
    hand: list[Card]
    groups: Groups = ()


@dataclass
class Deal:
    """A deal to script: its dealer and each dealt seat's part, in seat order."""

    dealer: int
    parts: dict[int, Part]
    indicator: str = "KC"
    upcard: str = "QD"
    submit_order: list[int] = field(default_factory=list)

    def deck(self, rules: RuleSet, stock: Codes = ()) -> tuple[Card, ...]:
        return indian_deck(
            rules,
            {seat: [c.code for c in part.hand] for seat, part in self.parts.items()},
            dealer=self.dealer,
            upcard=self.upcard,
            indicator=self.indicator,
            stock=stock,
        )


def part(shoe: Shoe, does: Does, points: int = 0, *, life: bool = True) -> Part:
    """A seat's part built from `shoe`: a declarer's valid hand, a submitter's hand
    that counts `points` (without the life: over 80), any 13 cards otherwise (a
    wrong show shows them in one invalid group)."""
    if does is Does.DECLARES:
        groups = shoe.declaration()
        return Part(does, [card for group in groups for card in group], groups)
    if does is Does.SUBMITS:
        held, groups = shoe.counting(points) if life else shoe.without_life()
        return Part(does, held, groups)
    held = shoe.any_cards(13)
    return Part(does, held, (tuple(held),) if does is Does.WRONG_SHOW else ())


def play_deal(game: Game, deal: Deal, *, most_moves: int = 200) -> list[Event]:
    """Play the deal in play as `deal` scripts it, to its end: seats that pass draw
    from the stock and discard the card drawn; a declarer waits until every seat that
    drops or shows wrongly has done so, then declares with the card it draws."""
    number = game.table.hand_number
    made: list[Event] = []
    for _ in range(most_moves):
        if game.table.finished or game.table.hand_number != number:
            return made
        hand = game.hand
        statuses = indian_of(hand).statuses
        assert statuses is not None
        if hand.phase is Phase.SHOW:
            order = deal.submit_order or sorted(deal.parts)
            seat = next(s for s in order if statuses[s] is DealStatus.TO_SUBMIT)
            made += game.act(seat, SubmitGroups(deal.parts[seat].groups))
            continue
        seat = hand.turn
        does = deal.parts[seat].does
        pending = any(
            statuses[s] is DealStatus.IN and p.does in _EXITS for s, p in deal.parts.items()
        )
        if does is Does.FIRST_DROP or (does is Does.MIDDLE_DROP and indian_of(hand).drawn[seat]):
            made += game.act(seat, Drop())
        elif does is Does.WRONG_SHOW or (does is Does.DECLARES and not pending):
            drawn = game.act(seat, STOCK)
            made += drawn
            finish = next(e.card for e in drawn if isinstance(e, CardDrawn))
            made += game.act(seat, Declare(finish, deal.parts[seat].groups))
        else:
            drawn = game.act(seat, STOCK)
            finish = next(e.card for e in drawn if isinstance(e, CardDrawn))
            made += drawn + game.act(seat, Discard(finish))
    raise AssertionError(f"deal {number} did not end in {most_moves} moves")


Plan = Sequence[tuple[int, Mapping[int, tuple[Does, int]]]]
"""Deals to script, in order: each deal's dealer, and what each seat dealt in does
(with the points a submission counts)."""

LIFE_UP_TO = 70
"""The most a shown hand with the life can count here (seven cards left over at 10);
a submission scripted to count more is shown without it."""


def scripted_game(rules: RuleSet, players: int, plan: Plan) -> tuple[Game, list[Deal]]:
    """A table whose deals are dealt as `plan` scripts them (the first deal by the
    plan's first dealer); play each with `play_deal`."""
    deals = []
    for dealer, roles in plan:
        shoe = Shoe(rules, "KC", ["QD"])
        parts = {
            seat: part(shoe, does, points, life=points <= LIFE_UP_TO)
            for seat, (does, points) in roles.items()
        }
        deals.append(Deal(dealer, parts))
    game = seated_game(rules, players, plan[0][0], tuple(deal.deck(rules) for deal in deals))
    return game, deals
