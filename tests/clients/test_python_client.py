"""A Python client generated from the committed document plays a whole game.

openapi-python-client (a dev dependency: its version is the lock's) generates
the client into a temporary directory, as a client author would; generated
code is never committed. Any warning fails: the generator exits 0 even when it
drops an operation it cannot parse. Then a game is played against a live
`rummy serve` with generated code only: create it, view it with each
player's token (the generated `AuthenticatedClient`, the document's `bearer`
scheme), play what `legal` offers until the game ends, read the events and
the audit export.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any
from uuid import UUID

import pytest

from tests.clients.conftest import new_game_body
from tests.clients.tools import OPENAPI_PATH, run
from tests.contract.test_openapi_drift import committed, operations

pytestmark = pytest.mark.xdist_group("python-client")
"""On one pytest-xdist worker: the client is generated once (`client_dir`), for all of them."""

PACKAGE = "rummy_client"
MAX_REQUESTS = 2000
"""A bound on the game's actions: a game that never ends fails, never hangs."""


def generate(into: Path) -> list[str]:
    """Generate the client package into `into`; every line the generator printed
    but its progress line (its warnings)."""
    config = into / "generator.yaml"
    # No formatter over the output: it is imported, never read or committed.
    config.write_text("post_hooks: []\n", encoding="utf-8")
    generator = Path(sys.executable).with_name("openapi-python-client")
    result = run(
        [
            generator,
            "generate",
            "--path",
            OPENAPI_PATH,
            "--meta",
            "none",
            "--config",
            config,
            "--output-path",
            into / PACKAGE,
        ]
    )
    printed = (result.stdout + result.stderr).strip()
    assert result.returncode == 0, printed
    return [
        line for line in printed.splitlines() if line.strip() and not line.startswith("Generating ")
    ]


@pytest.fixture(scope="module")
def client_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    into = tmp_path_factory.mktemp("python-client")
    complaints = generate(into)
    assert not complaints, "openapi-python-client warned:\n" + "\n".join(complaints)
    return into


@pytest.fixture(scope="module")
def rc(client_dir: Path) -> Any:
    """`rc.module("api.games.create_game")` and friends: the generated package."""
    for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
        del sys.modules[name]
    sys.path.insert(0, str(client_dir))
    try:
        yield _Generated(importlib.import_module(PACKAGE))
    finally:
        sys.path.remove(str(client_dir))


class _Generated:
    def __init__(self, package: ModuleType) -> None:
        self.package = package
        self.models = importlib.import_module(f"{PACKAGE}.models")

    def module(self, name: str) -> ModuleType:
        return importlib.import_module(f"{PACKAGE}.{name}")

    def call(self, operation: str, **kwargs: Any) -> Any:
        """Call an operation by its module (`games.get_game`); its parsed answer."""
        response = self.module(f"api.{operation}").sync_detailed(**kwargs)
        assert 200 <= response.status_code < 300, (
            operation,
            response.status_code,
            response.content,
        )
        return response.parsed


def _snake(operation_id: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", operation_id).lower()


def test_every_operation_is_generated(client_dir: Path) -> None:
    """Nothing is dropped: each operation of the document has its module."""
    generated = {path.stem for path in (client_dir / PACKAGE / "api").glob("*/*.py")}
    wanted = {_snake(operation["operationId"]) for _, _, operation in operations(committed())}
    assert wanted - generated == set()


def test_a_generated_client_plays_a_whole_game(rc: Any, server_url: str) -> None:
    m = rc.models
    public = rc.package.Client(base_url=server_url, raise_on_unexpected_status=True)
    created = rc.call(
        "games.create_game", client=public, body=m.CreateGame.from_dict(new_game_body())
    )
    game_id = UUID(created.game_id)
    players = {
        seat.seat: rc.package.AuthenticatedClient(base_url=server_url, token=seat.token)
        for seat in created.players
    }
    assert sorted(players) == [0, 1]

    view = rc.call("games.get_game", game_id=game_id, client=public)
    for _ in range(MAX_REQUESTS):
        if view.status == m.Status.FINISHED:
            break
        player = players[view.turn]
        mine = rc.call("games.get_game", game_id=game_id, client=player)
        assert mine.my_seat == view.turn
        view = rc.call(
            "games.play_actions",
            game_id=game_id,
            client=player,
            body=_a_legal_action(m, mine.legal),
        )
    assert view.status == m.Status.FINISHED
    assert view.winner in players

    events, after = [], 0
    while True:
        page = rc.call(
            "games.list_events", game_id=game_id, client=players[0], after=after, limit=50
        )
        events.extend(page.events)
        if not page.more:
            break
        after = page.events[-1].version
    assert [event.version for event in events] == list(range(1, view.version + 1))
    assert isinstance(events[0], m.GameCreatedView)
    assert isinstance(events[-1], m.GameFinishedView)
    assert events[-1].winner == view.winner
    assert not [event for event in events if isinstance(event, m.UnknownEvent)]

    audit = rc.call("audit.get_audit_export", game_id=game_id, client=public)
    assert audit.status == m.Status.FINISHED
    assert audit.chain.length == view.version
    assert [event.version for event in audit.events] == list(range(1, view.version + 1))


def _a_legal_action(m: Any, legal: Any) -> Any:
    """The first thing `legal` offers: a draw (from the stock if it may), a meld, a
    lay-off, else a discard."""
    if legal.draw:
        source = m.Source.STOCK if m.Source.STOCK in legal.draw else legal.draw[0]
        return m.DrawAction(type_=m.DrawActionType.DRAW, source=source)
    if legal.melds:
        cards = [m.CardCode(card) for card in legal.melds[0]]
        return m.MeldAction(type_=m.MeldActionType.MELD, cards=cards)
    if legal.lay_offs:
        option = legal.lay_offs[0]
        return m.LayOffAction(
            type_=m.LayOffActionType.LAY_OFF, card=m.CardCode(option.card), meld_id=option.meld_id
        )
    return m.DiscardAction(type_=m.DiscardActionType.DISCARD, card=m.CardCode(legal.discard[0]))


@pytest.mark.parametrize(
    "rules",
    [
        {"variant": "gin", "target": 10, "max_hands": 4},
        {"variant": "rummy500", "target": 100, "max_hands": 2},
    ],
    ids=["gin", "rummy500"],
)
def test_a_generated_client_plays_gin_and_500_rum(
    rc: Any, server_url: str, rules: dict[str, Any]
) -> None:
    """The upcard offer's pass, a knock, a deep draw from the spread pile: each sent
    as generated models, until the game ends (won, or capped by `max_hands`). The
    deal is seeded: a random one may end every hand with the stock before this
    naive player can knock (seen in CI)."""
    m = rc.models
    public = rc.package.Client(base_url=server_url, raise_on_unexpected_status=True)
    seed = f"generated-client-{rules['variant']}"
    body = {"players": [{"name": "Ann"}, {"name": "Ben"}], "rules": rules, "seed": seed}
    created = rc.call("games.create_game", client=public, body=m.CreateGame.from_dict(body))
    game_id = UUID(created.game_id)
    players = {
        seat.seat: rc.package.AuthenticatedClient(base_url=server_url, token=seat.token)
        for seat in created.players
    }
    sent: set[tuple[str, int]] = set()
    """Each action's type and, for a draw, how many cards it took (1 unless given)."""
    view = rc.call("games.get_game", game_id=game_id, client=public)
    for _ in range(MAX_REQUESTS):
        if view.status in (m.Status.FINISHED, m.Status.ABORTED):
            break
        mine = rc.call("games.get_game", game_id=game_id, client=players[view.turn])
        action = _a_family_action(m, mine.legal)
        plain = action.to_dict()
        sent.add((plain["type"], plain.get("count", 1)))
        view = rc.call(
            "games.play_actions", game_id=game_id, client=players[view.turn], body=action
        )
    assert view.status in (m.Status.FINISHED, m.Status.ABORTED)
    page = rc.call("games.list_events", game_id=game_id, client=players[0], after=0, limit=1000)
    assert not [event for event in page.events if isinstance(event, m.UnknownEvent)]
    kinds = {type(event).__name__ for event in page.events}
    if rules["variant"] == "gin":
        assert {("pass", 1), ("knock", 1)} <= sent, sent
        assert {"UpcardPassedView", "KnockedView", "HandEndedView"} <= kinds, kinds
    else:
        assert any(kind == "draw" and count > 1 for kind, count in sent), sent
        assert {"MeldLaidView", "HandEndedView"} <= kinds, kinds


def _a_family_action(m: Any, legal: Any) -> Any:
    """Gin: pass the upcard, knock as soon as it may; 500 Rum: take the deepest pile
    card it may (its called card is then melded: `legal` offers no discard before);
    else the first thing `legal` offers."""
    if legal.can_pass:
        return m.PassAction(type_=m.PassActionType.PASS)
    if legal.knock:
        return m.KnockAction(type_=m.KnockActionType.KNOCK, card=m.CardCode(legal.knock[0]))
    deepest = max(legal.pile_counts or [1])
    if legal.draw and deepest > 1:
        return m.DrawAction(type_=m.DrawActionType.DRAW, source=m.Source.DISCARD, count=deepest)
    return _a_legal_action(m, legal)


def test_a_page_with_an_event_type_it_does_not_know_still_parses(rc: Any, server_url: str) -> None:
    """A newer service may add event types: the generated client reads such an
    event as `UnknownEvent` (the document's room for them) and every other event
    as its own type."""
    m = rc.models
    public = rc.package.Client(base_url=server_url)
    created = rc.call(
        "games.create_game", client=public, body=m.CreateGame.from_dict(new_game_body())
    )
    game_id = UUID(created.game_id)
    page = rc.module("api.games.list_events").sync_detailed(game_id=game_id, client=public)
    raw = page.parsed.to_dict()
    novel = {
        "type": "card_flipped",
        "version": 99,
        "at": "2026-12-01T10:00:00Z",
        "seat": 1,
        "chain": "0" * 64,  # every event served carries its head, a new type's too
        "card": "QS",
    }
    raw["events"].insert(1, novel)

    parsed = m.EventsPage.from_dict(raw)

    kinds = [type(event).__name__ for event in parsed.events]
    assert kinds[0] == "GameCreatedView"
    assert kinds[1] == "UnknownEvent"
    assert kinds[2:] == [type(event).__name__ for event in page.parsed.events[1:]]
    assert parsed.events[1].type_ == "card_flipped"
    assert parsed.events[1].additional_properties == {"card": "QS"}
