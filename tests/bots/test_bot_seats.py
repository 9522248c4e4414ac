"""Bot seats in the service: the application plays their turns itself, as ordinary
events with the bot's seat as the actor, in the command that led to them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from random import Random
from typing import Any
from uuid import UUID

import pytest

from service.bootstrap import open_games
from service.bots import strategies
from service.bots.seats import bot_rng
from service.bots.strategies import STRATEGIES, play_random
from service.bots.view import BotView
from service.config import Settings, Store
from service.domain.actions import Action, Discard, Draw, LayOff, Meld
from service.domain.cards import Card
from service.domain.errors import InvalidSeating
from service.domain.state import Source, Status
from service.game.application import RummyApplication
from service.game.commands import Idempotency, NewGame, NewSeat
from service.game.results import GameState
from service.projections.event_views import CardDiscardedView, CardDrawnView, event_view
from service.projections.views import Viewer, game_view

HUMAN, BOT = 0, 1


def memory_games() -> RummyApplication:
    return open_games(Settings(store=Store.MEMORY))


def sqlite_games(path: Path) -> RummyApplication:
    return open_games(Settings(store=Store.SQLITE, sqlite_path=str(path)))


def new_game(bot: str = "basic", *, dealer: int = BOT, seed: str = "bot-seats") -> NewGame:
    """A person in seat 0 and a bot in seat 1; with the bot dealing, the person starts."""
    return NewGame(seats=[NewSeat("Ann"), NewSeat("Robo", bot=bot)], seed=seed, dealer=dealer)


def human_turn(games: RummyApplication, game_id: UUID, rng: Random) -> GameState:
    """The person plays one whole turn of random legal moves, one command per move."""
    state = games.state(game_id)
    hand_number = state.table.hand_number
    while True:
        action = play_random(game_view(state, Viewer(seat=HUMAN)), rng)
        state = games.play(game_id, HUMAN, [action]).state
        if isinstance(action, Discard) or state.table.hand_number != hand_number:
            return state
        if state.table.status is not Status.PLAYING:
            return state


def moves(games: RummyApplication, game_id: UUID, after: int = 0) -> list[tuple[str, int | None]]:
    return [(event.event_type, event.seat) for event in games.events_after(game_id, after)]


def test_a_bot_that_moves_first_has_played_its_turn_when_the_game_is_created():
    games = memory_games()
    created = games.create_game(new_game(dealer=HUMAN))
    state = games.state(created.game_id)
    assert state.table.hand is not None
    assert state.table.hand.turn == HUMAN
    played = moves(games, created.game_id)
    assert played[:3] == [("game_created", None), ("hand_dealt", None), ("card_drawn", BOT)]
    assert played[-1] == ("card_discarded", BOT)
    assert created.version == state.version


def test_a_bot_replies_within_the_command_of_the_person_before_it():
    games = memory_games()
    created = games.create_game(new_game())
    before = games.state(created.game_id).version
    state = games.play(created.game_id, HUMAN, [Draw(Source.STOCK)]).state
    assert state.table.hand is not None
    assert state.table.hand.turn == HUMAN, "still Ann's turn"
    legal = game_view(state, Viewer(seat=HUMAN)).legal
    assert legal is not None
    card = legal.discard[0]
    after = games.play(created.game_id, HUMAN, [Discard(Card.parse(card))]).state
    assert after.table.hand is not None
    assert after.table.hand.turn == HUMAN, "the bot has moved and it is Ann's turn again"
    played = moves(games, created.game_id, before)
    assert played[:2] == [("card_drawn", HUMAN), ("card_discarded", HUMAN)]
    assert ("card_drawn", BOT) in played[2:]
    assert played[-1] == ("card_discarded", BOT)
    assert after.version == games.state(created.game_id).version


def test_the_person_sees_the_bots_moves_in_its_view_and_events():
    games = memory_games()
    created = games.create_game(new_game(dealer=HUMAN))
    state = games.state(created.game_id)
    view = game_view(state, Viewer(seat=HUMAN))
    assert view.players[BOT].bot == "basic"
    assert view.players[HUMAN].bot is None
    events = [
        event_view(event, Viewer(seat=HUMAN), state.table.rules, 2, chain="0" * 64)
        for event in games.events_after(created.game_id)
    ]
    bot_moves = [event for event in events if event.seat == BOT]
    assert next(type(event) for event in bot_moves) is CardDrawnView
    last = bot_moves[-1]
    assert isinstance(last, CardDiscardedView)
    assert view.discard_top == last.card
    for event in bot_moves:
        if isinstance(event, CardDrawnView) and event.source == "stock":
            assert event.card is None, "the bot's stock draw stays hidden from the person"


def test_a_bot_seat_gets_no_token_so_nobody_can_act_for_it_or_see_its_hand():
    games = memory_games()
    created = games.create_game(new_game())
    assert set(created.tokens) == {HUMAN}


def test_a_game_plays_to_the_end_with_every_bot_move_an_ordinary_event():
    games = memory_games()
    created = games.create_game(new_game())
    rng = Random(5)
    state = games.state(created.game_id)
    for _ in range(2000):
        if state.table.status is Status.FINISHED:
            break
        assert state.table.hand is not None
        assert state.table.hand.turn == HUMAN
        state = human_turn(games, created.game_id, rng)
    assert state.table.status is Status.FINISHED
    assert state.table.winner is not None
    seats = {seat for _, seat in moves(games, created.game_id)}
    assert seats == {None, HUMAN, BOT}


def test_bots_replay_exactly_from_the_stored_events(tmp_path: Path):
    """Another process reading the store rebuilds the very same game, and a second
    service given the same seed and the same moves makes the same bot moves."""
    path = tmp_path / "bots.sqlite"
    games = sqlite_games(path)
    created = games.create_game(new_game(seed="replay"))
    rng = Random(11)
    for _ in range(12):
        state = human_turn(games, created.game_id, rng)
        if state.table.status is Status.FINISHED:
            break
    live = games.state(created.game_id)

    reread = sqlite_games(path).state(created.game_id)
    assert reread.version == live.version
    assert reread.table == live.table

    again = memory_games()
    rerun = again.create_game(new_game(seed="replay"))
    rng = Random(11)
    for _ in range(12):
        state = human_turn(again, rerun.game_id, rng)
        if state.table.status is Status.FINISHED:
            break
    assert [(e.event_type, e.seat, e.data()) for e in again.events_after(rerun.game_id, 1)] == [
        (e.event_type, e.seat, e.data()) for e in games.events_after(created.game_id, 1)
    ]


def test_each_bot_move_is_what_its_strategy_decides_from_its_view_at_that_version():
    """An auditor with the revealed seed can check every bot move."""
    games = memory_games()
    created = games.create_game(new_game(dealer=HUMAN, seed="audit-bots"))
    rng = Random(2)
    for _ in range(8):
        human_turn(games, created.game_id, rng)
    seed = games.state(created.game_id).seed
    checked = 0
    recycled = False
    for event in games.events_after(created.game_id, 1):
        if event.seat != BOT:
            continue
        if event.event_type == "stock_recycled":
            recycled = True  # part of the draw that follows: decided before it
            continue
        decided_at = event.originator_version - (2 if recycled else 1)
        recycled = False
        before = games.state(created.game_id, decided_at)
        decided = STRATEGIES["basic"](
            game_view(before, Viewer(seat=BOT)), bot_rng(seed, before.version)
        )
        assert decided == _as_action(event.event_type, event.data())
        checked += 1
    assert checked > 10


def _as_action(event_type: str, data: dict[str, Any]) -> Action:
    match event_type:
        case "card_drawn":
            return Draw(Source(data["source"]))
        case "meld_laid":
            return Meld(tuple(Card.parse(code) for code in data["cards"]))
        case "card_laid_off":
            return LayOff(Card.parse(data["card"]), data["meld_id"])
        case "card_discarded":
            return Discard(Card.parse(data["card"]))
    raise AssertionError(f"not a move: {event_type}")


def test_an_idempotent_retry_answers_with_the_bots_reply_too():
    games = memory_games()
    created = games.create_game(new_game())
    game_id = created.game_id
    games.play(game_id, HUMAN, [Draw(Source.STOCK)])
    legal = game_view(games.state(game_id), Viewer(seat=HUMAN)).legal
    assert legal is not None
    discard = [Discard(Card.parse(legal.discard[0]))]
    request = Idempotency(key="k-1", digest="d-1")
    first = games.play(game_id, HUMAN, discard, idempotency=request).state
    retried = games.play(game_id, HUMAN, discard, idempotency=request).state
    assert retried.version == first.version == games.state(game_id).version
    assert moves(games, game_id)[-1] == ("card_discarded", BOT)


def test_when_the_last_seat_fills_a_bot_that_moves_first_plays_at_once():
    games = memory_games()
    created = games.create_game(
        NewGame(
            seats=[None, NewSeat("Robo", bot="basic")], seed="join-1", dealer=HUMAN, by_admin=True
        )
    )
    assert games.state(created.game_id).table.status is Status.WAITING
    joined = games.join_game(created.game_id, NewSeat("Ann"))
    assert joined.seat == HUMAN
    state = games.state(created.game_id)
    assert joined.version == state.version
    assert state.table.hand is not None
    assert state.table.hand.turn == HUMAN
    assert moves(games, created.game_id)[-1] == ("card_discarded", BOT)


@pytest.mark.parametrize(
    "seats",
    [
        [NewSeat("Robo", bot="basic"), NewSeat("Rand", bot="random")],
        [NewSeat("Robo", bot="basic"), NewSeat("Robo 2", bot="basic"), NewSeat("R3", bot="random")],
    ],
)
def test_a_table_of_bots_only_is_refused(seats: Sequence[NewSeat]):
    with pytest.raises(InvalidSeating, match="at least one seat for a person"):
        memory_games().create_game(NewGame(seats=seats))


def test_an_unknown_strategy_is_refused():
    with pytest.raises(InvalidSeating, match="no bot strategy 'clever'"):
        memory_games().create_game(NewGame(seats=[NewSeat("Ann"), NewSeat("X", bot="clever")]))


@pytest.mark.parametrize("bot", sorted(STRATEGIES))
def test_three_players_with_a_bot_between_two_people(bot: str):
    games = memory_games()
    created = games.create_game(
        NewGame(
            seats=[NewSeat("Ann"), NewSeat("Robo", bot=bot), NewSeat("Cleo")],
            seed=f"three-{bot}",
            rules=new_game().rules,
        )
    )
    rng = Random(3)
    for _ in range(60):
        state = games.state(created.game_id)
        if state.table.status is Status.FINISHED:
            break
        assert state.table.hand is not None
        seat = state.table.hand.turn
        assert seat != BOT, "it is never the bot's turn once a command is over"
        action = play_random(game_view(state, Viewer(seat=seat)), rng)
        games.play(created.game_id, seat, [action])
    assert BOT in {seat for _, seat in moves(games, created.game_id)}


def test_a_strategy_that_errs_never_stalls_the_game(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
):
    """A bot that picks an illegal move plays its first legal one instead, and says so."""

    def confused(view: object, rng: Random) -> Action:
        return Discard(Card.parse("AS"))  # never legal before the draw

    monkeypatch.setattr(strategies, "STRATEGIES", {**STRATEGIES, "basic": confused})
    games = memory_games()
    with caplog.at_level("ERROR", logger="service.bots"):
        created = games.create_game(new_game(dealer=HUMAN, seed="confused"))
    state = games.state(created.game_id)
    assert state.table.hand is not None
    assert state.table.hand.turn == HUMAN
    assert "chose an illegal" in caplog.text


def test_an_application_without_computer_players_refuses_a_bot_seat() -> None:
    games = open_games(Settings(store=Store.MEMORY), bots=None)
    with pytest.raises(InvalidSeating, match="no computer players"):
        games.create_game(NewGame(seats=[NewSeat("Ann"), NewSeat("Robo", bot="basic")]))


def test_a_strategy_that_fails_never_fails_the_person_s_request(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
):
    """A strategy that raises plays its seat's first legal move instead, and says so:
    the person whose move led to the bot's turn gets their answer, not a 500."""

    def broken(view: object, rng: Random) -> Action:
        raise KeyError("a bug in a strategy")

    monkeypatch.setattr(strategies, "STRATEGIES", {**STRATEGIES, "basic": broken})
    games = memory_games()
    with caplog.at_level("ERROR", logger="service.bots"):
        created = games.create_game(new_game(dealer=HUMAN, seed="broken"))
    state = games.state(created.game_id)
    assert state.table.hand is not None
    assert state.table.hand.turn == HUMAN
    assert "failed to choose" in caplog.text
    assert [entry for entry in moves(games, created.game_id) if entry[1] == BOT]


def test_a_strategy_may_play_a_whole_request_and_an_illegal_one_is_not_played(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
):
    """A strategy may answer with several actions (a concealed going out must be
    one request): a legal list is played whole; a list the rules refuse anywhere in
    it is not played at all, and the first legal action is played instead."""
    chosen: list[Card] = []

    def draw_and_discard(view: object, rng: Random) -> tuple[Action, ...]:
        bot = BotView.read(view)  # type: ignore[arg-type]
        chosen.append(bot.hand[0])
        return (Draw(Source.STOCK), Discard(bot.hand[0]))  # legal as one list in classic

    monkeypatch.setattr(strategies, "STRATEGIES", {**STRATEGIES, "basic": draw_and_discard})
    games = memory_games()
    created = games.create_game(new_game(dealer=BOT, seed="lists"))  # the person starts
    rng = Random(1)
    before = len(moves(games, created.game_id))
    state = human_turn(games, created.game_id, rng)
    bot_moves = [entry for entry in moves(games, created.game_id, before) if entry[1] == BOT]
    assert bot_moves == [("card_drawn", BOT), ("card_discarded", BOT)]
    assert state.table.hand is not None
    assert state.table.hand.discard[-1] == chosen[-1]

    def refused(view: object, rng: Random) -> tuple[Action, ...]:
        return (Draw(Source.STOCK), Discard(Card.parse("JK")))  # no joker in classic

    monkeypatch.setattr(strategies, "STRATEGIES", {**STRATEGIES, "basic": refused})
    before = len(moves(games, created.game_id))
    with caplog.at_level("ERROR", logger="service.bots"):
        human_turn(games, created.game_id, rng)
    assert "chose an illegal" in caplog.text
    # Only the first legal action (a draw) was played for the bot, not the list.
    bot_moves = [entry for entry in moves(games, created.game_id, before) if entry[1] == BOT]
    assert bot_moves[0] == ("card_drawn", BOT)
