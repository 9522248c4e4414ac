"""The going-out search of concealed turns (service/domain/concealed.py) on its own:
with any meld finder (wild melds repeat codes), with a limit on melds, and with
the card that may not be the final discard."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from service.domain.actions import Discard, Meld
from service.domain.cards import Card
from service.domain.concealed import going_out_exists
from service.domain.rules import RuleSet
from service.domain.turns import legal_moves
from tests.domain.tables import card, cards, seated_game, starter_deck_for


def jokers_wild(hand: Sequence[Card]) -> Iterable[Sequence[Card]]:
    """A stand-in for the wild melds: three cards of one suit within a span of three
    ranks, a joker filling any gap (written for this test only)."""
    for group in {tuple(sorted(g, key=lambda c: c.sort_key)) for g in combinations(hand, 3)}:
        natural = [c for c in group if not c.is_joker]
        if not natural or len({c.suit for c in natural}) != 1:
            continue
        ranks = sorted(int(c.rank) for c in natural)
        if len(set(ranks)) == len(ranks) and ranks[-1] - ranks[0] <= 2:
            yield group


def anything(card: Card) -> bool:
    return True


def test_a_finder_with_wild_melds_may_use_every_copy_of_the_joker() -> None:
    hand = cards("5H 6H JK 9S 10S JK 2C")
    assert going_out_exists(hand, jokers_wild, discardable=anything, discard_needed=True)
    # Two jokers are needed; with one, the 2C and a joker are both left.
    assert not going_out_exists(
        cards("5H 6H JK 9S 10S 2C 3D"), jokers_wild, discardable=anything, discard_needed=True
    )


def test_the_final_discard_must_be_discardable_and_is_needed_only_when_asked() -> None:
    hand = cards("5H 6H JK 9S 10S JK")
    assert going_out_exists(hand, jokers_wild, discardable=anything, discard_needed=False)
    assert not going_out_exists(hand, jokers_wild, discardable=anything, discard_needed=True)
    hand = cards("5H 6H JK 2C")
    assert not going_out_exists(
        hand, jokers_wild, discardable=lambda c: c != cards("2C")[0], discard_needed=True
    )


def test_a_limit_of_one_meld_allows_one_meld_only() -> None:
    hand = cards("5H 6H JK 9S 10S JK 2C")
    assert not going_out_exists(
        hand, jokers_wild, discardable=anything, discard_needed=True, most_melds=1
    )
    assert going_out_exists(
        cards("5H 6H JK 2C"), jokers_wild, discardable=anything, discard_needed=True, most_melds=1
    )


def test_wrotham_concealed_deal_under_one_meld_per_turn_goes_out_with_one_meld_only() -> None:
    rules = RuleSet.from_dict({"variant": "wrotham", "melds_per_turn": "one"})
    pack = rules.pack
    # Deals 1-3: the starter melds seven clubs and throws 8H; deal 4: seat 0 starts.
    run, loser = "AC 2C 3C 4C 5C 6C 7C", "2D 3H 5S 7D 9H JS KD"
    early = [
        starter_deck_for(
            [loser, f"{run} 8H"] if dealer == 0 else [f"{run} 8H", loser], (), dealer, pack
        )
        for dealer in (0, 1, 0)
    ]
    two_melds = starter_deck_for(["AC 2C 3C 9D 9H 9S 9C KH", "2D 3H 5S 7D 10H JS KD"], (), 1, pack)
    game = seated_game(rules, 2, dealer=0, explicit=[*early, two_melds])
    for _ in range(3):
        game.act(game.hand.turn, Meld(tuple(cards(run))), Discard(card("8H")))
    assert game.hand.number == 4
    assert legal_moves(game.table, 0).can_go_out is False
    code = game.refuses(
        0, Meld(tuple(cards("AC 2C 3C"))), Meld(tuple(cards("9D 9H 9S 9C"))), Discard(card("KH"))
    )
    assert code == "meld_limit"
