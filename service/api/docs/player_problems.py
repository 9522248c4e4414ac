"""The problem types of players across games (docs/players.md): rows of the one table,
`problem_types.PROBLEM_TYPES` (which makes each a `ProblemType`: status, title,
meaning, what to do), kept here to keep that module short."""

from __future__ import annotations

from collections.abc import Mapping

_NEW_ASSERTION = "Nothing was applied. Ask the player's platform for a fresh assertion and send it."

PLAYER_PROBLEM_ROWS: Mapping[str, tuple[int, str, str, str]] = {
    "assertion_invalid": (
        401,
        "Player assertion invalid",
        "The `player_assertion` is not a JWT, its signature does not verify with the key "
        "it names, a claim is missing or malformed (`iss`, `sub`, `name`, `exp`), or its "
        "`exp` is more than an hour ahead.",
        _NEW_ASSERTION,
    ),
    "assertion_expired": (
        401,
        "Player assertion expired",
        "The `player_assertion`'s `exp` has passed (by more than the 60 seconds of leeway "
        "this service allows clocks).",
        _NEW_ASSERTION,
    ),
    "assertion_unknown_key": (
        401,
        "Player assertion's key unknown",
        "No platform of the assertion's `iss` is registered, it has no key of the "
        "assertion's `kid` (retired, or never added), or it has several keys and the "
        "assertion names none.",
        "The platform signs with a key it registered (`POST /platforms/{platform_id}/keys`) "
        "and names it in the JWT header's `kid`.",
    ),
    "assertion_wrong_audience": (
        401,
        "Player assertion for another service",
        "The `player_assertion`'s `aud` is not `rummy` (or it has none).",
        "The platform signs assertions for this service with `aud` `rummy`.",
    ),
    "player_already_seated": (
        409,
        "Player already seated",
        "The player the assertion vouches for already has a seat at this table: one seat "
        "per player per table.",
        "Play the seat the player has (its token), or join another table.",
    ),
    "player_already_queued": (
        409,
        "Player already queued",
        "The player the assertion vouches for already has a ticket waiting (or being "
        "matched) for this variant: one queue per player and variant.",
        "Read or cancel the ticket the player has (`DELETE /matchmaking/{ticket_id}`), "
        "or wait for it to be matched or to expire.",
    ),
    "rated_needs_players": (
        422,
        "Rated game needs players",
        "A rated game (`rated: true`) seats only players a platform vouches for: a human "
        "seat was named or joined without a `player_assertion`.",
        "Send a `player_assertion` for every human seat, or create the game unrated.",
    ),
    "invalid_key": (
        422,
        "Invalid platform key",
        "The key cannot verify assertions: an HS256 `secret` that is not base64url or "
        "shorter than 32 bytes, a `public_key` that is not PEM or not of the `alg`, a "
        "`secret` with a public-key `alg` (or the reverse), or a malformed `kid`.",
        "Nothing was kept. Send a key of the shape docs/players.md shows.",
    ),
    "key_exists": (
        409,
        "Key id taken",
        "The platform has a key of that `kid` already: a key is never replaced in place.",
        "Add the new key under a new `kid`, then retire the old one.",
    ),
}
