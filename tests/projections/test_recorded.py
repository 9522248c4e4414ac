"""The events these tests write by hand are the stored form: each kind has the
fields the committed stored-event fixture holds (tests/game/event_records.py),
and the game of recorded.py is the one the domain plays from its deck."""

from __future__ import annotations

import re

from service.domain.cards import card_codes
from service.domain.events import HandDealt
from tests.domain.tables import new_game
from tests.game.stored_events import V2, read
from tests.projections.recorded import (
    ANN,
    BOB,
    HANDS,
    RULES,
    STOCK,
    UPCARD,
    ann_and_bob,
    recycled,
)

NOT_DATA = frozenset(
    {"timestamp", "originator_topic", "class_version", "seat", "request", "command_id"}
)
"""What a stored record holds beside the event's own data: the envelope."""


def snake(name: str) -> str:
    """`CardDrawn` → `card_drawn`, as events are named in the API."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def stored_fields() -> dict[str, set[str]]:
    """Each event type's data fields, as the fixture's records hold them."""
    found: dict[str, set[str]] = {}
    for record in read(V2)["events"]:
        name = record["topic"].split(":")[1]
        event_type = snake(name)
        found[event_type] = set(record["state"]) - NOT_DATA
    return found


def test_every_event_written_by_hand_has_the_stored_fields() -> None:
    stored = stored_fields()
    written = [*ann_and_bob(), recycled(0, ["QS"], shuffled=True)]
    assert {event.event_type for event in written} == set(stored), "every kind, once at least"
    for event in written:
        assert set(event.data()) == stored[event.event_type], event.event_type


def test_the_game_written_by_hand_is_the_one_the_domain_plays() -> None:
    game = new_game(HANDS, UPCARD, STOCK, dealer=ANN, rules=RULES)
    game.draw(BOB)
    game.meld(BOB, "5D 6D 7D 8D")
    game.discard(BOB, "2C")
    game.draw(ANN)
    game.meld(ANN, "AS 2S 3S 4S")
    game.lay_off(ANN, "9D", "h1-m1")
    game.meld(ANN, "KD KH KS")
    written = ann_and_bob()
    dealt = next(e for e in written if e.event_type == "hand_dealt")
    assert dealt.data()["deck"] == card_codes(game.decks.deck(1))
    played = [
        (snake(type(e).__name__), getattr(e, "seat", None))
        for e in game.events
        if not isinstance(e, HandDealt)
    ]
    after_the_deal = written[written.index(dealt) + 1 :]
    assert [(e.event_type, e.seat) for e in after_the_deal] == played
    ended = after_the_deal[-2].data()
    result = game.last
    assert ended["remaining"] == [card_codes(cards) for cards in result.remaining]
    assert (ended["values"], ended["points"], ended["totals"]) == (
        list(result.values),
        list(result.points),
        list(result.totals),
    )
    assert after_the_deal[-1].data() == {"winner": game.table.winner, "totals": list(result.totals)}
