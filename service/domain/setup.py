"""Checks on a new game, so an impossible one fails at creation, never mid-game."""

from __future__ import annotations

from collections.abc import Sequence

from service.domain.cards import Card
from service.domain.dealing import check_deck
from service.domain.errors import InvalidDeck, InvalidSeating
from service.domain.rules import RuleSet


def check_new_game(
    rules: RuleSet,
    players: int,
    decks: Sequence[Sequence[Card]] = (),
    dealer: int | None = None,
) -> None:
    """Raise the first reason a game with these settings may not be created."""
    check_playable(rules, players, decks, dealer)
    # Creation policy, not a rule of play: games stored before it are still games
    # (the verifier checks them with `check_playable` alone), and so are games made
    # with larger caps than today's.
    rules.check_can_end()
    rules.check_caps()


def check_playable(
    rules: RuleSet,
    players: int,
    decks: Sequence[Sequence[Card]] = (),
    dealer: int | None = None,
) -> None:
    """Raise the first reason a game with these settings could not be played."""
    rules.check_seat_count(players)
    rules.check_players(players)
    rules.hand_size_for(players)
    whole = rules.pack
    for number, deck in enumerate(decks, start=1):
        try:
            check_deck(deck, whole)
        except InvalidDeck as invalid:
            raise InvalidDeck(f"Deck {number}: {invalid.message}") from None
    if dealer is not None and not 0 <= dealer < players:
        raise InvalidSeating(f"The dealer must be a seat from 0 to {players - 1}, not {dealer}.")
