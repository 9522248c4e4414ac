"""What every error `code` means: the one table of problem types.

Each problem+json body names its type by a relative URI, `/problems/<code>`
(RFC 9457 allows a relative reference; it resolves against the service's own
address). `GET /problems/<code>` serves that type's page, written from its row
here (service/api/docs/problem_pages.py), and the body's `title` is the row's title,
so a problem's title and its page always agree. errors.py maps exceptions to
codes and statuses; tests/api/docs/test_problem_pages.py holds this table to every
code the service can answer with, in both directions, and to its status.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from http import HTTPStatus

from service.api.docs.player_problems import PLAYER_PROBLEM_ROWS

TYPE_PREFIX = "/problems/"
"""The problem `type` of a code is this prefix and the code."""


@dataclass(frozen=True, slots=True)
class ProblemType:
    """One row of the table: how a code is answered and what a client does about it."""

    status: int
    title: str
    """A short summary, the same for every occurrence (the body's `title`)."""
    meaning: str
    todo: str
    """What the client does about it."""

    @property
    def status_line(self) -> str:
        return f"{self.status} {HTTPStatus(self.status).phrase}"


def type_uri(code: str) -> str:
    """The `type` of a problem with `code`: a relative reference to its page."""
    return f"{TYPE_PREFIX}{code}"


_RETRY_NOT = "Nothing was applied. Do not send the same request again: change it first."
_RULES = "Nothing was applied. Read the game (its view lists the legal moves in `legal`) and "

PROBLEM_TYPES: Mapping[str, ProblemType] = {
    # --- the request cannot be read --------------------------------------------------
    "bad_request": ProblemType(
        400,
        "Bad request",
        "The request could not be read at all: the body is not JSON.",
        "Send a JSON body with `Content-Type: application/json`. " + _RETRY_NOT,
    ),
    "invalid_body": ProblemType(
        422,
        "Invalid body",
        "The JSON body does not match the operation's schema: a missing, unknown or "
        "ill-typed field, a key given twice. `errors[]` names each place (`key`).",
        "Fix the fields `errors[]` names; the OpenAPI document gives each schema. " + _RETRY_NOT,
    ),
    "invalid_request": ProblemType(
        422,
        "Invalid request",
        "A query parameter or header is malformed: an integer not written in plain digits, "
        "a parameter given twice, a header sent twice with different values, an "
        "`If-None-Match` that is not a list of entity tags, a `Last-Event-ID` that is not "
        "a version, an `Idempotency-Key` shorter than a creation or join allows.",
        "Fix the parameter or header the detail names. " + _RETRY_NOT,
    ),
    "unknown_card": ProblemType(
        422,
        "Unknown card",
        "A card code is not one of the 52 (rank A 2-10 J Q K, then suit C D H S) nor `JK`, "
        "the printed joker.",
        "Write cards as `10H`, `AS`, `KD`, `JK`. " + _RETRY_NOT,
    ),
    "invalid_rules": ProblemType(
        422,
        "Invalid rules",
        "Something inside the `rules` of a new game is wrong: an unknown option, a value "
        "of the wrong type or out of range, an option the variant has not or fixes "
        "otherwise, rules that cannot go together, a player count the variant does not "
        "seat, or a value beyond what this service allows (`max_turns`, `recycles`); the "
        "detail names the rule.",
        "Change the rule the detail names; the OpenAPI document states every bound. " + _RETRY_NOT,
    ),
    "invalid_deck": ProblemType(
        422,
        "Invalid deck",
        "A deck order given at creation is not the game's whole pack: each card as often "
        "as the pack holds it (the classic game: the 52 cards each once).",
        "Give each deck as the whole pack of the game's rules: `packs` times the 52 card "
        "codes and `jokers` times `JK`, in any order. " + _RETRY_NOT,
    ),
    "invalid_seating": ProblemType(
        422,
        "Invalid seating",
        "The seats of a new game do not work: fewer than 2 or more than 6, more named "
        "players than seats, a bot strategy that does not exist, or every seat a bot.",
        "Name 2 to 6 players or give `seats`, with a person in at least one seat. " + _RETRY_NOT,
    ),
    "too_many_decks": ProblemType(
        422,
        "Too many decks",
        "A new game was given more explicit deck orders than this service keeps.",
        "Give at most as many as the served OpenAPI document's `maxItems` says; later "
        "hands are dealt from the seed. " + _RETRY_NOT,
    ),
    "invalid_if_match": ProblemType(
        422,
        "Invalid If-Match",
        "`If-Match` is not a game version: it takes the `ETag` of a response about the "
        'game (`"12"`, `"12.seat0"`), or `*`.',
        "Send back an `ETag` you received, or leave `If-Match` out. " + _RETRY_NOT,
    ),
    "idempotency_key_reused": ProblemType(
        422,
        "Idempotency key reused",
        "This `Idempotency-Key` was sent before with a different request: another body "
        "(for an action: another action by the same seat). Nothing was applied.",
        "Use a fresh key for every new request; send a key again only with the very same "
        "request, to retry it.",
    ),
    # --- who may ask -----------------------------------------------------------------
    "invalid_webhook_url": ProblemType(
        422,
        "Invalid webhook URL",
        "A webhook's `url` cannot be delivered to: not `http` or `https`, no host, a user "
        "name or password in it, a `#fragment`, a bad port.",
        "Give a URL such as `https://platform.example.com/rummy/events`. " + _RETRY_NOT,
    ),
    "unauthorized": ProblemType(
        401,
        "Unauthorized",
        "The token is missing, malformed or not valid here. Answered with "
        '`WWW-Authenticate: Bearer realm="rummy"`.',
        "Send `Authorization: Bearer <token>` with the player token creating or joining "
        "the game gave you (or the admin token where the admin reads).",
    ),
    "stream_ticket_invalid": ProblemType(
        401,
        "Stream ticket invalid",
        "The stream ticket is unknown, spent or expired: a ticket opens one stream, once, "
        "within its `expires_in` seconds, and cannot go with an `Authorization` header.",
        "Get a new ticket (`POST /games/{game_id}/stream-tickets` with the token) and open "
        "the stream again with it, resuming with `after` the last version you received.",
    ),
    "forbidden": ProblemType(
        403,
        "Forbidden",
        "The token is valid but not for this: a player token for another game, a player "
        "token where only the admin reads, the admin token where a player must act.",
        "Use the token of a player of this game, or the admin token where the admin reads.",
    ),
    "explicit_deal_forbidden": ProblemType(
        403,
        "Explicit deal forbidden",
        "A new game with open seats chose its deal (`seed` or `decks`) without the admin "
        "token: a stranger joining would play cards its creator can know.",
        "Name a player or bot for every seat, send the admin token, or leave out `seed` "
        "and `decks` so the server commits to a seed of its own.",
    ),
    # --- what is asked for does not exist ----------------------------------------------
    "not_found": ProblemType(
        404,
        "Not found",
        "There is no such game, or no such route (or problem type).",
        "Check the game id (from creating it) and the path.",
    ),
    "version_not_found": ProblemType(
        404,
        "Version not found",
        "The game has no such version: `version` is beyond its latest.",
        "Ask for a version from 1 to the game's `version`.",
    ),
    "method_not_allowed": ProblemType(
        405,
        "Method not allowed",
        "The path exists but not with this method.",
        "Use a method the OpenAPI document lists for the path.",
    ),
    "not_acceptable": ProblemType(
        406,
        "Not acceptable",
        "The response cannot be given in a media type the request's `Accept` allows.",
        "Accept `application/json` (and `application/problem+json` for errors).",
    ),
    "unsupported_media_type": ProblemType(
        415,
        "Unsupported media type",
        "The request has a body that does not say it is JSON: its `Content-Type` is "
        "missing, or is not `application/json` nor any `application/*+json` (a `text/plain`, "
        "form or multipart body is refused whatever it holds). Nothing was applied.",
        "Send the body with `Content-Type: application/json` (a `charset` parameter is "
        "fine). " + _RETRY_NOT,
    ),
    # --- the rules forbid it now (409) -------------------------------------------------
    "game_not_started": ProblemType(
        409,
        "Game not started",
        "The game waits for its open seats to be filled; nobody plays until then.",
        _RULES + "wait for the first deal (the live stream tells you).",
    ),
    "game_full": ProblemType(
        409,
        "Game full",
        "Every seat of the game is taken.",
        "Join another game, or create one.",
    ),
    "client_seed_not_used": ProblemType(
        409,
        "Client seed not used",
        "A `client_seed` was given for a game dealt from deck orders chosen at creation: "
        "no deal would mix it in, and it is refused rather than ignored.",
        "Leave out `client_seed` for this game (its view says `deal: explicit`).",
    ),
    "game_over": ProblemType(
        409,
        "Game over",
        "The game is over, finished or aborted at a cap of its rules: no more moves, "
        "joins or leaves.",
        "Read the final view or the audit export.",
    ),
    "hand_over": ProblemType(
        409,
        "Hand over",
        "The hand is over; the next one has not been dealt yet.",
        _RULES + "act in the next hand.",
    ),
    "not_your_turn": ProblemType(
        409,
        "Not your turn",
        "Another seat is to move.",
        _RULES + "wait for your turn (the view's `turn`, or the live stream).",
    ),
    "wrong_phase": ProblemType(
        409,
        "Wrong phase",
        "The move does not fit the turn's phase: draw first, or you have drawn already.",
        _RULES + "follow the view's `phase`.",
    ),
    "card_not_in_hand": ProblemType(
        409,
        "Card not in hand",
        "The card is not in the player's hand.",
        _RULES + "play a card of `my_hand`.",
    ),
    "invalid_meld": ProblemType(
        409,
        "Invalid meld",
        "The cards are not a set (3 or 4 of a rank) or a run (3 or more in sequence of a "
        "suit) under the game's rules.",
        _RULES + "lay one of `legal.melds`.",
    ),
    "unknown_meld": ProblemType(
        409,
        "Unknown meld",
        "There is no meld with that id on the table.",
        _RULES + "use a `melds[].id` of the view.",
    ),
    "invalid_lay_off": ProblemType(
        409,
        "Invalid lay-off",
        "The card does not extend that meld, or the rules do not allow laying off there.",
        _RULES + "use one of `legal.lay_offs`.",
    ),
    "lay_off_before_meld": ProblemType(
        409,
        "Lay-off before meld",
        "Under these rules a player lays off onto others' melds only once it has a meld "
        "of its own on the table this hand.",
        _RULES + "lay a meld of your own first.",
    ),
    "meld_limit": ProblemType(
        409,
        "Meld limit",
        "The rules allow only one meld per turn.",
        _RULES + "lay the next meld in a later turn.",
    ),
    "must_discard_last": ProblemType(
        409,
        "Must discard last",
        "Under these rules a player goes out only by discarding its last card; this play "
        "would empty the hand.",
        _RULES + "keep a card to discard.",
    ),
    "discard_taken_card": ProblemType(
        409,
        "Discard of the taken card",
        "The card was taken from the discard pile this turn and cannot be discarded until "
        "a later turn.",
        _RULES + "discard one of `legal.discard`.",
    ),
    "would_strand_taken_card": ProblemType(
        409,
        "Would strand the taken card",
        "The play would leave only the card taken from the discard pile this turn, which "
        "may not be discarded now.",
        _RULES + "keep another card to discard.",
    ),
    "wild_ambiguous": ProblemType(
        409,
        "Wild card reads more than one way",
        "A meld or lay-off holding a wild card can be read in more than one way and the "
        "request did not say which (`as`).",
        _RULES + "send `as` with one of `legal.meld_readings` or `legal.lay_offs`.",
    ),
    "invalid_swap": ProblemType(
        409,
        "Invalid swap",
        "Swaps are off in this game, or no wild card of that meld stands for the card offered.",
        _RULES + "use one of `legal.swaps`.",
    ),
    "swapped_wild_unused": ProblemType(
        409,
        "Swapped wild card not played",
        "Under `swapped_wild: meld_now` the wild card taken by a swap must leave the hand "
        "by a meld or lay-off in the same request, and this request ended with it in hand.",
        _RULES + "send the swap together with the meld or lay-off that uses the wild.",
    ),
    "meld_only_going_out": ProblemType(
        409,
        "Melds only when going out",
        "In a concealed turn (Boathouse; Wrotham deals 4 to 6) melds, lay-offs and swaps "
        "are allowed only inside the one request that goes out.",
        _RULES + "send every meld and the final discard together, when `legal.can_go_out`.",
    ),
    "not_in_variant": ProblemType(
        409,
        "Not in this variant",
        "The game's variant has no such action (a swap or knock where the variant has "
        "none, a meld in Knock Rummy).",
        _RULES + "use only the moves `legal` offers.",
    ),
    "incomplete_declaration": ProblemType(
        409,
        "Incomplete declaration",
        "Indian Rummy: the groups of a declaration are not exactly the 13 cards of the "
        "hand besides the finish card (one left out, one named twice, or one not held).",
        _RULES + "send the finish card and every other card of your hand in `groups`, each once.",
    ),
    "not_in_deal": ProblemType(
        409,
        "Not in the deal",
        "Indian Rummy: the seat is out of this deal (it dropped or showed wrongly) or of "
        "the game for now (it sits out a tie-break of format `deals`, or a pool eliminated "
        "it).",
        "Nothing was applied. Wait for the next deal (the view's `players[].status` says "
        "where each seat stands); an eliminated seat plays no more.",
    ),
    # Gin Rummy (docs/rules.md "Gin Rummy").
    "upcard_declined": ProblemType(
        409,
        "Upcard declined",
        "Gin Rummy: both players passed the upcard, so the non-dealer's first draw is "
        "from the stock; the upcard stays on the pile.",
        _RULES + "draw from the stock (`legal.draw` offers only it).",
    ),
    "knock_too_high": ProblemType(
        409,
        "Knock too high",
        "Gin Rummy: the knock leaves more deadwood (the cards outside its melds, with "
        "the arrangement given or the server's least-deadwood one) than this hand's "
        "knock limit (the view's `knock_limit`; 0: gin only).",
        _RULES + "knock with a card `legal.knock` lists, or discard.",
    ),
    "invalid_knock": ProblemType(
        409,
        "Invalid knock",
        "Gin Rummy: a knock without `card` is big gin, and big gin is off in this game "
        "(`big_gin_bonus` null) or not all eleven cards are in melds.",
        _RULES + "knock with a card, or without one only when `legal.big_gin` is true.",
    ),
    # 500 Rum's spread pile (issue 29).
    "pile_card_unusable": ProblemType(
        409,
        "Called card unusable",
        "500 Rum: a draw of several cards from the discard pile must use its deepest card "
        "(the called card) in a meld or lay-off this turn, and no meld or lay-off holding "
        "it could be made from the hand after that draw.",
        _RULES + "take a count listed in `legal.pile_counts`, or draw one card.",
    ),
    "taken_card_unused": ProblemType(
        409,
        "Called card not used",
        "500 Rum: the called card (the deepest card of a draw of several from the pile) "
        "is still in hand. The turn cannot end (by a discard, or going out) until it is "
        "melded or laid off, and no play may leave it with no meld or lay-off to use it.",
        _RULES + "meld or lay off the view's `called_card` first (`legal` offers how).",
    ),
    "pile_too_short": ProblemType(
        409,
        "Discard pile too short",
        "500 Rum: a draw asked for more cards than the discard pile holds.",
        _RULES + "take a count listed in `legal.pile_counts`.",
    ),
    "nothing_to_redeliver": ProblemType(
        409,
        "Nothing to redeliver",
        "A redelivery without `after` starts from the newest attempt in the webhook's "
        "log, and the log is empty: nothing was sent to it yet.",
        "Give `after`, a position of the feed (`GET /feed`), to send the events after it.",
    ),
    "seat_left": ProblemType(
        409,
        "Seat left",
        "The seat's player left or resigned this game, or its turn clock took it over "
        "(`players[].left` in the view): it acts and leaves no more.",
        "Nothing was applied. The token still reads the game (its view and its events); "
        "the server's bot plays a replaced seat, a forfeited seat plays no more.",
    ),
    "write_conflict": ProblemType(
        409,
        "Write conflict",
        "The game changed too often while the request was being applied (other writers "
        "won every try); nothing was applied.",
        "Read the game and send the request again (with the same `Idempotency-Key`).",
    ),
    # --- preconditions ------------------------------------------------------------------
    "version_conflict": ProblemType(
        412,
        "Version conflict",
        "`If-Match` named a version the game has moved past: the action was not applied.",
        "Read the game, decide again on its new state, and send the action with the new `ETag`.",
    ),
    # --- limits -------------------------------------------------------------------------
    "body_timeout": ProblemType(
        408,
        "Body timeout",
        "The request body did not arrive in time after its headers; the connection is "
        "closed. Nothing was applied.",
        "Send the body promptly; retry on a new connection.",
    ),
    "body_too_large": ProblemType(
        413,
        "Body too large",
        "The body is larger than this service takes (64 KiB unless its operator set another).",
        "Send a smaller body: the largest valid request is about 15 KB. " + _RETRY_NOT,
    ),
    "rate_limited": ProblemType(
        429,
        "Rate limited",
        "Too many requests from this address (creating, joining, failed admin-token "
        "attempts) or this token (actions) in the current window. Nothing was applied.",
        "Wait the `Retry-After` seconds, then send it again (an action with the same "
        "`Idempotency-Key`); back off further if refused again.",
    ),
    "headers_too_large": ProblemType(
        431,
        "Headers too large",
        "The request line and headers are larger than this service reads (16 KiB unless "
        "its operator set another); the connection is closed.",
        "Send fewer or shorter headers.",
    ),
    # --- the service ----------------------------------------------------------------------
    "internal_error": ProblemType(
        500,
        "Internal error",
        "Something went wrong in the service; it is logged under the response's "
        "`X-Request-ID`. Nothing was applied in part.",
        "Try again later; if it persists, report the `X-Request-ID`.",
    ),
    "store_unavailable": ProblemType(
        503,
        "Store unavailable",
        "The event store cannot be reached, timed out or cannot write. An action may or "
        "may not have been applied.",
        "Wait the `Retry-After` seconds and send it again with the same "
        "`Idempotency-Key`, or read the game first.",
    ),
    "too_many_streams": ProblemType(
        503,
        "Too many streams",
        "This server process holds as many live streams open as it keeps.",
        "Wait the `Retry-After` seconds and open the stream again (with `Last-Event-ID`); "
        "meanwhile poll `GET /games/{id}/events?after=N`.",
    ),
    "too_many_exports": ProblemType(
        503,
        "Too many exports",
        "This server process is sending as many audit exports at once as it sends.",
        "Wait the `Retry-After` seconds and ask again; a finished game's export, once "
        "sent, is sent again from the server's copy.",
    ),
    "not_ready": ProblemType(
        503,
        "Not ready",
        "The readiness probe failed: the event store does not answer in time, or cannot write.",
        "Route traffic elsewhere until `/ready` answers 200.",
    ),
    **{code: ProblemType(*row) for code, row in PLAYER_PROBLEM_ROWS.items()},
}
"""Every code the service answers with, by code."""
