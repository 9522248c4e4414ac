"""No bot peeks: re-deal what a seat cannot see, and its move stays the same.

For positions a few moves into a hand of every variant, the hidden cards are
dealt again in many ways consistent with the seat's view: the cards of the
other hands (each keeping its size), the stock and the cards out of play face
down (a knock card; Indian's indicator is face up, kept). Every view shows the
whole discard pile (`pile_below`, 500 Rum's `discard_pile`: public), so it is
kept; the cards the table saw a seat take stay in its hand
(`players[].known_cards`). The seat's view must be
the same byte for byte (so the re-deal is consistent), and with the same seed
every level (`random`, `basic`, `strong`, `expert`) must choose the same move.
A bot that read anything but its view would, sooner or later, move otherwise.

The searching levels run their real search at a quarter of their budget
(`RUMMY_BOT_BUDGET_SCALE`), with the wall-clock guard out of reach so that a
busy machine cannot cut a search short in one run and not in the other.
"""

from __future__ import annotations

from collections import Counter
from random import Random

import msgspec
import pytest

from service.bots.search.budget import SCALE_VARIABLE
from service.bots.search.unknown import Unknown
from service.bots.strategies import STRATEGIES, request_of
from service.bots.view import BotView
from service.domain.cards import Card
from service.domain.decks import SeededDecks
from service.domain.play import play, start
from service.domain.rule_values import Variant
from service.domain.rules import RuleSet
from service.domain.state import Status, Table
from tests.bots.tables import default_rules, view_for

LEVELS = ("random", "basic", "strong", "expert")
POSITIONS = 4
"""Positions per variant and table size."""
REDEALS = 6
"""Re-deals of each position's hidden cards."""
TABLE_SIZES = (2, 3)


@pytest.fixture(autouse=True)
def _quick_real_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # A quarter of the samples: still real searches (the guard is out of reach:
    # tests/bots/conftest.py).
    monkeypatch.setenv(SCALE_VARIABLE, "0.25")


def test_every_level_is_tested():
    assert set(LEVELS) == set(STRATEGIES)


@pytest.mark.parametrize("players", TABLE_SIZES)
@pytest.mark.parametrize("variant", list(Variant))
def test_no_level_moves_otherwise_when_the_hidden_cards_are_dealt_again(
    variant: Variant, players: int
):
    rules = default_rules(variant, players)
    if rules is None:
        pytest.skip(f"{variant} is not played by {players}")
    for number in range(POSITIONS):
        seed = f"no-peek/{variant}/{players}/{number}"
        table = _position(rules, players, seed)
        hand = table.hand
        assert hand is not None
        seat = hand.to_act()
        view = view_for(table, seat)
        encoded = msgspec.json.encode(view)
        moves = {level: STRATEGIES[level](view, Random(seed)) for level in LEVELS}
        changed = 0
        for redeal in range(REDEALS):
            other = _redealt(table, seat, Random(f"{seed}/{redeal}"))
            changed += _hidden(other, seat) != _hidden(table, seat)
            other_view = view_for(other, seat)
            assert msgspec.json.encode(other_view) == encoded, "a re-deal the view shows"
            for level in LEVELS:
                again = STRATEGIES[level](other_view, Random(seed))
                assert again == moves[level], f"{level} moved otherwise after a re-deal"
        assert changed, "the hidden cards did change"


def test_a_bot_that_peeks_is_caught():
    """The re-deals do reach what a peeking bot would read: one that plays by the
    stock's top card moves otherwise after some re-deal."""
    rules = default_rules(Variant.CLASSIC, 2)
    assert rules is not None
    table = _position(rules, 2, "peeking")
    hand = table.hand
    assert hand is not None
    seat = hand.to_act()

    def peeking(board: Table) -> object:
        assert board.hand is not None
        actions = BotView.read(view_for(board, seat)).actions()
        return actions[board.hand.stock[-1].sort_key[0] % len(actions)]

    moves = {peeking(_redealt(table, seat, Random(redeal))) for redeal in range(REDEALS)}
    assert len(moves) > 1


@pytest.mark.parametrize("variant", list(Variant))
def test_the_unseen_cards_and_their_samples_depend_on_the_view_alone(variant: Variant):
    rules = default_rules(variant, 2)
    assert rules is not None
    for number in range(POSITIONS):
        seed = f"unknown/{variant}/{number}"
        table = _position(rules, 2, seed)
        assert table.hand is not None
        seat = table.hand.to_act()
        view = view_for(table, seat)
        bot = BotView.read(view)
        forgetting = Unknown.of(view, bot)
        unknown = Unknown.of(view, bot.remembering()).remembering(bot)
        # The pool of a seat that remembers the play is exactly the cards hidden from
        # it, whatever their places; `strong`'s forgets which of them the table saw
        # another seat take, and outside Gin and 500 Rum the pile under the top.
        hidden = _hidden(table, seat)
        forgotten = _known(table, seat) + _buried(table)
        assert sorted(unknown.pool, key=_key) == sorted(hidden, key=_key)
        assert sorted(forgetting.pool, key=_key) == sorted(hidden + forgotten, key=_key)
        samples = [unknown.sample(Random(draw)) for draw in range(3)]
        for redeal in range(REDEALS):
            other_view = view_for(_redealt(table, seat, Random(f"{seed}/{redeal}")), seat)
            again = Unknown.of(other_view, BotView.read(other_view))
            assert again == forgetting
            bot_again = BotView.read(other_view)
            again = Unknown.of(other_view, bot_again.remembering()).remembering(bot_again)
            assert again == unknown
            assert [again.sample(Random(draw)) for draw in range(3)] == samples
        for deal in samples:
            assert {seat: len(cards) for seat, cards in deal.hands.items()} == (unknown.hand_counts)
            for other, cards in deal.hands.items():
                assert not Counter(table.hand.known.get(other, ())) - Counter(cards)
            assert len(deal.stock) == unknown.stock_count
            assert len(deal.buried) == unknown.buried_count
            assert not Counter(_buried(table)) - Counter(deal.buried)


def _position(rules: RuleSet, players: int, seed: str) -> Table:
    """A table some moves into its first hand, played by `basic` and `random` in
    turn at random, stopped where a seat is to move."""
    table = Table(rules=rules, seat_count=players, seated=[True] * players)
    decks = SeededDecks(seed=seed, client_seeds=("",) * players, pack=rules.pack)
    start(table, decks)
    rng = Random(seed)
    for _ in range(rng.randrange(2, 14)):
        hand = table.hand
        assert hand is not None
        seat = hand.to_act()
        level = "basic" if rng.random() < 0.6 else "random"
        trial = table.copy()
        play(trial, seat, request_of(STRATEGIES[level](view_for(table, seat), rng)), decks)
        if trial.status is not Status.PLAYING or trial.hands_played:
            break  # the hand would end: stay in it
        table = trial
    return table


def _hidden_places(table: Table, seat: int) -> list[list[Card]]:
    """Each place holding cards `seat` cannot see, as the lists the table keeps."""
    hand = table.hand
    assert hand is not None
    places = [hand.hands[other] for other in range(table.seat_count) if other != seat]
    places.append(hand.stock)
    if table.rules.variant is not Variant.INDIAN:
        # Cards out of play lie face down (a knock card); Indian's indicator is shown.
        places.append(hand.out_of_play)
    return places


def _shown(table: Table, place: list[Card]) -> list[Card]:
    """The cards of a hidden place that the view shows all the same: the cards the
    table saw a seat take into its hand."""
    hand = table.hand
    assert hand is not None
    for seat, held in enumerate(hand.hands):
        if place is held:
            return list(hand.known.get(seat, ()))
    return []


def _hidden(table: Table, seat: int) -> list[Card]:
    cards: list[Card] = []
    for place in _hidden_places(table, seat):
        left = list(place)
        for shown in _shown(table, place):
            left.remove(shown)
        cards.extend(left)
    return cards


def _redealt(table: Table, seat: int, rng: Random) -> Table:
    """A copy of `table` whose hidden cards have changed places, each place keeping its
    size, and each hand the cards the table saw it take."""
    copied = table.copy()
    cards = _hidden(copied, seat)
    rng.shuffle(cards)
    for place in _hidden_places(copied, seat):
        shown = _shown(copied, place)
        size = len(place) - len(shown)
        place[:] = cards[:size] + shown
        cards = cards[size:]
    assert not cards
    return copied


def _known(table: Table, seat: int) -> list[Card]:
    """The cards the table saw the other seats take and keep."""
    hand = table.hand
    assert hand is not None
    return [card for other, cards in hand.known.items() if other != seat for card in cards]


def _buried(table: Table) -> list[Card]:
    """The discard pile under its top, where only a seat that remembers the play
    counts it as seen (Gin's and 500 Rum's searches read it at every level)."""
    hand = table.hand
    assert hand is not None
    if table.rules.variant in (Variant.RUMMY500, Variant.GIN):
        return []
    return hand.discard[:-1]


def _key(card: Card) -> tuple[int, str]:
    return card.sort_key
