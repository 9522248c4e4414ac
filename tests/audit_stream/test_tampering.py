"""Tampered exports fail `rummy verify`, each naming the first bad event (the header
fields are tampered with one by one in test_header.py).

Every tampering is tried twice where it makes sense: naively (the hashes
are left as they were, so the chain breaks at the changed event) and by a
forger who rewrites the whole chain (so the chain holds, and the replay with
the rules and the seed must catch it at the same event).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from service.audit.chain import genesis, link
from service.audit.mismatch import Mismatch
from service.audit.referee import Referee
from service.audit.verify import Finding, Outcome, verify_export
from service.bootstrap import open_games
from service.cli import main
from service.config import Settings, Store
from service.domain.cards import FULL_DECK
from service.domain.errors import InvalidRules
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.projections.audit_export import audit_export
from tests.audit_stream.games import LONG_HAND_RULES, SHORT_RULES, new_game, play
from tests.fairness_oracle import reseal
from tests.game.stored_events import V1, load, read

Export = dict[str, Any]


@pytest.fixture(scope="module")
def original() -> Export:
    """A finished three-player game: recycles, an exhausted hand, then a hand played out."""
    games = open_games(Settings(store=Store.MEMORY))
    game_id, _ = new_game(games, players=3, rules=LONG_HAND_RULES, client_seeds=("", "b", "c"))
    play(games, game_id, meld_from_hand=2)
    export: Export = json.loads(
        msgspec.json.encode(audit_export(str(game_id), games.events_after(game_id)))
    )
    assert verify_export(export).outcome is Outcome.VERIFIED
    return export


@pytest.fixture
def export(original: Export) -> Export:
    return copy.deepcopy(original)


def rechain(export: Export, *, renumber: bool = True) -> Export:
    """What a forger does after editing: renumber the versions and recompute every hash."""
    previous = genesis(export["game_id"])
    for place, event in enumerate(export["events"], start=1):
        if renumber:
            event["version"] = place
        linked = link(event, previous)
        event.clear()
        event.update(linked)
        previous = linked["hash"]
    export["chain"].update(head=previous, length=len(export["events"]))
    export["version"] = len(export["events"])
    return export


def place_of(export: Export, kind: str, nth: int = 1, **data: Any) -> int:
    """The 0-based index of the `nth` event of `kind` whose data has `data`."""
    found = [
        index
        for index, event in enumerate(export["events"])
        if event["type"] == kind and all(event["data"].get(k) == v for k, v in data.items())
    ]
    return found[nth - 1]


def failure(export: Export) -> Finding:
    verdict = verify_export(export)
    assert verdict.outcome is Outcome.FAILED, verdict.report()
    assert verdict.finding is not None
    return verdict.finding


def held_before(export: Export, index: int, seat: int) -> set[str]:
    """The cards `seat` holds just before event `index`, by replaying the log up to it."""
    referee = Referee(seed=export["seed"], recorded=export["events"])
    for event in export["events"][:index]:
        referee.take(event["type"], event["data"], event.get("seat"))
    assert referee.table is not None
    assert referee.table.hand is not None
    return {card.code for card in referee.table.hand.hands[seat]}


# --- change a card ----------------------------------------------------------------------------


def _other_card(export: Export, index: int) -> str:
    event = export["events"][index]
    held = held_before(export, index, event["seat"])
    # Nor the event's own card: a drawn card is not held before its draw, and
    # "changing" it to itself would change nothing (the game's seed is random).
    return next(
        card.code
        for card in FULL_DECK
        if card.code not in held and card.code != event["data"]["card"]
    )


def test_a_changed_discard_breaks_the_chain_at_that_event(export: Export) -> None:
    index = place_of(export, "card_discarded", nth=10)
    export["events"][index]["data"]["card"] = _other_card(export, index)
    found = failure(export)
    assert (found.position, found.type) == (index + 1, "card_discarded")
    assert "does not match its hash" in found.message


def test_a_changed_discard_with_a_rewritten_chain_breaks_the_rules_at_that_event(
    export: Export,
) -> None:
    index = place_of(export, "card_discarded", nth=10)
    card = _other_card(export, index)
    export["events"][index]["data"]["card"] = card
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "card_discarded")
    assert f"discard of {card} breaks the rules" in found.message
    assert "not in your hand" in found.message


def test_a_changed_card_drawn_from_the_stock_is_not_the_top_of_the_stock(export: Export) -> None:
    index = place_of(export, "card_drawn", nth=7, source="stock")
    drawn = export["events"][index]["data"]["card"]
    export["events"][index]["data"]["card"] = _other_card(export, index)
    found = failure(rechain(export))
    assert found.position == index + 1
    assert f"the top of the stock was {drawn}" in found.message


def test_a_changed_deal_is_not_the_deck_the_seed_gives(export: Export) -> None:
    index = place_of(export, "hand_dealt", nth=2)
    deck = export["events"][index]["data"]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    export["hands"][1]["deck"] = deck
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "hand_dealt")
    assert "hand 2's deck is not the one docs/fairness.md derives from the seed" in found.message
    assert "first difference at index 0" in found.message


def test_a_changed_recycle_is_not_the_shuffle_the_seed_gives(export: Export) -> None:
    index = place_of(export, "stock_recycled", nth=1)
    stock = export["events"][index]["data"]["stock"]
    stock.reverse()
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "stock_recycled")
    assert "recycle/1/1 shuffle of the discard pile" in found.message


def test_a_changed_time_breaks_the_chain(export: Export) -> None:
    export["events"][5]["at"] = "2020-01-01T00:00:00Z"
    found = failure(export)
    assert found.position == 6
    assert "does not match its hash" in found.message


# --- drop, swap, insert events ---------------------------------------------------------------


def test_a_dropped_event_is_named_where_it_is_missing(export: Export) -> None:
    index = place_of(export, "card_drawn", nth=12)
    del export["events"][index]
    found = failure(export)
    assert found.position == index + 1
    assert found.version == index + 2
    assert "missing" in found.message


def test_a_dropped_event_with_a_rewritten_chain_breaks_the_rules_where_it_was(
    export: Export,
) -> None:
    index = place_of(export, "card_drawn", nth=12)
    del export["events"][index]
    found = failure(rechain(export))
    assert found.position == index + 1
    assert "breaks the rules" in found.message
    assert "Draw a card first" in found.message


def test_two_swapped_events_are_named_where_the_order_breaks(export: Export) -> None:
    index = place_of(export, "card_drawn", nth=15)
    events = export["events"]
    events[index], events[index + 1] = events[index + 1], events[index]
    found = failure(export)
    assert (found.position, found.version) == (index + 1, index + 2)
    assert "out of order" in found.message


def test_two_swapped_events_with_a_rewritten_chain_break_the_rules(export: Export) -> None:
    index = place_of(export, "card_drawn", nth=15)
    events = export["events"]
    assert events[index + 1]["type"] in {"card_discarded", "meld_laid", "card_laid_off"}
    events[index], events[index + 1] = events[index + 1], events[index]
    found = failure(rechain(export))
    assert found.position == index + 1
    assert "Draw a card first" in found.message


def test_a_repeated_event_is_named(export: Export) -> None:
    export["events"].insert(20, copy.deepcopy(export["events"][19]))
    found = failure(export)
    assert (found.position, found.version) == (21, 20)


def test_a_log_cut_in_the_middle_of_a_move_is_named(export: Export) -> None:
    index = place_of(export, "stock_recycled", nth=1)
    del export["events"][index + 1 :]
    found = failure(rechain(export))
    assert found.position == index + 2
    assert "the log ends before the card_drawn" in found.message


@pytest.mark.parametrize(
    ("ended", "owed", "seed_shown"),
    [
        (0, "hand_dealt", True),
        (0, "hand_dealt", False),
        (-1, "game_finished", True),
        (-1, "game_finished", False),
    ],
    ids=["before-a-deal", "before-a-deal-seed-secret", "before-the-end", "before-the-end-secret"],
)
def test_a_log_cut_before_what_follows_a_move_by_itself_is_named(
    export: Export, ended: int, owed: str, seed_shown: bool
) -> None:
    # The service stores a deal, and the end of the game, with the move that caused them:
    # a log that stops short of them was cut, even if it reads as a game still in play.
    ends = [index for index, event in enumerate(export["events"]) if event["type"] == "hand_ended"]
    index = ends[ended]
    del export["events"][index + 1 :]
    if not seed_shown:
        export["seed"] = None
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 2, "missing")
    assert f"the log ends before the {owed} that must follow event {index + 1}" in found.message


# --- the seed, the scores, the winner --------------------------------------------------------


def test_a_changed_seed_does_not_match_the_commitment_of_the_first_event(export: Export) -> None:
    export["seed"] = export["seed"][:-1] + ("0" if export["seed"][-1] != "0" else "1")
    found = failure(export)
    assert (found.field, found.position) == ("seed", None)
    assert "does not match the seed_commitment that event 1 (game_created) published" in (
        found.message
    )


def test_a_changed_seed_and_commitment_give_other_deals(export: Export) -> None:
    export["seed"] = "f" * 64
    found = failure(rechain(reseal(export)))
    assert (found.position, found.type) == (2, "hand_dealt")


def test_a_changed_hand_seed_is_named_at_the_end_of_its_hand(export: Export) -> None:
    index = place_of(export, "hand_ended", nth=2)
    seed = export["events"][index]["data"]["hand_seed"]
    export["events"][index]["data"]["hand_seed"] = seed[::-1]
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "hand_ended")
    assert "hand 2's hand_seed is" in found.message


def test_a_hand_seed_left_out_is_named(export: Export) -> None:
    index = place_of(export, "hand_ended", nth=1)
    del export["events"][index]["data"]["hand_seed"]
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "hand_ended")
    assert "without its hand_seed" in found.message


def test_a_changed_rules_digest_is_named_at_the_creation(export: Export) -> None:
    export["events"][0]["data"]["rules_digest"] = "0" * 64
    found = failure(rechain(export))
    assert (found.position, found.type) == (1, "game_created")
    assert "is not the SHA-256 of the rules it stores" in found.message


def test_a_changed_commitment_does_not_match_the_revealed_seed(export: Export) -> None:
    export["events"][0]["data"]["seed_commitment"] = export["seed_commitment"] = "0" * 64
    found = failure(rechain(export))
    assert found.field == "seed"
    assert "does not match the seed_commitment" in found.message


def test_while_the_seed_is_secret_the_revealed_hand_seeds_are_checked(export: Export) -> None:
    # The log up to the end of hand 1, exported before the game's end: hand 1's deck
    # is checked from its own seed; a seed that is not the chain's is caught.
    cut = place_of(export, "hand_ended", nth=1) + 1
    export["events"] = export["events"][:cut]
    export["seed"] = None
    referee = Referee(seed=None, recorded=export["events"])
    for event in export["events"]:
        referee.take(event["type"], event["data"], event.get("seat"))
    assert referee.tally.hands_from_seed == 1
    export["events"][cut - 1]["data"]["hand_seed"] = "ab" * 32
    forged = Referee(seed=None, recorded=export["events"])

    def replay() -> None:
        for event in export["events"]:
            forged.take(event["type"], event["data"], event.get("seat"))

    with pytest.raises(Mismatch, match=r"hand 1's seed .* does not match the seed_commitment"):
        replay()


def test_a_client_seed_changed_in_the_log_and_the_header_gives_other_deals(
    export: Export,
) -> None:
    # The header check takes the log as the truth; a forged client seed in the log itself
    # is caught by the deals it would have made (docs/audit.md, step 6).
    export["events"][0]["data"]["seats"][1]["client_seed"] = "forged"
    export["players"][1]["client_seed"] = export["client_seeds"][1] = "forged"
    found = failure(rechain(export))
    assert (found.position, found.type) == (2, "hand_dealt")


def test_a_changed_score_is_named_at_the_end_of_its_hand(export: Export) -> None:
    index = place_of(export, "hand_ended", nth=2)
    export["events"][index]["data"]["points"][0] += 10
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "hand_ended")
    assert "ended with points" in found.message


def test_a_changed_winner_is_named_at_the_end_of_the_game(export: Export) -> None:
    event = export["events"][-1]
    assert event["type"] == "game_finished"
    event["data"]["winner"] = (event["data"]["winner"] + 1) % 3
    export["winner"] = event["data"]["winner"]
    found = failure(rechain(export))
    assert (found.position, found.type) == (len(export["events"]), "game_finished")
    assert "finished with winner" in found.message


def test_rummy_verify_exits_non_zero_naming_the_first_bad_event(
    export: Export, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index = place_of(export, "card_discarded", nth=3)
    export["events"][index]["data"]["card"] = _other_card(export, index)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(rechain(export)), encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    said = capsys.readouterr().err
    assert said.startswith(f"FAILED: game {export['game_id']}: event {index + 1} (card_discarded)")


def test_a_game_stored_before_a_creation_policy_still_verifies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A game of one card each under exhausted: void, created before such rules were
    # refused at creation: a game all the same, which the verifier must not fail.
    never_ending = RuleSet(hand_size=1, deals=1, target=None)
    with pytest.raises(InvalidRules):
        never_ending.check_can_end()
    games = open_games(Settings(store=Store.MEMORY))
    monkeypatch.setattr(RuleSet, "check_can_end", lambda self: None)
    game_id, _ = new_game(games, rules=never_ending)
    monkeypatch.undo()
    play(games, game_id, moves=6)
    export = json.loads(
        msgspec.json.encode(audit_export(str(game_id), games.events_after(game_id)))
    )

    verdict = verify_export(export)

    assert verdict.outcome is Outcome.UNFINISHED, verdict


# --- deal: how the deals were decided ------------------------------------------------------------


def _exported(games: RummyApplication, game_id: Any) -> Export:
    exported: Export = json.loads(
        msgspec.json.encode(audit_export(str(game_id), games.events_after(game_id)))
    )
    return exported


def _finished_chosen(**chosen: Any) -> Export:
    """A finished game whose every seat was named, so its creator chose the deal."""
    games = open_games(Settings(store=Store.MEMORY))
    seats = [NewSeat("P0"), NewSeat("P1")]
    game_id = games.create_game(NewGame(seats=seats, rules=SHORT_RULES, **chosen)).game_id
    play(games, game_id)
    export = _exported(games, game_id)
    assert export["deal"] == export["events"][0]["data"]["deal"] == "explicit"
    assert verify_export(export).outcome is Outcome.VERIFIED
    return export


@pytest.mark.parametrize("deal", ["explicit", "stacked", None])
def test_a_top_level_deal_that_disagrees_with_the_log_is_named(
    export: Export, deal: str | None
) -> None:
    assert export["deal"] == "commit_reveal"
    export["deal"] = deal
    found = failure(export)
    assert (found.field, found.position) == ("deal", None)


@pytest.mark.parametrize(
    ("chosen", "how"),
    [
        ({"seed": "my-own-seed"}, "a chosen seed"),
        ({"decks": [list(reversed(FULL_DECK))]}, "deck orders given at creation"),
    ],
)
def test_a_chosen_deal_rewritten_as_commit_reveal_is_named_at_the_creation(
    chosen: dict[str, Any], how: str
) -> None:
    export = _finished_chosen(**chosen)
    export["events"][0]["data"]["deal"] = "commit_reveal"
    export["deal"] = "commit_reveal"
    found = failure(rechain(export))
    assert (found.position, found.type) == (1, "game_created")
    assert f"dealt from {how}: the deal was explicit" in found.message


def test_a_deal_of_neither_kind_is_named_at_the_creation(export: Export) -> None:
    export["events"][0]["data"]["deal"] = "stacked"
    found = failure(rechain(export))
    assert (found.position, found.type) == (1, "game_created")
    assert "neither commit_reveal nor explicit" in found.message


def test_a_game_stored_before_deal_was_recorded_is_checked_against_its_decks() -> None:
    games = open_games(Settings(store=Store.MEMORY))
    export = _exported(games, load(games, read(V1)))
    assert "deal" not in export["events"][0]["data"]
    assert verify_export(export).outcome is Outcome.VERIFIED
    export["deal"] = "commit_reveal"
    found = failure(export)
    assert found.field == "deal"
    assert "the log says 'explicit'" in found.message
