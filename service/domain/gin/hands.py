"""Gin Rummy's hands (docs/rules.md "Gin Rummy"): the deal and its `apply`, what
follows by itself (a knock's reckoning, a void hand, the next deal, the game's end
with its bonuses, a forfeit) and the scores.
"""

from __future__ import annotations

from collections.abc import Sequence

from service.domain import caps
from service.domain.cards import Card, Rank, Suit
from service.domain.dealing import deal
from service.domain.decks import DeckSource
from service.domain.events import Event, GameFinished, HandDealt, HandEnded
from service.domain.gin import deadwood
from service.domain.gin.options import gin_options
from service.domain.rules import RuleSet
from service.domain.scoring import card_value, hand_value
from service.domain.state import (
    GinFinal,
    GinHand,
    HandEnding,
    HandState,
    KnockKind,
    LaidOff,
    Phase,
    Table,
    gin_of,
)

SEATS = 2
HAND_SIZE = 10
VOID_STOCK = 2
"""A discard that leaves this many cards or fewer in the stock voids the hand."""


def first_deal(table: Table, decks: DeckSource) -> HandDealt:
    dealer = table.first_dealer
    if dealer is None:
        dealer = decks.first_dealer(table.seat_count)
    return HandDealt(hand_number=1, dealer=dealer, deck=tuple(decks.deck(1)))


def hand_terms(upcard: Card, rules: RuleSet) -> GinHand:
    """A hand's knock limit and doubling: the option, or under Oklahoma the upcard's
    value (an ace: gin only) and a spade upcard doubling the hand."""
    options = gin_options(rules)
    if not options.oklahoma:
        assert rules.knock_limit is not None, "checked with the rules"
        return GinHand(knock_limit=rules.knock_limit, doubled=False)
    limit = 0 if upcard.rank is Rank.ACE else card_value(upcard, rules)
    return GinHand(knock_limit=limit, doubled=upcard.suit is Suit.SPADES)


def apply_deal(table: Table, event: HandDealt) -> None:
    """Ten each from the seat after the dealer, `deck[20]` the upcard, the stock from
    `deck[21]`; the non-dealer is offered the upcard first."""
    dealt = deal(event.deck, event.dealer, SEATS, HAND_SIZE)
    table.dealer = event.dealer
    offered = (event.dealer + 1) % SEATS
    table.hand = HandState(
        number=event.hand_number,
        dealer=event.dealer,
        hands=[list(held) for held in dealt.hands],
        stock=list(reversed(dealt.stock)),
        discard=[dealt.upcard],
        turn=offered,
        phase=Phase.UPCARD_OFFER,
        played_before=[False] * SEATS,
        gin=hand_terms(dealt.upcard, table.rules),
    )


def next_event(table: Table, decks: DeckSource) -> Event | None:
    """The event that now happens by itself in a gin game in play, or None."""
    if any(table.forfeited):
        # A forfeit ends the game at once: the other player wins, totals as they stand.
        winner = table.forfeited.index(False)
        return GameFinished(winner=winner, totals=tuple(table.totals), result=_unbonused(table))
    hand = table.hand
    if hand is None:
        return _after_hand(table, decks)
    if hand.knocker is not None:
        return knocked_hand(table, hand, hand.knocker)
    if hand.phase is Phase.DRAW and len(hand.stock) <= VOID_STOCK:
        return hand_ended_without_out(table, hand, HandEnding.VOID)
    if hand.turns >= table.rules.max_turns:
        return hand_ended_without_out(table, hand, HandEnding.VOID)
    return None


def hand_ended_without_out(table: Table, hand: HandState, how: HandEnding) -> HandEnded:
    """A void hand (the stock down to two cards, or the turn cap): nobody scores, and
    the same dealer deals again."""
    arranged = [deadwood.least(held, table.rules) for held in hand.hands]
    return HandEnded(
        hand_number=hand.number,
        how=HandEnding.VOID,
        out_seat=None,
        remaining=tuple(tuple(held) for held in hand.hands),
        values=tuple(hand_value(held, table.rules) for held in hand.hands),
        points=(0,) * SEATS,
        totals=tuple(table.totals),
        counts=tuple(each.count for each in arranged),
        arranged=tuple(each.melds for each in arranged),
        deadwood=tuple(each.unmatched for each in arranged),
        laid_off=((),) * SEATS,
    )


def knocked_hand(table: Table, hand: HandState, knocker: int) -> HandEnded:
    """The reckoning of a knock: the knocker's arrangement as knocked, the defender's
    arranged with its lay-offs (none after gin or big gin), and the hand's score."""
    rules = table.rules
    gin = gin_of(hand)
    defender = 1 - knocker
    knocker_melds = gin.melds
    in_melds = [card for meld in knocker_melds for card in meld]
    knocker_deadwood = tuple(card for card in hand.hands[knocker] if card not in in_melds)
    knocker_count = hand_value(knocker_deadwood, rules)
    if gin.kind is KnockKind.KNOCK:
        defence = deadwood.defend(hand.hands[defender], knocker_melds, rules)
    else:
        best = deadwood.least(hand.hands[defender], rules)
        defence = deadwood.Defence(
            melds=best.melds, deadwood=best.unmatched, count=best.count, laid_off=()
        )
    how, winner, score = hand_score(gin.kind, knocker_count, defence.count, rules)
    if gin.doubled:
        score *= 2
    scorer = knocker if winner == "knocker" else defender
    points = tuple(score if seat == scorer else 0 for seat in range(SEATS))
    by_seat: dict[
        int, tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], int, tuple[LaidOff, ...]]
    ] = {
        knocker: (knocker_melds, tuple(_sorted(knocker_deadwood)), knocker_count, ()),
        defender: (defence.melds, defence.deadwood, defence.count, defence.laid_off),
    }
    return HandEnded(
        hand_number=hand.number,
        how=how,
        out_seat=None,
        remaining=tuple(tuple(held) for held in hand.hands),
        values=tuple(hand_value(held, rules) for held in hand.hands),
        points=points,
        totals=tuple(total + add for total, add in zip(table.totals, points, strict=True)),
        knocker=knocker,
        knock_card=hand.out_of_play[-1] if gin.kind is not KnockKind.BIG_GIN else None,
        counts=tuple(by_seat[seat][2] for seat in range(SEATS)),
        arranged=tuple(by_seat[seat][0] for seat in range(SEATS)),
        deadwood=tuple(by_seat[seat][1] for seat in range(SEATS)),
        laid_off=tuple(by_seat[seat][3] for seat in range(SEATS)),
        hand_winner=scorer,
    )


def hand_score(
    kind: KnockKind | None, knocker: int, defender: int, rules: RuleSet
) -> tuple[HandEnding, str, int]:
    """How a knocked hand ends, who scores (`knocker` or `defender`) and how much,
    before Oklahoma's doubling: K the knocker's deadwood, D the defender's after
    its lay-offs."""
    options = gin_options(rules)
    if kind is KnockKind.BIG_GIN:
        assert options.big_gin_bonus is not None, "checked when knocked"
        return HandEnding.BIG_GIN, "knocker", options.big_gin_bonus + defender
    if kind is KnockKind.GIN:
        return HandEnding.GIN, "knocker", options.gin_bonus + defender
    if defender <= knocker:
        return HandEnding.UNDERCUT, "defender", options.undercut_bonus + knocker - defender
    return HandEnding.KNOCK, "knocker", defender - knocker


def _after_hand(table: Table, decks: DeckSource) -> Event:
    rules = table.rules
    assert rules.target is not None, "a gin game has a target"
    reached = [seat for seat in range(SEATS) if table.totals[seat] >= rules.target]
    if reached:
        winner = max(reached, key=lambda seat: table.totals[seat])
        result = final_reckoning(table.totals, table.hands_won, winner, rules)
        return GameFinished(
            winner=winner, totals=tuple(each.total for each in result), result=result
        )
    aborted = caps.before_deal(table)
    if aborted is not None:
        return aborted
    assert table.dealer is not None, "a hand has ended, so one was dealt"
    last = table.last_hand
    # The winner of a hand deals the next; after a void hand the same dealer deals.
    dealer = table.dealer
    if last is not None and last.hand_winner is not None:
        dealer = last.hand_winner
    number = table.hands_played + 1
    return HandDealt(hand_number=number, dealer=dealer, deck=tuple(decks.deck(number)))


def final_reckoning(
    totals: Sequence[int], hands_won: Sequence[int], winner: int, rules: RuleSet
) -> tuple[GinFinal, ...]:
    """Each seat's box bonus per hand won, the winner's game bonus, and the shutout
    doubling of the winner's total when the loser won no hand."""
    options = gin_options(rules)
    loser = 1 - winner
    shutout = options.shutout and hands_won[loser] == 0
    result = []
    for seat in range(SEATS):
        box = options.box_bonus * hands_won[seat]
        bonus = options.game_bonus if seat == winner else 0
        total = totals[seat] + box + bonus
        doubled = shutout and seat == winner
        result.append(
            GinFinal(
                hands_won=hands_won[seat],
                box=box,
                game_bonus=bonus,
                shutout=doubled,
                total=total * 2 if doubled else total,
            )
        )
    return tuple(result)


def _unbonused(table: Table) -> tuple[GinFinal, ...]:
    """A game ended by a forfeit: the totals as they stand, no bonus."""
    return tuple(
        GinFinal(hands_won=won, box=0, game_bonus=0, shutout=False, total=total)
        for won, total in zip(table.hands_won, table.totals, strict=True)
    )


def _sorted(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=lambda card: card.sort_key)
