"""Each event as each caller sees it: the redaction rules of docs/api.md, event by
event, on the game of tests/projections/recorded.py (Ann and Bob).

A player learns its own cards, every face-up card and the counts of what is
face down; the public the same without any hand; the admin every card. Nobody
sees the seed, a token hash or a client seed in the events.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from service.domain import changes, shuffle
from service.domain import events as domain
from service.domain.cards import card_codes, sorted_cards
from service.domain.decks import SeededDecks
from service.domain.presets import VARIANTS
from service.domain.rules import RuleSet
from service.domain.state import Table
from service.projections.event_views import HandDealtView, event_view
from service.projections.views import ADMIN, PUBLIC, Viewer
from tests.domain.tables import VARIANT_RULES
from tests.fairness_oracle import rules_digest as oracle_digest
from tests.projections.recorded import (
    ANN,
    BOB,
    DECK,
    RULES,
    SEED,
    STARTED,
    Recorded,
    ann_and_bob,
    recycled,
)

VIEWERS = {"public": PUBLIC, "Ann": Viewer(seat=ANN), "Bob": Viewer(seat=BOB), "admin": ADMIN}
EVENTS = {
    (event.event_type, event.seat, event.originator_version): event for event in ann_and_bob()
}


HEAD = "ab" * 32
"""A live chain head, as the caller of `event_view` gives it."""


def seen(event: Recorded, who: str) -> dict[str, Any]:
    """`event` as `who` receives it (the JSON a client reads)."""
    view = event_view(event, VIEWERS[who], RULES, seat_count=2, chain=HEAD)
    decoded: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(view))
    assert decoded.pop("chain") == HEAD  # the live head: service/projections/chain_heads.py
    return decoded


def by_everyone(event: Recorded) -> dict[str, Any]:
    """What every caller sees of `event`, checked to be the same for all."""
    bodies = [seen(event, who) for who in VIEWERS]
    assert all(body == bodies[0] for body in bodies), bodies
    return bodies[0]


def event(event_type: str, seat: int | None = None) -> Recorded:
    """The game's first event of `event_type` caused by `seat`."""
    return next(e for e in ann_and_bob() if (e.event_type, e.seat) == (event_type, seat))


def test_the_creation_shows_rules_seats_and_commitment_but_no_seed_or_token_hash() -> None:
    assert by_everyone(event("game_created")) == {
        "type": "game_created",
        "version": 1,
        "at": "2026-12-01T12:00:01Z",
        "rules": RULES.to_dict(),
        "players": [
            {"seat": ANN, "name": "Ann", "bot": None},
            {"seat": BOB, "name": None, "bot": None},
        ],
        "seed_commitment": shuffle.commitment(SEED),
        "deal": "explicit",
        "dealer": ANN,
        # A log without a seed scheme reads as a game stored before it.
        "seed_scheme": "game",
        "rules_digest": oracle_digest(RULES.to_dict()),
    }


def test_a_join_shows_the_name_but_no_token_hash_or_client_seed() -> None:
    assert by_everyone(event("player_joined", BOB)) == {
        "type": "player_joined",
        "version": 2,
        "at": "2026-12-01T12:00:02Z",
        "seat": BOB,
        "name": "Bob",
    }


def test_the_deal_shows_each_player_its_own_cards_and_only_the_admin_the_deck() -> None:
    dealt = event("hand_dealt")
    bodies = {who: seen(dealt, who) for who in VIEWERS}
    for body in bodies.values():
        assert (body["hand_number"], body["dealer"], body["hand_size"]) == (1, ANN, 7)
        assert body["upcard"] == "10H"
        assert body["stock_count"] == 52 - 2 * 7 - 1
    assert bodies["Ann"]["my_cards"] == ["AS", "2S", "3S", "4S", "9D", "KD", "KH"]
    assert bodies["Bob"]["my_cards"] == ["2C", "5D", "6D", "7D", "8H", "JH", "QC"]
    assert "my_cards" not in bodies["public"]
    assert "my_cards" not in bodies["admin"]
    assert bodies["admin"]["deck"] == DECK
    for who in ("public", "Ann", "Bob"):
        assert "deck" not in bodies[who]


@pytest.mark.parametrize(
    ("who", "sees_the_card"), [("public", False), ("Ann", False), ("Bob", True), ("admin", True)]
)
def test_a_draw_from_the_stock_shows_the_card_only_to_the_drawer_and_the_admin(
    who: str, sees_the_card: bool
) -> None:
    body = seen(event("card_drawn", BOB), who)
    assert (body["seat"], body["source"]) == (BOB, "stock")
    assert body.get("card") == ("8D" if sees_the_card else None)


def test_a_draw_from_the_discard_pile_shows_the_card_to_everyone() -> None:
    taken = Recorded(7, "card_drawn", {"source": "discard", "card": "2C"}, ANN, STARTED)
    assert by_everyone(taken)["card"] == "2C"


def test_melds_lay_offs_and_discards_are_face_up_for_everyone() -> None:
    run = by_everyone(event("meld_laid", BOB))
    assert (run["meld_id"], run["kind"], run["cards"]) == ("h1-m1", "run", ["5D", "6D", "7D", "8D"])
    laid_off = by_everyone(event("card_laid_off", ANN))
    assert (laid_off["meld_id"], laid_off["card"], laid_off["end"]) == ("h1-m1", "9D", "high")
    assert by_everyone(event("card_discarded", BOB))["card"] == "2C"


@pytest.mark.parametrize("who", ["public", "Ann", "Bob", "admin"])
def test_a_recycle_shows_the_new_stock_size_and_only_the_admin_its_order(who: str) -> None:
    body = seen(recycled(BOB, ["QS", "3H", "JC"], shuffled=True), who)
    assert (body["seat"], body["stock_count"], body["shuffled"]) == (BOB, 3, True)
    assert body.get("stock") == (["QS", "3H", "JC"] if who == "admin" else None)


def test_the_end_of_a_hand_shows_every_seats_cards_sorted_to_everyone() -> None:
    body = by_everyone(event("hand_ended"))
    assert (body["hand_number"], body["how"], body["out_seat"], body["rummy"]) == (
        1,
        "rummy",
        ANN,
        True,
    )
    assert body["players"] == [
        {"seat": ANN, "cards": [], "value": 0, "points": 56, "total": 56},
        {"seat": BOB, "cards": ["8H", "JH", "QC"], "value": 28, "points": 0, "total": 0},
    ]


def test_the_end_of_the_game_names_the_winner_to_everyone() -> None:
    body = by_everyone(event("game_finished"))
    assert (body["winner"], body["totals"]) == (ANN, [56, 0])


@pytest.mark.parametrize("among", [None, (0, 2)], ids=["every seat", "seats 0 and 2"])
@pytest.mark.parametrize("variant", list(VARIANT_RULES))
def test_each_seat_sees_the_cards_the_deal_gives_it_whichever_seats_are_dealt_in(
    variant: str, among: tuple[int, ...] | None
) -> None:
    # A Western game deals among the seats still in after a forfeit (`seats`), as
    # Indian deals among those not eliminated: its deal once showed each player the
    # cards of an Indian deal of that deck.
    # Three seats where the variant seats three (Gin seats two, all dealt in).
    players = min(3, VARIANTS[RuleSet.from_dict(VARIANT_RULES[variant]).variant].players[1])
    if among is not None and players < 3:
        pytest.skip("a two-seat game deals every seat in")
    rules = RuleSet.from_dict(VARIANT_RULES[variant], players=players)
    table = Table(rules=rules, seat_count=players, seated=[True] * players)
    seeds = ("",) * players
    deck = SeededDecks(seed=f"dealt-{variant}", client_seeds=seeds, pack=rules.pack).deck(1)
    dealt = domain.HandDealt(hand_number=1, dealer=players - 1, deck=tuple(deck), seats=among)
    changes.apply(table, dealt)
    hand = table.hand
    assert hand is not None
    stored = Recorded(3, "hand_dealt", domain.plain(dealt)[1])
    for seat in range(players):
        view = event_view(stored, Viewer(seat=seat), rules, seat_count=players, chain=HEAD)
        assert isinstance(view, HandDealtView)
        assert view.my_cards == card_codes(sorted_cards(hand.hands[seat])), seat
        assert view.upcard == (hand.discard[0].code if hand.discard else None)
        assert view.stock_count == len(hand.stock)
        if among is not None and seat not in among:
            assert view.my_cards == []
        dealt_in = among if among is not None else range(players)
        assert view.hand_size == min(len(hand.hands[each]) for each in dealt_in)
