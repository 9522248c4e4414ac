"""The OpenAPI links of the document, so a client (and schemathesis' stateful
phase) can follow a new game to its view, actions, events, replay and open seats
with the real game id. A link cannot carry a token (a security scheme is no
parameter), so each link's description says whose token to send."""

from __future__ import annotations

from typing import Any

from litestar.openapi.spec import Link, OpenAPIResponse, Operation

# Runtime expressions (OpenAPI "Link Object"): where each value comes from.
_GAME_ID = "$response.body#/game_id"
_VERSION = "$response.body#/version"
# A player's view lists its legal moves: the links play them.
_DRAW = {"type": "draw", "source": "stock"}
_LEGAL_MELD = {"type": "meld", "cards": "$response.body#/legal/melds/0"}
_LEGAL_DISCARD = {"type": "discard", "card": "$response.body#/legal/discard/0"}

_A_PLAYER = "as a player: send a `token` of `players` as the bearer token"
_JOINED = "as the player who joined: send the `token` returned as the bearer token"
_SAME = "with the same token (or none)"


def add_links(operations: dict[str, Operation]) -> None:
    follow: dict[tuple[str, str], dict[str, Link]] = {
        ("createGame", "201"): {
            "GetGame": _link("getGame", _A_PLAYER),
            "PlayActions": _link("playActions", _A_PLAYER),
            "DrawFromStock": _link("playActions", _A_PLAYER, body=_DRAW),
            "ListEvents": _link("listEvents", _A_PLAYER),
            "Replay": _link("replayGame", _A_PLAYER, version=True),
            "JoinGame": _link("joinGame", "without a token"),
        },
        ("joinGame", "201"): {
            "GetGame": _link("getGame", _JOINED),
            "PlayActions": _link("playActions", _JOINED),
            "ListEvents": _link("listEvents", _JOINED),
            "JoinAgain": _link("joinGame", "without a token"),
        },
        ("playActions", "200"): {
            "GetGameAgain": _link("getGame", _SAME),
            "PlayAgain": _link("playActions", _SAME),
            "LayALegalMeld": _link("playActions", _SAME, body=_LEGAL_MELD),
            "DiscardALegalCard": _link("playActions", _SAME, body=_LEGAL_DISCARD),
            "ListEvents": _link("listEvents", _SAME),
            "ReplayThisVersion": _link("replayGame", _SAME, version=True),
        },
        ("getGame", "200"): {
            "ReplayThisVersion": _link("replayGame", _SAME, version=True),
            "ListEvents": _link("listEvents", _SAME),
            "DrawFromStock": _link("playActions", _SAME, body=_DRAW),
            "LayALegalMeld": _link("playActions", _SAME, body=_LEGAL_MELD),
            "DiscardALegalCard": _link("playActions", _SAME, body=_LEGAL_DISCARD),
        },
        ("listEvents", "200"): {
            "ReplayThisVersion": _link("replayGame", _SAME, version=True),
        },
    }
    for (operation_id, status), links in follow.items():
        response = (operations[operation_id].responses or {})[status]
        assert isinstance(response, OpenAPIResponse)
        response.links = {**(response.links or {}), **links}


def _link(
    target: str,
    caller: str,
    *,
    version: bool = False,
    body: dict[str, Any] | None = None,
) -> Link:
    parameters = {"path.game_id": _GAME_ID}
    if version:
        parameters["query.version"] = _VERSION
    return Link(
        operation_id=target,
        parameters=parameters,
        request_body=body,
        description=f"The same game, {caller}.",
    )
