"""Players' standings from the feed (service/standings/): recall, statistics,
ratings and leaderboards, on every store; rebuilt from the events alike; each
game rated once across replicas.

Players are pseudonyms here (the API maps `platform:player` to them). Games are
played by a sensible random player (tests/game/players.py) to their end; what a
game's result must be is read from the game's own final table, and ratings are
worked out with the rating arithmetic (tested on its own against Glickman's
example) from those results.
"""

from __future__ import annotations

import random
import threading
from uuid import UUID

import pytest

from service.domain.places import finishing_places
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.ratings.glicko2 import Rating
from service.ratings.tables import rate_table
from service.standings.standings import Rated, Standings
from tests.game.players import play_to_end
from tests.game.stores import StoreUnderTest

RULES = RuleSet.from_dict({"target": 40})
"""A short classic game: a hand or two."""


def standings_of(games: RummyApplication, table: str = "rummy_standings") -> Standings:
    return Standings(games.recorder, games.mapper, table)


def new_game(games: RummyApplication, players: list[str | None], *, rated: bool, seed: str) -> UUID:
    """A game of `players` (a pseudonym, or None for an anonymous person)."""
    seats = [
        NewSeat(f"Anon {at}") if player is None else NewSeat("", player=player)
        for at, player in enumerate(players)
    ]
    return games.create_game(NewGame(seats=seats, rules=RULES, seed=seed, rated=rated)).game_id


def finished(games: RummyApplication, players: list[str | None], *, rated: bool, seed: str) -> UUID:
    game_id = new_game(games, players, rated=rated, seed=seed)
    play_to_end(games, game_id, random.Random(seed))
    return game_id


def places_of(games: RummyApplication, game_id: UUID) -> tuple[int, list[int], list[float]]:
    """The game's winner, totals and places, from its own final table."""
    table = games.state(game_id).table
    winner = table.winner
    assert winner is not None
    totals = list(table.totals)
    return winner, totals, finishing_places(winner, totals)


def test_a_player_s_recall_lists_their_games_newest_first_with_each_result(
    store: StoreUnderTest,
) -> None:
    games = store.games()
    standings = standings_of(games)
    played = [finished(games, ["ann", "bob"], rated=False, seed=f"recall-{n}") for n in range(3)]
    open_game = new_game(games, ["ann", None, None], rated=False, seed="recall-open")
    page, cursor = standings.recall("ann", limit=2)
    assert [entry.game_id for entry in page] == [open_game, played[2]]
    assert page[0].status == "playing"
    assert page[0].result is None
    assert cursor is not None
    rest, last = standings.recall("ann", limit=2, after=cursor)
    assert [entry.game_id for entry in rest] == [played[1], played[0]]
    assert last is None
    for entry in [page[1], *rest]:
        winner, totals, places = places_of(games, entry.game_id)
        assert entry.status == "finished"
        assert entry.seat == 0
        assert entry.variant == "classic"
        assert entry.result == {"place": places[0], "points": totals[0], "won": winner == 0}
        assert entry.finished_at is not None
    assert standings.recall("nobody", limit=5) == ([], None)


def test_statistics_count_games_wins_places_points_and_streaks(store: StoreUnderTest) -> None:
    games = store.games()
    standings = standings_of(games)
    ids = [finished(games, ["ann", "bob"], rated=False, seed=f"stats-{n}") for n in range(4)]
    results = [places_of(games, game_id) for game_id in ids]
    won = [winner == 1 for winner, _, _ in results]
    [bob] = standings.stats("bob")
    assert (bob.variant, bob.format, bob.games) == ("classic", None, 4)
    assert bob.wins == sum(won)
    assert bob.mean_place == pytest.approx(sum(p[1] for _, _, p in results) / 4)
    assert bob.mean_points == pytest.approx(sum(t[1] for _, t, _ in results) / 4)
    best = streak = 0
    for win in won:
        streak = streak + 1 if win else 0
        best = max(best, streak)
    assert (bob.current_streak, bob.best_streak) == (streak, best)


def test_rated_games_move_the_ratings_of_their_players_by_glicko2(store: StoreUnderTest) -> None:
    games = store.games()
    standings = standings_of(games)
    finished(games, ["ann", "bob"], rated=False, seed="unrated")
    assert standings.ratings("ann") == [], "an unrated game moves no rating"
    ratings = {"ann": Rating(), "bob": Rating()}
    for n in range(3):
        game_id = finished(games, ["ann", "bob"], rated=True, seed=f"rated-{n}")
        _, _, places = places_of(games, game_id)
        ratings["ann"], ratings["bob"] = rate_table([ratings["ann"], ratings["bob"]], places)
    for player in ("ann", "bob"):
        [rated] = standings.ratings(player)
        assert (rated.variant, rated.format, rated.games) == ("classic", None, 3)
        assert (rated.rating, rated.deviation, rated.volatility) == pytest.approx(
            (ratings[player].rating, ratings[player].deviation, ratings[player].volatility)
        )
        assert rated.provisional == (rated.deviation > 110)


def test_bots_and_anonymous_seats_are_ranked_but_not_rated(store: StoreUnderTest) -> None:
    games = store.games()
    standings = standings_of(games)
    game_id = finished(games, ["ann", "bob", None], rated=False, seed="three")
    entries, _ = standings.recall("ann", limit=5)
    _, _, places = places_of(games, game_id)
    assert entries[0].result is not None
    assert entries[0].result["place"] == places[0], "placed among all three seats"


def test_a_leaderboard_pages_by_rating_and_a_rebuild_gives_the_same_numbers(
    store: StoreUnderTest,
) -> None:
    games = store.games()
    live = standings_of(games)
    players = ["ann", "bob", "cat", "dan"]
    for n in range(6):
        table = random.Random(n).sample(players, 3)
        finished(games, [*table], rated=True, seed=f"board-{n}")
        live.catch_up()  # the live projection follows game by game
    board: list[Rated] = []
    page, cursor = live.leaderboard("classic", None, limit=2)
    board += page
    while cursor is not None:
        page, cursor = live.leaderboard("classic", None, limit=2, after=cursor)
        board += page
    assert len(board) == len({rated.pseudonym for rated in board}) == 4
    assert [rated.rating for rated in board] == sorted((r.rating for r in board), reverse=True)
    assert sum(rated.games for rated in board) == 6 * 3
    rebuilt = standings_of(games, "rummy_standings_rebuilt")
    again, _ = rebuilt.leaderboard("classic", None, limit=10)
    assert again == board, "the events alone give the same ratings"
    assert live.leaderboard("gin", None, limit=10) == ([], None)


@pytest.mark.postgres
def test_replicas_catching_up_at_once_rate_each_game_once(postgres_store: StoreUnderTest) -> None:
    writer = postgres_store.games()
    for n in range(4):
        finished(writer, ["ann", "bob"], rated=True, seed=f"replicas-{n}")
    replicas = [standings_of(postgres_store.games()) for _ in range(3)]
    threads = [threading.Thread(target=standings.catch_up) for standings in replicas]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for standings in replicas:
        [ann] = standings.ratings("ann")
        assert ann.games == 4, "each game rated once"
