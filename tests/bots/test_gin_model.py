"""Gin's model of the other hand (`search/gin_model.py`, `expert`) and the pile the
view shows: the unseen cards leave the pile out, the card the other player threw
or passed is read off the view only when it was its, the samples lean away from
hands that would have melded that card, and its knock after my throw is charged."""

from __future__ import annotations

from random import Random

from service.bots.search import gin_masks as gm
from service.bots.search.gin_model import Shown, Stakes, melds_with, refused, threat
from service.bots.search.unknown import Unknown
from service.bots.view import BotView
from service.domain.rules import RuleSet
from service.domain.state import GinHand, Phase, Table
from tests.bots.tables import cards, table, view_for

GIN = RuleSet.from_dict({"variant": "gin"}, players=2)
STAKES = Stakes(GIN, limit=10, gin_bonus=25, undercut_bonus=25, factor=1)


def gin_table(hands: list[str | int], discard: str, phase: Phase, turn: int = 0) -> Table:
    board = table(hands, discard=discard, phase=phase, rules=GIN, turn=turn)
    assert board.hand is not None
    board.hand.gin = GinHand(knock_limit=10, doubled=False)
    return board


def mask(codes: str) -> int:
    return gm.mask_of(cards(codes))


def test_the_view_shows_the_pile_under_its_top_and_the_unseen_cards_leave_it_out() -> None:
    board = gin_table(["2C 3C 4C 7D 8D 9H 10S JS QH KD", 10], "5H 6S 9C", Phase.DRAW)
    view = view_for(board, 0)
    assert view.pile_below == ["5H", "6S"]
    assert view.discard_top == "9C"
    bot = BotView.read(view)
    unknown = Unknown.of(view, bot)
    assert not set(cards("5H 6S 9C")) & set(unknown.pool)
    assert unknown.buried_count == 0
    assert len(unknown.pool) == 52 - 10 - 3


def test_the_refused_card_is_the_other_players_throw_or_pass_only() -> None:
    hand = "2C 3C 4C 7D 8D 9H 10S JS QH KD"
    drawing = gin_table([hand, 10], "5H 9C", Phase.DRAW)
    view = view_for(drawing, 0)
    assert refused(view, BotView.read(view)) == gm.BIT[cards("9C")[0]]
    # After a draw from the stock every card may be thrown: the top is still its.
    after_stock = gin_table([hand + " AS", 10], "5H 9C", Phase.PLAY)
    view = view_for(after_stock, 0)
    assert refused(view, BotView.read(view)) == gm.BIT[cards("9C")[0]]
    # After taking the top, the new top's thrower is not known.
    after_pile = gin_table([hand + " 9C", 10], "5H", Phase.PLAY)
    assert after_pile.hand is not None
    after_pile.hand.taken = cards("9C")[0]
    view = view_for(after_pile, 0)
    assert refused(view, BotView.read(view)) == -1


def test_samples_lean_away_from_other_hands_that_would_have_melded_the_thrown_card() -> None:
    # The other player threw 8H: hands holding 8S 8C or 9H 10H are unlikely.
    board = gin_table(["2C 3C 4C 7D 8D JH 10S JS QH KD", 10], "5S 8H", Phase.DRAW)
    view = view_for(board, 0)
    bot = BotView.read(view)
    shown, plain = Shown.of_seat(view, bot), Unknown.of(view, bot)
    top = gm.BIT[cards("8H")[0]]
    rng = Random(3)

    def wanting(unknown: Unknown) -> int:
        return sum(melds_with(gm.mask_of(unknown.sample(rng).hands[1]), top) for _ in range(300))

    assert wanting(shown) < wanting(plain) / 5


def test_samples_hold_the_cards_the_other_player_took_each_in_a_meld() -> None:
    # The other player took the 6S from the pile: every sample deals it back to it,
    # no draw can bring it, and the samples lean toward hands that meld it (6S with
    # two more sixes or spades next to it), as a hand that took it would.
    board = gin_table(
        ["2C 3C 4C 7D 8D JH 10S JS QH KD", "AH 2H 3H 4D 5D 6D 9C 9S 6H 6S"], "5H 8H", Phase.DRAW
    )
    assert board.hand is not None
    six = cards("6S")[0]
    board.hand.known = {1: [six]}
    view = view_for(board, 0)
    assert view.players[1].known_cards == ["6S"]
    bot = BotView.read(view)
    shown, plain = Shown.of_seat(view, bot), Unknown.of(view, bot)
    assert six in plain.pool
    assert six not in shown.pool
    rng = Random(5)
    bit = gm.BIT[six]

    def melding(unknown: Unknown) -> int:
        total = 0
        for _ in range(300):
            hand = unknown.sample(rng).hands[1]
            assert len(hand) == 10
            total += six in hand and melds_with(gm.mask_of(hand) ^ 1 << bit, bit)
        return total

    assert all(six in shown.sample(rng).hands[1] for _ in range(50))
    # Remembering alone deals it back, in a meld about one time in five; the model
    # makes that most samples.
    assert melding(shown) > 2 * melding(plain.remembering(bot)) > melding(plain)


def test_a_throw_that_lets_the_other_hand_knock_is_charged() -> None:
    other = mask("4H 5H 6H 7S 7C 7D JC QC KC 9S")  # 9 deadwood: 9S
    kept = mask("2S 3S 4S AD 2D 3D 9D 10D 6C QS")  # 35 deadwood, nothing to lay off
    king, eight = gm.BIT[cards("KH")[0]], gm.BIT[cards("8S")[0]]
    # KH is no help to it, and with no card to draw it cannot knock.
    assert threat(kept, king, other, -1, STAKES) == 0.0
    # It draws AS, throws 9S and knocks with 1.
    assert threat(kept, king, other, gm.BIT[cards("AS")[0]], STAKES) == 35 - 1
    # Fed 8S it takes it (7S 8S 9S, 7C 7D left), throws 7D and knocks with 7.
    assert threat(kept, eight, other, -1, STAKES) == 35 - 7


def test_an_undercut_is_a_gain() -> None:
    other = mask("4H 5H 6H 7S 7C 7D JC QC KC 9S")
    kept = mask("2S 3S 4S AD 2D 3D 9D 10D JD AC")  # 1 deadwood
    gain = threat(kept, gm.BIT[cards("KH")[0]], other, gm.BIT[cards("2C")[0]], STAKES)
    # It throws 9S and knocks with 2: I hold 1, an undercut.
    assert gain == -(STAKES.undercut_bonus + 2 - 1)
