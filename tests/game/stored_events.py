"""Games as stored by earlier code, committed under tests/game/fixtures/.

`stored_events_v1.json` holds the raw stored records (topic, version, state
as JSON) of one small complete game: two players, one joining from the
lobby, explicit decks, rules `hand_size 25, target 10`. Hand 1 recycles the
stock and ends exhausted; in hand 2 seat 0 takes the upcard, lays two runs
and lays off its last card: rummy, 2 x 160 = 320 points, and the game. It
has one event of every stored class.

`stored_events_v2.json` is the same game stored after `GameCreated` gained
`deal` (class_version 2). Today's code may no longer create the v1 game as it
was: its creator named the first seat with a client seed beside the decks
(refused now), and only the admin may give decks with a seat open. So v2's
creator is the admin, and its first seat gave no client seed.

test_event_schema.py only ever reads the file. To write a new one (after a
deliberate change of the stored format, with an upcaster or alias for the
old one), run

    uv run python -m tests.game.stored_events tests/game/fixtures/stored_events_v2.json

and commit it next to the old file: never rewrite a committed version.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from service.bootstrap import open_games
from service.config import Settings, Store
from service.domain.actions import Action, Discard, LayOff, Meld
from service.domain.cards import FULL_DECK, Card
from service.game.aggregate import IdempotentRequest
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from tests.domain.tables import cards, deck_for
from tests.game.players import DISCARD, STOCK, act, with_rules

FIXTURES = Path(__file__).parent / "fixtures"
V1 = FIXTURES / "stored_events_v1.json"
V2 = FIXTURES / "stored_events_v2.json"

SEED = "stored-events-v1"
RULES = with_rules(hand_size=25, target=10)
HAND_1 = FULL_DECK
"""Dealer 0: seat 1 gets AC 3C 5C …, seat 0 2C 4C …; the upcard QS, the stock KS alone."""
HAND_2 = deck_for(
    [
        "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD",
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS",
    ],
    upcard="KD",
    stock="KS",
    dealer=1,
)


def _card(code: str) -> Card:
    return Card.parse(code)


COMMANDS: list[tuple[int, list[Action], str | None]] = [
    # Hand 1: seat 1 empties the stock, seat 0 recycles it, seat 1 finds it empty.
    (1, [STOCK, Discard(_card("KS"))], "h1-seat1"),
    (0, [STOCK, Discard(_card("QS"))], None),
    (1, [STOCK], "h1-seat1-again"),
    # Hand 2 (seat 1 deals): seat 0 goes out at once.
    (
        0,
        [
            DISCARD,
            Meld(tuple(cards("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"))),
            Meld(tuple(cards("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"))),
            LayOff(_card("AD"), "h2-m2"),
        ],
        "h2-seat0",
    ),
]


def play_fixture_game(games: RummyApplication) -> UUID:
    """Play the fixture's game with today's code."""
    game_id = games.create_game(
        NewGame(
            seats=[NewSeat("ann"), None],
            rules=RULES,
            seed=SEED,
            decks=[HAND_1, HAND_2],
            dealer=0,
            by_admin=True,
        )
    ).game_id
    games.join_game(game_id, NewSeat("bob"))
    for seat, actions, key in COMMANDS:
        request = (
            None if key is None else IdempotentRequest(seat=seat, key=key, digest=f"sha256:{key}")
        )
        act(games, game_id, seat, actions, request=request)
    return game_id


def dump(games: RummyApplication, game_id: UUID) -> dict[str, Any]:
    """The game's stored records, each state decoded from its stored JSON."""
    records = games.recorder.select_events(game_id)
    return {
        "about": "Stored events of one complete game: see tests/game/event_records.py.",
        "game_id": str(game_id),
        "events": [
            {
                "originator_version": record.originator_version,
                "topic": record.topic,
                "state": json.loads(record.state),
            }
            for record in records
        ],
    }


def load(games: RummyApplication, fixture: dict[str, Any]) -> UUID:
    """Put a fixture's records into `games`' store as they were stored; the game's id."""
    game_id = UUID(fixture["game_id"])
    games.recorder.insert_events(
        [
            StoredEvent(
                originator_id=game_id,
                originator_version=record["originator_version"],
                topic=record["topic"],
                state=games.mapper.transcoder.encode(record["state"]),
            )
            for record in fixture["events"]
        ]
    )
    return game_id


def read(path: Path = V1) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, help="the fixture file to write (a new version)")
    parser.add_argument(
        "--overwrite", action="store_true", help="replace an existing file (never a committed one)"
    )
    args = parser.parse_args(argv)
    if args.path.exists() and not args.overwrite:
        parser.error(f"{args.path} exists: committed fixtures are never rewritten")
    games = open_games(Settings(store=Store.MEMORY))
    fixture = dump(games, play_fixture_game(games))
    args.path.write_text(json.dumps(fixture, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"wrote {len(fixture['events'])} stored events to {args.path}")


if __name__ == "__main__":
    main()
