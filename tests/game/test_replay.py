"""Replay guarantees: the game rebuilt from the store at any version N is the
game as it was live at N, and as a pure-domain table playing the same moves.

For many random complete games (random seeds, 2-4 players, random rule sets,
sometimes an explicit first deck, commands of one action or several):

- a domain `Table` plays the game first, by itself (`service.domain.play`);
  the application then plays the same commands, and after each its live
  state equals that table, and its stored events are exactly the events the
  table made;
- for EVERY version N, `state(version=N)` rebuilt from the store equals the
  live state captured right after the command that reached N, or, for a
  version inside a command, the domain table after the first N stored
  events; and the 52 cards are all there, once each.

Games of MOST_EVENTS or more are left out, to keep the run short.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from service.bootstrap import open_games
from service.config import Settings, Store
from service.domain import changes
from service.domain import events as domain
from service.domain.actions import Action
from service.domain.cards import FULL_DECK, Card
from service.domain.decks import ChainedDecks
from service.domain.play import play, start
from service.domain.rule_values import (
    Aces,
    Exhausted,
    GoingOut,
    LayOffRule,
    MeldsPerTurn,
    RummyBonus,
    Scoring,
)
from service.domain.rules import RuleSet
from service.domain.state import Status, Table
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.event_records import GameCreated, GameEvent
from service.game.results import GameState
from tests.fairness_oracle import hand_seeds
from tests.game.players import Player, act, check_cards_conserved, to_move
from tests.game.stores import StoreUnderTest


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    ends = draw(st.sampled_from(["target", "deals"]))
    exhausted = draw(st.sampled_from(Exhausted))
    # Hands of 12 leave 4 players a stock of 3: fine when a hand that runs out
    # scores, but hundreds of voided hands in a row when it does not.
    sizes = [None, None, 3, 7] + ([12] if exhausted is Exhausted.SCORE else [])
    return RuleSet(
        aces=draw(st.sampled_from(Aces)),
        hand_size=draw(st.sampled_from(sizes)),
        melds_per_turn=draw(st.sampled_from(MeldsPerTurn)),
        lay_off=draw(st.sampled_from(LayOffRule)),
        going_out=draw(st.sampled_from(GoingOut)),
        rummy_bonus=draw(st.sampled_from(RummyBonus)),
        recycles=draw(st.integers(0, 2)),
        recycle_shuffle=draw(st.booleans()),
        exhausted=exhausted,
        max_turns=draw(st.integers(20, 120)),
        scoring=draw(st.sampled_from(Scoring)),
        target=draw(st.integers(1, 25)) if ends == "target" else None,
        deals=draw(st.integers(1, 2)) if ends == "deals" else None,
    )


@dataclass(frozen=True)
class Setup:
    rules: RuleSet
    players: int
    seed: str
    client_seeds: tuple[str, ...]
    dealer: int | None
    decks: tuple[tuple[Card, ...], ...]
    moves_seed: int
    longest_command: int


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    players = draw(st.integers(2, 4))
    decks = tuple(draw(st.lists(st.permutations(FULL_DECK).map(tuple), max_size=1)))
    # Decks given at creation deal as they are: a client seed is refused with them.
    client_seeds = st.sampled_from([""] if decks else ["", "c", "ünï"])
    return Setup(
        rules=draw(rule_sets()),
        players=players,
        seed=draw(st.text(max_size=12)),
        client_seeds=tuple(draw(st.lists(client_seeds, min_size=players, max_size=players))),
        dealer=draw(st.none() | st.integers(0, players - 1)),
        decks=decks,
        moves_seed=draw(st.integers(0, 2**32 - 1)),
        longest_command=draw(st.integers(1, 4)),
    )


def _command(table: Table, decks: ChainedDecks, player: Player, longest: int) -> list[Action]:
    """One to `longest` legal actions for the seat to play, ending with its turn."""
    seat = to_move(table)
    trial = table.copy()
    actions: list[Action] = []
    while len(actions) < longest:
        action = player.move(trial, seat)
        actions.append(action)
        play(trial, seat, [action], decks)
        if trial.status is not Status.PLAYING or trial.hand is None or trial.hand.turn != seat:
            break
        if trial.hand_number != table.hand_number:
            break
    return actions


@dataclass
class Twin:
    """The game played by a domain `Table` alone: every command, the table after
    each, and every event it made."""

    commands: list[tuple[int, list[Action], Table]]
    events: list[domain.Event]
    first: Table


def play_twin(setup: Setup) -> Twin:
    # The service deals a game from the hand seeds its seed makes (docs/fairness.md).
    chain = tuple(hand_seeds(setup.seed, setup.rules.max_hands or 500))
    decks = ChainedDecks(chain, setup.client_seeds, setup.decks)
    table = new_table(setup)
    made = start(table, decks)
    twin = Twin(commands=[], events=made, first=table.copy())
    player = Player(random.Random(setup.moves_seed))
    while table.status is not Status.FINISHED:
        seat = to_move(table)
        actions = _command(table, decks, player, setup.longest_command)
        twin.events.extend(play(table, seat, actions, decks))
        twin.commands.append((seat, actions, table.copy()))
    return twin


def new_table(setup: Setup) -> Table:
    return Table(
        rules=setup.rules,
        seat_count=setup.players,
        seated=[True] * setup.players,
        first_dealer=setup.dealer,
    )


MOST_EVENTS = 400
"""Rebuilding at every version costs the square of a game's length: longer games
(a few in a hundred, hands voided over and over) are left out."""


def check_replays(games: RummyApplication, setup: Setup) -> None:
    twin = play_twin(setup)
    assume(len(twin.events) < MOST_EVENTS)
    game_id = games.create_game(
        NewGame(
            seats=[NewSeat(f"p{n}", client_seed=seed) for n, seed in enumerate(setup.client_seeds)],
            rules=setup.rules,
            seed=setup.seed,
            decks=setup.decks,
            dealer=setup.dealer,
        )
    ).game_id
    state = games.state(game_id)
    assert state.table == twin.first
    live: dict[int, GameState] = {state.version: state}
    for seat, actions, table in twin.commands:
        version = act(games, game_id, seat, actions)
        state = games.state(game_id)
        assert state.version == version
        assert state.table == table, f"live state and domain twin part at version {version}"
        live[version] = state
    assert state.table.status is Status.FINISHED

    stored = games.events_after(game_id)
    assert [event.originator_version for event in stored] == list(range(1, state.version + 1))
    created_event, *game_events = stored
    assert isinstance(created_event, GameCreated)
    assert all(isinstance(made, GameEvent) for made in game_events)
    assert [stored.to_domain() for stored in game_events] == twin.events
    kinds = {type(made).__name__ for made in game_events}
    event(f"hands played: {min(state.table.hands_played, 3)}")
    event(f"events: {'<50' if state.version < 50 else '<150' if state.version < 150 else '150+'}")
    for kind in ("StockRecycled", "CardLaidOff"):
        event(f"{kind} {'seen' if kind in kinds else 'not seen'}")

    stepped = new_table(setup)
    for version in range(1, state.version + 1):
        if version > 1:
            changes.apply(stepped, stored[version - 1].to_domain())
        rebuilt = games.state(game_id, version=version)
        assert rebuilt.version == version
        if version in live:
            assert rebuilt == live[version], f"rebuilt and live differ at version {version}"
        assert rebuilt.table == stepped, f"rebuilt and stepped differ at version {version}"
        check_cards_conserved(rebuilt.table)


@settings(max_examples=40, deadline=None)
@given(setup=setups())
def test_replay_at_every_version_equals_live_play_in_memory(setup: Setup):
    games = open_games(Settings(store=Store.MEMORY))
    check_replays(games, setup)


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(setup=setups())
def test_replay_at_every_version_equals_live_play_on_every_store(
    store: StoreUnderTest, setup: Setup
):
    check_replays(store.games(), setup)
