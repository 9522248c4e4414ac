"""What the feed's creations, joins and endings change in the standings' rows.

Three kinds of row (service/store/standing_rows.py):

    game    a game with a vouched-for seat or an open seat (one may join it):
            its variant, format, rules, `rated`, and each seat's pseudonym
    seat    a vouched-for player's seat in a game, listed by the player's
            pseudonym, newest game first: the recall, and the statistics
    rating  a player's rating in a variant (and Indian format), listed by
            the rating: the leaderboards

A finished game sets each followed seat's place (service/domain/places.py),
points and whether it won; a rated one moves the ratings of its vouched-for
seats against each other by their places (service/ratings/tables.py), every
one from its rating before the game. Seats without a player (bots, and in an
unrated game anonymous people) are ranked but not rated. Only pseudonyms are
kept: who they are is the players' tables' business (service/players/), so an
erased player's rows point at nobody.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from service.domain.places import finishing_places
from service.domain.rules import RuleSet
from service.game.event_records import GameAborted, GameCreated, GameFinished, PlayerJoined
from service.ratings.glicko2 import Rating
from service.ratings.tables import rate_table
from service.store.standing_rows import Access, Row

GAME, SEAT, RATING = "game", "seat", "rating"

TOPICS = (GameCreated, PlayerJoined, GameFinished, GameAborted)
"""The only events that change the standings."""


def rating_group(variant: str, format_: str | None) -> str:
    """The group of a variant's (and Indian format's) ratings: one leaderboard."""
    return f"{variant}/{format_ or ''}"


def fold(access: Access, events: Iterable[Any]) -> None:
    """Apply the feed's `events` (stored events of `TOPICS`, in feed order)."""
    for event in events:
        game_id = event.originator_id.hex
        if isinstance(event, GameCreated):
            _created(access, game_id, event)
        elif isinstance(event, PlayerJoined):
            _joined(access, game_id, event)
        elif isinstance(event, GameFinished):
            # A stored event's fields are its domain event's plain form.
            ended: Any = event
            _ended(access, game_id, event, "finished", ended.winner, tuple(ended.totals))
        elif isinstance(event, GameAborted):
            _ended(access, game_id, event, "aborted", None, ())


def _created(access: Access, game_id: str, event: GameCreated) -> None:
    seats: list[str | None] = [None if seat is None else seat.get("player") for seat in event.seats]
    if all(seat is not None and seat.get("player") is None for seat in event.seats):
        return  # every seat taken, nobody vouched for: nothing to follow
    rules = RuleSet.from_dict(event.rules)
    game = {
        "variant": rules.variant.value,
        "format": None if rules.format is None else rules.format.value,
        "rules": event.rules,
        "rated": bool(getattr(event, "rated", False)),
        "created_at": _millis(event),
        "seats": seats,
    }
    access.put(Row(GAME, "", game_id, 0.0, game))
    for seat, pseudonym in enumerate(seats):
        if pseudonym is not None:
            _seat(access, game_id, game, seat, pseudonym)


def _joined(access: Access, game_id: str, event: PlayerJoined) -> None:
    row = access.get(GAME, "", game_id)
    seat = event.seat
    if row is None or seat is None:
        return
    game = dict(row.doc)
    pseudonym = getattr(event, "player", None)
    game["seats"] = [*game["seats"]]
    game["seats"][seat] = pseudonym
    access.put(Row(GAME, "", game_id, 0.0, game))
    if pseudonym is not None:
        _seat(access, game_id, game, seat, pseudonym)


def _seat(access: Access, game_id: str, game: dict[str, Any], seat: int, pseudonym: str) -> None:
    doc = {
        "seat": seat,
        "variant": game["variant"],
        "format": game["format"],
        "rules": game["rules"],
        "rated": game["rated"],
        "status": "playing",
        "result": None,
        "finished_at": None,
    }
    access.put(Row(SEAT, pseudonym, game_id, float(game["created_at"]), doc))


def _ended(
    access: Access,
    game_id: str,
    event: Any,
    status: str,
    winner: int | None,
    totals: Sequence[int],
) -> None:
    row = access.get(GAME, "", game_id)
    if row is None:
        return
    game = row.doc
    places = finishing_places(winner, totals) if totals else []
    players = {
        seat: pseudonym for seat, pseudonym in enumerate(game["seats"]) if pseudonym is not None
    }
    for seat, pseudonym in players.items():
        kept = access.get(SEAT, pseudonym, game_id)
        if kept is None:
            continue
        result = None
        if places:
            result = {"place": places[seat], "points": totals[seat], "won": seat == winner}
        doc = {**kept.doc, "status": status, "result": result, "finished_at": _millis(event)}
        access.put(Row(SEAT, pseudonym, game_id, kept.sort, doc))
    if status == "finished" and game["rated"] and len(players) >= 2:
        _rate(
            access, game, {seat: (pseudonym, places[seat]) for seat, pseudonym in players.items()}
        )


def _rate(access: Access, game: dict[str, Any], seats: dict[int, tuple[str, float]]) -> None:
    grp = rating_group(game["variant"], game["format"])
    before: dict[str, tuple[Rating, int]] = {}
    for pseudonym, _ in seats.values():
        kept = access.get(RATING, grp, pseudonym)
        if kept is None:
            before[pseudonym] = (Rating(), 0)
        else:
            doc = kept.doc
            before[pseudonym] = (
                Rating(doc["rating"], doc["deviation"], doc["volatility"]),
                doc["games"],
            )
    order = list(seats.values())
    after = rate_table([before[p][0] for p, _ in order], [place for _, place in order])
    for (pseudonym, _), rating in zip(order, after, strict=True):
        doc = {
            "variant": game["variant"],
            "format": game["format"],
            "rating": rating.rating,
            "deviation": rating.deviation,
            "volatility": rating.volatility,
            "games": before[pseudonym][1] + 1,
        }
        access.put(Row(RATING, grp, pseudonym, rating.rating, doc))


def _millis(event: Any) -> int:
    return int(event.timestamp.timestamp() * 1000)
