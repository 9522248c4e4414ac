"""The README's curl game plays as the README says.

The commands are read from the README itself (the `A complete game with
curl` section) and sent to the app in process, in order, with the tokens
the first one returns, so the README cannot drift from the service.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from service.domain.rules import RuleSet, Variant
from service.domain.setup import check_new_game
from tests.api.client import Api, Json

README = Path(__file__).resolve().parents[2] / "README.md"


@dataclass
class Curl:
    method: str
    path: str
    """With `$ID` still in it."""
    token: str | None
    """The shell variable holding the bearer token (`ANN`, `BOB`), if any."""
    body: object


def readme_curls(heading: str) -> list[Curl]:
    """The curl commands of the first `sh` block under the README's `heading`."""
    section = README.read_text(encoding="utf-8").split(heading, 1)[1]
    script = section.split("```sh", 1)[1].split("```", 1)[0]
    commands = []
    for chunk in script.split("curl ")[1:]:
        command = chunk.replace("\\\n", " ")
        path = re.search(r"\$API(/[^\s\"'|)]*)", command)
        assert path is not None, command
        token = re.search(r"Bearer \$(\w+)", command)
        body = re.search(r"-d '(.*?)'", command, re.DOTALL)
        commands.append(
            Curl(
                method="POST" if "-X POST" in command else "GET",
                path=path.group(1),
                token=token.group(1) if token else None,
                body=json.loads(body.group(1)) if body else None,
            )
        )
    return commands


def readme_game() -> list[Curl]:
    return readme_curls("## A complete game with curl")


def test_the_readme_game_plays_as_written(api: Api) -> None:
    commands = readme_game()
    create, *moves, last = commands
    assert (create.method, create.path) == ("POST", "/games")
    created = api.client.post("/games", json=create.body)
    assert created.status_code == 201, created.text
    game = created.json()
    tokens = {"ANN": game["players"][0]["token"], "BOB": game["players"][1]["token"]}

    def send(curl: Curl) -> Json:
        headers = {} if curl.token is None else {"Authorization": f"Bearer {tokens[curl.token]}"}
        response = api.client.request(
            curl.method,
            curl.path.replace("$ID", game["game_id"]),
            json=curl.body,
            headers=headers,
        )
        assert response.status_code < 400, (curl, response.text)
        return response.json()

    answers = [send(curl) for curl in moves]
    finished = next(body for body in answers if body.get("status") == "finished")
    # "Ann was left holding 76 points: Bob wins 76 to 0."
    assert finished["winner"] == 1
    assert [player["score"] for player in finished["players"]] == [0, 76]

    # The last command shows an error: the game is over.
    headers = {"Authorization": f"Bearer {tokens[last.token or 'ANN']}"}
    error = api.client.post(
        last.path.replace("$ID", game["game_id"]), json=last.body, headers=headers
    )
    assert error.status_code == 409
    assert error.headers["content-type"].startswith("application/problem+json")
    assert error.json()["code"] == "game_over"


# --- the variants' creation examples -----------------------------------------------------------


def readme_variant_bodies() -> list[dict[str, Any]]:
    """The bodies of the README's `Variants` curl examples, in order."""
    section = README.read_text(encoding="utf-8").split("## Variants", 1)[1].split("\n## ", 1)[0]
    script = section.split("```sh", 1)[1].split("```", 1)[0]
    bodies = []
    for chunk in script.split("curl ")[1:]:
        assert "-X POST $API/games " in chunk, chunk
        body = re.search(r"-d '(.*?)'", chunk, re.DOTALL)
        assert body is not None, chunk
        bodies.append(json.loads(body.group(1)))
    return bodies


def test_the_readme_creates_one_game_of_each_variant() -> None:
    bodies = readme_variant_bodies()
    assert [body["rules"]["variant"] for body in bodies] == [
        variant.value for variant in Variant if variant is not Variant.CLASSIC
    ]
    listed = README.read_text(encoding="utf-8").split("## Variants", 1)[1].split("```sh", 1)[0]
    for variant in Variant:
        if variant is not Variant.CLASSIC:
            assert f"- `{variant.value}`:" in listed


@pytest.mark.parametrize("body", readme_variant_bodies(), ids=lambda body: body["rules"]["variant"])
def test_each_readme_variant_game_is_one_the_rules_allow(body: dict[str, Any]) -> None:
    rules = RuleSet.from_dict(body["rules"])
    check_new_game(rules, body.get("seats", len(body["players"])))


@pytest.mark.parametrize("body", readme_variant_bodies(), ids=lambda body: body["rules"]["variant"])
def test_each_readme_variant_game_is_created_over_http(api: Api, body: dict[str, Any]) -> None:
    created = api.client.post("/games", json=body)
    assert created.status_code == 201, created.text
    shown = created.json()
    view = api.client.get(f"/games/{shown['game_id']}").json()
    assert view["rules"]["variant"] == body["rules"]["variant"]
    assert view["rules"] == {**view["rules"], **body["rules"]}
