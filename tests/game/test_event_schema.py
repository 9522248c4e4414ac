"""Games stored by earlier code still load: topics and stored fields are a contract.

The fixture was written once by tests/game/event_records.py and is only read
here. If a test below fails after a change, the change breaks games already
in production stores: alias the old topic (service/game/topics.py) or upcast
the old event, do not rewrite the fixture.
"""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic, resolve_topic

from service.bootstrap import open_games
from service.config import Settings, Store
from service.domain import events as domain
from service.domain.cards import Card
from service.domain.errors import GameOver
from service.domain.fairness import DealMode
from service.domain.state import HandEnding, Source, Status
from service.game import event_records as events
from service.game.aggregate import Game
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.topics import MOVED
from tests.game.players import STOCK, act
from tests.game.stored_events import SEED, V1, V2, load, read

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = [pytest.param(V1, id="v1"), pytest.param(V2, id="v2")]

STORED_TOPICS = [
    "service.game.events:GameCreated",
    "service.game.events:PlayerJoined",
    "service.game.events:HandDealt",
    "service.game.events:CardDrawn",
    "service.game.events:CardDiscarded",
    "service.game.events:StockRecycled",
    "service.game.events:CardDrawn",
    "service.game.events:CardDiscarded",
    "service.game.events:HandEnded",
    "service.game.events:HandDealt",
    "service.game.events:CardDrawn",
    "service.game.events:MeldLaid",
    "service.game.events:MeldLaid",
    "service.game.events:CardLaidOff",
    "service.game.events:HandEnded",
    "service.game.events:GameFinished",
]


@pytest.fixture
def fresh_games():
    games = open_games(Settings(store=Store.MEMORY))
    yield games
    games.close()


@pytest.mark.parametrize("path", FIXTURES)
def test_the_fixture_is_the_game_it_says_it_is(path: Path):
    fixture = read(path)
    assert [record["topic"] for record in fixture["events"]] == STORED_TOPICS
    assert [record["originator_version"] for record in fixture["events"]] == list(range(1, 17))
    assert fixture["events"][0]["state"]["originator_topic"] == "service.game.aggregate:Game"


@pytest.mark.parametrize("path", FIXTURES)
def test_a_game_stored_by_earlier_code_rebuilds_to_the_same_result(
    fresh_games: RummyApplication, path: Path
):
    game_id = load(fresh_games, read(path))

    state = fresh_games.state(game_id)

    assert state.version == 16
    assert state.table.status is Status.FINISHED
    assert state.table.winner == 0
    assert state.table.totals == [320, 0]
    assert state.table.hands_played == 2
    last = state.table.last_hand
    assert last is not None
    assert (last.how, last.out_seat, last.points) == (HandEnding.RUMMY, 0, (320, 0))
    assert [seat.name if seat else None for seat in state.seats] == ["ann", "bob"]
    assert state.seed == SEED
    assert state.seed_commitment == hashlib.sha256(SEED.encode()).hexdigest()
    assert state.explicit_decks == 2
    assert state.deal_mode is DealMode.EXPLICIT, "decks were given"
    with pytest.raises(GameOver):
        act(fresh_games, game_id, 1, [STOCK])


@pytest.mark.parametrize("path", FIXTURES)
def test_every_version_of_a_stored_game_rebuilds(fresh_games: RummyApplication, path: Path):
    game_id = load(fresh_games, read(path))
    hands = []
    for version in range(1, 17):
        state = fresh_games.state(game_id, version=version)
        assert state.version == version
        hands.append(state.table.hand_number)
    assert hands == [0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2]
    recycled = fresh_games.state(game_id, version=6).table.hand
    assert recycled is not None
    assert recycled.recycles == 1
    exhausted = fresh_games.state(game_id, version=9).table.last_hand
    assert exhausted is not None
    assert exhausted.how is HandEnding.EXHAUSTED


@pytest.mark.parametrize("path", FIXTURES)
def test_every_stored_record_decodes_through_the_mapper_to_todays_class(
    fresh_games: RummyApplication, path: Path
):
    fixture = read(path)
    for record in fixture["events"]:
        stored = StoredEvent(
            originator_id=fixture["game_id"],
            originator_version=record["originator_version"],
            topic=record["topic"],
            state=fresh_games.mapper.transcoder.encode(record["state"]),
        )
        decoded = fresh_games.mapper.to_domain_event(stored)
        assert type(decoded) is resolve_topic(record["topic"])
        for name in record["state"]:
            assert hasattr(decoded, name), (record["topic"], name)
    created = resolve_topic(fixture["events"][0]["state"]["originator_topic"])
    assert created is Game


def test_each_moved_topic_resolves_to_a_class_now_elsewhere():
    for old, cls in MOVED.items():
        assert resolve_topic(old) is cls
        assert get_topic(cls) != old, "an alias for a topic still in use shadows nothing"
    # Every stored class keeps the topic it was first stored under (its module was
    # renamed: `event_records.TOPIC_MODULE`), so none needs an alias.
    for topic in set(STORED_TOPICS):
        name = topic.partition(":")[2]
        assert get_topic(getattr(events, name)) == f"service.game.events:{name}"
    assert get_topic(Game) == "service.game.aggregate:Game"


def test_the_renamed_module_s_classes_keep_their_topics_in_a_fresh_process():
    # Read before anything is written (a replica that only reads): the old module
    # is gone, and each class resolves from the topic it has always been stored under.
    code = (
        "import importlib.util\n"
        "from eventsourcing.utils import get_topic, resolve_topic\n"
        "from service.game import event_records\n"
        "assert importlib.util.find_spec('service.game.events') is None\n"
        "for name in ('GameCreated', 'CardDrawn', 'TimeBankUsed'):\n"
        "    cls = getattr(event_records, name)\n"
        "    assert resolve_topic(f'service.game.events:{name}') is cls\n"
        "    assert get_topic(cls) == f'service.game.events:{name}'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def _decoded_creation(games: RummyApplication, state: dict[str, Any]) -> events.GameCreated:
    fixture = read()
    stored = StoredEvent(
        originator_id=fixture["game_id"],
        originator_version=1,
        topic="service.game.events:GameCreated",
        state=games.mapper.transcoder.encode(state),
    )
    decoded = games.mapper.to_domain_event(stored)
    assert isinstance(decoded, events.GameCreated)
    return decoded


def test_a_creation_stored_with_its_deal_reads_it_as_stored(fresh_games: RummyApplication):
    state = read(V2)["events"][0]["state"]
    assert (state["class_version"], state["deal"]) == (2, "explicit")
    decoded = _decoded_creation(fresh_games, state)
    assert decoded.deal == "explicit"
    # Version 4 derives the seed scheme and the rules digest for every older record.
    assert decoded.derived_fields == ("seed_scheme", "rules_digest")
    assert "deal" in decoded.data()


@pytest.mark.parametrize(
    ("seed", "decks", "deal"),
    [
        pytest.param("9f" * 32, 0, "commit_reveal", id="a server seed"),
        pytest.param("stored-events-v1", 0, "explicit", id="a chosen seed"),
        pytest.param("9F" * 32, 0, "explicit", id="upper-case hex: never the server's"),
        pytest.param("9f" * 32, 2, "explicit", id="decks"),
    ],
)
def test_a_creation_stored_before_deal_was_recorded_derives_it(
    fresh_games: RummyApplication, seed: str, decks: int, deal: str
):
    state = copy.deepcopy(read(V1)["events"][0]["state"])
    assert "deal" not in state
    assert "class_version" not in state
    state["seed"] = seed
    state["decks"] = state["decks"][:decks]
    decoded = _decoded_creation(fresh_games, state)
    assert decoded.deal == deal
    # Derived, not stored: the audit export leaves it out of the event (docs/audit.md).
    assert decoded.derived_fields == ("deal", "seed_scheme", "rules_digest")
    canonical = json.dumps(state["rules"], sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    assert (decoded.seed_scheme, decoded.rules_digest) == ("game", digest)
    assert "derived_fields" not in decoded.data()


def test_v1_events_load_without_a_command_id(fresh_games: RummyApplication):
    # The command id came later (a lost reply's own commit is recognised by it):
    # events stored before it have none, and read as None, not as an error.
    game_id = load(fresh_games, read())
    stored = list(fresh_games.events.get(game_id))
    assert len(stored) == 16
    assert all(event.command_id is None for event in stored)  # type: ignore[attr-defined]
    new = fresh_games.create_game(NewGame(seats=[NewSeat("ann"), NewSeat("bob")]))
    ids = {event.command_id for event in fresh_games.events.get(new.game_id)}  # type: ignore[attr-defined]
    assert len(ids) == 1, "one command wrote them all"
    assert None not in ids


def test_every_domain_event_is_stored_under_a_topic_of_its_own_name():
    for event_type in domain.EVENTS:
        stored = events.STORED[event_type]
        topic = f"service.game.events:{event_type.__name__}"
        assert get_topic(stored) == topic
        assert resolve_topic(topic) is stored
        assert stored.event_type == domain.name_of(event_type)


def test_stored_events_are_equal_only_with_the_same_state():
    envelope: dict[str, Any] = {
        "originator_id": uuid4(),
        "originator_version": 2,
        "timestamp": datetime.now(UTC),
    }

    def drawn(code: str) -> events.GameEvent:
        event = domain.CardDrawn(seat=1, source=Source.STOCK, card=Card.parse(code))
        stored, fields = events.stored_fields(event, None, None)
        return stored(**envelope, **fields)

    assert drawn("10H") == drawn("10H")
    assert drawn("10H") != drawn("9H")
    assert "card='9H'" in repr(drawn("9H"))
