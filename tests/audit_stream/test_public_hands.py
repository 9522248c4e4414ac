"""A `hand_chain` game of every variant checks hand by hand from its public events
alone (the events page as the public reads it), while the game is played: each
`hand_ended` reveals a seed that hashes back to the commitment, the deck it
gives is the one the admin's page shows was dealt, and the hand replays on it
(docs/fairness.md "A seed per hand"). A deck other than the one dealt, or a card
shown that the seat could not hold, is named by its event."""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from random import Random
from typing import Any
from uuid import UUID

import msgspec
import pytest

from service.api.convert import events_page
from service.audit.public import verify_public
from service.bootstrap import open_games
from service.bots.strategies import play_random_move, request_of
from service.config import Settings, Store
from service.domain import shuffle
from service.domain.cards import Card, card_codes
from service.domain.events import HandDealt
from service.domain.rules import RuleSet
from service.domain.state import Status, Table
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.projections.chain_heads import ChainHeads
from service.projections.views import ADMIN, PUBLIC, Viewer, game_view
from tests.fairness_oracle import rules_digest

RULES: dict[str, dict[str, Any]] = {
    "classic": {"deals": 3, "exhausted": "score"},
    "wild": {"variant": "wild", "deals": 3, "exhausted": "score"},
    "boathouse": {"variant": "boathouse", "deals": 3, "exhausted": "score"},
    "knock": {"variant": "knock", "deals": 3},
    "wrotham": {"variant": "wrotham"},
    "indian-points": {"variant": "indian"},
    "indian-deals": {"variant": "indian", "format": "deals"},
    "indian-pool-101": {"variant": "indian", "format": "pool_101"},
    "indian-pool-201": {"variant": "indian", "format": "pool_201"},
    "gin": {"variant": "gin", "target": 60},
    "rummy500": {"variant": "rummy500"},
}
HANDS = 3
"""Hands checked per game (or fewer, if it ends first)."""


def page(games: RummyApplication, game_id: UUID, viewer: Viewer) -> list[dict[str, Any]]:
    """The events page as `viewer` reads it, as JSON."""
    state = games.state(game_id)
    events = games.events_after(game_id)
    chains = ChainHeads().after(games, game_id, events)
    body = msgspec.json.encode(events_page(game_id, events, state, viewer, chains))
    shown: list[dict[str, Any]] = json.loads(body)["events"]
    return shown


def admin_decks(games: RummyApplication, game_id: UUID) -> dict[int, list[str]]:
    return {
        event["hand_number"]: event["deck"]
        for event in page(games, game_id, ADMIN)
        if event["type"] == "hand_dealt"
    }


def unheld(seen: list[dict[str, Any]], seat: int, version: int, pack: list[str]) -> str:
    """A card of the pack that `seat` cannot hold at event `version`, from the seat's own
    events page (`seen`): not one dealt to it, drawn by it or taken back by a swap in
    the hand so far."""
    held: set[str] = set()
    for event in seen:
        if event["version"] >= version:
            break
        if event["type"] == "hand_dealt":
            held = set(event["my_cards"] or ())
        elif event["type"] == "card_drawn" and event.get("seat") == seat:
            held.update(event.get("cards") or [event["card"]])
        elif event["type"] == "wild_swapped" and event.get("seat") == seat:
            held.add(event["wild"])
    return next(card for card in pack if card not in held and card != "JK")


@pytest.mark.parametrize("name", list(RULES))
def test_every_hand_checks_from_public_events_as_it_ends(name: str) -> None:
    games = open_games(Settings(store=Store.MEMORY))
    rules = RuleSet.from_dict(RULES[name], players=2)
    pack = card_codes(rules.pack)
    created = games.create_game(
        NewGame(
            seats=[NewSeat("Ann", client_seed=f"ann-{name}"), NewSeat("Robo", bot="basic")],
            rules=rules,
            # A fixed seed, so the game is the same every run: on a random one a Knock
            # hand may end by a first-turn knock before any discard, and once in a
            # while every hand checked did, leaving no discard to forge.
            seed=f"public-hands/{name}",
        )
    )
    game_id = created.game_id
    rng = Random(name)
    forged = 0
    checked_while_playing = 0
    ended = 0
    for _ in range(4000):
        state = games.state(game_id)
        hands_ended = state.table.hands_played
        if hands_ended > ended:
            ended = hands_ended
            public = page(games, game_id, PUBLIC)
            verdict = verify_public(public)
            assert verdict.ok, verdict.report()
            assert [hand.hand_number for hand in verdict.hands] == list(range(1, ended + 1))
            # The decks recomputed from public events are the ones dealt.
            dealt = admin_decks(games, game_id)
            assert all(hand.deck == dealt[hand.hand_number] for hand in verdict.hands)
            assert verdict.moves >= ended, "every hand ends by a move, replayed"
            forged += _a_discard_not_held_is_named(games, game_id, public, ended, pack)
            if state.table.status is Status.PLAYING:
                checked_while_playing += 1
            if ended >= HANDS:
                break
        if state.table.status is not Status.PLAYING:
            break
        assert state.table.hand is not None
        seat = state.table.hand.to_act()
        move = play_random_move(game_view(state, Viewer(seat=seat)), rng)
        games.play(game_id, seat, list(request_of(move)))
    assert ended >= 1, "a hand ended"
    finished = games.state(game_id).table.status is not Status.PLAYING
    assert checked_while_playing >= 1 or (finished and ended == 1), "checked before the end"
    # A hand may end before any discard (a first drop in Indian): most do not.
    assert forged >= 1 or name.startswith("indian"), "a discard was forged"


def _a_discard_not_held_is_named(
    games: RummyApplication, game_id: UUID, public: list[dict[str, Any]], hand: int, pack: list[str]
) -> int:
    """Alter hand `hand`'s first discard to a card its seat cannot hold: the check must
    name that event. 1 if the hand had a discard, else 0."""
    start = next(e["version"] for e in public if e.get("hand_number") == hand)
    discard = next(
        (e for e in public if e["version"] > start and e["type"] == "card_discarded"), None
    )
    if discard is None or discard["version"] > _ended(public, hand)["version"]:
        return 0
    seat = discard["seat"]
    card = unheld(page(games, game_id, Viewer(seat=seat)), seat, discard["version"], pack)
    events = copy.deepcopy(public)
    next(e for e in events if e["version"] == discard["version"])["card"] = card
    verdict = verify_public(events)
    assert not verdict.ok
    assert verdict.version == discard["version"], verdict.report()
    assert f"seat {seat}'s discard of {card} breaks the rules" in (verdict.problem or "")
    return 1


TWO_HANDS_SEED = "b5" * 32


@pytest.fixture(scope="module")
def two_hands_game() -> tuple[RummyApplication, UUID]:
    """A classic game after two hands, on a fixed seed: a forged client seed whose
    deal shows what the real one showed (its upcard, stock and dealer) comes about
    once in a hundred random seeds; with this seed the one that
    test_a_changed_client_seed_gives_a_deal_other_than_the_one_shown forges does not,
    and test_a_forged_client_seed_whose_deal_shows_the_same_is_named searches for
    one that does."""
    rules = RuleSet.from_dict({"deals": 5, "exhausted": "score"}, players=2)
    return _played(rules, 2, Random("two"), seed=TWO_HANDS_SEED)


@pytest.fixture(scope="module")
def two_hands(two_hands_game: tuple[RummyApplication, UUID]) -> list[dict[str, Any]]:
    """The public events of `two_hands_game`."""
    public = page(*two_hands_game, PUBLIC)
    assert verify_public(public).ok
    return public


def _ended(events: list[dict[str, Any]], number: int) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "hand_ended" and e["hand_number"] == number)


def test_a_changed_hand_seed_is_named(two_hands: list[dict[str, Any]]) -> None:
    events = copy.deepcopy(two_hands)
    second = _ended(events, 2)
    second["hand_seed"] = ("0" if second["hand_seed"][0] != "0" else "1") + second["hand_seed"][1:]
    verdict = verify_public(events)
    assert not verdict.ok
    assert verdict.version == second["version"]
    assert "does not hash to hand 1's" in (verdict.problem or "")


def test_a_first_hand_seed_not_committed_to_is_named(two_hands: list[dict[str, Any]]) -> None:
    events = copy.deepcopy(two_hands)
    first = _ended(events, 1)
    first["hand_seed"] = "ab" * 32
    verdict = verify_public(events)
    assert not verdict.ok
    assert verdict.version == first["version"]
    assert "does not match the seed_commitment" in (verdict.problem or "")


def test_a_changed_rules_digest_is_named(two_hands: list[dict[str, Any]]) -> None:
    events = copy.deepcopy(two_hands)
    events[0]["rules"]["max_turns"] = 400  # the rules shown change; the digest does not
    verdict = verify_public(events)
    assert not verdict.ok
    assert verdict.version == 1
    assert "rules_digest" in (verdict.problem or "")
    # And a digest forged to match the new rules breaks the commitment instead.
    events[0]["rules_digest"] = rules_digest(events[0]["rules"])
    verdict = verify_public(events)
    assert not verdict.ok
    assert "does not match the seed_commitment" in (verdict.problem or "")


def test_a_changed_commitment_is_named(two_hands: list[dict[str, Any]]) -> None:
    events = copy.deepcopy(two_hands)
    events[0]["seed_commitment"] = "0" * 64
    verdict = verify_public(events)
    assert not verdict.ok
    assert "does not match the seed_commitment" in (verdict.problem or "")


def test_a_changed_client_seed_gives_a_deal_other_than_the_one_shown(
    two_hands: list[dict[str, Any]],
) -> None:
    events = copy.deepcopy(two_hands)
    dealt = next(e for e in events if e["type"] == "hand_dealt")
    dealt["client_seeds"][0] = "not ann's"
    verdict = verify_public(events)
    assert not verdict.ok
    assert "is not the one committed to" in (verdict.problem or "") or "dealer" in (
        verdict.problem or ""
    )


def _deal_shown(seed: str, clients: list[str], rules: RuleSet) -> tuple[dict[str, Any], Any]:
    """What hand 1's deal from `seed` and `clients` shows the public (its dealer,
    upcard and stock size), and the seats' hands it deals, dealt by the domain's
    engine as the service deals."""
    seats = len(clients)
    dealer = shuffle.first_dealer(seed, clients, seats)
    deck = shuffle.deck_order(seed, clients, 1, rules.pack)
    table = Table(rules=rules, seat_count=seats, seated=[True] * seats)
    table.engine.apply_deal(table, HandDealt(hand_number=1, dealer=dealer, deck=tuple(deck)))
    hand = table.hand
    assert hand is not None
    shown = {"dealer": dealer, "upcard": hand.discard[0].code, "stock_count": len(hand.stock)}
    return shown, [sorted(card_codes(cards)) for cards in hand.hands]


def test_a_forged_client_seed_whose_deal_shows_the_same_is_named(
    two_hands: list[dict[str, Any]],
) -> None:
    """A client seed searched for (as a server could) so that its deck deals the same
    dealer, upcard and stock size as the deal shown, but other hands: the public
    deal check cannot tell it, the replay names the first card that does not fit."""
    events = copy.deepcopy(two_hands)
    dealt = next(e for e in events if e["type"] == "hand_dealt")
    seed = _ended(events, 1)["hand_seed"]
    rules = RuleSet.from_dict(events[0]["rules"])
    real, real_hands = _deal_shown(seed, dealt["client_seeds"], rules)
    assert real == {key: dealt[key] for key in real}
    for attempt in range(20_000):
        clients = [f"forged-{attempt}", *dealt["client_seeds"][1:]]
        shown, hands = _deal_shown(seed, clients, rules)
        if shown == real:
            break
    else:
        pytest.fail("no forged client seed deals the same upcard and dealer")
    assert hands != real_hands, "the forged deck deals other hands"
    dealt["client_seeds"] = clients
    verdict = verify_public(events)
    assert not verdict.ok
    assert "is not the one committed to" not in (verdict.problem or "")
    assert verdict.version is not None
    assert dealt["version"] < verdict.version <= _ended(events, 1)["version"]
    assert "does not fit the deck that hand 1's seed and the deal's client_seeds give" in (
        verdict.problem or ""
    )


def test_a_meld_of_a_card_the_seat_could_not_hold_is_named(
    two_hands_game: tuple[RummyApplication, UUID], two_hands: list[dict[str, Any]]
) -> None:
    events = copy.deepcopy(two_hands)
    meld = next(e for e in events if e["type"] == "meld_laid")
    assert meld["version"] < _ended(events, 2)["version"], "a meld in an ended hand"
    seat = meld["seat"]
    pack = card_codes(RuleSet.from_dict(events[0]["rules"]).pack)
    card = unheld(page(*two_hands_game, Viewer(seat=seat)), seat, meld["version"], pack)
    meld["cards"][0] = card
    verdict = verify_public(events)
    assert not verdict.ok
    assert verdict.version == meld["version"], verdict.report()
    assert f"seat {seat}'s meld" in (verdict.problem or "")
    assert card in (verdict.problem or "")


def test_a_hand_dealt_from_a_given_deck_is_said_to_be_uncheckable() -> None:
    # A deck order given at creation deals hand 1 as given, not from its seed: the
    # public check cannot see that order, and says why it fails rather than only
    # calling the deal forged.
    rules = RuleSet.from_dict({"deals": 2, "exhausted": "score"}, players=2)
    given = list(reversed(rules.pack))
    # A fixed seed: on a random one the seed's deal now and then fits the hand's first
    # public events (2 seeds of 300 tried), and the check then first finds a discard
    # the seed's deal could not make, not the deal at the hand's end.
    games, game_id = _played(
        rules, 1, Random("one hand"), seed="public-hands/given-deck", decks=[given]
    )
    public = page(games, game_id, PUBLIC)
    assert admin_decks(games, game_id)[1] == card_codes(given)
    verdict = verify_public(public)
    assert not verdict.ok
    assert verdict.version == _ended(public, 1)["version"]
    assert verdict.problem is not None
    assert "deal is explicit" in verdict.problem


def test_a_game_whose_deals_were_not_chosen_is_not_told_they_may_have_been() -> None:
    games, game_id = _played(RuleSet.from_dict({"deals": 2}, players=2), 1, Random("one hand"))
    public = page(games, game_id, PUBLIC)
    assert verify_public(public).ok
    dealt = next(e for e in public if e["type"] == "hand_dealt")
    dealt["client_seeds"] = ["forged", *dealt["client_seeds"][1:]]
    verdict = verify_public(public)
    assert not verdict.ok
    assert verdict.problem is not None
    assert "explicit" not in verdict.problem


def _played(
    rules: RuleSet,
    hands: int,
    rng: Random,
    *,
    seed: str | None = None,
    decks: Sequence[Sequence[Card]] = (),
) -> tuple[RummyApplication, UUID]:
    """A hand_chain game of Ann and a `basic` bot, played by random moves from `rng`
    until `hands` hands have ended."""
    games = open_games(Settings(store=Store.MEMORY))
    seats = [NewSeat("Ann"), NewSeat("Robo", bot="basic")]
    created = games.create_game(NewGame(seats=seats, rules=rules, seed=seed, decks=decks))
    while games.state(created.game_id).table.hands_played < hands:
        state = games.state(created.game_id)
        assert state.table.hand is not None
        seat = state.table.hand.to_act()
        move = play_random_move(game_view(state, Viewer(seat=seat)), rng)
        games.play(created.game_id, seat, list(request_of(move)))
    return games, created.game_id
