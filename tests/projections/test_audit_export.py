"""The audit export: its header, its events (everything stored but token hashes
and the seed) and their hash chain; first on the game of recorded.py (Ann and
Bob), then on games played by the application.
"""

from __future__ import annotations

import hmac
from typing import Any

import msgspec
import pytest

from service.audit.chain import ALGORITHM, FORMAT, event_hash, genesis
from service.config import Settings, Store
from service.domain import shuffle
from service.domain.cards import card_codes
from service.game.application import RummyApplication
from service.projections.audit_export import audit_export
from tests import fairness_oracle as oracle
from tests.audit_stream.games import export_of, finished, new_game, play
from tests.projections.recorded import (
    ANN,
    BOB,
    DECK,
    RULES,
    SEED,
    Log,
    Recorded,
    ann_and_bob,
    created,
)
from tests.projections.snapshots import GAME_ID

GAME = str(GAME_ID)


def exported(events: list[Recorded]) -> dict[str, Any]:
    """The export of `events` as a client receives it."""
    decoded: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(audit_export(GAME, events)))
    return decoded


def header(export: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in export.items() if name not in ("events", "chain")}


def test_the_export_of_a_finished_game_reveals_the_seed_and_holds_every_header_field() -> None:
    events = ann_and_bob()
    assert header(exported(events)) == {
        "format": FORMAT,
        "game_id": GAME,
        "version": events[-1].originator_version,
        "status": "finished",
        "rules": RULES.to_dict(),
        "players": [
            {"seat": ANN, "name": "Ann", "bot": None, "client_seed": ""},
            {"seat": BOB, "name": "Bob", "bot": None, "client_seed": "bob's"},
        ],
        "seed_commitment": shuffle.commitment(SEED),
        "seed": SEED,
        "deal": "explicit",
        "client_seeds": ["", "bob's"],
        "dealer_named": True,
        "explicit_decks": 1,
        "hands": [{"hand_number": 1, "dealer": ANN, "deck": DECK, "from_seed": False}],
        "winner": ANN,
        "totals": [56, 0],
        # docs/fairness.md, "Live chain heads": HMAC-SHA-256 keyed by the seed.
        "chain_salt": hmac.new(
            SEED.encode(), b"straight-rummy/chain-salt/v1", "sha256"
        ).hexdigest(),
    }


def test_the_seed_stays_hidden_until_the_game_is_finished() -> None:
    playing = exported(ann_and_bob(finished=False))
    assert (playing["status"], playing["seed"], playing["winner"]) == ("playing", None, None)
    assert playing["totals"] == [0, 0]
    waiting = exported(ann_and_bob()[:1])
    assert (waiting["status"], waiting["seed"], waiting["hands"]) == ("waiting", None, [])
    assert waiting["players"][BOB] == {"seat": BOB, "name": None, "bot": None, "client_seed": ""}


def test_every_event_is_exported_with_its_stored_data_but_token_hashes_and_the_seed() -> None:
    events = ann_and_bob()
    export = exported(events)
    for recorded, sent in zip(events, export["events"], strict=True):
        data = recorded.data()
        if recorded.event_type == "game_created":
            del data["seed"]
            for seat in data["seats"]:
                if seat is not None:
                    del seat["token_hash"]
        data.pop("token_hash", None)
        assert sent["data"] == data, recorded.event_type
        assert (sent["version"], sent["type"]) == (recorded.originator_version, recorded.event_type)
        assert sent["at"] == msgspec.to_builtins(recorded.timestamp)
        assert sent.get("seat") == recorded.seat


def test_the_events_are_chained_by_their_hashes_from_the_games_genesis() -> None:
    events = ann_and_bob()
    export = exported(events)
    previous = genesis(GAME)
    for sent in export["events"]:
        assert sent["previous_hash"] == previous
        assert sent["hash"] == event_hash({k: v for k, v in sent.items() if k != "hash"})
        previous = sent["hash"]
    assert export["chain"] == {
        "algorithm": ALGORITHM,
        "genesis": genesis(GAME),
        "head": previous,
        "length": len(events),
    }


def test_a_field_derived_when_read_is_not_in_the_exported_event() -> None:
    log = Log()
    created(log, seats=[None, None], decks=[])
    stored_before_deal = Recorded(**{**vars(log.events[0]), "derived_fields": ("deal",)})
    export = exported([stored_before_deal])
    assert "deal" not in export["events"][0]["data"], "the chain of what was stored"
    assert export["deal"] == "commit_reveal", "the header still says it"


def test_an_export_starts_from_the_games_creation() -> None:
    with pytest.raises(ValueError, match="creation"):
        audit_export(GAME, ann_and_bob()[1:])


# --- games played by the application ---------------------------------------------------------


@pytest.fixture(scope="module")
def games() -> RummyApplication:
    return RummyApplication(env=Settings(store=Store.MEMORY).event_store_env())


def test_the_export_reveals_the_seed_and_every_deck_once_finished(
    games: RummyApplication,
) -> None:
    game_id, _ = new_game(games, client_seeds=("ann", ""))
    export = finished(games, game_id)
    assert export["status"] == "finished"
    rules = export["rules"]
    assert oracle.commitment(export["seed"], rules) == export["seed_commitment"]
    chain = oracle.chain_of(export["seed"], rules)
    for hand in export["hands"]:
        number = hand["hand_number"]
        derived = shuffle.deck_order(chain[number - 1], ["ann", ""], number)
        assert hand["deck"] == card_codes(derived)
    assert export["chain"]["head"] == export["events"][-1]["hash"]
    assert [event["version"] for event in export["events"]] == list(range(1, export["version"] + 1))
    created = export["events"][0]
    assert created["type"] == "game_created"
    assert "seed" not in created["data"]
    assert "seat" not in created, "the system created it"
    assert all("at" in event and event["at"].endswith("Z") for event in export["events"])


def test_the_chain_of_a_game_is_the_same_before_and_after_its_seed_is_revealed(
    games: RummyApplication,
) -> None:
    game_id, _ = new_game(games)
    play(games, game_id, moves=6)
    before = export_of(games, game_id)
    assert before["seed"] is None
    after = finished(games, game_id)
    assert after["events"][: len(before["events"])] == before["events"]
