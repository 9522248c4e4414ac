"""A real browser follows a game live with `EventSource`, as a web client would.

Headless Chromium (tests/chromium.py) loads a page from the service's origin
that asks for a stream ticket with the player's token, opens the stream with
it (`?ticket=...&view=true`) and listens to each event by name. Another player
moves over HTTP. Mid-game the server the page streams from goes away (its
streams end, as on a rolling restart) and a TCP proxy in front, the page's
origin, sends new connections to a second replica on the same store; the
page, as docs/api.md recommends, closes the ended EventSource, gets a new
ticket and resumes after the last id it has. The page ends with every event
exactly once, in order, the same as `listEvents` gives that player, and the
last view equal to `getGame`'s.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any
from uuid import UUID

import httpx

from tests.audit_stream.clients import EVENT_TYPES, bearer
from tests.audit_stream.conftest import served
from tests.audit_stream.games import next_move
from tests.audit_stream.test_stream import CLASSIC_TWO_HANDS, _action_body, events_of
from tests.chromium import offline_page
from tests.faults.proxy import FaultProxy
from tests.game.stores import StoreUnderTest

PAGE_PATH = "/test/follow.html"

# The client a web page would write, as docs/api.md shows it.
FOLLOW = """
<!doctype html>
<meta charset="utf-8">
<title>follow</title>
<script>
window.got = {events: [], views: [], unnamed: [], opened: 0, tickets: 0};
window.follow = (gameId, token, types) => {
  let last = 0;
  let finished = false;
  const again = () => setTimeout(open, 500);
  const open = async () => {
    let ticket;
    try {
      const answer = await fetch(`/games/${gameId}/stream-tickets`, {
        method: "POST", headers: {Authorization: `Bearer ${token}`},
      });
      ({ticket} = await answer.json());
    } catch (error) {
      again();  // the server is out of reach for now
      return;
    }
    window.got.tickets += 1;
    const source = new EventSource(
      `/games/${gameId}/stream?ticket=${ticket}&after=${last}&view=true`);
    source.onopen = () => { window.got.opened += 1; };
    for (const type of types) {
      source.addEventListener(type, (message) => {
        last = Number(message.lastEventId);
        window.got.events.push(JSON.parse(message.data));
        if (type === "game_finished") finished = true;
      });
    }
    source.addEventListener("view", (message) => {
      window.got.views.push({id: Number(message.lastEventId), view: JSON.parse(message.data)});
    });
    source.onmessage = (message) => window.got.unnamed.push(message.data);
    // A ticket opens one connection: on any error, close (no automatic reconnect with
    // the spent ticket), and unless the game is over, open again with a new ticket.
    source.onerror = () => {
      source.close();
      if (!finished) again();
    };
  };
  open();
};
</script>
"""


def got(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("window.got")
    return result


def test_a_browser_follows_a_game_with_eventsource_across_a_dropped_connection(
    sqlite_store: StoreUnderTest,
) -> None:
    with (
        served(sqlite_store) as (second, client),
        ExitStack() as first_replica,
        FaultProxy(_address(client)) as proxy,
    ):
        first, first_client = first_replica.enter_context(served(sqlite_store))
        second_address, proxy.upstream = proxy.upstream, _address(first_client)
        origin = f"http://127.0.0.1:{proxy.port}"
        created = client.post("/games", json=CLASSIC_TWO_HANDS).json()
        game_id = UUID(created["game_id"])
        tokens = [player["token"] for player in created["players"]]

        def move(count: int) -> None:
            """`count` moves by whoever is to move, over HTTP (not through the proxy)."""
            for _ in range(count):
                seat, action = next_move(second.games.state(game_id).table)
                response = client.post(
                    f"/games/{game_id}/actions",
                    json=_action_body(action),
                    headers=bearer(tokens[seat]),
                )
                assert response.status_code == 200, response.text

        with offline_page(origin) as page:
            page.route(
                f"{origin}{PAGE_PATH}",
                lambda route: route.fulfill(body=FOLLOW, content_type="text/html"),
            )
            page.goto(f"{origin}{PAGE_PATH}")
            page.evaluate(
                "([gameId, token, types]) => window.follow(gameId, token, types)",
                [str(game_id), tokens[0], EVENT_TYPES],
            )
            page.wait_for_function(f"window.got.views.length && {_last_id()} === 2")
            move(6)
            page.wait_for_function(f"{_last_id()} === {2 + 6}")

            # The replica the page streams from stops, as on SIGTERM: its streams end,
            # then the server. New connections to the page's origin reach the other.
            proxy.upstream = second_address
            first.hub.end_streams()
            first_replica.close()
            move(6)  # while the page reconnects
            page.wait_for_function(f"{_last_id()} === {2 + 12}")

            while not second.games.state(game_id).table.finished:
                move(1)
            page.wait_for_function(
                "window.got.events.at(-1).type === 'game_finished' && "
                "window.got.views.at(-1).view.status === 'finished'"
            )
            seen = got(page)

        expected = events_of(client, game_id, bearer(tokens[0]))
        final_view = client.get(f"/games/{game_id}", headers=bearer(tokens[0])).json()

    assert seen["events"] == expected, "every event once, in order, as listEvents has it"
    assert seen["unnamed"] == [], "every message is named"
    assert seen["opened"] >= 2, "the stream was opened again"
    assert seen["tickets"] == seen["opened"], "a new ticket for each connection"
    views = [view["id"] for view in seen["views"]]
    assert views == sorted(set(views)), "views in order, one per version at most"
    assert seen["views"][-1]["view"] == final_view


def _address(client: httpx.Client) -> tuple[str, int]:
    url = client.base_url
    assert url.host == "127.0.0.1"
    assert url.port is not None
    return url.host, url.port


def _last_id() -> str:
    """The version of the last event the page has (0 before any), in JavaScript."""
    return "(window.got.events.at(-1)?.version ?? 0)"
