"""An independent referee for Gin Rummy and 500 Rum audit exports.

Written from docs/rules.md ("Gin Rummy and 500 Rum", the deal, card codes) and
docs/audit.md alone: it imports nothing of the service, so that a rule the
engine gets wrong is not also wrong here (the service's own `rummy verify`
shares the engine's rules package; this one does not). It replays an export's
events and returns every disagreement it finds as a sentence naming the event.

Searches are plain brute force (every set of disjoint melds, every order of
lay-offs): slow in general, but a gin hand has ten or eleven cards.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache
from typing import Any

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "CDHS"

Export = dict[str, Any]
Event = dict[str, Any]


def rank(card: str) -> int:
    return RANKS.index(card[:-1]) + 1


def suit(card: str) -> str:
    return card[-1]


def sort_key(card: str) -> tuple[int, int]:
    return (rank(card), SUITS.index(suit(card)))


def value(card: str, ace: int = 1) -> int:
    """A card's value in hand: A `ace`, 2-10 face, J Q K 10."""
    return ace if rank(card) == 1 else min(rank(card), 10)


def run_ranks(cards: list[str] | tuple[str, ...], ace_high_ok: bool) -> list[int] | None:
    """The ranks of `cards` as a run (ace 1 or 14), lowest first, or None if no run."""
    if len(cards) < 3 or len({suit(c) for c in cards}) != 1:
        return None
    ranks = sorted(rank(c) for c in cards)
    tries = [ranks]
    if ace_high_ok:
        tries.append(sorted(14 if r == 1 else r for r in ranks))
    for tried in tries:
        if tried == list(range(tried[0], tried[0] + len(tried))):
            return tried
    return None


def is_set(cards: list[str] | tuple[str, ...]) -> bool:
    return (
        3 <= len(cards) <= 4
        and len({rank(c) for c in cards}) == 1
        and len({suit(c) for c in cards}) == len(cards)
    )


def is_meld(cards: list[str] | tuple[str, ...], ace_high_ok: bool = False) -> bool:
    return is_set(cards) or run_ranks(cards, ace_high_ok) is not None


# --- Gin: arrangements and lay-offs --------------------------------------------------


def all_melds(hand: tuple[str, ...]) -> list[frozenset[str]]:
    """Every meld among `hand`'s cards: sets of 3 or 4 of a rank, runs of 3 or more
    (only cards of one rank or one suit can meld, so the search looks there only)."""
    melds: set[frozenset[str]] = set()
    for group in [[c for c in hand if rank(c) == r] for r in range(1, 14)] + [
        [c for c in hand if suit(c) == s] for s in SUITS
    ]:
        for n in range(3, len(group) + 1):
            melds.update(frozenset(m) for m in itertools.combinations(group, n) if is_meld(m))
    return sorted(melds, key=lambda m: sorted(map(sort_key, m)))


def arrangements(hand: tuple[str, ...]) -> list[tuple[list[frozenset[str]], frozenset[str]]]:
    """Every set of disjoint melds of `hand`, with the cards left."""
    melds = all_melds(hand)
    found: list[tuple[list[frozenset[str]], frozenset[str]]] = []

    def search(left: frozenset[str], chosen: list[frozenset[str]], start: int) -> None:
        found.append((chosen, left))
        for i in range(start, len(melds)):
            if melds[i] <= left:
                search(left - melds[i], [*chosen, melds[i]], i + 1)

    search(frozenset(hand), [], 0)
    return found


def least_deadwood(hand: list[str]) -> int:
    return _least(frozenset(hand))


@cache
def _least(hand: frozenset[str]) -> int:
    return min(sum(map(value, left)) for _, left in arrangements(tuple(hand)))


def shown_arrangement_key(hand: list[str]) -> tuple[int, int, list[tuple[int, int]]]:
    """The arrangement Knock Rummy's rule shows: least count, then fewest unmatched cards,
    then the sorted unmatched list first card by card."""
    return min(
        (sum(map(value, left)), len(left), sorted(map(sort_key, left)))
        for _, left in arrangements(tuple(hand))
    )


def fits(card: str, meld: tuple[str, ...]) -> bool:
    """Whether `card` may be laid off on `meld` (gin: aces low)."""
    return is_meld((*meld, card))


@cache
def best_lay_off(left: frozenset[str], melds: tuple[tuple[str, ...], ...]) -> tuple[int, int]:
    """The least value `left` can be brought to by laying off on `melds`, chains allowed,
    and the fewest cards laid off to get there."""
    best = (sum(map(value, left)), 0)
    for card in left:
        for index, meld in enumerate(melds):
            if fits(card, meld):
                grown = (*melds[:index], (*meld, card), *melds[index + 1 :])
                count, laid = best_lay_off(left - {card}, grown)
                best = min(best, (count, laid + 1))
    return best


def least_defender_deadwood(
    hand: list[str], knocker_melds: list[list[str]], lay: bool
) -> tuple[int, int]:
    """The defender's least deadwood (after lay-offs when `lay`), and the fewest cards
    laid off to reach it."""
    melds = tuple(tuple(sorted(m, key=sort_key)) for m in knocker_melds)
    return min(
        best_lay_off(left, melds) if lay else (sum(map(value, left)), 0)
        for _, left in arrangements(tuple(hand))
    )


class Referee:
    """Collects the disagreements of one export."""

    def __init__(self, export: Export) -> None:
        self.export = export
        self.rules: dict[str, Any] = export["events"][0]["data"]["rules"]
        self.problems: list[str] = []
        self.event: Event = export["events"][0]

    def fail(self, message: str) -> None:
        self.problems.append(f"event {self.event['version']} ({self.event['type']}): {message}")

    def check(self, condition: bool, message: str) -> bool:
        if not condition:
            self.fail(message)
        return condition


def deal(
    deck: list[str], dealer: int, players: int, size: int
) -> tuple[list[list[str]], str, list[str]]:
    """docs/rules.md's deal: one card at a time from the seat after the dealer, then the
    upcard, then the stock (top first)."""
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(players * size):
        hands[(dealer + 1 + i) % players].append(deck[i])
    return hands, deck[players * size], deck[players * size + 1 :]


def deal_among(
    deck: list[str], dealer: int, seats: list[int], players: int, size: int
) -> tuple[list[list[str]], str, list[str]]:
    """docs/rules.md's deal among the seats still in (a forfeiter is dealt nothing)."""
    hands: list[list[str]] = [[] for _ in range(players)]
    order = sorted(seats, key=lambda seat: (seat - dealer - 1) % players)
    for i in range(len(seats) * size):
        hands[order[i % len(seats)]].append(deck[i])
    return hands, deck[len(seats) * size], deck[len(seats) * size + 1 :]


def full_pack(packs: int) -> Counter[str]:
    return Counter({f"{r}{s}": packs for r in RANKS for s in SUITS})


# --- Gin -----------------------------------------------------------------------------


def check_gin(export: Export, given: frozenset[int] = frozenset()) -> list[str]:
    """Replays a gin export. `given`: the hand numbers whose knock sent its own `melds`
    (any valid arrangement within the limit); every other knock's arrangement is the
    server's, so it must leave the least deadwood."""
    ref = Referee(export)
    rules = ref.rules
    totals = [0, 0]
    won = [0, 0]
    expected_dealer: int | None = None
    state: dict[str, Any] = {}
    finished = False
    due: str | None = None  # the event the rules make next, if any
    forfeiter: int | None = None
    for event in export["events"][1:]:
        ref.event = event
        kind, data, seat = event["type"], event["data"], event.get("seat")
        if kind == "player_joined":
            continue
        if due is not None:
            ref.check(
                kind == due or (due, kind) == ("hand_dealt", "game_aborted"), f"expected {due} here"
            )
            due = None
        if kind == "hand_dealt":
            ref.check(not finished, "a deal after the game ended")
            deck = data["deck"]
            ref.check(Counter(deck) == full_pack(1), "the deck is not one whole pack")
            dealer = data["dealer"]
            if expected_dealer is not None:
                ref.check(dealer == expected_dealer, f"dealer {dealer}, expected {expected_dealer}")
            hands, upcard, stock = deal(deck, dealer, 2, 10)
            if rules["oklahoma"]:
                limit = 0 if rank(upcard) == 1 else value(upcard)
                doubled = suit(upcard) == "S"
            else:
                limit, doubled = rules["knock_limit"], False
            state = {
                "hands": hands,
                "pile": [upcard],
                "stock": stock,
                "dealer": dealer,
                "upcard": upcard,
                "limit": limit,
                "factor": 2 if doubled else 1,
                "phase": "offer",
                "turn": 1 - dealer,
                "passes": 0,
                "taken": None,
                "drawn": False,
                "ended": False,
                "knock": None,
                "void_due": False,
                "turns": 0,
                "number": data["hand_number"],
            }
            continue
        if kind == "player_left":
            if not data["replaced"]:  # a forfeit ends a gin game at once
                forfeiter = data["player"]
                due = "game_finished"
            continue
        if kind in ("game_finished", "game_aborted"):
            if forfeiter is not None:
                finish_forfeited_gin(ref, data, totals, won, 1 - forfeiter)
            else:
                finish_gin(ref, data, kind, totals, won, rules)
            finished = True
            continue
        s = state
        if kind == "upcard_passed":
            ref.check(s["phase"] == "offer" and not s["drawn"], "a pass outside the upcard offer")
            ref.check(seat == s["turn"], f"seat {seat} passed, seat {s['turn']} was offered")
            s["passes"] += 1
            if s["passes"] == 1:
                s["turn"] = s["dealer"]
            else:
                s["phase"], s["turn"] = "stock_only", 1 - s["dealer"]
            continue
        if kind == "card_drawn":
            ref.check(seat == s["turn"] and not s["drawn"], f"seat {seat} drew out of turn")
            if data["source"] == "stock":
                ref.check(s["phase"] != "offer", "a stock draw during the upcard offer")
                ref.check(bool(s["stock"]) and data["card"] == s["stock"][0], "not the stock's top")
                card = s["stock"].pop(0) if s["stock"] else data["card"]
                s["taken"] = None
            else:
                ref.check(s["phase"] != "stock_only", "a pile draw after both passed")
                ref.check(data.get("count", 1) == 1, "gin takes one card")
                ref.check(bool(s["pile"]) and data["card"] == s["pile"][-1], "not the pile's top")
                card = s["pile"].pop() if s["pile"] else data["card"]
                s["taken"] = card
            if s["phase"] == "offer" and s["passes"] == 1:
                s["after"] = 1 - s["dealer"]  # the dealer took it: the non-dealer follows
            else:
                s["after"] = 1 - seat
            s["phase"] = "play"
            s["hands"][seat].append(card)
            s["drawn"] = True
            continue
        if kind == "card_discarded":
            card = data["card"]
            ref.check(seat == s["turn"] and s["drawn"], "a discard before drawing or out of turn")
            ref.check(card in s["hands"][seat], f"{card} not in the hand")
            ref.check(card != s["taken"], f"{card} was just taken from the pile")
            if card in s["hands"][seat]:
                s["hands"][seat].remove(card)
            s["pile"].append(card)
            s["turn"], s["drawn"], s["taken"] = s["after"], False, None
            s["turns"] += 1  # a turn ends with its discard: max_turns counts them
            s["void_due"] = len(s["stock"]) <= 2 or s["turns"] >= rules["max_turns"]
            due = "hand_ended" if s["void_due"] else None
            continue
        if kind == "knocked":
            check_knock(ref, s, seat, data, rules, s["number"] not in given)
            due = "hand_ended"
            continue
        if kind == "hand_ended":
            winner = end_gin_hand(ref, s, data, rules, totals, won)
            expected_dealer = s["dealer"] if winner is None else winner
            due = "game_finished" if max(totals) >= rules["target"] else "hand_dealt"
            continue
        ref.fail(f"an event gin does not have: {kind}")
    return ref.problems


def check_knock(
    ref: Referee,
    s: dict[str, Any],
    seat: int,
    data: dict[str, Any],
    rules: dict[str, Any],
    server: bool,
) -> None:
    ref.check(seat == s["turn"] and s["drawn"], "a knock before drawing or out of turn")
    hand = list(s["hands"][seat])
    card, melds = data["card"], data["melds"]
    if card is not None:
        ref.check(card in hand, f"knock card {card} not held")
        ref.check(card != s["taken"], f"knock card {card} was just taken from the pile")
        if card in hand:
            hand.remove(card)
    ref.check(len(hand) == (10 if card is not None else 11), f"{len(hand)} cards arranged")
    flat = [c for meld in melds for c in meld]
    ref.check(
        len(flat) == len(set(flat)) and set(flat) <= set(hand), "melds not disjoint or not held"
    )
    for meld in melds:
        ref.check(is_meld(meld), f"{meld} is no meld")
    deadwood = [c for c in hand if c not in flat]
    count = sum(map(value, deadwood))
    if server:
        best = shown_arrangement_key(hand)
        mine = (count, len(deadwood), sorted(map(sort_key, deadwood)))
        ref.check(
            mine[0] == best[0], f"the server's arrangement leaves {count}, the least is {best[0]}"
        )
        ref.check(
            mine == best,
            f"the server shows deadwood {deadwood}: Knock Rummy's tie-break gives {best}",
        )
    if card is None:
        ref.check(rules["big_gin_bonus"] is not None, "big gin while it is off")
        ref.check(count == 0 and data["kind"] == "big_gin", f"big gin with deadwood {count}")
    else:
        ref.check(count <= s["limit"], f"deadwood {count} over the hand's limit {s['limit']}")
        ref.check(
            data["kind"] == ("gin" if count == 0 else "knock"), f"kind {data['kind']} for {count}"
        )
    s["hands"][seat] = hand
    s["knock"] = {"seat": seat, "card": card, "melds": melds, "count": count, "kind": data["kind"]}


def end_gin_hand(
    ref: Referee,
    s: dict[str, Any],
    data: dict[str, Any],
    rules: dict[str, Any],
    totals: list[int],
    won: list[int],
) -> int | None:
    knock = s["knock"]
    if knock is None:
        ref.check(
            s["void_due"],
            "a void hand, though the stock holds more than two and the turns are under max_turns",
        )
        ref.check(
            data["how"] == "void" and data["points"] == [0, 0], "a void hand must score nothing"
        )
        ref.check("hand_winner" not in data, "a void hand has no winner")
        ref.check(data["totals"] == totals, f"totals {data['totals']}, expected {totals}")
        return None
    k: int = knock["seat"]
    d = 1 - k
    k_count = knock["count"]
    lay = knock["kind"] == "knock"
    d_count, fewest = least_defender_deadwood(s["hands"][d], knock["melds"], lay)
    counts = data["counts"]
    ref.check(counts[k] == k_count, f"knocker's count {counts[k]}, expected {k_count}")
    ref.check(
        counts[d] == d_count, f"defender's count {counts[d]}, the least after lay-offs is {d_count}"
    )
    laid = len(data["laid_off"][d])
    ref.check(
        laid == fewest, f"{laid} cards laid off; {fewest} reach the least deadwood (docs/rules.md)"
    )
    check_defender_shown(ref, s["hands"][d], knock["melds"], data, d, lay)
    points = [0, 0]
    if knock["kind"] == "gin":
        how, winner, score = "gin", k, rules["gin_bonus"] + d_count
    elif knock["kind"] == "big_gin":
        how, winner, score = "big_gin", k, rules["big_gin_bonus"] + d_count
    elif d_count <= k_count:
        how, winner, score = "undercut", d, rules["undercut_bonus"] + k_count - d_count
    else:
        how, winner, score = "knock", k, d_count - k_count
    points[winner] = score * s["factor"]
    ref.check(data["how"] == how, f"how {data['how']}, expected {how}")
    ref.check(
        data.get("hand_winner") == winner,
        f"hand_winner {data.get('hand_winner')}, expected {winner}",
    )
    ref.check(
        data["points"] == points,
        f"points {data['points']}, expected {points} (K {k_count}, D {d_count})",
    )
    ref.check(data.get("knocker") == k, "knocker")
    ref.check(data.get("knock_card") == knock["card"], "knock_card")
    totals[winner] += points[winner]
    won[winner] += 1
    ref.check(data["totals"] == totals, f"totals {data['totals']}, expected {totals}")
    return winner


def check_defender_shown(
    ref: Referee,
    hand: list[str],
    knocker_melds: list[list[str]],
    data: dict[str, Any],
    d: int,
    lay: bool,
) -> None:
    """The defender's shown melds, lay-offs and deadwood are a real outcome of its hand."""
    shown = data["arranged"][d]
    laid = data["laid_off"][d]
    flat = [c for m in shown for c in m] + [entry["card"] for entry in laid]
    ref.check(len(flat) == len(set(flat)) and set(flat) <= set(hand), "defender's cards used twice")
    for meld in shown:
        ref.check(is_meld(meld), f"defender's {meld} is no meld")
    ref.check(lay or not laid, "a lay-off after gin")
    grown = [list(m) for m in knocker_melds]
    for entry in laid:  # in the order shown, chains included
        index = entry["meld"]
        ok = 0 <= index < len(grown) and fits(entry["card"], tuple(grown[index]))
        ref.check(ok, f"{entry['card']} cannot be laid off on meld {index}")
        if ok:
            grown[index].append(entry["card"])
    left = sorted((c for c in hand if c not in flat), key=sort_key)
    ref.check(
        sorted(data["deadwood"][d], key=sort_key) == left,
        f"deadwood {data['deadwood'][d]}, left {left}",
    )
    ref.check(
        data["counts"][d] == sum(map(value, left)), "defender's count is not its deadwood's value"
    )


def finish_forfeited_gin(
    ref: Referee, data: dict[str, Any], totals: list[int], won: list[int], winner: int
) -> None:
    """docs/rules.md: the other player wins with the totals as they stand, no bonus."""
    result = [
        {"hands_won": won[seat], "box": 0, "game_bonus": 0, "shutout": False, "total": totals[seat]}
        for seat in (0, 1)
    ]
    ref.check(data["winner"] == winner, f"winner {data['winner']} after a forfeit, not {winner}")
    ref.check(data["totals"] == totals, f"totals {data['totals']}, expected {totals}")
    ref.check(data.get("result") == result, f"result {data.get('result')}, expected {result}")


def finish_gin(
    ref: Referee,
    data: dict[str, Any],
    kind: str,
    totals: list[int],
    won: list[int],
    rules: dict[str, Any],
) -> None:
    reached = [seat for seat in (0, 1) if totals[seat] >= rules["target"]]
    if kind == "game_aborted":
        ref.check(not reached, "aborted although a player reached the target")
        return
    ref.check(len(reached) == 1, f"the game ended with {reached} at the target")
    if len(reached) != 1:
        return
    winner = reached[0]
    final = []
    result = []
    for seat in (0, 1):
        box = rules["box_bonus"] * won[seat]
        bonus = rules["game_bonus"] if seat == winner else 0
        shutout = seat == winner and rules["shutout"] and won[1 - seat] == 0
        total = (totals[seat] + box + bonus) * (2 if shutout else 1)
        final.append(total)
        result.append(
            {
                "hands_won": won[seat],
                "box": box,
                "game_bonus": bonus,
                "shutout": shutout,
                "total": total,
            }
        )
    ref.check(data["winner"] == winner, f"winner {data['winner']}, expected {winner}")
    ref.check(data["totals"] == final, f"totals {data['totals']}, expected {final}")
    ref.check(data.get("result") == result, f"result {data.get('result')}, expected {result}")


# --- 500 Rum -------------------------------------------------------------------------


def credit(card: str, low_ace: bool) -> int:
    """What `card` earns put down: 15 for an ace, unless it is the low end of a run."""
    return 1 if low_ace and rank(card) == 1 else value(card, 15)


def lay_off_run(ranks: list[int], card: str, end: str) -> int | None:
    """The rank slot (ace 1 or 14) `card` takes laid off at `end` of a run of `ranks`
    (lowest first), or None if it does not go there. The ace's place is where it is put:
    laid off above a king it is high (15) even if the run then holds every rank."""
    r = rank(card)
    if end == "low":
        slot = ranks[0] - 1
        ok = (slot == 1 and 14 not in ranks) if r == 1 else (slot >= 2 and r == slot)
    else:
        slot = ranks[-1] + 1
        ok = (slot == 14 and 1 not in ranks) if r == 1 else (r == slot and slot <= 13)
    return slot if ok else None


def check_rummy500(export: Export) -> list[str]:
    ref = Referee(export)
    rules = ref.rules
    players = len(export["events"][0]["data"]["seats"])
    packs = 1 if players <= 4 else 2
    size = 13 if players == 2 else 7
    ref.check(rules["packs"] == packs and rules["hand_size"] == size, "packs or hand size")
    totals = [0] * players
    s: dict[str, Any] = {}
    expected_dealer: int | None = None
    finished = False
    due: str | None = None
    gone: set[int] = set()  # the seats that forfeited

    def after(seat: int) -> int:
        """The next seat still in the game after `seat`."""
        following = (seat + 1) % players
        while following in gone:
            following = (following + 1) % players
        return following

    for event in export["events"][1:]:
        ref.event = event
        kind, data, seat = event["type"], event["data"], event.get("seat")
        if kind == "player_joined":
            continue
        if due is not None:
            ref.check(
                kind == due or (due, kind) == ("hand_dealt", "game_aborted"), f"expected {due} here"
            )
            due = None
        elif s.get("turn_over"):
            ref.check(kind == "hand_ended", "the hand is over: expected hand_ended")
        if kind == "hand_dealt":
            ref.check(not finished, "a deal after the game ended")
            ref.check(Counter(data["deck"]) == full_pack(packs), "the deck is not the whole pack")
            dealer = data["dealer"]
            if expected_dealer is not None:
                ref.check(dealer == expected_dealer, f"dealer {dealer}, expected {expected_dealer}")
            seats_in = [seat for seat in range(players) if seat not in gone]
            ref.check(data.get("seats", seats_in) == seats_in, f"seats dealt {data.get('seats')}")
            ref.check(dealer not in gone, "a forfeiter deals")
            hands, upcard, stock = deal_among(data["deck"], dealer, seats_in, players, size)
            s = {
                "hands": hands,
                "pile": [upcard],
                "stock": stock,
                "dealer": dealer,
                "turn": after(dealer),
                "after": after,
                "gone": gone,
                "drawn": False,
                "called": None,
                "melds": {},
                "credit": [0] * players,
                "out": None,
                "turn_over": False,
                "turns": 0,
                "max_turns": rules["max_turns"],
            }
            continue
        if kind == "player_left":
            if not data["replaced"]:
                gone.add(data["player"])
                still = [seat for seat in range(players) if seat not in gone]
                if len(still) == 1:
                    due = "game_finished"
                elif s.get("turn") == data["player"] and not s.get("turn_over"):
                    s["turn"], s["drawn"], s["called"] = after(data["player"]), False, None
            continue
        if kind == "game_finished" or kind == "game_aborted":
            still = [seat for seat in range(players) if seat not in gone]
            top = max(totals[seat] for seat in still)
            leaders = [i for i in still if totals[i] == top]
            if len(still) == 1:
                top = max(top, rules["target"])  # the last seat in wins at once
            if kind == "game_finished":
                ref.check(top >= rules["target"] and len(leaders) == 1, f"game ended at {totals}")
                ref.check(
                    data["winner"] == leaders[0], f"winner {data['winner']}, leaders {leaders}"
                )
                ref.check(data["totals"] == totals, f"totals {data['totals']}, expected {totals}")
            finished = True
            continue
        if kind == "hand_ended":
            end_500_hand(ref, s, data, totals, players)
            expected_dealer = after(s["dealer"])
            top = max(totals)
            due = (
                "game_finished"
                if top >= rules["target"] and totals.count(top) == 1
                else "hand_dealt"
            )
            s["turn_over"] = False
            continue
        ref.check(seat == s["turn"] and not s["turn_over"], f"seat {seat} acted out of turn")
        hand = s["hands"][seat]
        if kind == "card_drawn":
            ref.check(not s["drawn"], "a second draw")
            count = data.get("count", 1)
            if data["source"] == "stock":
                ref.check(
                    count == 1 and bool(s["stock"]) and data["card"] == s["stock"][0],
                    "not the stock's top",
                )
                hand.append(s["stock"].pop(0))
            else:
                pile = s["pile"]
                ref.check(1 <= count <= len(pile), f"count {count} of a pile of {len(pile)}")
                taken = pile[len(pile) - count :]
                if count > 1:
                    ref.check(
                        data.get("cards") == taken, f"cards {data.get('cards')}, the top is {taken}"
                    )
                    s["called"] = taken[0]
                else:
                    ref.check(
                        "cards" not in data and "count" not in data,
                        "count/cards on a one-card draw",
                    )
                ref.check(
                    data["card"] == taken[0],
                    f"card {data['card']}, the deepest taken is {taken[0]}",
                )
                del pile[len(pile) - count :]
                hand.extend(taken)
            s["drawn"] = True
            continue
        ref.check(s["drawn"], "a play before drawing")
        if kind == "meld_laid":
            cards = data["cards"]
            ref.check(not (Counter(cards) - Counter(hand)), f"{cards} not held")
            ok_set, ranks = is_set(cards), run_ranks(cards, ace_high_ok=True)
            ref.check(ok_set or ranks is not None, f"{cards} is no meld")
            ref.check(data["kind"] == ("set" if ok_set else "run"), f"kind {data['kind']}")
            ref.check(data["meld_id"] not in s["melds"], "a meld id used twice")
            low = ranks is not None and ranks[0] == 1 and not ok_set
            s["melds"][data["meld_id"]] = {
                "cards": list(cards),
                "ranks": None if ok_set else ranks,
                "credits": [(seat, credit(c, low)) for c in cards],
            }
            for c in cards:
                if c in hand:
                    hand.remove(c)
            if s["called"] in cards:
                s["called"] = None
        elif kind == "card_laid_off":
            card = data["card"]
            meld = s["melds"].get(data["meld_id"])
            ref.check(meld is not None and card in hand, f"{card} on {data['meld_id']}")
            if meld is None:
                continue
            grown = [*meld["cards"], card]
            if meld["ranks"] is None:
                ref.check(is_set(grown), f"{card} does not extend the set {meld['cards']}")
                points = credit(card, low_ace=False)
            else:
                slot = lay_off_run(meld["ranks"], card, data["end"])
                ref.check(
                    slot is not None,
                    f"{card} does not extend {meld['cards']} at the {data['end']} end",
                )
                if slot is not None:
                    meld["ranks"] = sorted([*meld["ranks"], slot])
                points = credit(card, low_ace=slot == 1)
            meld["cards"] = grown
            meld["credits"].append((seat, points))
            if card in hand:
                hand.remove(card)
            if s["called"] == card:
                s["called"] = None
        elif kind == "card_discarded":
            card = data["card"]
            ref.check(card in hand, f"{card} not held")
            ref.check(
                s["called"] is None, f"the turn ended with the called card {s['called']} unused"
            )
            if card in hand:
                hand.remove(card)
            s["pile"].append(card)
            end_turn(s, players)
            continue
        else:
            ref.fail(f"an event 500 Rum does not have: {kind}")
            continue
        if not hand:  # a meld or lay-off emptied the hand: out without a discard
            ref.check(
                rules["going_out"] == "any",
                "a meld or lay-off emptied the hand under going_out discard",
            )
            ref.check(s["called"] is None, "out with the called card unused")
            s["out"] = seat
            s["turn_over"] = True
    return ref.problems


def end_turn(s: dict[str, Any], players: int) -> None:
    seat = s["turn"]
    if not s["hands"][seat]:
        s["out"] = seat
    s["turns"] += 1
    s["capped"] = s["out"] is None and bool(s["stock"]) and s["turns"] >= s["max_turns"]
    s["turn_over"] = s["out"] is not None or not s["stock"] or s["capped"]
    s["turn"], s["drawn"], s["called"] = s["after"](seat), False, None


def end_500_hand(
    ref: Referee, s: dict[str, Any], data: dict[str, Any], totals: list[int], players: int
) -> None:
    ref.check(s["turn_over"], "the hand ended while it could go on (nobody out, stock not empty)")
    how = "out" if s["out"] is not None else "turn_cap" if s.get("capped") else "exhausted"
    ref.check(data["how"] == how, f"how {data['how']}, expected {how}")
    melded = [0] * players
    for meld in s["melds"].values():
        for who, points in meld["credits"]:
            melded[who] += points
    held = [sum(value(c, 15) for c in hand) for hand in s["hands"]]
    points = [m - h for m, h in zip(melded, held, strict=True)]
    for seat in range(players):
        totals[seat] += points[seat]
    ref.check(data.get("melded") == melded, f"melded {data.get('melded')}, expected {melded}")
    ref.check(data["values"] == held, f"values {data['values']}, expected {held}")
    ref.check(data["points"] == points, f"points {data['points']}, expected {points}")
    ref.check(data["totals"] == totals, f"totals {data['totals']}, expected {totals}")
    ref.check(data["out_seat"] == s["out"], f"out_seat {data['out_seat']}, expected {s['out']}")
    remaining = [
        [] if seat in s["gone"] else sorted(h, key=sort_key) for seat, h in enumerate(s["hands"])
    ]
    ref.check([sorted(h, key=sort_key) for h in data["remaining"]] == remaining, "remaining")


def check_export(export: Export, given: frozenset[int] = frozenset()) -> list[str]:
    """Every disagreement between the export and the rules (empty: it checks out)."""
    variant = export["events"][0]["data"]["rules"]["variant"]
    if variant == "gin":
        return check_gin(export, given)
    if variant == "rummy500":
        return check_rummy500(export)
    raise ValueError(f"not a gin or 500 Rum game: {variant}")


# --- What a player's view offers (`legal`), checked against the rules ---------------


def gin_legal_problems(view: dict[str, Any], taken: str | None) -> list[str]:
    """Where a gin player view's `legal` differs from docs/rules.md; `taken` is the card the
    seat took from the pile this turn, if any."""
    legal, hand = view["legal"], list(view["my_hand"])
    problems: list[str] = []
    best = least_deadwood(hand)
    if legal.get("deadwood") != best:
        problems.append(f"legal.deadwood {legal.get('deadwood')}, least of {hand} is {best}")
    mine = view["turn"] == view["my_seat"]
    if not mine:
        return problems
    phase = view["phase"]
    if phase == "upcard_offer":
        if not (legal["can_pass"] and legal["draw"] == ["discard"]):
            problems.append(f"upcard offer: can_pass {legal['can_pass']}, draw {legal['draw']}")
        upcard, rules = view["discard_top"], view["rules"]
        if rules["oklahoma"]:
            limit = 0 if rank(upcard) == 1 else value(upcard)
        else:
            limit = rules["knock_limit"]
        doubled = rules["oklahoma"] and suit(upcard) == "S"
        if (view["knock_limit"], view["doubled"]) != (limit, doubled):
            problems.append(
                f"upcard {upcard}: knock_limit {view['knock_limit']}, doubled {view['doubled']}; "
                f"expected {limit}, {doubled}"
            )
    if phase == "play":
        limit = view["knock_limit"]
        knock = sorted(
            {
                c
                for c in hand
                if c != taken and least_deadwood([x for x in hand if x != c]) <= limit
            },
            key=sort_key,
        )
        if sorted(legal["knock"], key=sort_key) != knock:
            problems.append(f"legal.knock {legal['knock']}, expected {knock} (limit {limit})")
        big = view["rules"]["big_gin_bonus"] is not None and best == 0
        if legal["big_gin"] != big:
            problems.append(f"legal.big_gin {legal['big_gin']}, expected {big}")
        discard = sorted((c for c in hand if c != taken), key=sort_key)
        if sorted(legal["discard"], key=sort_key) != discard:
            problems.append(f"legal.discard {legal['discard']}, expected {discard}")
    return problems


def usable(card: str, hand: list[str], table: list[list[str]], keep: int = 0) -> bool:
    """Whether some meld of `hand` holding `card`, or a lay-off of it (after other
    lay-offs from `hand`: chains), can be made (500 Rum: aces high or low), leaving at
    least `keep` cards in the hand (1 under `going_out: discard`)."""
    others = list(hand)
    others.remove(card)
    near = [c for c in others if rank(c) == rank(card) or suit(c) == suit(card)]
    for n in range(2, min(len(near), len(others) - keep) + 1):
        for combo in itertools.combinations(near, n):
            if is_meld((*combo, card), ace_high_ok=True):
                return True

    def reach(grown: tuple[str, ...], rest: tuple[str, ...]) -> bool:
        if is_meld((*grown, card), ace_high_ok=True) and len(rest) >= keep:
            return True
        return any(
            reach((*grown, c), rest[:i] + rest[i + 1 :])
            for i, c in enumerate(rest)
            if is_meld((*grown, c), ace_high_ok=True)
        )

    return any(reach(tuple(meld), tuple(others)) for meld in table)


def melds_of(hand: list[str]) -> set[tuple[str, ...]]:
    """Every meld among `hand`'s cards (500 Rum's: aces high or low), sorted, once each."""
    found: set[tuple[str, ...]] = set()
    groups = [[c for c in hand if rank(c) == r] for r in range(1, 14)]
    groups += [[c for c in hand if suit(c) == s] for s in SUITS]
    for group in groups:
        for n in range(3, len(group) + 1):
            for combo in itertools.combinations(group, n):
                if is_meld(combo, ace_high_ok=True):
                    found.add(tuple(sorted(combo, key=sort_key)))
    return found


def rummy500_play_problems(view: dict[str, Any]) -> list[str]:
    """In the play phase with no called card pending: `legal.melds` and `legal.lay_offs`
    offer every meld and lay-off the rules allow, and nothing else; under `going_out:
    discard` none that would empty the hand."""
    legal, hand = view["legal"], view["my_hand"]
    keep = 1 if view["rules"]["going_out"] == "discard" else 0
    melds = {m for m in melds_of(hand) if len(hand) - len(m) >= keep}
    offered = {tuple(sorted(m, key=sort_key)) for m in legal["melds"]}
    problems = []
    if offered != melds:
        problems.append(f"legal.melds misses {melds - offered}, offers {offered - melds}")
    lay_offs = {
        (card, m["id"])
        for m in view["melds"]
        for card in set(hand)
        if len(hand) - 1 >= keep and is_meld((*m["cards"], card), ace_high_ok=True)
    }
    offered_lay_offs = {(o["card"], o["meld_id"]) for o in legal["lay_offs"]}
    if offered_lay_offs != lay_offs:
        problems.append(
            f"legal.lay_offs misses {lay_offs - offered_lay_offs}, "
            f"offers {offered_lay_offs - lay_offs}"
        )
    return problems


def rummy500_legal_problems(view: dict[str, Any]) -> list[str]:
    """Where a 500 Rum player view's `pile_counts` (in the draw), `melds` and `lay_offs`
    (in the play, no called card pending) differ from docs/rules.md."""
    if view["turn"] != view["my_seat"]:
        return []
    if view["phase"] == "play" and view.get("called_card") is None:
        return rummy500_play_problems(view)
    if view["phase"] != "draw":
        return []
    legal, pile = view["legal"], view["discard_pile"]
    table = [m["cards"] for m in view["melds"]]
    counts = [1] if pile else []
    for n in range(2, len(pile) + 1):
        taken = pile[len(pile) - n :]
        keep = 1 if view["rules"]["going_out"] == "discard" else 0
        if usable(taken[0], [*view["my_hand"], *taken], table, keep):
            counts.append(n)
    if sorted(legal.get("pile_counts", [])) != counts:
        return [
            f"pile_counts {legal.get('pile_counts')}, expected {counts} "
            f"(pile {pile}, table {table})"
        ]
    return []
