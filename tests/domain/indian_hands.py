"""Random hands and groups for Indian Rummy's tests, biased towards what matters:
runs with gaps, sets (two packs: suits may repeat), wild cards, hands made of
groups and groups a hand can make."""

from __future__ import annotations

import random
from collections import Counter

from service.domain.cards import FULL_DECK, JOKER, RANKS, SUITS, Card, Rank
from service.domain.indian.judge import GroupKind, group_kind
from tests.domain.indian_oracle import hand_groups
from tests.domain.tables import cards


def random_group(rng: random.Random, wild: Rank | None = None) -> tuple[list[Card], Rank]:
    """A group likely to be something (of `wild`, or a random wild rank): same-suit
    runs with gaps and strays, same-rank groups (two packs: suits may repeat), wilds
    alone or among them."""
    wild = wild or rng.choice(RANKS)

    def a_wild() -> Card:
        return JOKER if rng.random() < 0.5 else Card(wild, rng.choice(SUITS))

    shape = rng.random()
    group: list[Card] = []
    if shape < 0.45:
        suit = rng.choice(SUITS)
        length = rng.randint(2, 14) if rng.random() < 0.15 else rng.randint(3, 7)
        start = rng.randint(1, 15 - length)
        clean = rng.random() < 0.4  # every card itself
        for position in range(start, start + length):
            rank = RANKS[(position - 1) % 13]
            draw = 1.0 if clean else rng.random()
            if draw < 0.15:
                continue  # a gap
            if draw < 0.3:
                group.append(a_wild())
            elif draw < 0.35:
                group.append(Card(rank, rng.choice(SUITS)))  # a stray suit
            else:
                group.append(Card(rank, suit))
        if rng.random() < 0.1 and group:
            group.append(rng.choice(group))  # a second copy
    elif shape < 0.75:
        rank = rng.choice(RANKS)
        suits = [rng.choice(SUITS) for _ in range(rng.choice((1, 2, 3, 3, 4, 4, 5)))]
        if rng.random() < 0.75:
            suits = list(dict.fromkeys(suits))
        group = [Card(rank, suit) for suit in suits]
        group += [a_wild() for _ in range(rng.choice((0, 0, 1, 1, 2)))]
    elif shape < 0.88:
        group = [a_wild() for _ in range(rng.randint(1, 4))]
        group += rng.sample(FULL_DECK, rng.randint(0, 2))
    else:
        group = [rng.choice((*FULL_DECK, JOKER)) for _ in range(rng.randint(2, 6))]
    rng.shuffle(group)
    return group, wild


def random_hand(rng: random.Random, size: int = 13, most_wilds: int = 4) -> tuple[list[Card], Rank]:
    """A hand from two packs and two jokers made of such groups' cards, so likely to
    hold groups: a code at most twice, at most `most_wilds` wilds."""
    wild = rng.choice(RANKS)
    held: Counter[Card] = Counter()
    wilds = 0
    while sum(held.values()) < size:
        group, _ = random_group(rng, wild)
        for card in group:
            is_wild = card.is_joker or card.rank is wild
            if held[card] < 2 and sum(held.values()) < size and wilds + is_wild <= most_wilds:
                held[card] += 1
                wilds += is_wild
    hand = list(held.elements())
    rng.shuffle(hand)
    return hand, wild


def declared_hand(rng: random.Random) -> tuple[list[Card], Rank, list[list[Card]]]:
    """A hand of 13 made of valid groups (a pure sequence first), and those groups."""
    wild = rng.choice(RANKS)
    groups: list[list[Card]] = []
    size = 0
    while size < 13:
        group, _ = random_group(rng)
        if group_kind(group, wild) is GroupKind.INVALID or (
            not groups and group_kind(group, wild) is not GroupKind.PURE_SEQUENCE
        ):
            continue
        if size + len(group) <= 13 and (size + len(group) == 13 or 13 - size - len(group) >= 3):
            groups.append(group)
            size += len(group)
    return [card for group in groups for card in group], wild, groups


def random_groups(rng: random.Random, held: list[Card], wild: Rank) -> list[list[Card]]:
    """Groups to show from `held`: disjoint valid groups picked at random among those
    the hand can make, then now and then a card moved or a random group."""
    left = Counter(card.code for card in held)
    choices = list(hand_groups([card.code for card in held], wild.code))
    rng.shuffle(choices)
    groups: list[list[str]] = []
    for group in choices:
        need = Counter(group)
        if all(left[code] >= count for code, count in need.items()) and rng.random() < 0.7:
            left -= need
            groups.append(list(group))
    if rng.random() < 0.3 and left:
        groups.append(list(left.elements())[: rng.randint(1, 4)])
    if rng.random() < 0.3 and len(groups) >= 2:
        moved = groups[0].pop()
        groups[1].append(moved)
    return [cards(group) for group in groups if group]
