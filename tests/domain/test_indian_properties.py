"""Invariants of Indian Rummy under random players (tests/domain/indian_play.py), two
to six seats, every format and random drops, full counts, turn caps and recycles:
the whole pack (one or two packs and their jokers) is accounted for at every
step; `legal` is exactly what is accepted; a declaration is accepted exactly when
its groups are the other 13 cards; planted valid declarations are judged valid;
every deal's result adds up by the rules text; replaying the plain events
rebuilds the live table."""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from service.domain import events
from service.domain.actions import Declare, Discard, Draw, Drop, SubmitGroups
from service.domain.cards import Card, Rank
from service.domain.changes import apply
from service.domain.decks import SeededDecks
from service.domain.events import CardDrawn, Declared, Event, HandDealt, HandEnded, PlayerDropped
from service.domain.indian.judge import GroupKind
from service.domain.play import play, start
from service.domain.rule_values import Format
from service.domain.rules import RuleSet
from service.domain.state import DealStatus, HandEnding, Phase, Source, Table
from service.domain.turns import action_problem, legal_moves
from tests.domain.indian_play import Plants, acting_seat, choose, key, planted_deck
from tests.domain.indian_tables import indian_rules

PLANTED_DEALS = 6
"""Deals whose decks plant valid declarations (the later ones are shuffled)."""
OUT_OF_DEAL = (
    DealStatus.DROPPED,
    DealStatus.WRONG_SHOW,
    DealStatus.SITTING_OUT,
    DealStatus.ELIMINATED,
)
SEQUENCES = (GroupKind.PURE_SEQUENCE, GroupKind.SEQUENCE)


@st.composite
def indian_rule_dicts(draw: st.DrawFn, players: int) -> dict[str, Any]:
    options: dict[str, Any] = draw(
        st.fixed_dictionaries(
            {"format": st.sampled_from([each.value for each in Format])},
            optional={
                "first_drop": st.integers(0, 60),
                "middle_drop": st.integers(0, 90),
                "full_count": st.integers(20, 120),
                "max_turns": st.integers(1, 60),
                "recycles": st.integers(0, 2),
                "recycle_shuffle": st.booleans(),
            },
        )
    )
    if options["format"] == Format.DEALS and draw(st.booleans()):
        options["deals"] = draw(st.integers(1, 3))
    if players == 2 and draw(st.booleans()):
        options["packs"] = 2
    return options


@dataclass
class Setup:
    table: Table
    decks: SeededDecks
    rng: random.Random
    plants: Plants
    first: Table
    """The table before the first deal, to replay onto."""


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    players = draw(st.integers(2, 6))
    rules = indian_rules(players, **draw(indian_rule_dicts(players)))
    dealer = draw(st.integers(0, players - 1))
    rng = random.Random(draw(st.integers(0, 2**32)))
    plants = Plants()
    explicit = tuple(
        planted_deck(
            rng,
            rules,
            players,
            (dealer + number) % players,
            plants,
            rng.sample(range(players), rng.choice((0, 0, 1, 1, 2))),
        )
        for number in range(PLANTED_DEALS)
    )
    decks = SeededDecks(
        seed=draw(st.text(max_size=8)),
        client_seeds=tuple(str(seat) for seat in range(players)),
        explicit=explicit,
        pack=rules.pack,
    )
    table = Table(rules=rules, seat_count=players, seated=[True] * players, first_dealer=dealer)
    return Setup(table, decks, rng, plants, copy.deepcopy(table))


# --- the pack is whole, and each deal's result adds up ------------------------------------------


def points_of(card: Card, wild: Rank) -> int:
    """What a card counts (docs/rules.md): A K Q J 10 count 10, 2-9 face, wilds 0."""
    if card.is_joker or card.rank is wild:
        return 0
    return 10 if card.rank is Rank.ACE or card.rank >= Rank.TEN else int(card.rank)


def shown_count(held: list[Card], shown: Any, wild: Rank, full_count: int) -> int:
    """A submitted hand's points from its groups' kinds, by the losers' rule: with two
    valid sequences, one pure, only the cards outside valid groups count; else all."""
    valid = [group for group in shown if group.kind is not GroupKind.INVALID]
    kinds = [group.kind for group in valid]
    left = Counter(held)
    if sum(kind in SEQUENCES for kind in kinds) >= 2 and GroupKind.PURE_SEQUENCE in kinds:
        for group in valid:
            left.subtract(group.cards)
    return min(sum(points_of(card, wild) * n for card, n in left.items()), full_count)


@dataclass
class Recorder:
    """Applies each event and keeps it; holds the pack whole after each one, checks
    each result against the deal it ends before applying it, and each planted
    declaration for being judged valid."""

    table: Table
    plants: Plants
    events: list[Event] = field(default_factory=list)
    drawn: set[int] = field(default_factory=set)
    """Seats that drew in the deal in play."""
    drops: dict[int, int] = field(default_factory=dict)
    """Each drop's cost by the rules text, by seat."""

    def __call__(self, made: Event) -> None:
        table = self.table
        match made:
            case HandDealt():
                self.drawn, self.drops = set(), {}
            case CardDrawn(seat=seat):
                self.drawn.add(seat)
            case PlayerDropped(seat=seat):
                cost = table.rules.middle_drop if seat in self.drawn else table.rules.first_drop
                assert cost is not None
                self.drops[seat] = cost
                assert made.points == self.drops[seat]
            case Declared(valid=valid, groups=shown):
                planted = self.plants.groups.get(key([c for g in shown for c in g.cards]))
                if planted is not None and [g.cards for g in shown] == planted:
                    event("a planted declaration")
                    assert valid, "a planted declaration is valid"
                event(f"a declaration: valid {valid}")
            case HandEnded():
                check_result(table, made, self.drops)
        apply(table, made)
        self.events.append(made)
        if table.hand is not None:
            assert Counter(table.hand.cards()) == Counter(table.rules.pack)


def check_result(table: Table, ended: HandEnded, drops: dict[int, int]) -> None:
    rules = table.rules
    hand = table.hand
    assert hand is not None
    assert hand.indian is not None
    assert hand.indian is not None
    assert rules.full_count is not None
    statuses = hand.indian.statuses
    assert ended.statuses == tuple(statuses)
    event(f"a deal ended: {ended.how}")
    if ended.out_seat is None:
        assert ended.how in (HandEnding.EXHAUSTED, HandEnding.TURN_CAP)
        assert not any(ended.points)
        assert list(ended.totals) == table.totals
        return
    winner = ended.out_seat
    if DealStatus.DECLARED in statuses:
        assert ended.how is HandEnding.DECLARED
        assert statuses[winner] is DealStatus.DECLARED
        assert DealStatus.TO_SUBMIT not in statuses
    else:
        assert ended.how is HandEnding.LAST_STANDING
        assert [s for s, st in enumerate(statuses) if st is DealStatus.IN] == [winner]
    shows = {show.seat: show for show in hand.indian.shows}
    expected = []
    for seat, status in enumerate(statuses):
        if status is DealStatus.DROPPED:
            expected.append(drops[seat])
        elif status is DealStatus.WRONG_SHOW:
            expected.append(rules.full_count)
        elif status is DealStatus.SUBMITTED:
            held = hand.hands[seat]
            expected.append(
                shown_count(held, shows[seat].groups, hand.indian.wild, rules.full_count)
            )
        else:
            expected.append(0)
    assert list(ended.points) == expected
    totals = list(table.totals)
    playing = [s for s, st in enumerate(statuses) if st not in OUT_OF_DEAL[2:]]
    pool = rules.format in (Format.POOL_101, Format.POOL_201)
    for seat in playing:
        if pool:
            totals[seat] += expected[seat]
        else:
            totals[seat] -= expected[seat]
            totals[winner] += expected[seat]
    assert list(ended.totals) == totals
    if pool:
        limit = 101 if rules.format is Format.POOL_101 else 201
        out = tuple(s for s in playing if totals[s] >= limit)
        assert ended.eliminated == out
        assert winner not in out
        if out:
            event("a pool eliminated a player")


def run(setup: Setup, actions: int, before: Any = None) -> Recorder:
    """Play up to `actions` random moves, recording every event."""
    table = setup.table
    recorder = Recorder(table, setup.plants)
    start(table, setup.decks, recorder)
    for _ in range(actions):
        if table.over:
            event("a game finished" if table.finished else "a game reached a cap")
            break
        if before is not None:
            before(setup)
        seat = acting_seat(table, setup.rng)
        play(table, seat, [choose(table, seat, setup.rng, setup.plants)], setup.decks, recorder)
    return recorder


@settings(max_examples=25, deadline=None)
@given(setups())
def test_random_games_keep_every_card_and_every_result_adds_up(setup: Setup) -> None:
    run(setup, actions=400)


# --- legal moves are exactly the accepted moves -------------------------------------------------


def accepted(table: Table, seat: int, action: Any) -> bool:
    return action_problem(table, seat, action) is None


def check_legal_moves_exactly(setup: Setup) -> None:
    table = setup.table
    hand = table.hand
    assert hand is not None
    assert hand.indian is not None
    cards = set(table.rules.pack)
    for seat in range(table.seat_count):
        moves = legal_moves(table, seat)
        for action in moves.actions():
            assert accepted(table, seat, action), action
        for source in Source:
            assert accepted(table, seat, Draw(source)) == (source in moves.draw)
        assert {c for c in cards if accepted(table, seat, Discard(c))} == set(moves.discard)
        assert accepted(table, seat, Drop()) == moves.can_drop
        assert (moves.drop_points is not None) == moves.can_drop
        assert accepted(table, seat, SubmitGroups(())) == moves.can_submit
        held = hand.hands[seat]
        if held:
            finish = setup.rng.choice(held)
            rest = list(held)
            rest.remove(finish)
            declared = accepted(table, seat, Declare(finish, (tuple(rest),)))
            assert declared == (moves.can_declare and finish in moves.discard)
        if hand.indian.statuses[seat] in OUT_OF_DEAL:
            event("checked a seat out of the deal")
            for action in (Draw(Source.STOCK), Drop(), SubmitGroups(())):
                problem = action_problem(table, seat, action)
                assert problem is not None
                assert problem.code == "not_in_deal"
    if hand.phase is Phase.PLAY:
        check_declarations(table, hand.turn, setup.rng)


def check_declarations(table: Table, seat: int, rng: random.Random) -> None:
    """Random declarations, some of exactly the other 13 cards, some with a card left
    out, one too many, one changed for another or the finish card again: accepted
    exactly when exact (and the finish card is not the one just taken)."""
    hand = table.hand
    assert hand is not None
    held = hand.hands[seat]
    for _ in range(6):
        finish = rng.choice(held)
        rest = list(held)
        rest.remove(finish)
        rng.shuffle(rest)
        change = rng.choice(("none", "none", "out", "extra", "swap", "twice", "finish"))
        if change == "out":
            rest.pop()
        elif change == "swap":
            rest[-1] = rng.choice(table.rules.pack)
        elif change == "extra":
            rest.append(rng.choice(table.rules.pack))
        elif change == "twice":
            rest.append(rng.choice(rest))
        elif change == "finish":
            rest.append(finish)
        cut = sorted(rng.sample(range(1, len(rest)), min(3, len(rest) - 1)))
        groups = tuple(tuple(rest[a:b]) for a, b in zip([0, *cut], [*cut, len(rest)], strict=True))
        problem = action_problem(table, seat, Declare(finish, groups))
        exact = Counter(rest) + Counter([finish]) == Counter(held)
        taken = finish in hand.taken_cards() and held.count(finish) == 1
        if taken:
            assert problem is not None
            assert problem.code == "discard_taken_card"
        elif exact:
            assert problem is None
            event("an exact declaration")
        else:
            assert problem is not None
            assert problem.code == "incomplete_declaration"


@settings(max_examples=15, deadline=None)
@given(setups())
def test_the_legal_moves_are_exactly_the_moves_accepted(setup: Setup) -> None:
    run(setup, actions=200, before=check_legal_moves_exactly)


# --- replay = live ------------------------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(setups())
def test_replaying_the_plain_events_rebuilds_the_live_table(setup: Setup) -> None:
    recorder = run(setup, actions=400)
    replayed = setup.first
    for made in recorder.events:
        name, data = events.plain(made)
        apply(replayed, events.from_plain(name, events.actor(made), data))
    assert replayed == setup.table


def test_planted_decks_plant_valid_declarations_that_the_engine_judges_valid() -> None:
    # Not left to chance: a planted seat declares on its first turn, and it is valid.
    rng = random.Random("planted")
    for players in (2, 3, 6):
        rules: RuleSet = indian_rules(players)
        plants = Plants()
        deck = planted_deck(rng, rules, players, players - 1, plants, planted=[0])
        table = Table(
            rules=rules, seat_count=players, seated=[True] * players, first_dealer=players - 1
        )
        decks = SeededDecks(
            seed="", client_seeds=("",) * players, explicit=(deck,), pack=rules.pack
        )
        start(table, decks)
        assert table.hand is not None
        assert key(table.hand.hands[0]) in plants.groups
        play(table, 0, [Draw(Source.STOCK)], decks)
        declaration = plants.declaration(table.hand.hands[0], ())
        assert declaration is not None
        made = play(table, 0, [declaration], decks)
        assert next(e for e in made if isinstance(e, Declared)).valid
