"""The use cases of players across games: platforms, their keys, vouched seats, erasure.

`Identities` is what the API asks (service/api/routes/platforms.py and the
game routes) and what later work on players reads: `vouch` turns an assertion
into the `Vouched` player of a seat (its pseudonym is what the events store),
`shown` turns the pseudonyms of a game into what views and exports show, and
`seated` answers the reverse question a recall or a rating needs: the pseudonym
of a platform's player (None once erased or never seen).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from service.players.assertions import verify
from service.players.errors import AssertionInvalid, KeyExists, PlatformNotFound
from service.players.pseudonyms import new_secret, player_ref, pseudonym
from service.store.player_tables import KeyRow, PlayerRow, PlayerTables

TOKEN_PREFIX = "pt_"
"""Every platform token starts so (a player token has a dot, a stream ticket `st_`)."""
ERASED = "erased"
"""The name an erased player's seat shows."""


@dataclass(frozen=True, slots=True)
class Registered:
    platform_id: str
    token: str
    """The platform's bearer token: shown once, only its hash kept."""


@dataclass(frozen=True, slots=True)
class Vouched:
    """The player of a seat, as an assertion vouched for it."""

    pseudonym: str
    """What the game's events store (service/players/pseudonyms.py)."""
    ref: str
    """`platform:player`: what views show while the player is not erased."""
    name: str


@dataclass(frozen=True, slots=True)
class Shown:
    """What views and exports show of an asserted seat's player."""

    player: str | None
    """`platform:player`, or None once erased."""
    name: str


def hash_platform_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Identities:
    """Platforms and the players they vouched for, in `tables`."""

    def __init__(
        self,
        tables: PlayerTables,
        name_problem: Callable[[str], str | None] = lambda name: None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.tables = tables
        self.name_problem = name_problem
        """What is wrong with an asserted display name, as with a name a player types."""
        self.now = now

    # --- platforms and their keys (the admin, or the platform itself) ---------------

    def register(self, name: str, key: KeyRow) -> Registered:
        platform_id = secrets.token_hex(8)
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        self.tables.add_platform(platform_id, name, hash_platform_token(token), key)
        return Registered(platform_id, token)

    def platform_of(self, token: str) -> str | None:
        """The platform whose bearer token `token` is, or None."""
        if not token.startswith(TOKEN_PREFIX):
            return None
        # Looked up by its hash (as seat tokens are kept): the token itself is never stored.
        return self.tables.platform_of(hash_platform_token(token))

    def add_key(self, platform_id: str, key: KeyRow) -> None:
        self._require(platform_id)
        if not self.tables.add_key(platform_id, key):
            raise KeyExists(f"Platform {platform_id} has a key {key.kid!r} already: use a new kid.")

    def retire_key(self, platform_id: str, kid: str) -> None:
        self._require(platform_id)
        if not self.tables.retire_key(platform_id, kid):
            raise PlatformNotFound(f"Platform {platform_id} has no key {kid!r}.")

    def _require(self, platform_id: str) -> None:
        if not self.tables.has_platform(platform_id):
            raise PlatformNotFound(f"No platform {platform_id}.")

    # --- players ---------------------------------------------------------------------

    def vouch(self, assertion: str) -> Vouched:
        """The player `assertion` vouches for, its pseudonym made (or found) and its
        display name kept beside it, never in an event."""
        asserted = verify(assertion, self.tables.keys, self.now)
        problem = self.name_problem(asserted.name)
        if problem is not None:
            raise AssertionInvalid(f"`name`: {problem}")
        ref = player_ref(asserted.platform_id, asserted.player)
        row = self.tables.player(asserted.platform_id, asserted.player)
        if row is None:
            secret = new_secret()
            row = self.tables.add_player(
                PlayerRow(
                    pseudonym=pseudonym(secret, ref),
                    platform_id=asserted.platform_id,
                    player=asserted.player,
                    secret=secret,
                    name=asserted.name,
                )
            )
        if row.name != asserted.name:
            self.tables.rename(row.pseudonym, asserted.name)
        return Vouched(pseudonym=row.pseudonym, ref=ref, name=asserted.name)

    def seated(self, platform_id: str, player: str) -> str | None:
        """The pseudonym a platform's player is stored under, None if erased or unknown:
        what a recall or a rating looks for in the events."""
        row = self.tables.player(platform_id, player)
        return None if row is None else row.pseudonym

    def shown(self, pseudonyms: Iterable[str]) -> dict[str, Shown]:
        """What to show for each of `pseudonyms`: the player and its name, or, for one
        whose secret is gone, nobody, named `erased`."""
        wanted = list(dict.fromkeys(pseudonyms))
        if not wanted:
            return {}
        rows = self.tables.shown(wanted)
        return {
            kept: Shown(None, ERASED)
            if (row := rows.get(kept)) is None
            else Shown(player_ref(row.platform_id, row.player), row.name)
            for kept in wanted
        }

    def erase(self, platform_id: str, player: str) -> None:
        """Forget the player: its secret, reference and name. Its games keep their
        pseudonym, which now stands for nobody (docs/privacy.md). Erasing an unknown
        or erased player does nothing (a retry is harmless)."""
        self._require(platform_id)
        self.tables.erase(platform_id, player)
