"""Between the HTTP contract and the application: bodies and headers into the
application's commands, its results into response bodies.

Shapes only. Every rule of the game is the domain's (service/domain); the
caps are this deployment's (caps.py). Where the same noun lives on both sides,
each is named by its module: `s.Action` is a body's action (schemas.py),
`d.Action` the domain's; the application's commands are `c.NewGame`..., its
results `r.CreateResult`..., the response bodies `out.CreatedGame`...
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import msgspec

from service.api import responses as out
from service.api import schemas as s
from service.api.caps import Caps
from service.api.errors import problem
from service.api.transport.conditional import TAG_SUFFIX
from service.domain import actions as d
from service.domain.cards import Card
from service.domain.errors import InvalidRules, InvalidSeating
from service.domain.presets import VARIANTS
from service.domain.rule_values import Variant
from service.domain.rules import RuleSet
from service.domain.setup import check_new_game
from service.game import commands as c
from service.game import results as r
from service.players.identities import Vouched
from service.projections.event_views import event_view
from service.projections.views import Viewer

IF_MATCH_PATTERN = rf'^[ \t]*(\*|(W/)?"([0-9]{{1,12}}){TAG_SUFFIX}"|([0-9]{{1,12}}))[ \t]*$'
"""What `If-Match` may hold: an `ETag` this service gave about the game (`"12"`,
`"12.seat1"`, conditional.py), also as `W/"12"` or `12`; `*` is any version. The
OpenAPI document states the same pattern (service/api/docs/openapi.py)."""


# --- requests -------------------------------------------------------------------------


def new_game(
    body: s.CreateGame, *, by_admin: bool, caps: Caps, vouched: Sequence[Vouched | None] = ()
) -> c.NewGame:
    """The game a creation body asks for: its named players take the first seats,
    the rest stay open; `vouched` is the player each one's assertion vouched for
    (service/api/players.py). Refuses what this deployment caps (422)."""
    named = body.players or []
    seats = body.seats if body.seats is not None else len(named)
    if seats < len(named):
        raise InvalidSeating(f"{len(named)} players were named for only {seats} seats.")
    wanted: list[c.NewSeat | None] = [
        _seat(player.name, player.client_seed, vouched[index] if vouched else None, player.bot)
        for index, player in enumerate(named)
    ]
    wanted.extend([None] * (seats - len(named)))
    caps.check_decks(len(body.decks or []))
    given = _given_rules(body.rules)
    rules = RuleSet.from_dict(given, players=seats)
    caps.check_rules(given, rules)
    return c.NewGame(
        seats=wanted,
        rules=rules,
        seed=body.seed,
        decks=[[Card.parse(code) for code in deck] for deck in body.decks or []],
        dealer=body.dealer,
        by_admin=by_admin,
        unlisted=bool(body.unlisted),
        rated=bool(body.rated),
    )


def ticket_rules(variant: Variant, rules: s.Rules | None, seats: int, caps: Caps) -> RuleSet:
    """The rules a matchmaking ticket asks for (its `variant` and `rules`), for a table of
    `seats`; refuses what this deployment caps, and what no game of `seats` could
    play, as a new game would (422)."""
    given = _given_rules(rules)
    named = given.setdefault("variant", variant)
    if named is not variant:
        raise InvalidRules(
            f"`rules.variant` is {named.value!r}, the ticket's `variant` {variant.value!r}."
        )
    built = RuleSet.from_dict(given, players=seats)
    caps.check_rules(given, built)
    check_new_game(built, seats)
    return built


def _seat(
    name: str, client_seed: str | None, vouched: Vouched | None, bot: str | None
) -> c.NewSeat:
    """A seat as the application takes it: a vouched-for player's name is kept beside
    the events, never in them (docs/privacy.md), so its seat holds `""` and the
    pseudonym."""
    if vouched is None:
        return c.NewSeat(name=name, client_seed=client_seed or "", bot=bot)
    if bot is not None:
        raise InvalidSeating("A bot's seat takes no `player_assertion`.")
    return c.NewSeat(name="", client_seed=client_seed or "", player=vouched.pseudonym)


def _given_rules(rules: s.Rules | None) -> dict[str, Any]:
    """The options a body gives values; null is the same as left out, but only for an
    option the variant has (its schema lists no other, not even as null)."""
    if rules is None:
        return {}
    given = rules.given()
    accepted = VARIANTS[given.get("variant", Variant.CLASSIC)].accepted
    for name in rules.named():
        if name not in accepted:
            variant = given.get("variant", Variant.CLASSIC).value
            raise InvalidRules(
                f"Rule {name!r} is not an option of variant {variant!r}: leave it out."
            )
    return given


def new_seat(body: s.JoinGame, vouched: Vouched | None = None) -> c.NewSeat:
    return _seat(body.name, body.client_seed, vouched, None)


def actions(body: s.ActionBody) -> list[d.Action]:
    """A body's action, or list of actions, as the domain's."""
    listed = _listed(body)
    many = isinstance(body, list)
    return [_action(action, f"[{index}]." if many else "") for index, action in enumerate(listed)]


def _action(action: s.Action, place: str) -> d.Action:
    match action:
        case s.DrawAction(source=source, count=count):
            return d.Draw(source, 1 if count is msgspec.UNSET else count)
        case s.MeldAction(cards=cards, as_=as_):
            return d.Meld(tuple(Card.parse(code) for code in cards), _reading(cards, as_, place))
        case s.LayOffAction(card=card, meld_id=meld_id, as_=as_):
            return d.LayOff(
                Card.parse(card), meld_id, None if as_ is msgspec.UNSET else Card.parse(as_)
            )
        case s.DiscardAction(card=card):
            return d.Discard(Card.parse(card))
        case s.SwapAction(meld_id=meld_id, card=card):
            return d.Swap(meld_id, Card.parse(card))
        case s.KnockAction(card=card, melds=melds):
            return d.Knock(
                None if card is msgspec.UNSET else Card.parse(card),
                None if melds is msgspec.UNSET else _groups(melds),
            )
        case s.PassAction():
            return d.Pass()
        case s.DeclareAction(card=card, groups=groups):
            return d.Declare(Card.parse(card), _groups(groups))
        case s.SubmitGroupsAction(groups=groups):
            return d.SubmitGroups(_groups(groups))
        case s.DropAction():
            return d.Drop()


def _groups(groups: Sequence[Sequence[str]]) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(Card.parse(code) for code in group) for group in groups)


def _reading(
    cards: Sequence[str], as_: Sequence[str] | msgspec.UnsetType, place: str
) -> tuple[Card, ...] | None:
    """A meld's `as`: one code per card (another length is a malformed body, 422)."""
    if as_ is msgspec.UNSET:
        return None
    if len(as_) != len(cards):
        raise problem(
            422,
            "invalid_body",
            f"{place}as: `as` names what each card of `cards` stands for: {len(cards)} "
            f"codes, not {len(as_)}.",
            errors=[
                {
                    "message": "`as` and `cards` differ in length",
                    "key": f"{place}as",
                    "source": "body",
                }
            ],
        )
    return tuple(Card.parse(code) for code in as_)


def idempotency(key: str | None, body: s.ActionBody) -> c.Idempotency | None:
    """The application's key and body digest of an action's `Idempotency-Key`, None
    without one. One action and a list of just it are the same request."""
    return _keyed(key, _listed(body))


def leave_idempotency(key: str | None, body: s.Leave) -> c.Idempotency | None:
    """The same for leaving; its digest never equals an action's (a leave is no action
    list), so one key is never both."""
    return _keyed(key, {"leave": body})


def creation_idempotency(key: str | None, body: s.CreateGame | s.JoinGame) -> c.Idempotency | None:
    """The same for creating or joining a game: the body as decoded, so two bodies
    that mean the same (a field left out or given as null) are the same request."""
    if isinstance(body, s.CreateGame) and body.rules is not None:
        body = msgspec.structs.replace(body, rules=body.rules.normalized())
    return _keyed(key, body)


def _keyed(key: str | None, body: object) -> c.Idempotency | None:
    if key is None:
        return None
    return c.Idempotency(key, hashlib.sha256(msgspec.json.encode(body)).hexdigest())


def _listed(body: s.ActionBody) -> list[s.Action]:
    return list(body) if isinstance(body, list) else [body]


def expected_version(if_match: str | None) -> int | None:
    """The version an `If-Match` header asks for, None for any."""
    if if_match is None:
        return None
    matched = re.fullmatch(IF_MATCH_PATTERN, if_match)
    if matched is None:
        raise problem(
            422,
            "invalid_if_match",
            f'If-Match must be a quoted game version such as "12", not {if_match!r}.',
        )
    if matched.group(1) == "*":
        return None
    # The version of a quoted tag (group 3), or a bare one (the last group).
    return int(matched.group(3) or matched.group(6))


def stream_start(after: int, last_event_id: str | None) -> int:
    """The version a stream starts after: `Last-Event-ID` if sent, else `after`."""
    if last_event_id is None:
        return after
    value = last_event_id.strip()
    # ASCII digits only: `str.isdigit` also says yes to "²" (a latin-1 byte), which
    # `int` refuses.
    if not (value.isascii() and value.isdigit()) or len(value) > 10:
        raise problem(
            422,
            "invalid_request",
            "Last-Event-ID must be the id of a message of this stream (a version), "
            f"not {last_event_id!r}.",
        )
    return int(value)


# --- responses ------------------------------------------------------------------------


def created_game(
    created: r.CreateResult, body: s.CreateGame, vouched: Sequence[Vouched | None] = ()
) -> out.CreatedGame:
    named = [player.name for player in body.players or []]
    for seat, seen in enumerate(vouched):
        if seen is not None:
            named[seat] = seen.name  # the assertion's, as the views show it
    return out.CreatedGame(
        game_id=str(created.game_id),
        players=[
            out.SeatToken(seat=seat, name=named[seat], token=token)
            for seat, token in sorted(created.tokens.items())
        ],
        version=created.version,
        seed_commitment=created.seed_commitment,
        deal=created.deal_mode,
    )


def joined_seat(game_id: UUID, joined: r.JoinResult) -> out.JoinedSeat:
    return out.JoinedSeat(
        game_id=str(game_id), seat=joined.seat, token=joined.token, version=joined.version
    )


def events_page(
    game_id: UUID,
    events: Sequence[Any],
    state: r.GameState,
    viewer: Viewer,
    chains: Sequence[str],
) -> out.EventsPage:
    """A page of `events` as `viewer` may see them, `state` the game read after them,
    `chains` the live head after each (service/projections/chain_heads.py)."""
    table = state.table
    return out.EventsPage(
        game_id=str(game_id),
        version=state.version,
        events=[
            event_view(event, viewer, table.rules, table.seat_count, chain)
            for event, chain in zip(events, chains, strict=True)
        ],
        more=bool(events) and events[-1].originator_version < state.version,
    )
