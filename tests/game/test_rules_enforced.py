"""The aggregate enforces the rules: a refused command says why and stores nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from service.domain.actions import Action, Discard, LayOff, Meld
from service.domain.cards import Card
from service.domain.errors import HandOver, IllegalMove
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from tests.domain.tables import cards
from tests.game.players import (
    CLUB_RUN,
    DECK,
    DISCARD,
    GO_OUT,
    HEART_RUN,
    SPADE_RUN,
    STOCK,
    act,
    with_rules,
)


def card(code: str) -> Card:
    return Card.parse(code)


@dataclass(frozen=True)
class Refusal:
    """After `before` (seat, actions) commands, `seat` playing `actions` is refused."""

    code: str
    seat: int
    actions: Sequence[Action]
    before: Sequence[tuple[int, Sequence[Action]]] = ()
    rules: RuleSet = field(default_factory=RuleSet)


REFUSALS = {
    "acting out of turn": Refusal("not_your_turn", 0, [STOCK]),
    "discarding before drawing": Refusal("wrong_phase", 1, [Discard(card("AS"))]),
    "drawing twice in one list": Refusal("wrong_phase", 1, [STOCK, STOCK]),
    "melding before drawing": Refusal("wrong_phase", 1, [SPADE_RUN]),
    "a card not held": Refusal("card_not_in_hand", 1, [STOCK, Discard(card("KD"))]),
    "a meld that is no meld": Refusal("invalid_meld", 1, [STOCK, Meld(tuple(cards("AS 4H 7C")))]),
    "a lay-off onto no meld": Refusal("unknown_meld", 1, [STOCK, LayOff(card("4S"), "h1-m9")]),
    "a lay-off that does not fit": Refusal(
        "invalid_lay_off", 1, [STOCK, CLUB_RUN, LayOff(card("AS"), "h1-m1")]
    ),
    "discarding the card just taken": Refusal(
        "discard_taken_card", 1, [DISCARD, Discard(card("KH"))]
    ),
    "a play stranding the card just taken": Refusal(
        "would_strand_taken_card", 1, [DISCARD, SPADE_RUN, HEART_RUN, CLUB_RUN]
    ),
    "a second meld under melds_per_turn one": Refusal(
        "meld_limit", 1, [STOCK, SPADE_RUN, HEART_RUN], rules=with_rules(melds_per_turn="one")
    ),
    "going out by a lay-off under going_out discard": Refusal(
        "must_discard_last",
        1,
        [STOCK, SPADE_RUN, HEART_RUN, CLUB_RUN, LayOff(card("5S"), "h1-m1")],
        rules=with_rules(going_out="discard"),
    ),
    "laying off before melding under lay_off after_own_meld": Refusal(
        "lay_off_before_meld",
        0,
        [STOCK, LayOff(card("10C"), "h1-m1")],
        before=[(1, [STOCK, CLUB_RUN, Discard(card("5S"))])],
        rules=with_rules(lay_off="after_own_meld"),
    ),
    "playing on after the list ended the hand": Refusal(
        "hand_over", 1, [*GO_OUT, STOCK], rules=with_rules(target=1000)
    ),
    "playing on after the list ended the game": Refusal(
        "game_over", 1, [*GO_OUT, STOCK], rules=with_rules(target=10)
    ),
}


@pytest.mark.parametrize("refusal", REFUSALS.values(), ids=REFUSALS.keys())
def test_an_illegal_command_is_refused_with_its_code_and_stores_nothing(
    games: RummyApplication, refusal: Refusal
):
    created = games.create_game(
        NewGame(
            seats=[NewSeat("ann"), NewSeat("bob")],
            rules=refusal.rules,
            seed="refusals",
            decks=[DECK],
            dealer=0,
        )
    )
    game_id = created.game_id
    for seat, actions in refusal.before:
        act(games, game_id, seat, actions)
    events_before = games.events_after(game_id)
    state_before = games.state(game_id)

    with pytest.raises(IllegalMove) as refused:
        act(games, game_id, refusal.seat, refusal.actions)

    assert refused.value.code == refusal.code
    assert refused.value.message
    assert games.events_after(game_id) == events_before
    after = games.state(game_id)
    assert after.version == state_before.version
    assert after.table == state_before.table
    # And the same game still takes a legal command.
    act(games, game_id, 1 if not refusal.before else 0, [STOCK])


def test_the_moves_before_an_illegal_one_in_a_list_are_not_kept(games: RummyApplication):
    created = games.create_game(
        NewGame(
            seats=[NewSeat("ann"), NewSeat("bob")],
            rules=with_rules(target=1000),
            decks=[DECK],
            dealer=0,
        )
    )
    version = created.version
    with pytest.raises(HandOver):
        act(games, created.game_id, 1, [*GO_OUT, STOCK])
    assert games.state(created.game_id).version == version
    assert len(games.events_after(created.game_id)) == version
    # Without the extra draw the same list goes out and deals hand 2.
    after = act(games, created.game_id, 1, GO_OUT)
    assert games.state(created.game_id).table.hand_number == 2
    assert after == len(games.events_after(created.game_id))
