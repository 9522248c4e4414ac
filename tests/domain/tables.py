"""Tables for tests, built from the hands they describe.

`deck_for` turns the hands, upcard and stock a test wants into the deck order
that deals them (docs/rules.md "The deal"); `new_game` seats everyone and deals
hand 1 from it, and `Game` plays moves by card code and checks that a refused
move changes nothing.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from service.domain.actions import Action, Discard, Draw, Knock, LayOff, Meld
from service.domain.cards import FULL_DECK, Card
from service.domain.decks import SeededDecks
from service.domain.errors import IllegalMove
from service.domain.events import Event
from service.domain.play import play, start
from service.domain.rules import RuleSet
from service.domain.state import HandResult, HandState, Source, Table
from service.domain.turns import legal_moves

Codes = str | Sequence[str]
"""Cards as space-separated codes (`"AS 2S 3S"`) or a list of codes."""

STOCK = Draw(Source.STOCK)
DISCARD = Draw(Source.DISCARD)


def cards(codes: Codes) -> list[Card]:
    """Cards from codes: `cards("KS 9D 4C AH")` or `cards(["KS", "9D"])`."""
    if isinstance(codes, str):
        codes = codes.split()
    return [Card.parse(code) for code in codes]


def card(code: str) -> Card:
    return Card.parse(code)


def deck_for(
    hands: Sequence[Codes],
    upcard: str,
    stock: Codes = (),
    dealer: int = 0,
    pack: Sequence[Card] = FULL_DECK,
) -> tuple[Card, ...]:
    """The deck order that deals `hands` (one per seat), then `upcard`, then `stock`
    (top first) followed by every other card of `pack` in its order (the whole pack
    of a variant's rules: `rules.pack`, jokers included)."""
    dealt = [cards(hand) for hand in hands]
    players = len(dealt)
    size = len(dealt[0])
    assert all(len(hand) == size for hand in dealt), "every seat is dealt the same count"
    order: list[Card] = []
    for round_ in range(size):
        for offset in range(1, players + 1):
            order.append(dealt[(dealer + offset) % players][round_])
    order.append(card(upcard))
    order.extend(cards(stock))
    return completed_deck(order, pack)


def starter_deck_for(
    hands: Sequence[Codes],
    stock: Codes = (),
    dealer: int = 0,
    pack: Sequence[Card] = FULL_DECK,
) -> tuple[Card, ...]:
    """Wrotham's deal (docs/rules.md "Variants"): the deck order that deals `hands`,
    where the starter's (the seat after `dealer`) holds one card more, its last card
    dealt after the rounds, then `stock` (top first) and the rest of `pack`."""
    dealt = [cards(hand) for hand in hands]
    players = len(dealt)
    starter = (dealer + 1) % players
    size = len(dealt[starter]) - 1
    assert all(len(hand) == size for seat, hand in enumerate(dealt) if seat != starter)
    order: list[Card] = []
    for round_ in range(size):
        for offset in range(1, players + 1):
            order.append(dealt[(dealer + offset) % players][round_])
    order.append(dealt[starter][size])
    order.extend(cards(stock))
    return completed_deck(order, pack)


def completed_deck(order: list[Card], pack: Sequence[Card]) -> tuple[Card, ...]:
    """`order` followed by the cards of `pack` it lacks, in `pack` order."""
    missing = Counter(pack)
    missing.subtract(order)
    assert all(count >= 0 for count in missing.values()), "no card beyond the pack"
    for c in pack:
        if missing[c] > 0:
            order.append(c)
            missing[c] -= 1
    assert Counter(order) == Counter(pack), "the deck is the whole pack"
    return tuple(order)


@dataclass
class Game:
    """A table in play, its decks, and every event recorded so far."""

    table: Table
    decks: SeededDecks
    events: list[Event] = field(default_factory=list)

    @property
    def hand(self) -> HandState:
        assert self.table.hand is not None, "a hand is in play"
        return self.table.hand

    @property
    def last(self) -> HandResult:
        assert self.table.last_hand is not None, "a hand has ended"
        return self.table.last_hand

    def held(self, seat: int) -> set[str]:
        """The codes in `seat`'s hand, as a set (the order held is not a rule)."""
        return {c.code for c in self.hand.hands[seat]}

    def act(self, seat: int, *actions: Action) -> list[Event]:
        """Play `actions` as one list for `seat`, as the service would."""
        made = play(self.table, seat, list(actions), self.decks)
        self.events.extend(made)
        return made

    def draw(self, seat: int, source: Source = Source.STOCK) -> list[Event]:
        return self.act(seat, Draw(source))

    def meld(self, seat: int, codes: Codes) -> list[Event]:
        return self.act(seat, Meld(tuple(cards(codes))))

    def lay_off(self, seat: int, code: str, meld_id: str) -> list[Event]:
        return self.act(seat, LayOff(card(code), meld_id))

    def discard(self, seat: int, code: str) -> list[Event]:
        return self.act(seat, Discard(card(code)))

    def turn(self, seat: int, discard: str, source: Source = Source.STOCK) -> list[Event]:
        """A plain turn: draw, then discard `discard`."""
        return self.act(seat, Draw(source), Discard(card(discard)))

    def refuses(self, seat: int, *actions: Action) -> str:
        """Play `actions` as one list, expect it refused, check nothing changed;
        return the error's code."""
        before = copy.deepcopy(self.table)
        with pytest.raises(IllegalMove) as refused:
            self.act(seat, *actions)
        assert self.table == before, "a refused move changes nothing"
        return refused.value.code


def new_game(
    hands: Sequence[Codes],
    upcard: str,
    stock: Codes = (),
    *,
    dealer: int = 0,
    rules: RuleSet | None = None,
    later: Sequence[tuple[Card, ...]] = (),
) -> Game:
    """Seat everyone and deal hand 1 as described; `later` gives hands 2, 3, … exactly
    (any hand after those is dealt from the seed)."""
    players = len(hands)
    rules = rules or RuleSet()
    if rules.hand_size is None and len(cards(hands[0])) != rules.hand_size_for(players):
        rules = RuleSet.from_dict({**rules.to_dict(), "hand_size": len(cards(hands[0]))})
    first = deck_for(hands, upcard, stock, dealer, rules.pack)
    return seated_game(rules, players, dealer, (first, *later))


def starter_game(
    hands: Sequence[Codes],
    stock: Codes = (),
    *,
    dealer: int = 0,
    rules: RuleSet,
    later: Sequence[tuple[Card, ...]] = (),
) -> Game:
    """`new_game` for Wrotham's deal (no upcard, the starter holds one card more)."""
    first = starter_deck_for(hands, stock, dealer, rules.pack)
    return seated_game(rules, len(hands), dealer, (first, *later))


def seated_game(
    rules: RuleSet,
    players: int,
    dealer: int | None = 0,
    explicit: Sequence[tuple[Card, ...]] = (),
    seed: str = "tables",
) -> Game:
    """A table with every seat taken and hand 1 dealt."""
    table = Table(rules=rules, seat_count=players, seated=[True] * players, first_dealer=dealer)
    decks = SeededDecks(
        seed=seed, client_seeds=("",) * players, explicit=tuple(explicit), pack=rules.pack
    )
    game = Game(table, decks)
    game.events.extend(start(table, decks))
    return game


def all_cards(table: Table) -> Counter[Card]:
    """Every card of the hand in play, wherever it is."""
    assert table.hand is not None
    return Counter(table.hand.cards())


KNOCK_CHANCE = 0.1
"""How often a random Knock Rummy player that may knock does so, rather than discard."""


def random_legal_action(table: Table, rng: random.Random) -> tuple[int, Action]:
    """A legal move for the seat to play, chosen at random, leaning towards
    melding and laying off so hands end (in Knock Rummy, knocking now and then)."""
    hand = table.hand
    assert hand is not None
    seat = hand.turn
    moves = legal_moves(table, seat)
    if moves.draw:
        return seat, Draw(rng.choice(moves.draw))
    # Only Knock Rummy offers knocks: other games draw the same random numbers as ever.
    if moves.knock and rng.random() < KNOCK_CHANCE:
        return seat, Knock(rng.choice(moves.knock))
    plays: list[Action] = [Meld(m) for m in moves.melds]
    plays.extend(LayOff(c, meld_id) for c, meld_id in moves.lay_offs)
    if plays and rng.random() < 0.8:
        return seat, rng.choice(plays)
    return seat, Discard(rng.choice(moves.discard))


VARIANT_RULES: dict[str, dict[str, object]] = {
    "classic": {},
    "wild": {"variant": "wild"},
    "boathouse": {"variant": "boathouse"},
    "knock": {"variant": "knock"},
    "wrotham": {"variant": "wrotham"},
    "indian": {"variant": "indian"},
    "gin": {"variant": "gin"},
    "rummy500": {"variant": "rummy500"},
}
"""Each variant's rules at their defaults, by the variant's name."""


def dealt_table(variant: str, seed: str) -> tuple[Table, SeededDecks]:
    """A two-seat table of `variant` (`VARIANT_RULES`) with its first hand dealt from
    `seed`, and the decks it plays on with."""
    rules = RuleSet.from_dict(VARIANT_RULES[variant], players=2)
    table = Table(rules=rules, seat_count=2, seated=[True, True])
    decks = SeededDecks(seed=seed, client_seeds=("", ""), pack=rules.pack)
    start(table, decks)
    return table, decks
