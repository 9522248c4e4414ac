"""Random play of concealed hands (Boathouse; Wrotham deals 4-6), checked at every
step against the brute-force oracle of tests/domain/concealed_oracle.py.

At each step, before the seat to play acts: the legal moves are exactly the single
moves accepted, `can_go_out` says whether the oracle finds a going-out list, and
that list, played on a copy, is accepted and goes out. Then the seat plays a
going-out list when there is one (mostly), else a random legal draw or discard.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations

import pytest
from hypothesis import event

from service.domain import changes
from service.domain import events as ev
from service.domain.actions import Action, Discard, Draw, LayOff, Meld, Swap
from service.domain.cards import Card
from service.domain.decks import SeededDecks
from service.domain.errors import IllegalMove
from service.domain.legal import NO_MOVES
from service.domain.play import play
from service.domain.rule_values import GoingOut, Variant
from service.domain.state import HandEnding, Phase, Source, Table
from service.domain.turns import action_problem, is_legal, legal_moves
from tests.domain.concealed_oracle import going_out_list, is_meld, wild_going_out_list

ACE_VALUE = 11


@dataclass
class Run:
    table: Table
    decks: SeededDecks
    rng: random.Random
    base: Table
    """The table before the first event of `events`."""
    events: list[ev.Event] = field(default_factory=list)
    hands_ended: int = 0


def value(held: list[Card], table: Table) -> int:
    """A card in hand: A `ace_points`, 2-10 face, J Q K 10, any wild (a joker, or a
    card of the wild rank) `wild_penalty` (written out again here)."""
    rules = table.rules
    total = 0
    for c in held:
        rank = int(c.rank)
        if c.code == "JK" or (rules.wild_rank is not None and c.code[:-1] == rules.wild_rank):
            assert rules.wild_penalty is not None, "a pack with wilds has a penalty"
            total += rules.wild_penalty
        else:
            total += rules.ace_points if rank == 1 else min(rank, 10)
    return total


def effective_going_out(table: Table) -> GoingOut:
    """Wrotham's concealed deals end with a discard; Boathouse follows `going_out`."""
    if table.rules.variant is Variant.WROTHAM:
        return GoingOut.DISCARD
    return table.rules.going_out


def oracle_list(table: Table) -> list[Action] | None:
    hand = table.hand
    assert hand is not None
    held = hand.hands[hand.turn]
    taken = [c for c in (hand.taken, hand.taken_second) if c is not None]
    if table.rules.has_wilds:
        return wild_going_out_list(held, table.rules, taken, effective_going_out(table))
    return going_out_list(held, table.rules.aces, taken, effective_going_out(table))


def check_step(run: Run) -> list[Action] | None:
    """Check the seat to play's legal moves; return the oracle's going-out list."""
    table = run.table
    hand = table.hand
    assert hand is not None
    seat = hand.turn
    moves = legal_moves(table, seat)
    for other in range(table.seat_count):
        if other != seat:
            assert legal_moves(table, other) == NO_MOVES
            assert not is_legal(table, other, Draw(Source.STOCK))
    for source in Source:
        assert is_legal(table, seat, Draw(source)) == (source in moves.draw)
    held = hand.hands[seat]
    if hand.phase is not Phase.PLAY:
        assert moves.can_go_out is False
        assert moves.discard == ()
        if hand.phase is Phase.SECOND_DRAW:
            assert Source.STOCK in moves.draw
            assert (Source.DISCARD in moves.draw) == bool(hand.discard)
            event("checked a second draw")
        for c in held[:3]:
            problem = action_problem(table, seat, Discard(c))
            assert problem is not None
            assert problem.code == "wrong_phase"
        return None
    assert moves.draw == ()
    assert (moves.melds, moves.lay_offs, moves.swaps) == ((), (), ())
    # No meld, lay-off or swap is accepted on its own.
    alone: list[Action] = [LayOff(held[0], "h1-m1"), Swap("h1-m1", held[0])]
    for group in combinations(held[:9], 3):
        if is_meld(group, table.rules.aces) and len(alone) < 7:
            alone.append(Meld(group))
    for action in alone:
        problem = action_problem(table, seat, action)
        assert problem is not None
        assert problem.code == "meld_only_going_out"
    taken = [c for c in (hand.taken, hand.taken_second) if c is not None]
    # Copies are never told apart: a taken code may go if another copy is held.
    assert set(moves.discard) == {c for c in held if held.count(c) > taken.count(c)}
    for c in moves.discard:
        assert is_legal(table, seat, Discard(c))
    for c in taken:
        if held.count(c) > taken.count(c):
            continue
        problem = action_problem(table, seat, Discard(c))
        assert problem is not None
        assert problem.code == "discard_taken_card"
    found = oracle_list(table)
    assert moves.can_go_out == (found is not None)
    if found is None:
        check_not_going_out_refused(run, held)
        return None
    event("a going-out list existed")
    trial = copy.deepcopy(table)
    made = play(trial, seat, found, run.decks)
    ended = [e for e in made if isinstance(e, ev.HandEnded)]
    assert len(ended) == 1
    result = ended[0]
    assert result.out_seat == seat
    assert result.how is HandEnding.OUT
    assert not result.rummy
    losers = [held for other, held in enumerate(hand.hands) if other != seat]
    if table.rules.scoring.value == "winner":
        assert result.points[seat] == sum(value(cards, table) for cards in losers)
    return found


def check_not_going_out_refused(run: Run, held: list[Card]) -> None:
    """A list that melds and does not go out is refused and changes nothing."""
    table = run.table
    hand = table.hand
    assert hand is not None
    groups = [g for g in combinations(held[:12], 3) if is_meld(g, table.rules.aces)]
    if not groups:
        return
    group = run.rng.choice(groups)
    rest = [c for c in held if c not in group and c not in hand.taken_cards()]
    actions: list[Action] = [Meld(group)]
    if rest:
        actions.append(Discard(run.rng.choice(rest)))
    before = copy.deepcopy(table)
    with pytest.raises(IllegalMove) as refused:
        play(table, hand.turn, actions, run.decks)
    assert table == before
    assert refused.value.code in {
        "meld_only_going_out",
        "must_discard_last",
        "would_strand_taken_card",
    }
    event(f"a list that does not go out: {refused.value.code}")


def step(run: Run) -> None:
    """Check, then play one request for the seat to play."""
    table = run.table
    hand = table.hand
    assert hand is not None
    seat = hand.turn
    number = hand.number
    found = check_step(run)
    moves = legal_moves(table, seat)
    actions: list[Action]
    if found is not None and run.rng.random() < 0.8:
        actions = found
    elif moves.draw:
        actions = [Draw(run.rng.choice(moves.draw))]
    else:
        actions = [Discard(throw(run, list(moves.discard)))]
    run.events.extend(play(table, seat, actions, run.decks))
    if table.hand_number != number or table.over:
        run.hands_ended += 1
        assert table.last_hand is not None
        event(f"a hand ended: {table.last_hand.how}")
    if table.hand is not None:
        assert Counter(table.hand.cards()) == Counter(table.rules.pack)


def throw(run: Run, allowed: list[Card]) -> Card:
    """Mostly a card in no meld of three of the hand (so hands go out now and then),
    else any card allowed."""
    hand = run.table.hand
    assert hand is not None
    held = hand.hands[hand.turn]
    aces = run.table.rules.aces
    melded = {c for group in combinations(held, 3) if is_meld(group, aces) for c in group}
    loose = [c for c in allowed if c not in melded]
    if loose and run.rng.random() < 0.9:
        return run.rng.choice(loose)
    return run.rng.choice(allowed)


def replayed(base: Table, made: list[ev.Event]) -> Table:
    """A copy of `base` with every event, read back from its plain form, applied."""
    fresh = copy.deepcopy(base)
    for made_event in made:
        name, data = ev.plain(made_event)
        changes.apply(fresh, ev.from_plain(name, ev.actor(made_event), data))
    return fresh
