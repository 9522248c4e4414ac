"""Matchmaking over HTTP on every store: a ticket opened, read, cancelled, expired;
two tickets of one pool seated at one game, each told its own seat token; pools
apart by variant and rules; bots after the deadline; one queue per player and
variant; the `match_found` webhook item."""

from __future__ import annotations

import json
from collections.abc import Iterator
from uuid import UUID

import pytest

from service.webhooks.reader import feed_reader
from tests.game.stores import StoreUnderTest
from tests.matchmaking.service import Served, served
from tests.players.service import bearer


@pytest.fixture
def service(store: StoreUnderTest) -> Iterator[Served]:
    with served(store) as opened:
        yield opened


def test_two_tickets_of_one_pool_are_seated_at_one_game_each_with_its_own_seat(
    service: Served,
) -> None:
    ann = service.ticket("ann")
    bob = service.ticket("bob")
    assert service.read(ann)["status"] == "waiting"
    assert service.read(ann).get("token") is None
    assert service.matcher.run_once().matches == 1
    seen = [service.read(ann), service.read(bob)]
    assert [view["status"] for view in seen] == ["matched", "matched"]
    assert seen[0]["game_id"] == seen[1]["game_id"]
    assert sorted(view["seat"] for view in seen) == [0, 1]
    game_id = seen[0]["game_id"]
    # Each seat token is that seat's: the game's own view names the seat it holds.
    for view in seen:
        mine = service.client.get(f"/games/{game_id}", headers=bearer(view["token"]))
        assert mine.status_code == 200, mine.text
        assert mine.json()["my_seat"] == view["seat"]
    players = service.client.get(f"/games/{game_id}").json()["players"]
    refs = {seat["player"] for seat in players}
    assert refs == {service.platform.ref("ann"), service.platform.ref("bob")}
    # A second pass finds nothing more to do, and the tickets keep their game.
    assert service.matcher.run_once().matches == 0
    assert service.read(ann)["game_id"] == game_id


def test_a_ticket_is_read_with_its_own_token_only(service: Served) -> None:
    ann = service.ticket("ann")
    bob = service.ticket("bob")
    service.matcher.run_once()
    other = service.client.get(f"/matchmaking/{ann[0]}", headers=bearer(bob[1]))
    assert other.status_code == 403
    assert other.json()["code"] == "forbidden"
    assert service.read(ann)["token"] not in other.text
    missing = service.client.get(f"/matchmaking/{UUID(int=7).hex}", headers=bearer(ann[1]))
    assert missing.status_code == 404
    anonymous = service.client.get(f"/matchmaking/{ann[0]}")
    assert anonymous.status_code == 401
    cancel_other = service.client.delete(f"/matchmaking/{ann[0]}", headers=bearer(bob[1]))
    assert cancel_other.status_code == 403


def test_a_cancelled_ticket_is_matched_with_nobody(service: Served) -> None:
    ann = service.ticket("ann")
    cancelled = service.client.delete(f"/matchmaking/{ann[0]}", headers=bearer(ann[1]))
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["status"] == "cancelled"
    bob = service.ticket("bob")
    assert service.matcher.run_once().matches == 0
    assert service.read(ann)["status"] == "cancelled"
    assert service.read(bob)["status"] == "waiting"
    # Cancelled, the player may queue again.
    service.ticket("ann")
    assert service.matcher.run_once().matches == 1


def test_a_matched_ticket_cannot_be_cancelled(service: Served) -> None:
    ann = service.ticket("ann")
    service.ticket("bob")
    service.matcher.run_once()
    answer = service.client.delete(f"/matchmaking/{ann[0]}", headers=bearer(ann[1]))
    assert answer.status_code == 200
    assert answer.json()["status"] == "matched"


def test_a_ticket_expires_after_its_longest_wait(service: Served) -> None:
    ann = service.ticket("ann", max_wait_seconds=30)
    service.wait(29)
    assert service.read(ann)["status"] == "waiting"
    service.wait(2)
    assert service.read(ann)["status"] == "expired"
    service.ticket("bob")
    assert service.matcher.run_once().matches == 0


def test_an_expired_ticket_is_not_matched_by_the_matcher(service: Served) -> None:
    ann = service.ticket("ann", max_wait_seconds=10)
    service.wait(11)
    bob = service.ticket("bob")
    done = service.matcher.run_once()
    assert (done.expired, done.matches) == (1, 0)
    assert service.read(ann)["status"] == "expired"
    assert service.read(bob)["status"] == "waiting"


def test_a_player_waits_once_per_variant(service: Served) -> None:
    service.ticket("ann")
    again = service.open("ann")
    assert again.status_code == 409
    assert again.json()["code"] == "player_already_queued"
    other_variant = service.open("ann", variant="gin")
    assert other_variant.status_code == 201, other_variant.text


def test_tickets_match_only_the_same_variant_rules_size_and_kind(service: Served) -> None:
    service.ticket("ann", rules={"target": 50})
    service.ticket("bob", rules={"target": 60})
    service.ticket("cat", variant="gin")
    service.ticket("dan", seats=3)
    service.ticket("eve", rated=False)
    assert service.matcher.run_once().matches == 0
    # The same rules written otherwise (a default named) are the same pool.
    fay = service.ticket("fay", rules={"target": 50, "variant": "classic", "aces": "low"})
    assert service.matcher.run_once().matches == 1
    assert service.read(fay)["status"] == "matched"


def test_rules_naming_another_variant_are_refused(service: Served) -> None:
    answer = service.open("ann", variant="gin", rules={"variant": "classic"})
    assert answer.status_code == 422
    assert answer.json()["code"] == "invalid_rules"


def test_bots_fill_the_seats_after_the_deadline(service: Served) -> None:
    ann = service.ticket("ann", seats=3, bots_after_seconds=20, bot="random")
    bob = service.ticket("bob", seats=3, bots_after_seconds=20, bot="random")
    cat = service.ticket("cat", variant="gin")  # people only: never seated with bots
    service.wait(19)
    assert service.matcher.run_once().matches == 0
    service.wait(2)
    assert service.matcher.run_once().matches == 1
    seen = [service.read(ann), service.read(bob)]
    assert seen[0]["game_id"] == seen[1]["game_id"]
    game = service.client.get(f"/games/{seen[0]['game_id']}").json()
    bots = [seat for seat in game["players"] if seat.get("bot")]
    assert [seat["bot"] for seat in bots] == ["random"]
    people = {seat["seat"] for seat in game["players"] if not seat.get("bot")}
    assert people == {seen[0]["seat"], seen[1]["seat"]}
    service.wait(250)
    assert service.matcher.run_once().matches == 0
    assert service.read(cat)["status"] == "waiting"


def test_one_ticket_alone_gets_bots_after_the_deadline(service: Served) -> None:
    ann = service.ticket("ann", bots_after_seconds=0)
    assert service.matcher.run_once().matches == 1
    view = service.read(ann)
    assert view["status"] == "matched"
    game = service.client.get(f"/games/{view['game_id']}").json()
    assert [seat.get("bot") for seat in game["players"]].count("basic") == 1


def test_the_webhooks_send_match_found_before_the_game_created(service: Served) -> None:
    ann = service.ticket("ann")
    bob = service.ticket("bob")
    service.matcher.run_once()
    game_id = service.read(ann)["game_id"]
    wiring = service.wiring
    read = feed_reader(wiring.feed, wiring.games, wiring.matchmaking.found)
    messages = read(0, 100).messages
    kinds = [(m.game_id, m.event_type) for m in messages]
    at = kinds.index((game_id, "game_created"))
    assert kinds[at - 1] == (game_id, "match_found")
    found = messages[at - 1]
    assert found.id == f"{game_id}:0"
    assert found.position < messages[at].position
    body = json.loads(found.body)
    assert body["type"] == "match_found"
    assert body["game_id"] == game_id
    assert body["variant"] == "classic"
    assert sorted(body["ticket_ids"]) == sorted([ann[0], bob[0]])
    refs = {player["player"] for player in body["players"]}
    assert refs == {service.platform.ref("ann"), service.platform.ref("bob")}
    assert "token" not in found.body.decode()
