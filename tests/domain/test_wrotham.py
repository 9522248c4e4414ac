"""Wrotham Rummy: the deal of every deal number for any table (seven rounds from
the starter, `deck[7n]` to the starter, no upcard, the stock from `deck[7n+1]`),
which deals are concealed, and random play of the concealed deals to the end of
the game (no card lost or doubled, legal = accepted, replay = live)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain import changes, concealed, events
from service.domain.decks import SeededDecks
from service.domain.presets import MAX_PLAYERS
from service.domain.rules import RuleSet
from service.domain.state import Phase, Table
from service.domain.turns import legal_moves
from tests.domain.concealed_play import Run, replayed, step

ROUNDS = 7
FIRST_CONCEALED = 4
SIX_DEALS = 6


def seated(rules: RuleSet, players: int, played: int) -> Table:
    table = Table(rules=rules, seat_count=players, seated=[True] * players)
    table.hands_played = played
    return table


@settings(max_examples=80, deadline=None)
@given(
    st.integers(2, MAX_PLAYERS),
    st.integers(0, MAX_PLAYERS - 1),
    st.integers(1, 9),
    st.text(max_size=6),
)
def test_every_wrotham_deal_follows_the_starter_deal(
    players: int, dealer_pick: int, number: int, seed: str
) -> None:
    rules = RuleSet.from_dict({"variant": "wrotham"})
    dealer = dealer_pick % players
    decks = SeededDecks(seed=seed, client_seeds=("",) * players, pack=rules.pack)
    deck = decks.deck(number)
    assert Counter(deck) == Counter(rules.pack)
    table = seated(rules, players, number - 1)
    changes.apply(table, events.HandDealt(hand_number=number, dealer=dealer, deck=tuple(deck)))
    hand = table.hand
    assert hand is not None
    starter = (dealer + 1) % players
    for seat in range(players):
        offset = (seat - starter) % players
        dealt = [deck[offset + players * round_] for round_ in range(ROUNDS)]
        if seat == starter:
            dealt.append(deck[ROUNDS * players])
        assert Counter(hand.hands[seat]) == Counter(dealt)
    assert hand.discard == []
    assert hand.stock == list(reversed(deck[ROUNDS * players + 1 :]))
    assert hand.turn == starter
    assert hand.phase is Phase.PLAY
    assert Counter(hand.cards()) == Counter(rules.pack)
    assert concealed.is_concealed(table) == (number >= FIRST_CONCEALED)
    if number >= FIRST_CONCEALED:
        moves = legal_moves(table, starter)
        assert moves.draw == ()
        assert moves.melds == ()
        assert moves.can_go_out is not None


@settings(max_examples=15, deadline=None)
@given(
    st.integers(2, MAX_PLAYERS),
    st.integers(0, MAX_PLAYERS - 1),
    st.integers(1, 12),
    st.text(max_size=6),
    st.integers(0, 2**32),
)
def test_random_play_of_the_concealed_deals_keeps_every_rule_to_the_end_of_the_game(
    players: int, dealer_pick: int, max_turns: int, seed: str, rng_seed: int
) -> None:
    rules = RuleSet.from_dict({"variant": "wrotham", "max_turns": max_turns})
    decks = SeededDecks(seed=seed, client_seeds=("",) * players, pack=rules.pack)
    table = seated(rules, players, FIRST_CONCEALED - 1)
    base = table.copy()
    run = Run(table, decks, random.Random(rng_seed), base=base)
    dealt = events.HandDealt(
        hand_number=FIRST_CONCEALED,
        dealer=dealer_pick % players,
        deck=tuple(decks.deck(FIRST_CONCEALED)),
    )
    changes.apply(table, dealt)
    run.events.append(dealt)
    for _ in range(3000):
        if table.over:
            break
        step(run)
    assert run.hands_ended >= SIX_DEALS - FIRST_CONCEALED + 1
    if table.finished:
        # Six deals or more were played, and the best total is clear.
        assert table.hands_played >= SIX_DEALS
        assert table.winner is not None
        assert table.totals.count(max(table.totals)) == 1
        assert table.totals[table.winner] == max(table.totals)
    assert replayed(run.base, run.events) == table
