"""`rummy verify --heads FILE EXPORT`: an export held to the live chain heads a client or
platform kept while the game ran (docs/fairness.md, "Live chain heads").

Every event the service serves carries `chain`, the salted head after it:
`salted_head(chain_salt, hash)`, with `hash` the export's hash of that event.
Once the game is over the export reveals `chain_salt`; the heads kept are then
recomputed from the export's own hashes (already checked by `verify_export`),
and the first version whose kept head differs is named. A head kept for a
version the export does not reach means the log was cut.

FILE is JSON Lines, one `{"version": n, "chain": "<hex>"}` a line (blank lines
are skipped); the same version may appear more than once (each is checked).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from service.audit.chain import chain_salt, salted_head
from service.audit.verify import Finding, Outcome, Verdict


@dataclass(frozen=True, slots=True)
class KeptHead:
    version: int
    chain: str


class HeadsUnreadable(ValueError):
    """The heads file is not JSON Lines of `{"version": n, "chain": "<hex>"}`."""


def read_heads(text: str) -> list[KeptHead]:
    """The heads of a JSON Lines text, in file order."""
    heads = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as error:
            raise HeadsUnreadable(f"line {number} is not JSON: {error}") from None
        if (
            not isinstance(item, Mapping)
            or type(item.get("version")) is not int
            or not isinstance(item.get("chain"), str)
        ):
            raise HeadsUnreadable(
                f'line {number} is not {{"version": <integer>, "chain": "<hex>"}}'
            )
        heads.append(KeptHead(item["version"], item["chain"].lower()))
    if not heads:
        raise HeadsUnreadable("it holds no head")
    return heads


def check_heads(export: Mapping[str, Any], verdict: Verdict, heads: Sequence[KeptHead]) -> Verdict:
    """`verdict` (the export's own, from `verify_export`) held to the `heads` kept: a
    failure names the first version, in version order, whose kept head the log does
    not give. An export whose check failed, or whose salt is still secret, is
    answered as it is (its salt is revealed once the game is over)."""
    if verdict.outcome in (Outcome.FAILED, Outcome.UNREADABLE):
        return verdict
    salt = export.get("chain_salt")
    events = export["events"]
    if verdict.outcome is Outcome.UNFINISHED or not isinstance(salt, str):
        return verdict
    # `verify_export` checked `chain_salt` against the revealed seed; checked again here
    # so this function never trusts a salt it was not shown to derive.
    seed = export.get("seed")
    if not isinstance(seed, str) or chain_salt(seed) != salt:
        return _failed(
            verdict, Finding("it is not the salt of the revealed seed", field="chain_salt")
        )
    agreed = 0
    for kept in sorted(heads, key=lambda head: head.version):
        if not 1 <= kept.version <= len(events):
            return _failed(
                verdict,
                Finding(
                    f"a head was kept for version {kept.version}, but the log has "
                    f"{len(events)} events: events were cut off or never existed",
                    position=min(max(kept.version, 1), len(events) + 1),
                    version=kept.version,
                    type="missing",
                ),
            )
        event = events[kept.version - 1]
        wanted = salted_head(salt, event["hash"])
        if wanted != kept.chain:
            where = (
                "at this event"
                if agreed >= kept.version - 1
                else f"in versions {agreed + 1} to {kept.version} (no head was kept between)"
            )
            return _failed(
                verdict,
                Finding(
                    f"the head kept for it ({kept.chain}) is not the log's ({wanted}): the "
                    f"log differs from the one served {where}",
                    position=kept.version,
                    version=kept.version,
                    type=str(event["type"]),
                ),
            )
        agreed = kept.version
    return verdict


def _failed(verdict: Verdict, finding: Finding) -> Verdict:
    return Verdict(
        Outcome.FAILED,
        game_id=verdict.game_id,
        finding=finding,
        events=verdict.events,
        head=verdict.head,
    )
