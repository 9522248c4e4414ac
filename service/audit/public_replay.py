"""Replaying a `hand_chain` game's public events on the decks its revealed hand seeds
derive (docs/fairness.md "Checking a hand as it ends").

The referee (service/audit/referee.py) replays an export, where every card is
written down. The public events hide some: a draw from the stock by a seat
(`card` absent), a knock's card until the hand's result shows it, a recycled
stock's order, the deal's deck. Here the referee's rules decide those from the
deck that the hand's seed and the deal's public client seeds give, and every
card the public events do show is held to them: a seat can only discard, meld,
lay off, swap, declare or show what the derived deal and its draws gave it, a
draw from the pile takes the pile's top, and each seat's cards at the hand's
end are the ones the replay leaves it. So a deck other than the one dealt
fails at the first card it does not fit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from service.audit.mismatch import Mismatch
from service.audit.referee import Referee
from service.domain import events as domain
from service.domain import shuffle
from service.domain.cards import Card, card_codes, sorted_cards

_ENVELOPE = frozenset({"type", "version", "at", "seat", "chain"})
_ABOUT_A_SEAT = frozenset({"player_eliminated", "turn_timed_out", "time_bank_used", "player_left"})
"""The system's events about a seat: the view shows it as `seat`, the log as `player`."""
_DEAL_SHOWN = frozenset(
    {"upcard", "stock_count", "hand_size", "my_cards", "wild_rank", "wild_indicator"}
)
"""What a public `hand_dealt` shows of the deal itself: service/audit/public.py checks
it against the derived deck before the replay."""


@dataclass(frozen=True, slots=True)
class RevealedDecks:
    """The decks, recycles and first dealer of the hands whose seeds are revealed and
    checked, from those seeds and each deal's public client seeds (docs/fairness.md)."""

    pack: Sequence[Card]
    seeds: Mapping[int, str]
    clients: Mapping[int, Sequence[str]]

    def _of(self, hand_number: int) -> tuple[str, Sequence[str]]:
        if hand_number not in self.seeds:
            raise Mismatch(f"hand {hand_number} has not ended: its seed is not revealed yet")
        return self.seeds[hand_number], self.clients[hand_number]

    def first_dealer(self, players: int) -> int:
        seed, clients = self._of(1)
        return shuffle.first_dealer(seed, clients, players)

    def deck(self, hand_number: int) -> list[Card]:
        seed, clients = self._of(hand_number)
        return shuffle.deck_order(seed, clients, hand_number, self.pack)

    def recycled_stock(
        self, hand_number: int, recycle_number: int, discards: Sequence[Card]
    ) -> list[Card]:
        seed, clients = self._of(hand_number)
        return shuffle.recycle_order(seed, clients, hand_number, recycle_number, discards)


@dataclass
class PublicReferee(Referee):
    """The referee, fed public event views (`take_public`) and dealing from the hands'
    revealed seeds (`seeds`, `clients`: filled in by the caller as each hand's seed is
    checked). What a view hides, the rules decide; what it shows must match."""

    seeds: dict[int, str] = field(default_factory=dict)
    clients: dict[int, list[str]] = field(default_factory=dict)

    @property
    def _decks(self) -> RevealedDecks:  # type: ignore[override]
        assert self.table is not None, "decks are asked for only once the game is set up"
        return RevealedDecks(self.table.rules.pack, self.seeds, self.clients)

    def seed_for(self, hand_number: int) -> str | None:
        return self.seeds.get(hand_number)

    def has_seed(self, hand_number: int) -> bool:
        return hand_number in self.seeds

    def take_public(self, event: Mapping[str, Any], later: Iterable[Mapping[str, Any]]) -> None:
        """Replay one public event view; `later` are the views after it in the same hand
        (a knock's card is shown only by the hand's end). Raises `Mismatch`."""
        kind = event["type"]
        if kind == "game_created":
            self._created(_created_as_logged(event))
            # The seeds were checked link by link before the replay (service/audit/public.py).
            self.chain = None
            return
        data = {key: value for key, value in event.items() if key not in _ENVELOPE}
        seat = event.get("seat")
        actor: int | None = None
        if kind in _ABOUT_A_SEAT:
            data["player"] = seat
        elif kind in _PLAYER_EVENT_NAMES:
            actor = seat
        if kind == "player_joined":
            data["client_seed"] = ""  # public from the deal on (`hand_dealt`'s client_seeds)
        if kind == "knocked" and data.get("card") is None:
            data["card"] = _knock_card(later)
        self.take(kind, data, actor)

    def _compare(
        self,
        expected: domain.Event,
        expected_actor: int | None,
        kind: str,
        data: Mapping[str, Any],
        actor: int | None,
    ) -> None:
        """What the rules produce, as the public sees it, must be what the view shows:
        the referee's comparison, with the cards a view hides taken as the rules' and
        the hand's end compared as its view shows it."""
        shown = dict(data)
        match expected:
            case domain.HandDealt(deck=deck):
                shown = {key: value for key, value in shown.items() if key not in _DEAL_SHOWN}
                shown.pop("client_seeds", None)
                shown["deck"] = card_codes(deck)
            case domain.CardDrawn(card=card) if shown.get("card") is None:
                shown["card"] = card.code  # a stock draw: the derived stock's next card
            case domain.Knocked(card=card) if shown.get("card") is None and card is not None:
                shown["card"] = card.code
            case domain.StockRecycled(stock=stock):
                count = shown.pop("stock_count", None)
                if count != len(stock):
                    raise Mismatch(f"the new stock has {len(stock)} cards, not the {count!r} shown")
                shown["stock"] = card_codes(stock)
            case domain.HandEnded():
                # Its kind and cause as any event's; then its result as the view shows it.
                super()._compare(expected, expected_actor, kind, _plain(expected), actor)
                _compare_result(expected, shown)
                return
            case domain.GameFinished(result=result) if result is not None:
                # Gin's final reckoning is shown per seat; its totals are compared.
                shown["result"] = _plain(expected)["result"]
        super()._compare(expected, expected_actor, kind, shown, actor)

    def holding(self, seat: Any) -> str | None:
        """What `seat` holds now under the derived deck, for a message; None if unknown."""
        hand = None if self.table is None else self.table.hand
        if hand is None or type(seat) is not int or not 0 <= seat < len(hand.hands):
            return None
        return " ".join(card_codes(sorted_cards(hand.hands[seat]))) or "nothing"


_PLAYER_EVENT_NAMES = frozenset(domain.name_of(event) for event in domain.PLAYER_EVENTS)


def _plain(event: domain.Event) -> dict[str, Any]:
    return domain.plain(event)[1]


def _created_as_logged(view: Mapping[str, Any]) -> dict[str, Any]:
    """The public `game_created` in the log's form: the seats' client seeds are not
    public yet (each deal shows them) and given deck orders never are."""
    return {
        "rules": view["rules"],
        "seats": [
            None
            if player["name"] is None
            else {"name": player["name"], "client_seed": "", "bot": player.get("bot")}
            for player in view["players"]
        ],
        "decks": [],
        "dealer": view.get("dealer"),
        "seed_commitment": view["seed_commitment"],
        "seed_scheme": view["seed_scheme"],
        "rules_digest": view["rules_digest"],
        "deal": view["deal"],
    }


def _knock_card(later: Iterable[Mapping[str, Any]]) -> str | None:
    """The knock card the hand's end shows (none for gin's big gin)."""
    for event in later:
        if event["type"] == "hand_ended":
            card = event.get("knock_card")
            return None if card is None else str(card)
    return None


def _compare_result(expected: domain.Event, shown: Mapping[str, Any]) -> None:
    """A hand's end as its public view shows it (`hand_results.last_hand`): how it
    ended, and each seat's cards left, their value, its points and total."""
    assert isinstance(expected, domain.HandEnded)
    wanted: dict[str, Any] = {
        "hand_number": expected.hand_number,
        "how": expected.how.value,
        "out_seat": expected.out_seat,
        "knocker": expected.knocker,
        "knock_card": None if expected.knock_card is None else expected.knock_card.code,
        "pot": expected.pot,
        "eliminated": None if expected.eliminated is None else list(expected.eliminated),
        "hand_winner": expected.hand_winner,
    }
    number = expected.hand_number
    for key, value in wanted.items():
        if shown.get(key) != value:
            raise Mismatch(f"hand {number} ended with {key} {value!r}, not {shown.get(key)!r}")
    players = shown.get("players")
    if not isinstance(players, list) or len(players) != len(expected.remaining):
        raise Mismatch(f"hand {number}'s result shows {players!r}, not one entry per seat")
    for seat, entry in enumerate(players):
        cards = card_codes(sorted_cards(expected.remaining[seat]))
        each = {
            "seat": seat,
            "cards": cards,
            "value": expected.values[seat],
            "points": expected.points[seat],
            "total": expected.totals[seat],
        }
        for key, value in each.items():
            if not isinstance(entry, Mapping) or entry.get(key) != value:
                found = entry.get(key) if isinstance(entry, Mapping) else entry
                raise Mismatch(
                    f"hand {number} ended with seat {seat}'s {key} {value!r} under the "
                    f"derived deck, not {found!r}"
                )
