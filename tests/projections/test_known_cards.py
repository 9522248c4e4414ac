"""`players[].known_cards`: the cards the table saw a seat take and that it still
holds, as a player at the table would remember them, in every view alike.

The games below are played by `basic` and `random` in turn; after every event the
views are checked against what the recorded events show (the cards taken face up
and not played since, followed here from the events themselves), and against
the hands: a card the views call known is always in that seat's hand.
"""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from service.bots.strategies import STRATEGIES, request_of
from service.domain.cards import Card
from service.domain.changes import apply
from service.domain.decks import SeededDecks
from service.domain.events import (
    CardDiscarded,
    CardDrawn,
    CardLaidOff,
    Declared,
    Event,
    HandDealt,
    HandEnded,
    Knocked,
    MeldLaid,
    PlayerDropped,
    WildSwapped,
)
from service.domain.melds import MeldKind
from service.domain.play import play, start
from service.domain.rule_values import Variant
from service.domain.rules import RuleSet
from service.domain.state import Source, Status, Table
from service.projections.views import ADMIN, PUBLIC, Viewer, game_view
from tests.bots.tables import card, cards, default_rules, snapshot, table, view_for

GAMES = 3
MOVES = 400


class Remembered:
    """What a player at the table remembers of each seat's hand, followed event by
    event: the cards it took face up, less the ones of the same face it played."""

    def __init__(self) -> None:
        self.known: dict[int, list[Card]] = {}

    def see(self, event: Event) -> None:
        match event:
            case HandDealt() | HandEnded():
                self.known = {}
            case CardDrawn(seat=seat, source=Source.DISCARD, card=taken, cards=many):
                self.known.setdefault(seat, []).extend(many or (taken,))
            case WildSwapped(seat=seat, card=played, wild=wild):
                self._played(seat, (played,))
                self.known.setdefault(seat, []).append(wild)
            case CardDiscarded(seat=seat, card=played) | CardLaidOff(seat=seat, card=played):
                self._played(seat, (played,))
            case Knocked(seat=seat, card=played) | Declared(seat=seat, card=played):
                self._played(seat, () if played is None else (played,))
                if isinstance(event, Declared) and not event.valid:
                    self.known.pop(seat, None)
            case MeldLaid(seat=seat, cards=played):
                self._played(seat, played)
            case PlayerDropped(seat=seat):
                self.known.pop(seat, None)

    def _played(self, seat: int, played: tuple[Card, ...]) -> None:
        held = self.known.get(seat, [])
        for each in played:
            if each in held:
                held.remove(each)

    def of(self, seat: int) -> list[str] | None:
        return [each.code for each in self.known.get(seat, [])] or None


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("variant", list(Variant))
def test_every_view_shows_the_cards_the_play_showed_taken_and_kept(variant: Variant, players: int):
    rules = default_rules(variant, players)
    if rules is None:
        pytest.skip(f"{variant} is not played by {players}")
    shown = 0
    for game in range(GAMES):
        seed = f"known/{variant}/{players}/{game}"
        board = Table(rules=rules, seat_count=players, seated=[True] * players)
        decks = SeededDecks(seed=seed, client_seeds=("",) * players, pack=rules.pack)
        memory = Remembered()

        def record(event: Event, board: Table = board, memory: Remembered = memory) -> None:
            apply(board, event)
            memory.see(event)
            _check(board, memory)

        start(board, decks, record)
        rng = Random(seed)
        for _ in range(MOVES):
            if board.status is not Status.PLAYING or board.hand is None:
                break
            seat = board.hand.to_act()
            level = "basic" if rng.random() < 0.7 else "random"
            request = request_of(STRATEGIES[level](view_for(board, seat), rng))
            play(board, seat, request, decks, record)
            shown += sum(bool(memory.known.get(each)) for each in range(players))
    assert shown, "some seat took a card face up and kept it"


def _check(board: Table, memory: Remembered) -> None:
    hand = board.hand
    viewers = [PUBLIC, ADMIN, *(Viewer(seat=seat) for seat in range(board.seat_count))]
    for viewer in viewers:
        players = game_view(snapshot(board), viewer).players
        for seat, player in enumerate(players):
            assert player.known_cards == memory.of(seat), (viewer, seat)
            if hand is not None and player.known_cards:
                held = Counter(each.code for each in hand.hands[seat])
                assert not Counter(player.known_cards) - held, "known cards are held"


def test_a_card_taken_then_thrown_is_forgotten_though_its_twin_stays_in_hand():
    """Two packs (Indian): nobody can tell which 7H of two was thrown, so the one
    taken counts as thrown, though the hand still holds the other."""
    rules = RuleSet.from_dict({"variant": "indian"}, players=2)
    board = Table(rules=rules, seat_count=2, seated=[True, True])
    start(board, SeededDecks(seed="twins", client_seeds=("", ""), pack=rules.pack))
    hand = board.hand
    assert hand is not None
    hand.turn = 0
    for twin in (hand.hands[0], hand.discard):
        twin.remove(twin[-1])
        twin.append(card("7H"))  # one of each pack's 7H: in seat 0's hand, on the pile
    apply(board, CardDrawn(seat=0, source=Source.DISCARD, card=card("7H")))
    assert view_for(board, 1).players[0].known_cards == ["7H"]
    apply(board, CardDiscarded(seat=0, card=card("7H")))
    assert card("7H") in hand.hands[0]
    assert view_for(board, 1).players[0].known_cards is None


def test_a_card_taken_and_melded_is_forgotten_and_the_rest_kept():
    board = table(["5H 6H 9C QS", "KD QD JD 2C"], discard="2S 7H 4D")
    apply(board, CardDrawn(seat=0, source=Source.DISCARD, card=card("4D")))
    apply(board, CardDrawn(seat=0, source=Source.DISCARD, card=card("7H"), second=True))
    assert view_for(board, 1).players[0].known_cards == ["4D", "7H"]
    played = tuple(cards("5H 6H 7H"))
    apply(board, MeldLaid(seat=0, meld_id="h1-m1", kind=MeldKind.RUN, cards=played))
    for seat in (0, 1):
        assert view_for(board, seat).players[0].known_cards == ["4D"]
    assert view_for(board, 0).players[1].known_cards is None


def test_a_draw_from_the_stock_is_never_known():
    board = table(["5H 6H 9C QS", "KD QD JD 2C"], discard="2S")
    assert board.hand is not None
    apply(board, CardDrawn(seat=0, source=Source.STOCK, card=board.hand.stock[-1]))
    assert all(player.known_cards is None for player in view_for(board, 1).players)
