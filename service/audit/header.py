"""What an export's header must say: every field but `events`, derived from the log alone.

The export repeats what its log says for convenience (docs/audit.md); the
verifier rebuilds that header from the replayed log and compares it with the
export's, member by member, so that no field is taken on trust: a changed,
missing or extra field (at any depth), a reordered, dropped or added player
or hand all fail, named by their path (`players[1].client_seed`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from service.audit.chain import ALGORITHM, FORMAT, chain_salt, genesis
from service.audit.referee import Referee


def expected_header(
    referee: Referee,
    events: Sequence[Mapping[str, Any]],
    game_id: str,
    head: str,
    seed: str | None,
    deal: Any,
    players: Any = None,
) -> dict[str, Any]:
    """The header the replayed log calls for, in the export's order.

    `game_id` is bound by the chain's genesis and `seed` by the commitment of
    the first event: the replay has checked both before this is built. The
    seed is revealed only once the game is finished, so before that the log
    calls for `null`. `deal` is the export's own, once checked against the log
    (service/audit/deal_mode.py). `players` is the export's own: a seat a platform
    vouched for holds only a pseudonym in the log, and who it stands for (or that
    it was erased) is the service's word, outside the chain (docs/privacy.md), so
    its `player` and `name` are taken from there when they have the right shape.
    """
    table = referee.table
    assert table is not None, "the log has at least its creation"
    created = referee.created
    explicit = len(referee.explicit)
    finished = table.over
    return {
        "format": FORMAT,
        "game_id": game_id,
        "version": len(events),
        "status": table.status.value,
        "rules": created["rules"],
        "players": [
            _exported_player(seat, entry, _said(players, seat))
            for seat, entry in enumerate(referee.seats)
        ],
        "seed_commitment": created["seed_commitment"],
        "seed": seed if finished else None,
        "deal": deal,
        "client_seeds": referee.client_seeds,
        "dealer_named": created["dealer"] is not None,
        "explicit_decks": explicit,
        "hands": [
            {
                "hand_number": dealt["hand_number"],
                "dealer": dealt["dealer"],
                "deck": dealt["deck"],
                "from_seed": dealt["hand_number"] > explicit,
            }
            for dealt in (event["data"] for event in events if event["type"] == "hand_dealt")
        ],
        "winner": table.winner,
        "totals": list(table.totals),
        # The live heads' salt, revealed with the seed (docs/fairness.md, "Live chain heads").
        "chain_salt": chain_salt(seed) if finished and seed is not None else None,
        "chain": {
            "algorithm": ALGORITHM,
            "genesis": genesis(game_id),
            "head": head,
            "length": len(events),
        },
    }


def _exported_player(
    seat: int, entry: Mapping[str, Any] | None, said: Mapping[str, Any]
) -> dict[str, Any]:
    if entry is None:
        return {"seat": seat, "name": None, "bot": None, "client_seed": ""}
    exported = {
        "seat": seat,
        "name": entry["name"],
        "bot": entry.get("bot"),
        "client_seed": entry["client_seed"],
    }
    if "player" in entry:  # a pseudonym: who it is, the export says
        player, name = said.get("player"), said.get("name")
        vouched = isinstance(player, str) and ":" in player and isinstance(name, str)
        erased = player is None and name == "erased"
        exported["player"] = player if vouched or erased else None
        exported["name"] = name if vouched or erased else "erased"
    return exported


def _said(players: Any, seat: int) -> Mapping[str, Any]:
    """What the export's `players[seat]` says, if it is an object."""
    if isinstance(players, list) and seat < len(players) and isinstance(players[seat], dict):
        found: Mapping[str, Any] = players[seat]
        return found
    return {}


def first_difference(found: Any, wanted: Any, path: str = "") -> tuple[str, str] | None:
    """The path of the first place where `found` is not the JSON value `wanted`, and what
    is wrong there; None when they are the same.

    Objects are compared member by member in `wanted`'s order, then any member
    `wanted` lacks; lists by length, then entry by entry; plain values by type as
    well as value, so `true` is not `1` and `1.0` is not `1`.
    """
    if isinstance(wanted, Mapping):
        if not isinstance(found, Mapping):
            return path, _says(found, wanted)
        for name, value in wanted.items():
            if name not in found:
                return _member(path, name), f"it is missing, but the log says {short_json(value)}"
            difference = first_difference(found[name], value, _member(path, name))
            if difference is not None:
                return difference
        extra = next((name for name in found if name not in wanted), None)
        if extra is not None:
            return _member(path, extra), "it is not part of the export; the log says nothing of it"
        return None
    if isinstance(wanted, list):
        if not isinstance(found, list):
            return path, _says(found, wanted)
        if len(found) != len(wanted):
            return path, f"it has {len(found)} entries, but the log says {len(wanted)}"
        for index, (item, value) in enumerate(zip(found, wanted, strict=True)):
            difference = first_difference(item, value, f"{path}[{index}]")
            if difference is not None:
                return difference
        return None
    if type(found) is not type(wanted) or found != wanted:
        return path, _says(found, wanted)
    return None


def _member(path: str, name: Any) -> str:
    return f"{path}.{name}" if path else str(name)


def _says(found: Any, wanted: Any) -> str:
    return f"it says {short_json(found)}, but the log says {short_json(wanted)}"


def short_json(value: Any) -> str:
    """`value` as JSON, shortened: the export is JSON, so its reader knows `null`, not `None`."""
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 120 else text[:117] + "..."
