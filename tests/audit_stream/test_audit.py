"""The audit export: who may read it, what it holds, and that finished games verify."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.audit.verify import Outcome, verify_export
from service.bootstrap import Wiring, open_games
from service.cli import main
from service.config import Settings, Store
from service.domain.cards import FULL_DECK, card_codes
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.tokens import hash_token
from tests.apps import bootstrap_test_app
from tests.audit_stream.clients import ADMIN_TOKEN, bearer
from tests.audit_stream.games import (
    LONG_HAND_RULES,
    SHORT_RULES,
    export_of,
    finished,
    new_game,
    play,
)
from tests.game.stored_events import V1, load, read

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def served() -> Wiring:
    return bootstrap_test_app(admin_token=ADMIN_TOKEN)


@pytest.fixture(scope="module")
def games(served: Wiring) -> RummyApplication:
    return served.games


@pytest.fixture(scope="module")
def client(served: Wiring) -> Iterator[TestClient[Litestar]]:
    with TestClient(served.app) as test_client:
        yield test_client


# --- finished games verify ---------------------------------------------------------------


def test_a_finished_two_player_game_verifies(games: RummyApplication) -> None:
    game_id, _ = new_game(games, client_seeds=("", "bob-entropy-42"))
    export = finished(games, game_id)
    verdict = verify_export(export)
    assert verdict.outcome is Outcome.VERIFIED, verdict.report()
    # Two deals, or more when they leave a tie for the win: every one re-derived.
    dealt = [event for event in export["events"] if event["type"] == "hand_dealt"]
    assert len(dealt) >= 2
    assert verdict.tally.hands_from_seed == len(dealt)


def test_a_game_with_recycles_and_an_exhausted_hand_verifies(games: RummyApplication) -> None:
    game_id, _ = new_game(games, players=3, rules=LONG_HAND_RULES)
    export = finished(games, game_id, meld_from_hand=2)
    kinds = [event["type"] for event in export["events"]]
    assert kinds.count("stock_recycled") >= 2
    assert any(event["data"].get("how") == "exhausted" for event in export["events"])
    verdict = verify_export(export)
    assert verdict.outcome is Outcome.VERIFIED, verdict.report()
    assert verdict.tally.recycles_from_seed >= 2


def test_a_game_whose_stock_is_turned_over_verifies(games: RummyApplication) -> None:
    rules = RuleSet.from_dict({"deals": 1, "recycle_shuffle": False, "exhausted": "score"})
    game_id, _ = new_game(games, rules=rules)
    export = finished(games, game_id, meld_from_hand=2)
    assert any(event["type"] == "stock_recycled" for event in export["events"])
    assert verify_export(export).outcome is Outcome.VERIFIED


def test_a_game_with_open_seats_explicit_decks_and_a_named_dealer_verifies(
    games: RummyApplication,
) -> None:
    given = list(reversed(FULL_DECK))
    created = games.create_game(
        NewGame(
            seats=[NewSeat("Ann"), None, None],
            rules=SHORT_RULES,
            decks=[given],
            dealer=2,
            by_admin=True,
        )
    )
    games.join_game(created.game_id, NewSeat("Bob"))
    games.join_game(created.game_id, NewSeat("Cleo"))
    export = finished(games, created.game_id)
    assert export["deal"] == "explicit"
    assert export["hands"][0]["deck"] == card_codes(given)
    assert export["hands"][0]["from_seed"] is False
    assert export["client_seeds"] == ["", "", ""]
    verdict = verify_export(export)
    assert verdict.outcome is Outcome.VERIFIED, verdict.report()
    assert verdict.tally.joins == 2
    assert verdict.tally.hands_from_seed == verdict.tally.hands - 1
    assert "hands 1 to 1 used decks given at creation" in verdict.report()


def test_a_chosen_seed_with_open_seats_and_joiners_client_seeds_verifies(
    games: RummyApplication,
) -> None:
    created = games.create_game(
        NewGame(seats=[NewSeat("Ann"), None], rules=SHORT_RULES, seed="round-1", by_admin=True)
    )
    games.join_game(created.game_id, NewSeat("Bob", client_seed="çléo-🂡"))
    export = finished(games, created.game_id)
    assert export["deal"] == "explicit"
    assert export["events"][0]["data"]["deal"] == "explicit"
    assert export["client_seeds"] == ["", "çléo-🂡"]
    verdict = verify_export(export)
    assert verdict.outcome is Outcome.VERIFIED, verdict.report()
    assert verdict.tally.hands_from_seed == verdict.tally.hands


def test_a_game_stored_before_deal_was_recorded_keeps_its_chain_and_verifies() -> None:
    games = open_games(Settings(store=Store.MEMORY))
    fixture = read(V1)
    game_id = load(games, fixture)
    export = export_of(games, game_id)
    assert export["deal"] == "explicit", "derived: the game was given decks"
    # Its creation exports what was stored, nothing derived: the chain it always had.
    stored = fixture["events"][0]["state"]
    assert export["events"][0]["data"] == {
        "rules": stored["rules"],
        "seats": [
            None if seat is None else {k: v for k, v in seat.items() if k != "token_hash"}
            for seat in stored["seats"]
        ],
        "seed_commitment": stored["seed_commitment"],
        "decks": stored["decks"],
        "dealer": stored["dealer"],
    }
    verdict = verify_export(export)
    assert verdict.outcome is Outcome.VERIFIED, verdict.report()


def test_a_game_against_a_bot_verifies_from_the_http_export(client: TestClient[Litestar]) -> None:
    created = client.post(
        "/games",
        json={
            "players": [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}],
            "rules": {"deals": 1},
        },
    ).json()
    game_id, token = created["game_id"], created["players"][0]["token"]
    while (view := client.get(f"/games/{game_id}", headers=bearer(token)).json())["winner"] is None:
        legal = view["legal"]
        if legal["draw"]:
            action: dict[str, Any] = {"type": "draw", "source": "stock"}
        elif legal["melds"]:
            action = {"type": "meld", "cards": legal["melds"][0]}
        else:
            action = {"type": "discard", "card": legal["discard"][-1]}
        assert client.post(
            f"/games/{game_id}/actions", json=action, headers=bearer(token)
        ).is_success
    export = client.get(f"/games/{game_id}/audit").json()
    assert {event.get("seat") for event in export["events"]} >= {0, 1}
    verdict = verify_export(export)
    assert verdict.outcome is Outcome.VERIFIED, verdict.report()


# --- the export's content -------------------------------------------------------------------


def test_no_token_nor_token_hash_is_ever_exported(client: TestClient[Litestar]) -> None:
    created = client.post("/games", json={"players": [{"name": "Ann"}], "seats": 2}).json()
    game_id = created["game_id"]
    joined = client.post(f"/games/{game_id}/players", json={"name": "Bob"}).json()
    tokens = [created["players"][0]["token"], joined["token"]]
    text = client.get(f"/games/{game_id}/audit", headers=bearer(ADMIN_TOKEN)).text
    for token in tokens:
        assert token not in text
        assert hash_token(token) not in text
    assert "token" not in text
    assert ADMIN_TOKEN not in text


# --- who may read it -----------------------------------------------------------------------


def test_only_the_admin_reads_the_export_of_a_game_in_play(client: TestClient[Litestar]) -> None:
    created = client.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]}).json()
    other = client.post("/games", json={"players": [{"name": "Cy"}, {"name": "Di"}]}).json()
    url = f"/games/{created['game_id']}/audit"
    expected = {
        None: (401, "unauthorized"),
        created["players"][0]["token"]: (403, "forbidden"),
        other["players"][0]["token"]: (403, "forbidden"),
        "not-a-token": (401, "unauthorized"),
    }
    for token, (status, code) in expected.items():
        response = client.get(url, headers={} if token is None else bearer(token))
        assert response.status_code == status, token
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["code"] == code
    admin = client.get(url, headers=bearer(ADMIN_TOKEN))
    assert admin.status_code == 200
    assert admin.json()["seed"] is None, "never before the game is finished"
    assert admin.headers["etag"] == f'"{admin.json()["version"]}.audit-v1.{created["game_id"]}"'
    assert verify_export(admin.json()).outcome is Outcome.UNFINISHED
    missing = client.get("/games/00000000-0000-4000-8000-000000000000/audit")
    assert missing.status_code == 404


def test_anyone_reads_the_export_of_a_finished_game(
    games: RummyApplication, client: TestClient[Litestar]
) -> None:
    created = client.post(
        "/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}], "rules": {"deals": 1}}
    ).json()
    play(games, UUID(created["game_id"]))
    url = f"/games/{created['game_id']}/audit"
    public = client.get(url)
    assert public.status_code == 200
    assert public.json()["seed"] is not None
    player = client.get(url, headers=bearer(created["players"][1]["token"]))
    assert player.json() == public.json()


# --- rummy verify and rummy replay ------------------------------------------------------------


def test_rummy_verify_accepts_a_finished_game(
    games: RummyApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id, _ = new_game(games)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(finished(games, game_id)), encoding="utf-8")
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"VERIFIED: game {game_id}")
    assert "every score and the winner" in out
    # The installed command, as an auditor runs it.
    ran = subprocess.run(
        [sys.executable, "-m", "service.cli", "verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("VERIFIED")


def test_rummy_verify_says_unfinished_and_unreadable(
    games: RummyApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id, _ = new_game(games)
    play(games, game_id, moves=4)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export_of(games, game_id)), encoding="utf-8")
    assert main(["verify", str(path)]) == Outcome.UNFINISHED
    assert capsys.readouterr().err.startswith("UNFINISHED")
    path.write_text("{not json", encoding="utf-8")
    assert main(["verify", str(path)]) == Outcome.UNREADABLE
    path.write_text('{"format": "something else"}', encoding="utf-8")
    assert main(["verify", str(path)]) == Outcome.UNREADABLE


def test_rummy_replay_prints_the_game_at_a_version_from_the_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "rummy.sqlite"
    settings = Settings(store=Store.SQLITE, sqlite_path=str(database))
    writer = open_games(settings)
    game_id, _ = new_game(writer)
    play(writer, game_id, moves=3)
    writer.close()
    monkeypatch.setenv("RUMMY_STORE", "sqlite")
    monkeypatch.setenv("RUMMY_SQLITE_PATH", str(database))
    assert main(["replay", str(game_id), "--version", "3"]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["version"] == 3
    assert view["phase"] == "play", "the first move, a draw, is version 3"
    assert view["hidden"]["stock"], "the full view shows every card"
    assert main(["replay", str(game_id), "--version", "999"]) == 1
    assert "versions 1 to" in capsys.readouterr().err


def test_rummy_replay_takes_the_store_flags_serve_takes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "rummy.sqlite"
    writer = open_games(Settings(store=Store.SQLITE, sqlite_path=str(database)))
    game_id, _ = new_game(writer)
    play(writer, game_id, moves=3)
    writer.close()
    # The flags win over the environment, as they do for `rummy serve`.
    monkeypatch.setenv("RUMMY_STORE", "memory")
    monkeypatch.setenv("RUMMY_SQLITE_PATH", str(tmp_path / "elsewhere.sqlite"))
    flags = ["--store", "sqlite", "--sqlite-path", str(database)]
    assert main(["replay", str(game_id), *flags]) == 0
    assert json.loads(capsys.readouterr().out)["game_id"] == str(game_id)


def test_rummy_replay_of_a_sqlite_file_that_is_not_there_says_so_and_creates_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "typo.sqlite"
    game_id = "00000000-0000-4000-8000-000000000000"
    assert main(["replay", game_id, "--store", "sqlite", "--sqlite-path", str(missing)]) == 1
    assert capsys.readouterr().err == (
        f"rummy replay: no SQLite file {str(missing)!r}: name the store with --sqlite-path "
        "(or RUMMY_SQLITE_PATH), or --store postgres\n"
    )
    assert not missing.exists()
