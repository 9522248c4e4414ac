"""The web client's check of a seed per hand (static/handchain.js, audit.js) against
the service's (service/domain/hand_chain.py, docs/fairness.md "A seed per hand").

The page recomputes the rules digest, the chain of hand seeds (an HMAC-SHA-256 on
its own sha256.js, not WebCrypto, which plain HTTP lacks) and the commitment from
the seed a finished game's export reveals. Node runs the module as the browser does
and must give the service's bytes; Chromium runs the end-of-game check on a real
finished game, which must pass, and on tampered copies, which must fail.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import httpx
from hypothesis import given, settings
from hypothesis import strategies as st
from playwright.sync_api import expect

from service.domain import hand_chain
from service.webclient.served import FILES
from tests.chromium import OfflinePages
from tests.clients.tools import run, unavailable
from tests.webclient.table import Opponent, seated_game

SCRIPT = """
const { chainCommitment, handSeeds, rulesDigest } = await import("./handchain.js");
const cases = JSON.parse(process.argv[2]);
console.log(JSON.stringify(cases.map(({ seed, length, rules }) => {
  const seeds = handSeeds(seed, length);
  const digest = rulesDigest(rules);
  return { seeds, digest, commitment: chainCommitment(seeds[0], digest) };
})));
"""

SEEDS = [
    "",
    "8e443965173a8ff0e7b5430dd6a557ab2999fe87189d5eb276f7015e128844df",
    "Grüße, 王牌 🂡 at the table",
    "k" * 64,  # a key of exactly one block
    "é" * 40,  # 80 bytes of UTF-8: longer than a block, so HMAC hashes the key first
]
RULES = {"variant": "classic", "hand_size": 3, "max_hands": 4, "target": None, "name": "Bø ♣"}

QUICK = {"hand_size": 3, "deals": 2, "max_turns": 8, "exhausted": "score"}
"""A short game (as in test_play): three cards each, two deals, eight turns a hand."""


def _module_dir(folder: Path) -> Path:
    """`folder` with handchain.js and the modules it imports, runnable by node."""
    if shutil.which("node") is None:
        unavailable("node is not installed")
    for name in ("handchain.js", "canonical.js", "sha256.js"):
        shutil.copy(FILES / name, folder / name)
    (folder / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    (folder / "run.mjs").write_text(SCRIPT, encoding="utf-8")
    return folder


def _computed(folder: Path, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    answer = run(["node", folder / "run.mjs", json.dumps(cases)], cwd=folder)
    assert answer.returncode == 0, answer.stderr
    computed: list[dict[str, Any]] = json.loads(answer.stdout)
    return computed


def _services(case: dict[str, Any]) -> dict[str, Any]:
    """What the service computes for one case: the oracle the page must match."""
    seed, length, rules = case["seed"], case["length"], case["rules"]
    seeds = hand_chain.hand_seeds(seed, length)
    digest = hand_chain.rules_digest(rules)
    commitment = hand_chain.chain_commitment(hand_chain.chain_head(seeds), digest)
    return {"seeds": list(seeds), "digest": digest, "commitment": commitment}


def test_the_pages_chain_digest_and_commitment_are_the_services(tmp_path: Path) -> None:
    folder = _module_dir(tmp_path)
    cases: list[dict[str, Any]] = [{"seed": seed, "length": 5, "rules": RULES} for seed in SEEDS]
    cases.append({"seed": SEEDS[1], "length": 1, "rules": {}})
    for case, computed in zip(cases, _computed(folder, cases), strict=True):
        assert computed == _services(case), case

    @settings(max_examples=10, deadline=None)
    @given(
        st.lists(
            st.tuples(
                st.text(max_size=90),
                st.integers(min_value=1, max_value=12),
                st.dictionaries(
                    st.text(max_size=8),
                    st.one_of(st.none(), st.booleans(), st.integers(-999, 999), st.text()),
                    max_size=6,
                ),
            ),
            min_size=1,
            max_size=8,
        )
    )
    def check(batch: list[tuple[str, int, dict[str, Any]]]) -> None:
        cases = [{"seed": seed, "length": length, "rules": rules} for seed, length, rules in batch]
        for case, computed in zip(cases, _computed(folder, cases), strict=True):
            assert computed == _services(case), case

    check()


def _finished_export(base: str) -> dict[str, Any]:
    """A game of two seats played over the API to its end; its audit export."""
    created = seated_game(base, {"players": [{"name": "Ann"}, {"name": "Bø"}], "rules": QUICK})
    game_id = created["game_id"]
    seats = [Opponent(base, game_id, player["token"]) for player in created["players"]]
    for _ in range(100):
        view = seats[0].view()
        if view["status"] != "playing":
            break
        seats[view["turn"]].play_a_turn()
    answer = httpx.get(f"{base}/games/{game_id}/audit", timeout=10)
    assert answer.status_code == 200, answer.text
    export: dict[str, Any] = answer.json()
    return export


def test_the_end_of_game_check_passes_a_hand_chain_game_and_fails_a_tampered_one(
    pages: OfflinePages, server_url: str
) -> None:
    export = _finished_export(server_url)
    created = export["events"][0]["data"]
    assert created["seed_scheme"] == "hand_chain"
    ended = [event for event in export["events"] if event["type"] == "hand_ended"]
    assert len(ended) >= 2, "two deals: the check meets more than one hand seed"

    page = pages.new_page()
    page.goto(f"{server_url}/play?game={export['game_id']}")
    checks = page.locator(".game-over .checks")
    expect(checks).to_have_attribute("data-verified", "true")
    expect(checks).to_contain_text(f"rules hash to the digest {created['rules_digest'][:12]}")
    expect(checks).to_contain_text(f"the seeds revealed as the {len(ended)} hands ended")

    def tampered(path: list[str | int], value: Any) -> dict[str, Any]:
        changed = copy.deepcopy(export)
        place: Any = changed
        for step in path[:-1]:
            place = place[step]
        place[path[-1]] = value
        return changed

    other = "0" * 64
    hand_ended = export["events"].index(ended[-1])
    cases = {
        "as served": export,
        "commitment": tampered(["seed_commitment"], other),
        "created commitment": tampered(["events", 0, "data", "seed_commitment"], other),
        "digest": tampered(["events", 0, "data", "rules_digest"], other),
        "rules": tampered(["events", 0, "data", "rules", "hand_size"], 4),
        "seed": tampered(["seed"], other),
        "hand seed": tampered(["events", hand_ended, "data", "hand_seed"], other),
    }
    results = page.evaluate(
        """async (cases) => {
          const { seedCheck } = await import("/play/assets/audit.js");
          return Object.fromEntries(
            Object.entries(cases).map(([name, audit]) => [name, seedCheck(audit)]));
        }""",
        cases,
    )
    assert results["as served"]["ok"] is True, results["as served"]
    for name in cases.keys() - {"as served"}:
        assert results[name]["ok"] is False, (name, results[name])
    assert "rules digest" in results["digest"]["detail"]
    assert "commitment" in results["commitment"]["detail"]
    last = ended[-1]["data"]["hand_number"]
    assert f"Hand {last}'s revealed seed" in results["hand seed"]["detail"]
