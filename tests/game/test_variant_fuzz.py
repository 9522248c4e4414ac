"""Random whole games of every variant through the application: at every step the
pack is conserved as a multiset and the move played is one `legal` offered; every
hand ends; the stored events rebuild the live game; the export verifies.

Indian Rummy is played in each format by tests/domain/indian_play.py's random
player, on decks that plant valid declarations in the first deals (random hands
seldom declare validly): its games hold valid declarations and the show, wrong
shows, drops, play-offs and eliminations.

`RUMMY_FUZZ_GAMES` sets the games per variant (a few by default, so the suite
stays quick; `RUMMY_FUZZ_GAMES=500 pytest tests/game/test_variant_fuzz.py` is
the full run quoted in the notes).
"""

from __future__ import annotations

import os
from collections import Counter
from random import Random
from typing import Any

import pytest

from service.audit.verify import Outcome, verify_export
from service.bootstrap import open_games
from service.config import Settings, Store
from service.domain import concealed
from service.domain.actions import Action, Discard, Draw, Knock, LayOff, Meld, Pass, Swap
from service.domain.cards import Card
from service.domain.changes import apply
from service.domain.legal import LegalMoves
from service.domain.presets import VARIANTS
from service.domain.rule_values import SwappedWild, Variant
from service.domain.rules import RuleSet
from service.domain.state import Table
from service.domain.turns import decide, legal_moves
from service.game.commands import NewGame, NewSeat
from tests.audit_stream.games import export_of
from tests.domain import indian_play

GAMES = int(os.environ.get("RUMMY_FUZZ_GAMES", "4"))
MAX_STEPS = 20_000
"""Far more moves than any game of two deals can take: a game past it is stuck."""

RULES: dict[str, dict[str, Any]] = {
    "classic": {"deals": 2},
    "wild": {"variant": "wild", "deals": 2},
    "wild-deuces": {"variant": "wild", "wild_rank": "2", "jokers": 1, "deals": 2},
    "wild-meld-now": {"variant": "wild", "swapped_wild": "meld_now", "deals": 2},
    # Random players seldom go out concealed: scored exhausted hands end ties.
    "boathouse": {"variant": "boathouse", "deals": 2, "exhausted": "score"},
    "knock": {"variant": "knock", "deals": 2, "exhausted": "score"},
    "wrotham": {"variant": "wrotham"},
    "indian-points": {"variant": "indian"},
    "indian-deals": {"variant": "indian", "format": "deals"},
    "indian-pool-101": {"variant": "indian", "format": "pool_101"},
    "indian-pool-201": {"variant": "indian", "format": "pool_201"},
    "gin": {"variant": "gin", "target": 50},
    "gin-oklahoma": {"variant": "gin", "target": 25, "oklahoma": True, "max_hands": 40},
    "rummy500": {"variant": "rummy500", "target": 150},
    "rummy500-discard": {"variant": "rummy500", "going_out": "discard", "target": 100},
}
PLANTED_DEALS = 6
"""Indian: the deals whose decks plant valid declarations (later ones are shuffled)."""


def choose(table: Table, seat: int, moves: LegalMoves, rng: Random) -> list[Action]:
    """A random legal request, leaning towards playing cards so hands end by play."""
    if moves.can_go_out:
        request = concealed.going_out_request(table, seat)
        assert request is not None, "can_go_out says a going-out request exists"
        if rng.random() < 0.8:
            return list(request)
    if moves.can_pass and rng.random() < 0.5:  # gin's upcard offer
        return [Pass()]
    actions = moves.actions()
    draws = [action for action in actions if isinstance(action, Draw)]
    if draws:
        return [rng.choice(draws)]
    knocks = [action for action in actions if isinstance(action, Knock)]
    plays = [a for a in actions if not isinstance(a, Discard | Knock)]
    if knocks and rng.random() < 0.15:
        return [rng.choice(knocks)]
    discards = [a for a in actions if isinstance(a, Discard)]
    # 500 Rum: while a called card is unused no discard is offered, only plays.
    if plays and (not discards or rng.random() < 0.8):
        chosen = rng.choice(plays)
        if isinstance(chosen, Swap) and table.rules.swapped_wild is SwappedWild.MELD_NOW:
            return _swap_and_use(table, seat, chosen, rng)
        return [chosen]
    return [rng.choice(discards)]


def _swap_and_use(table: Table, seat: int, swap: Swap, rng: Random) -> list[Action]:
    """Under `meld_now` a swap's wild must be melded or laid off in the same request:
    the swap, then a meld or lay-off of the wild that `legal` offers after it (tried
    on a copy of the table), or a plain discard if there is none."""
    trial = table.copy()
    for event in decide(trial, seat, swap, _NO_DECKS):
        apply(trial, event)
    assert trial.hand is not None
    wild = trial.hand.hands[seat][-1]  # the swapped wild joins the hand last
    using = [
        action
        for action in legal_moves(trial, seat).actions()
        if (isinstance(action, Meld) and wild in action.cards)
        or (isinstance(action, LayOff) and action.card == wild)
    ]
    if not using:
        return [
            rng.choice([a for a in legal_moves(table, seat).actions() if isinstance(a, Discard)])
        ]
    return [swap, rng.choice(using)]


class _NoDecks:
    """A swap never deals nor draws."""

    def first_dealer(self, players: int) -> int:
        raise AssertionError("no deal in a swap")

    def deck(self, hand_number: int) -> list[Card]:
        raise AssertionError("no deal in a swap")

    def recycled_stock(self, hand_number: int, recycle_number: int, discards: Any) -> list[Card]:
        raise AssertionError("no draw in a swap")


_NO_DECKS = _NoDecks()


@pytest.mark.parametrize("name", list(RULES))
def test_random_games_keep_every_invariant_and_verify(name: str) -> None:
    variant = RuleSet.from_dict(RULES[name]).variant
    indian = variant is Variant.INDIAN
    low, high = VARIANTS[variant].players
    games = open_games(Settings(store=Store.MEMORY), bots=None)
    rng = Random(name)
    seen: Counter[str] = Counter()
    for number in range(GAMES):
        players = rng.randint(low, high)
        # Indian Rummy's pack follows the table (one pack for two players).
        rules = RuleSet.from_dict(RULES[name], players=players)
        pack = Counter(rules.pack)
        plants = indian_play.Plants()
        dealer = rng.randrange(players) if indian else None
        decks = (
            tuple(
                indian_play.planted_deck(
                    rng, rules, players, (dealer + deal) % players, plants, [rng.randrange(players)]
                )
                for deal in range(PLANTED_DEALS)
            )
            if dealer is not None
            else ()
        )
        created = games.create_game(
            NewGame(
                seats=[NewSeat(f"P{seat}") for seat in range(players)],
                rules=rules,
                seed=f"fuzz-{name}-{number}",
                decks=decks,
                dealer=dealer,
            )
        )
        game_id = created.game_id
        for _ in range(MAX_STEPS):
            table = games.state(game_id).table
            # Finished, or (random gin players voiding hand after hand) aborted at
            # the `max_hands` cap: both are ends the export must verify.
            if table.over:
                break
            hand = table.hand
            assert hand is not None
            assert Counter(hand.cards()) == pack, "the pack is conserved as a multiset"
            if indian:
                seat = indian_play.acting_seat(table, rng)
                request = [indian_play.choose(table, seat, rng, plants)]
            else:
                seat = hand.turn
                request = choose(table, seat, legal_moves(table, seat), rng)
            games.play(game_id, seat, request)
        else:
            pytest.fail(f"{name} game {number} did not end in {MAX_STEPS} moves")
        live = games.state(game_id)
        rebuilt = games.state(game_id, version=live.version)
        assert rebuilt.table == live.table, "the stored events rebuild the live game"
        export = export_of(games, game_id)
        verdict = verify_export(export)
        assert verdict.outcome is Outcome.VERIFIED, verdict
        seen.update(_what_happened(export))
    if indian:
        # The planted deals make the show happen; random play, the rest.
        assert seen["valid declaration"] > 0, seen
        assert seen["groups_submitted"] > 0, seen
    if variant is Variant.GIN:
        assert seen["upcard_passed"] > 0, seen
        assert seen["knocked"] > 0, seen


def _what_happened(export: dict[str, Any]) -> Counter[str]:
    """The export's events by type, a declaration by whether it was valid."""
    found: Counter[str] = Counter()
    for logged in export["events"]:
        kind = logged["type"]
        if kind == "declared":
            kind = "valid declaration" if logged["data"]["valid"] else "wrong show"
        found[kind] += 1
    return found


def test_every_variant_is_fuzzed() -> None:
    fuzzed = {RuleSet.from_dict(rules).variant for rules in RULES.values()}
    assert fuzzed == set(Variant)
