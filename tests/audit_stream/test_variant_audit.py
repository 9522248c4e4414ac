"""`rummy verify` on the variants (docs/audit.md): the header's variant options,
decks as the game's whole pack (two packs and jokers make it a multiset), and the
variants' moves read back from their events (`as`, `wild_swapped`, `knocked`,
Boathouse's second draw).

Most tests read games that only draw and discard (legal in every variant) or
hand-built events; those at the bottom play whole games with the variants' own
moves (wild melds, swaps, knocks, concealed going out).
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any
from uuid import UUID

import msgspec
import pytest

from service.audit.limits import TurnLimitBroken, TurnLimits
from service.audit.mismatch import Mismatch
from service.audit.referee import Referee
from service.audit.verify import Finding, Outcome, verify_export
from service.bootstrap import open_games
from service.config import Settings, Store
from service.domain import shuffle
from service.domain.actions import Action, Discard, Draw, Knock, LayOff, Meld, Swap
from service.domain.cards import JOKER, Card, card_codes, parse_cards, sorted_cards
from service.domain.events import CardDiscarded, MeldLaid, WildSwapped
from service.domain.melds import MeldKind
from service.domain.rules import RuleSet
from service.domain.state import Source, Status
from service.domain.turns import legal_moves
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.projections.audit_export import audit_export
from tests.audit_stream.test_tampering import failure, rechain
from tests.fairness_oracle import chain_of, reseal

Export = dict[str, Any]
SEED = "variant-audit"

VARIANT_RULES: dict[str, dict[str, Any]] = {
    "wild": {"variant": "wild", "deals": 2},
    "deuces": {"variant": "wild", "jokers": 0, "wild_rank": "2", "deals": 2},
    "boathouse": {"variant": "boathouse", "deals": 2, "exhausted": "score"},
    "knock": {"variant": "knock", "deals": 2},
    "wrotham": {"variant": "wrotham"},
}


def _games() -> RummyApplication:
    return open_games(Settings(store=Store.MEMORY))


def _create(games: RummyApplication, rules: dict[str, Any], players: int = 2) -> UUID:
    seats = [NewSeat(f"P{seat}") for seat in range(players)]
    return games.create_game(
        NewGame(seats=seats, rules=RuleSet.from_dict(rules), seed=SEED)
    ).game_id


def _export(games: RummyApplication, game_id: UUID) -> Export:
    exported: Export = json.loads(
        msgspec.json.encode(audit_export(str(game_id), games.events_after(game_id)))
    )
    return exported


def _draw_and_discard(games: RummyApplication, game_id: UUID, turns: int) -> None:
    """Turns of drawing from the stock and discarding the card drawn: legal in every
    variant, whatever the variants' own moves become."""
    for _ in range(turns):
        table = games.state(game_id).table
        hand = table.hand
        assert hand is not None
        seat = hand.turn
        actions: list[Action] = []
        if Source.STOCK in legal_moves(table, seat).draw:
            actions.append(Draw(Source.STOCK))
            drawn = hand.stock[-1]
        else:  # Wrotham's starter opens without drawing: it holds eight
            drawn = hand.hands[seat][-1]
        actions.append(Discard(drawn))
        games.play(game_id, seat, actions)


@pytest.fixture(scope="module")
def played() -> dict[str, Export]:
    """Per variant: a game a few turns in (the seed still secret), as exported."""
    games = _games()
    exports = {}
    for name, rules in VARIANT_RULES.items():
        game_id = _create(games, rules, players=2 if name == "boathouse" else 3)
        _draw_and_discard(games, game_id, 4)
        exports[name] = _export(games, game_id)
    return exports


@pytest.mark.parametrize("name", list(VARIANT_RULES))
def test_a_variant_game_in_play_checks_out(played: dict[str, Export], name: str) -> None:
    export = played[name]
    verdict = verify_export(export)
    assert verdict.outcome is Outcome.UNFINISHED, verdict.report()
    # Four turns of a draw and a discard, but Wrotham's starter opens without a draw.
    assert verdict.tally.moves == (7 if name == "wrotham" else 8)
    rules = RuleSet.from_dict(export["rules"])
    assert rules.variant.value == export["rules"]["variant"]
    (dealt,) = export["hands"]
    assert len(dealt["deck"]) == rules.deck_size


# --- the header: every variant option, named by its path ---------------------------------------


HEADER_CHANGES = [
    ("wild", "jokers", 1),
    ("wild", "min_natural", 3),
    ("wild", "swap", False),
    ("wild", "swapped_wild", "meld_now"),
    ("wild", "wild_penalty", 20),
    ("wild", "wild_rank", "7"),
    ("wild", "variant", "classic"),
    ("deuces", "wild_rank", "3"),
    ("boathouse", "ace_value", 1),
    ("knock", "knock_penalty", 11),
    ("knock", "knock_bonus", 0),
    ("knock", "ace_value", 11),
    ("wrotham", "jokers", 2),
    ("wrotham", "deals", 5),
    ("wrotham", "min_natural", 1),
]


@pytest.mark.parametrize(("name", "option", "value"), HEADER_CHANGES)
def test_a_changed_variant_option_in_the_header_is_named_by_its_path(
    played: dict[str, Export], name: str, option: str, value: Any
) -> None:
    export = copy.deepcopy(played[name])
    assert export["rules"].get(option, "absent") != value
    export["rules"][option] = value
    found = failure(export)
    assert (found.field, found.position) == (f"rules.{option}", None)


@pytest.mark.parametrize(
    ("name", "option", "value"),
    [("wild", "knock_penalty", 10), ("knock", "wild_penalty", 15), ("boathouse", "swap", True)],
)
def test_an_option_the_variant_lacks_added_to_the_header_is_named(
    played: dict[str, Export], name: str, option: str, value: Any
) -> None:
    export = copy.deepcopy(played[name])
    export["rules"][option] = value
    found = failure(export)
    assert found.field == f"rules.{option}"
    assert "not part of the export" in found.message


def test_a_variant_option_dropped_from_the_header_is_named(played: dict[str, Export]) -> None:
    export = copy.deepcopy(played["knock"])
    del export["rules"]["knock_bonus"]
    found = failure(export)
    assert found.field == "rules.knock_bonus"
    assert "missing" in found.message


def test_a_variant_option_changed_in_the_log_itself_is_refused_or_replays_otherwise(
    played: dict[str, Export],
) -> None:
    # A forger who rewrites the creation's jokers (and the chain) makes a game whose
    # deck cannot be the one dealt: the first deal is no longer the game's pack.
    export = copy.deepcopy(played["wild"])
    export["events"][0]["data"]["rules"]["jokers"] = 1
    export["rules"]["jokers"] = 1
    found = failure(rechain(reseal(export)))
    assert (found.position, found.type) == (2, "hand_dealt")
    assert "not this game's pack" in found.message


# --- decks: the game's whole pack, a multiset ---------------------------------------------------


def _first_deal(export: Export) -> int:
    return next(i for i, event in enumerate(export["events"]) if event["type"] == "hand_dealt")


def test_a_deck_with_a_joker_changed_into_a_second_ace_is_not_the_pack(
    played: dict[str, Export],
) -> None:
    export = copy.deepcopy(played["wild"])
    index = _first_deal(export)
    deck = export["events"][index]["data"]["deck"]
    assert Counter(deck)["JK"] == 2
    deck[deck.index("JK")] = "AS"
    export["hands"][0]["deck"] = deck
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "hand_dealt")
    assert "AS 2 times" in found.message


def test_a_deck_without_its_jokers_is_not_the_pack(played: dict[str, Export]) -> None:
    export = copy.deepcopy(played["wrotham"])
    index = _first_deal(export)
    deck = [code for code in export["events"][index]["data"]["deck"] if code != "JK"]
    assert len(deck) == 52  # Wrotham's pack is 55 cards
    export["events"][index]["data"]["deck"] = deck
    export["hands"][0]["deck"] = deck
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "hand_dealt")
    assert "55 cards, not 52" in found.message


@pytest.mark.parametrize("name", ["wild", "wrotham"])
def test_with_the_seed_every_deal_is_the_shuffle_of_the_extended_pack(
    played: dict[str, Export], name: str
) -> None:
    # The seed is the one the game was created with; the referee derives the deck from
    # it (docs/fairness.md, the extended reference order) and the log must hold it.
    export = played[name]
    referee = Referee(seed=SEED, recorded=export["events"])
    for event in export["events"]:
        referee.take(event["type"], event["data"], event.get("seat"))
    assert referee.tally.hands_from_seed == 1
    rules = RuleSet.from_dict(export["rules"])
    client_seeds = ["" for _ in export["players"]]
    # Hand 1 is dealt from the first seed of the chain the game's seed makes.
    first = chain_of(SEED, export["rules"])[0]
    expected = card_codes(shuffle.deck_order(first, client_seeds, 1, rules.pack))
    assert export["hands"][0]["deck"] == expected
    # Independently of the code: the deck holds the 52 cards once and the jokers.
    assert Counter(expected) == Counter(
        [rank + suit for suit in "CDHS" for rank in ["A", *map(str, range(2, 11)), "J", "Q", "K"]]
        + ["JK"] * rules.jokers
    )


# --- the variants' moves, read back from their events -------------------------------------------


def _referee_at(export: Export) -> Referee:
    referee = Referee(seed=None, recorded=export["events"])
    for event in export["events"]:
        referee.take(event["type"], event["data"], event.get("seat"))
    return referee


def _action(referee: Referee, kind: str, data: dict[str, Any], seat: int = 0) -> Action:
    table = referee.table
    assert table is not None
    found_seat, action = referee._action(table, kind, data, seat)
    assert found_seat == seat
    return action


def cards(codes: str) -> tuple[Card, ...]:
    return tuple(parse_cards(codes.split()))


def test_a_meld_laid_with_as_is_read_back_with_its_reading(played: dict[str, Export]) -> None:
    referee = _referee_at(played["wild"])
    data = {"meld_id": "m1", "kind": "run", "cards": ["5H", "6H", "JK"], "as": ["5H", "6H", "7H"]}
    assert _action(referee, "meld_laid", data) == Meld(cards("5H 6H JK"), cards("5H 6H 7H"))
    without = {"meld_id": "m1", "kind": "set", "cards": ["8C", "8D", "8H"]}
    assert _action(referee, "meld_laid", without) == Meld(cards("8C 8D 8H"))


def test_a_card_laid_off_with_as_is_read_back_with_its_reading(played: dict[str, Export]) -> None:
    referee = _referee_at(played["wild"])
    data = {"meld_id": "m2", "card": "JK", "end": "high", "as": "9S"}
    assert _action(referee, "card_laid_off", data) == LayOff(JOKER, "m2", Card.parse("9S"))
    plain = {"meld_id": "m2", "card": "9S", "end": "high"}
    assert _action(referee, "card_laid_off", plain) == LayOff(Card.parse("9S"), "m2")


def test_a_wild_swapped_is_read_back_as_the_swap_that_made_it(played: dict[str, Export]) -> None:
    referee = _referee_at(played["wild"])
    data = {"meld_id": "m1", "card": "7H", "wild": "JK", "as": "7H"}
    assert _action(referee, "wild_swapped", data) == Swap("m1", Card.parse("7H"))


def test_a_knocked_is_read_back_as_the_knock_that_made_it(played: dict[str, Export]) -> None:
    referee = _referee_at(played["knock"])
    assert _action(referee, "knocked", {"card": "KD"}) == Knock(Card.parse("KD"))


@pytest.mark.parametrize("source", ["stock", "discard"])
def test_a_second_draw_is_read_back_as_a_draw(played: dict[str, Export], source: str) -> None:
    referee = _referee_at(played["boathouse"])
    data = {"source": source, "card": "4C", "second": True}
    assert _action(referee, "card_drawn", data) == Draw(Source(source))


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("meld_laid", {"meld_id": "m1", "kind": "run", "cards": ["5H", "6H", "JK"], "as": "7H"}),
        ("meld_laid", {"meld_id": "m1", "kind": "run", "cards": ["5H", "6H", "JK"], "as": ["X"]}),
        ("card_laid_off", {"meld_id": "m1", "card": "JK", "end": "low", "as": ["4H"]}),
        ("wild_swapped", {"card": "7H", "wild": "JK", "as": "7H"}),
        ("knocked", {}),
        ("knocked", {"card": "1H"}),
    ],
)
def test_a_malformed_variant_event_is_named(
    played: dict[str, Export], kind: str, data: dict[str, Any]
) -> None:
    referee = _referee_at(played["wild"])
    table = referee.table
    assert table is not None
    with pytest.raises(Mismatch, match=f"malformed {kind}"):
        referee._action(table, kind, data, 0)


def test_a_knock_where_the_variant_has_none_breaks_the_rules(played: dict[str, Export]) -> None:
    # A wild game has no knock: a `knocked` event there is refused by the rules.
    export = copy.deepcopy(played["wild"])
    referee = _referee_at(export)
    table = referee.table
    assert table is not None
    assert table.hand is not None
    seat = table.hand.turn
    held = table.hand.hands[seat][0]
    referee.take("card_drawn", {"source": "stock", "card": table.hand.stock[-1].code}, seat)
    with pytest.raises(Mismatch, match="breaks the rules"):
        referee.take("knocked", {"card": held.code}, seat)


# --- members the rules do not produce ----------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "member", "value"),
    [
        ("card_drawn", "second", False),
        ("card_drawn", "second", True),
        ("card_discarded", "as", None),
    ],
)
def test_a_member_the_rules_do_not_produce_is_named_at_its_event(
    played: dict[str, Export], kind: str, member: str, value: Any
) -> None:
    export = copy.deepcopy(played["knock"])
    index = next(i for i, event in enumerate(export["events"]) if event["type"] == kind)
    export["events"][index]["data"][member] = value
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, kind)
    assert f"it has {member}" in found.message


def test_an_as_added_to_a_classic_meld_is_named() -> None:
    from tests.audit_stream.games import finished, new_game

    games = _games()
    game_id, _ = new_game(games)
    export = finished(games, game_id)
    index = next(i for i, event in enumerate(export["events"]) if event["type"] == "meld_laid")
    export["events"][index]["data"]["as"] = export["events"][index]["data"]["cards"]
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "meld_laid")


# --- whole variant games ----------------------------------------------------------------------


def _variant_move(games: RummyApplication, game_id: UUID) -> tuple[int, list[Action]]:
    """A plain player of any variant: the first knock, reading or meld offered, else
    the first lay-off, else draw (stock first) or discard its highest card."""
    table = games.state(game_id).table
    hand = table.hand
    assert hand is not None
    seat = hand.turn
    moves = legal_moves(table, seat)
    if moves.draw:
        return seat, [Draw(Source.STOCK if Source.STOCK in moves.draw else moves.draw[0])]
    if moves.knock and len(hand.hands[seat]) > 1:
        return seat, [Knock(sorted_cards(moves.knock)[-1])]
    for cards_, as_ in moves.meld_readings:
        return seat, [Meld(cards_, as_)]
    for cards_ in moves.melds:
        return seat, [Meld(cards_)]
    for card, meld_id, reading in moves.wild_lay_offs:
        return seat, [LayOff(card, meld_id, reading)]
    for card, meld_id in moves.lay_offs:
        return seat, [LayOff(card, meld_id)]
    return seat, [Discard(sorted_cards(moves.discard)[-1])]


def _finished_variant(name: str) -> Export:
    games = _games()
    game_id = _create(games, VARIANT_RULES[name], players=2 if name == "boathouse" else 3)
    for _ in range(20_000):
        if games.state(game_id).table.status is Status.FINISHED:
            break
        seat, actions = _variant_move(games, game_id)
        games.play(game_id, seat, actions)
    export = _export(games, game_id)
    export["seed"] = export["seed"] or SEED
    return export


@pytest.mark.parametrize("name", list(VARIANT_RULES))
def test_a_finished_variant_game_verifies(name: str) -> None:
    export = _finished_variant(name)
    verdict = verify_export(export)
    assert verdict.outcome is Outcome.VERIFIED, verdict.report()


def test_a_changed_reading_of_a_wild_meld_breaks_the_rules_at_that_meld() -> None:
    export = _finished_variant("wild")
    index = next(
        i
        for i, event in enumerate(export["events"])
        if event["type"] == "meld_laid" and "JK" in event["data"]["cards"]
    )
    data = export["events"][index]["data"]
    place = data["cards"].index("JK")
    # Name a card the joker cannot stand for in that meld: the ace of another suit.
    data["as"][place] = next(c for c in ("AC", "AD", "AH", "AS") if c not in data["as"])
    found: Finding = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "meld_laid")


def test_a_changed_knock_card_is_named_at_the_knock_or_the_result() -> None:
    export = _finished_variant("knock")
    index = next(i for i, event in enumerate(export["events"]) if event["type"] == "knocked")
    knocked = export["events"][index]
    # Another card: one the knocker did not hold (refused at the knock), or one it
    # held, which changes its count (refused at the hand's result).
    knocked["data"]["card"] = next(
        code for code in ("AC", "2C", "3C", "4C") if code != knocked["data"]["card"]
    )
    found = failure(rechain(export))
    assert found.position is not None
    assert found.position >= index + 1


def test_a_changed_pot_is_named_at_the_end_of_its_hand() -> None:
    export = _finished_variant("knock")
    index = next(
        i
        for i, event in enumerate(export["events"])
        if event["type"] == "hand_ended" and event["data"].get("pot") is not None
    )
    export["events"][index]["data"]["pot"] += 1
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "hand_ended")
    assert "pot" in found.message


def test_every_knock_count_is_the_one_of_the_reference_search_of_docs_audit_md() -> None:
    from tests.audit_stream.test_audit_doc import DOC, _block

    namespace: dict[str, Any] = {}
    exec(compile(_block("<!-- reference-knock-count"), str(DOC), "exec"), namespace)
    knock_count = namespace["knock_count"]
    export = _finished_variant("knock")
    results = [
        event["data"]
        for event in export["events"]
        if event["type"] == "hand_ended" and event["data"]["how"] == "knock"
    ]
    assert results, "the plain player knocks in every hand"
    for result in results:
        for seat, held in enumerate(result["remaining"]):
            count, unmatched, _ = knock_count(held)
            assert result["counts"][seat] == count
            assert result["unmatched"][seat] == unmatched


# --- the rules on whole requests, as a turn of the log shows them -------------------------------


def _table_of(rules: dict[str, Any], players: int = 2) -> Any:
    games = _games()
    game_id = _create(games, rules, players)
    table = _referee_at(_export(games, game_id)).table
    assert table is not None
    assert table.hand is not None
    return table


def _meld(seat: int, codes: str) -> MeldLaid:
    return MeldLaid(seat, "m1", MeldKind.RUN, cards(codes))


def test_a_meld_now_wild_must_leave_by_a_meld_before_the_turn_ends() -> None:
    table = _table_of({"variant": "wild", "swapped_wild": "meld_now"})
    seat = table.hand.turn
    swap = WildSwapped(seat, "m1", Card.parse("7H"), JOKER, Card.parse("7H"))
    discard = CardDiscarded(seat, table.hand.hands[seat][0])
    limits = TurnLimits()
    limits.check(table, swap)
    with pytest.raises(TurnLimitBroken, match="swapped_wild_unused"):
        limits.check(table, discard)
    settled = TurnLimits()
    settled.check(table, swap)
    settled.check(table, _meld(seat, "9C 9D JK"))
    settled.check(table, discard)


def test_a_free_wild_may_stay_in_hand() -> None:
    table = _table_of({"variant": "wild"})
    seat = table.hand.turn
    limits = TurnLimits()
    limits.check(table, WildSwapped(seat, "m1", Card.parse("7H"), JOKER, Card.parse("7H")))
    limits.check(table, CardDiscarded(seat, table.hand.hands[seat][0]))


@pytest.mark.parametrize(("deal", "concealed"), [(1, False), (3, False), (4, True), (6, True)])
def test_wrotham_lays_cards_in_deals_4_to_6_only_in_a_turn_that_goes_out(
    deal: int, concealed: bool
) -> None:
    table = _table_of({"variant": "wrotham"}, players=3)
    table.hand.number = deal
    seat = table.hand.turn
    limits = TurnLimits()
    limits.check(table, _meld(seat, "5C 6C 7C"))
    discard = CardDiscarded(seat, table.hand.hands[seat][0])
    if concealed:
        with pytest.raises(TurnLimitBroken, match="meld_only_going_out"):
            limits.check(table, discard)
    else:
        limits.check(table, discard)
    # A turn that empties the hand by its discard goes out: allowed in every deal.
    going_out = TurnLimits()
    going_out.check(table, _meld(seat, "5C 6C 7C"))
    table.hand.hands[seat] = []
    going_out.check(table, discard)


def test_wrotham_concealed_going_out_needs_the_final_discard() -> None:
    table = _table_of({"variant": "wrotham"}, players=3)
    table.hand.number = 5
    seat = table.hand.turn
    table.hand.hands[seat] = []
    with pytest.raises(TurnLimitBroken, match="must_discard_last"):
        TurnLimits().check(table, _meld(seat, "5C 6C 7C"))
    table.hand.number = 2
    TurnLimits().check(table, _meld(seat, "5C 6C 7C"))


def test_a_boathouse_meld_in_a_turn_that_does_not_go_out_is_named() -> None:
    # A classic game's log, its rules rewritten as Boathouse's (same pack, same deal
    # for two players, the simple player draws only from the stock): its first meld
    # is laid in a turn that does not go out, which Boathouse forbids.
    from tests.audit_stream.games import finished, new_game

    games = _games()
    game_id, _ = new_game(games)
    export = finished(games, game_id)
    events = export["events"]
    meld = next(
        i
        for i, event in enumerate(events)
        if event["type"] == "meld_laid"
        and (end := _turn_end(events, i)) is not None
        and events[end + 1]["type"] != "hand_ended"
    )
    end = _turn_end(events, meld)
    assert end is not None
    boathouse = RuleSet.from_dict({"variant": "boathouse", "deals": 2}).to_dict()
    events[0]["data"]["rules"] = boathouse
    export["rules"] = boathouse
    found = failure(rechain(reseal(export)))
    assert found.position is not None
    assert meld + 1 <= found.position <= end + 1, found


def _turn_end(events: list[dict[str, Any]], index: int) -> int | None:
    """The index of the discard that ends the turn of event `index`, if it has one."""
    for later in range(index, len(events)):
        if events[later]["type"] == "card_discarded":
            return later
        if events[later]["type"] == "hand_ended":
            return None
    return None
