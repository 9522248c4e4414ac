"""Views made once and shared: each (game, version, caller) is encoded once per process.

A game at a version never changes, so neither does what a caller sees of it:
`SharedViews` keeps the encoded JSON of the latest views made (a bounded
LRU, `SIZE` entries), keyed by the game, its version and the `Viewer` (a
seat, the public, the admin: each its own view, so one seat's cards never
reach another). Encoded bytes are immutable: every reader shares them, and
nothing a reader does can change them for another.

A game with seats a platform vouched for is keyed by who they are now too
(`lookup`, the side table of service/store/player_tables.py, asked once per
view): an erased player's view is made again, never served from before.

Who fills it: whoever makes a view (a GET, the POST that made the version for
its actor, a stream sending views); the next caller of the same kind at the
same version gets the bytes without computing `legal` or encoding anything.

`costly(table, viewer)`: whether making a view may take long enough that it
belongs off the event loop (service/api/deps.py's threading policy): the
seat to move in a game with wild cards, whose `legal` lists every reading of
every meld its hand makes (docs/performance.md: up to several ms).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from uuid import UUID

import msgspec

from service.domain.state import Status, Table
from service.projections.shown_players import PlayerLookup, ShownPlayer, nobody
from service.projections.views import GameSnapshot, Viewer, game_view, pseudonyms

SIZE = 4096
"""Views kept: a few for each of a thousand games' latest versions (each a few KB)."""

_Shown = tuple[tuple[str, str | None, str], ...]
"""Who each vouched-for seat shows (pseudonym, player, name); () in most games."""
_Key = tuple[UUID, int, Viewer, _Shown]


class SharedViews:
    """The encoded views made lately, by game, version and caller; safe from any thread."""

    def __init__(self, size: int = SIZE, lookup: PlayerLookup = nobody) -> None:
        self.size = size
        self.lookup = lookup
        self._lock = threading.Lock()
        self._kept: OrderedDict[_Key, bytes] = OrderedDict()

    def view(
        self,
        game: GameSnapshot,
        viewer: Viewer,
        shown: Mapping[str, ShownPlayer] | None = None,
    ) -> bytes:
        """`game_view(game, viewer)` as JSON, made only if no caller of the kind had it
        made at this version; `shown`, `self.shown(game)` if the caller has it already."""
        shown = self.shown(game) if shown is None else shown
        key = (game.game_id, game.version, viewer, _key_of(shown))
        found = self.get(key)
        if found is None:
            found = msgspec.json.encode(game_view(game, viewer, shown))
            self._keep(key, found)
        return found

    def find(
        self,
        now: GameSnapshot,
        version: int,
        viewer: Viewer,
        shown: Mapping[str, ShownPlayer] | None = None,
    ) -> bytes | None:
        """The view of `now`'s game at `version` if it was made (a replay can then skip
        rebuilding the game): seated as `now` is (a seat that joined since is a miss)."""
        shown = self.shown(now) if shown is None else shown
        return self.get((now.game_id, version, viewer, _key_of(shown)))

    def shown(self, game: GameSnapshot) -> Mapping[str, ShownPlayer]:
        """Who `game`'s vouched-for seats are now; nothing asked in a game without any."""
        wanted = pseudonyms(game)
        return self.lookup(wanted) if wanted else {}

    def get(self, key: _Key) -> bytes | None:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def __len__(self) -> int:
        return len(self._kept)

    def _keep(self, key: _Key, view: bytes) -> None:
        with self._lock:
            self._kept[key] = view
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)


def _key_of(shown: Mapping[str, ShownPlayer]) -> _Shown:
    return tuple((pseudonym, seen.player, seen.name) for pseudonym, seen in shown.items())


def costly(table: Table, viewer: Viewer) -> bool:
    """Whether `viewer`'s view of `table` may take long to make (see the module)."""
    hand = table.hand
    return (
        viewer.seat is not None
        and table.rules.has_wilds
        and hand is not None
        and table.status is Status.PLAYING
        and hand.turn == viewer.seat
    )
