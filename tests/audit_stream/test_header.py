"""Every field of an export's header is checked against its log.

The fields are not listed here: they are enumerated from real exports of a
few kinds of games (every member at any depth, every player and every hand),
and each one is changed and removed in turn. A field added to the export
later without a check in the verifier makes its cases here fail.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterator
from functools import cache
from typing import Any
from unittest.mock import patch

import msgspec
import pytest

from service.audit.verify import Outcome, Verdict, verify_export
from service.bootstrap import open_games
from service.config import Settings, Store
from service.domain.cards import FULL_DECK
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.projections.audit_export import AuditExport, audit_export
from tests.audit_stream.games import LONG_HAND_RULES, SHORT_RULES, new_game, play
from tests.audit_stream.test_tampering import rechain
from tests.game.stored_events import load, read

Export = dict[str, Any]
Path = tuple[str | int, ...]
"""Where a field sits in the export: member names and list indexes."""


def _exported(games: RummyApplication, game_id: Any) -> Export:
    """The export exactly as a client receives it (encoded, then parsed)."""
    parsed: Export = json.loads(
        msgspec.json.encode(audit_export(str(game_id), games.events_after(game_id)))
    )
    return parsed


def _application() -> RummyApplication:
    return open_games(Settings(store=Store.MEMORY))


def _finished_with_a_bot_and_a_late_joiner() -> Export:
    games = _application()
    created = games.create_game(
        NewGame(
            seats=[NewSeat("Ann", client_seed="ann"), NewSeat("Robo", bot="basic"), None],
            rules=SHORT_RULES,
        )
    )
    games.join_game(created.game_id, NewSeat("Cléo", client_seed="çléo-🂡"))
    play(games, created.game_id)
    return _exported(games, created.game_id)


def _playing_with_a_given_deck_seed_and_dealer() -> Export:
    games = _application()
    created = games.create_game(
        NewGame(
            # No client seeds: a deck given at creation would leave them unused (409).
            seats=[NewSeat("Ann"), NewSeat("Bob")],
            rules=SHORT_RULES,
            seed="table-7",
            decks=[list(reversed(FULL_DECK))],
            dealer=1,
        )
    )
    play(games, created.game_id, moves=5)
    return _exported(games, created.game_id)


def _waiting_for_a_player() -> Export:
    games = _application()
    created = games.create_game(NewGame(seats=[NewSeat("Ann"), None, None], rules=SHORT_RULES))
    games.join_game(created.game_id, NewSeat("Bob", client_seed="bob"))
    return _exported(games, created.game_id)


def _with_recycles_and_an_exhausted_hand() -> Export:
    games = _application()
    game_id, _ = new_game(games, players=3, rules=LONG_HAND_RULES, client_seeds=("", "b", "c"))
    play(games, game_id, meld_from_hand=2)
    return _exported(games, game_id)


def _stored_by_v1_code() -> Export:
    """The committed game of tests/game/fixtures/stored_events_v1.json: explicit decks, a
    named dealer, a seat joined from the lobby, stored by earlier code."""
    games = open_games(Settings(store=Store.MEMORY))
    return _exported(games, load(games, read()))


KINDS = {
    "finished": _finished_with_a_bot_and_a_late_joiner,
    "playing": _playing_with_a_given_deck_seed_and_dealer,
    "waiting": _waiting_for_a_player,
    "recycled": _with_recycles_and_an_exhausted_hand,
    "stored-v1": _stored_by_v1_code,
}
TAMPERED_KINDS = ("finished", "playing", "waiting", "stored-v1")
"""The kinds whose every field is tampered with: between them every header field holds
each kind of value it can (open and taken seats, bots, given and derived decks, the seed
secret and revealed, no winner and a winner), and one game is in the stored format of v1."""


@cache
def export_of(kind: str) -> Export:
    """The export of a game of `kind`, built once. Its seed is fixed, so that the games, and
    with them the fields enumerated below, are the same in every run."""
    # Of the server's shape (64 lowercase hex), or the verifier would rightly read the
    # revealed seed as a chosen one.
    seed = hashlib.sha256(f"test-header-{kind}".encode()).hexdigest()
    with patch("service.game.application.new_seed", return_value=seed):
        return KINDS[kind]()


def header_fields(export: Export) -> Iterator[Path]:
    """Every field of the header (all but `events`): each member of an object at any depth,
    each entry of a list of objects walked into, a list of plain values as one field."""

    def walk(value: Any, path: Path) -> Iterator[Path]:
        if isinstance(value, dict):
            for name, member in value.items():
                if path or name != "events":
                    yield (*path, name)
                    yield from walk(member, (*path, name))
        elif isinstance(value, list) and any(isinstance(entry, dict) for entry in value):
            for index, entry in enumerate(value):
                yield from walk(entry, (*path, index))

    yield from walk(export, ())


def shown(path: Path) -> str:
    """A path as the verifier names it: `players[1].client_seed`."""
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text


def changed(value: Any) -> Any:
    """Another value in place of `value`, of the same kind where there is one."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value[:-1] + ("0" if value[-1:] != "0" else "1")
    if isinstance(value, list):
        if list(reversed(value)) != value:
            return list(reversed(value))  # a deck, client seeds or totals in another order
        return [changed(value[0]), *value[1:]] if value else [None]
    if isinstance(value, dict):
        return {**value, "tampered": True}
    return "tampered"  # for null


def holder(export: Export, path: Path) -> Any:
    """The object or list that holds the field at `path`."""
    value: Any = export
    for step in path[:-1]:
        value = value[step]
    return value


def failure(export: Export) -> Verdict:
    verdict = verify_export(export)
    assert verdict.outcome in {Outcome.FAILED, Outcome.UNREADABLE}, verdict.report()
    assert verdict.finding is not None
    return verdict


def named(verdict: Verdict, path: Path) -> bool:
    """The finding names the field at `path`, or a place inside it."""
    assert verdict.finding is not None
    field = verdict.finding.field or ""
    return field == shown(path) or field.startswith((shown(path) + ".", shown(path) + "["))


FIELDS = [
    pytest.param(kind, path, id=f"{kind}:{shown(path)}")
    for kind in TAMPERED_KINDS
    for path in header_fields(export_of(kind))
]


# --- untampered exports verify ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "outcome"),
    [
        ("finished", Outcome.VERIFIED),
        ("playing", Outcome.UNFINISHED),
        ("waiting", Outcome.UNFINISHED),
        ("recycled", Outcome.VERIFIED),
        ("stored-v1", Outcome.VERIFIED),
    ],
)
def test_an_untampered_export_passes_every_header_check(kind: str, outcome: Outcome) -> None:
    verdict = verify_export(copy.deepcopy(export_of(kind)))
    assert verdict.outcome is outcome, verdict.report()


def test_the_exports_tampered_with_hold_every_field_the_export_has() -> None:
    # A field the export leaves out when empty would escape the enumeration below.
    names = {field.encode_name for field in msgspec.structs.fields(AuditExport)} - {"events"}
    for kind in TAMPERED_KINDS:
        assert {path[0] for path in header_fields(export_of(kind))} == names
    finished, playing = export_of("finished"), export_of("playing")
    assert [player["bot"] for player in finished["players"]] == [None, "basic", None]
    assert [hand["from_seed"] for hand in finished["hands"]] == [True] * len(finished["hands"])
    assert [hand["from_seed"] for hand in playing["hands"]] == [False]
    assert (playing["explicit_decks"], playing["dealer_named"]) == (1, True)
    assert export_of("waiting")["players"][2]["name"] is None


# --- every field, changed and removed ----------------------------------------------------------


@pytest.mark.parametrize(("kind", "path"), FIELDS)
def test_a_changed_header_field_fails_naming_that_field(kind: str, path: Path) -> None:
    export = copy.deepcopy(export_of(kind))
    place = holder(export, path)
    place[path[-1]] = changed(place[path[-1]])
    verdict = failure(export)
    assert named(verdict, path), verdict.report()
    assert verdict.finding is not None
    assert f"field {verdict.finding.field!r} of the export" in verdict.report()


@pytest.mark.parametrize(("kind", "path"), FIELDS)
def test_a_removed_header_field_fails_naming_that_field(kind: str, path: Path) -> None:
    export = copy.deepcopy(export_of(kind))
    del holder(export, path)[path[-1]]
    verdict = failure(export)
    assert named(verdict, path), verdict.report()


def test_a_field_added_to_the_header_fails_naming_it() -> None:
    export = copy.deepcopy(export_of("finished"))
    export["verified_by"] = "the service itself"
    verdict = failure(export)
    assert verdict.finding is not None
    assert verdict.finding.field == "verified_by"
    assert "not part of the export" in verdict.finding.message


# --- players and hands reordered, dropped, added ---------------------------------------------


def _swap_first_two(entries: list[Any]) -> None:
    entries[0], entries[1] = entries[1], entries[0]


def _drop_last(entries: list[Any]) -> None:
    entries.pop()


def _add_a_copy_of_the_last(entries: list[Any]) -> None:
    entries.append(copy.deepcopy(entries[-1]))


def _add_the_next_one(entries: list[Any]) -> None:
    # The forger's best: an entry that continues the numbering of the others.
    added = copy.deepcopy(entries[-1])
    for number in ("seat", "hand_number"):
        if number in added:
            added[number] += 1
    entries.append(added)


@pytest.mark.parametrize("entries", ["players", "hands"])
@pytest.mark.parametrize(
    ("change", "where"),
    [
        (_swap_first_two, "[0]"),
        (_drop_last, ""),
        (_add_a_copy_of_the_last, ""),
        (_add_the_next_one, ""),
    ],
    ids=["reordered", "dropped", "added", "added-next"],
)
def test_players_and_hands_reordered_dropped_or_added_fail_naming_where(
    entries: str, change: Any, where: str
) -> None:
    export = copy.deepcopy(export_of("finished"))
    assert len(export[entries]) >= 2
    change(export[entries])
    verdict = failure(export)
    assert verdict.finding is not None
    assert verdict.finding.field is not None
    assert verdict.finding.field.startswith(entries + where), verdict.report()
    if not where:
        assert verdict.finding.field == entries
        assert "entries, but the log says" in verdict.finding.message


@pytest.mark.parametrize(
    ("kind", "hand"), [("finished", 0), ("finished", 1), ("playing", 0), ("stored-v1", 1)]
)
def test_a_flipped_from_seed_fails_naming_that_hand(kind: str, hand: int) -> None:
    export = copy.deepcopy(export_of(kind))
    export["hands"][hand]["from_seed"] = not export["hands"][hand]["from_seed"]
    verdict = failure(export)
    assert verdict.finding is not None
    assert verdict.finding.field == f"hands[{hand}].from_seed"


@pytest.mark.parametrize("member", ["client_seed", "name", "bot"])
def test_a_changed_player_fails_saying_what_the_log_says(member: str) -> None:
    export = copy.deepcopy(export_of("finished"))
    wanted = export["players"][2][member]
    export["players"][2][member] = "Mallory"
    verdict = failure(export)
    assert verdict.finding is not None
    assert verdict.finding.field == f"players[2].{member}"
    assert verdict.finding.message == (
        f'it says "Mallory", but the log says {json.dumps(wanted, ensure_ascii=False)}'
    )


# --- the players the header repeats are well formed in the log ---------------------------------


@pytest.mark.parametrize(
    ("kind", "path", "value"),
    [
        ("game_created", ("seats", 0), "Ann"),
        ("game_created", ("seats", 0, "client_seed"), 7),
        ("player_joined", ("name",), None),
        ("player_joined", ("bot",), 1),
    ],
    ids=["seat-not-an-object", "client-seed-not-a-string", "no-name", "bot-not-a-string"],
)
def test_a_malformed_player_in_the_log_fails_at_its_event(
    kind: str, path: Path, value: Any
) -> None:
    export = copy.deepcopy(export_of("finished"))
    index = next(i for i, event in enumerate(export["events"]) if event["type"] == kind)
    holder(export["events"][index]["data"], path)[path[-1]] = value
    verdict = failure(rechain(export))
    assert verdict.finding is not None
    assert (verdict.finding.position, verdict.finding.type) == (index + 1, kind)
    assert f"malformed {kind}: a player has a name and a client_seed" in verdict.finding.message
