"""Who may play whom: the band's formula, the groups it allows, and the matcher
respecting it (a 1500 and a 2200 meet only once the band has widened to 700);
a ticket carries its player's rating from the standings."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Any

import pytest

from service.domain.rules import RuleSet
from service.game.commands import NewGame, NewSeat
from service.matchmaking.bands import (
    BAND_MOST,
    BAND_START,
    BAND_STEP,
    STEP_SECONDS,
    Waiting,
    band,
    bot_groups,
    fits,
    groups,
)
from service.matchmaking.matcher import LEASE_SECONDS
from service.matchmaking.tickets import DEFAULT_RATING, Matchmaking, Wanted
from service.standings.standings import Standings
from service.store.match_tickets import TicketTable
from tests.game.players import play_to_end
from tests.game.stores import StoreUnderTest
from tests.matchmaking.checks import check_matches, games_created
from tests.matchmaking.service import Served, served
from tests.players.service import bearer


@pytest.fixture
def service(store: StoreUnderTest) -> Iterator[Served]:
    with served(store) as opened:
        yield opened


def test_the_band_widens_by_a_step_every_ten_seconds_up_to_its_cap() -> None:
    assert band(0) == BAND_START
    assert band(STEP_SECONDS - 0.01) == BAND_START
    assert band(STEP_SECONDS) == BAND_START + BAND_STEP
    assert band(125) == BAND_START + 12 * BAND_STEP
    assert band(10_000) == BAND_MOST


def test_two_tickets_fit_within_the_wider_of_their_bands() -> None:
    old = Waiting("old", 1500, created=0)
    new = Waiting("new", 1800, created=90)
    # At 90 s the old ticket accepts ±550, the new one ±100: the wider decides.
    assert fits(old, new, now=90)
    assert not fits(replace(old, created=60), new, now=90)  # ±250 then


def test_every_two_tickets_of_a_group_fit() -> None:
    rng = random.Random(5)
    tickets = [
        Waiting(f"t{n}", rng.uniform(1000, 2400), created=rng.uniform(0, 60)) for n in range(300)
    ]
    made = groups(tickets, 4, now=60)
    assert made, "some tables are formed"
    seen: set[str] = set()
    for group in made:
        assert len(group) == 4
        ids = {ticket.ticket_id for ticket in group}
        assert not ids & seen, "a ticket is in one group at most"
        seen |= ids
        for a in group:
            for b in group:
                assert fits(a, b, now=60)


def test_bot_groups_take_only_tickets_past_their_bots_deadline() -> None:
    due = Waiting("due", 1500, created=0, bots_at=10)
    later = Waiting("later", 1510, created=0, bots_at=100)
    never = Waiting("never", 1490, created=0)
    made = bot_groups([due, later, never], 3, now=20)
    assert [[ticket.ticket_id for ticket in group] for group in made] == [["due"]]


def _rated(service: Served, ratings: Mapping[str, float]) -> Matchmaking:
    """The service's matchmaking, with the ratings the test gives its players."""
    given = service.wiring.matchmaking
    return Matchmaking(
        given.table, lambda pseudonym, rules: ratings[pseudonym], given.shown, given.now
    )


def test_the_matcher_seats_a_1500_and_a_2200_only_once_the_band_reaches_700(
    service: Served,
) -> None:
    tickets = _rated(service, {"low": 1500, "high": 2200})
    rules = RuleSet.from_dict({}, players=2)
    low = tickets.open(Wanted("low", rules, seats=2))
    high = tickets.open(Wanted("high", rules, seats=2))
    waited = 0.0
    while band(waited) < 700:
        assert service.matcher.run_once().matches == 0, f"matched at {waited} s"
        service.wait(STEP_SECONDS / 2)
        waited += STEP_SECONDS / 2
    assert waited == 120
    assert service.matcher.run_once().matches == 1
    seen = [tickets.read(low.ticket_id, low.token), tickets.read(high.ticket_id, high.token)]
    assert {ticket.status for ticket in seen} == {"matched"}
    assert seen[0].game_id == seen[1].game_id


def test_the_nearest_ratings_are_seated_together(service: Served) -> None:
    ratings = {"a": 1500, "b": 1900, "c": 1520, "d": 1880}
    tickets = _rated(service, ratings)
    rules = RuleSet.from_dict({}, players=2)
    opened = {name: tickets.open(Wanted(name, rules, seats=2)) for name in ratings}
    service.wait(60)  # ±400: a could sit with b, but c is nearer
    assert service.matcher.run_once().matches == 2
    games = {
        name: tickets.read(ticket.ticket_id, ticket.token).game_id
        for name, ticket in opened.items()
    }
    assert games["a"] == games["c"]
    assert games["b"] == games["d"]
    assert games["a"] != games["b"]


def test_a_ticket_carries_its_player_s_rating_from_the_standings(service: Served) -> None:
    games = service.wiring.games
    rules = RuleSet.from_dict({"target": 40}, players=2)
    seats = [NewSeat("", player="ann"), NewSeat("", player="bob")]
    played = games.create_game(NewGame(seats=seats, rules=rules, rated=True)).game_id
    play_to_end(games, played, random.Random(3))
    standings = Standings(games.recorder, games.mapper)
    # On PostgreSQL the standings read the feed below its horizon: the game's end may
    # take a moment to be readable.
    deadline = time.monotonic() + 10
    while not standings.ratings("ann") and time.monotonic() < deadline:
        time.sleep(0.05)
    (rated,) = standings.ratings("ann")
    tickets = service.wiring.matchmaking
    ann = tickets.open(Wanted("ann", rules, seats=2))
    cat = tickets.open(Wanted("cat", rules, seats=2))
    stored = {row.pseudonym: row.rating for row in tickets.table.waiting()}
    assert stored["cat"] == DEFAULT_RATING
    assert stored["ann"] == rated.rating != DEFAULT_RATING
    assert ann.ticket_id != cat.ticket_id


def test_a_matcher_killed_after_creating_the_game_leaves_it_to_the_next_one(
    service: Served,
) -> None:
    """The first matcher claims and creates the game, then dies before it writes the
    tickets matched; after the lease the next one finishes the match with the same
    game (created again with the match's key: the store still holds one game)."""
    first = service.matcher
    table = first.table

    def killed(match_id: str, sealed: Mapping[str, str]) -> None:
        raise RuntimeError("killed between the game and the tickets")

    first.table = replace_finish(table, killed)
    ann = service.ticket("ann")
    bob = service.ticket("bob")
    assert first.run_once().matches == 0
    made = games_created(service.wiring.games)
    assert len(made) == 1
    assert service.read(ann)["status"] == "waiting"  # being matched
    first.table = table
    service.wait(LEASE_SECONDS - 1)
    assert first.run_once().recovered == 0, "within the lease, the match is left alone"
    service.wait(2)
    assert first.run_once().recovered == 1
    seen = [service.read(ann), service.read(bob)]
    assert {view["game_id"] for view in seen} == set(made)
    rows = [table.get(ticket[0]) for ticket in (ann, bob)]
    counted = check_matches(service.wiring.games, [row for row in rows if row is not None])
    assert counted == {"matched": 2}
    for view in seen:  # the tokens derived again are the game's own
        mine = service.client.get(f"/games/{view['game_id']}", headers=bearer(view["token"]))
        assert mine.json()["my_seat"] == view["seat"]


def replace_finish(table: TicketTable, finish: Callable[[str, Mapping[str, str]], None]) -> Any:
    class Killed:
        def __getattr__(self, name: str) -> Any:
            return finish if name == "finish" else getattr(table, name)

    return Killed()
