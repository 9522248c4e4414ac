"""Errors of matchmaking, each with a stable `code` (service/api/errors.py makes them
HTTP).

MatchmakingError
├── TicketNotFound         404  not_found
├── TicketForbidden        403  forbidden (another ticket's token)
└── PlayerAlreadyQueued    409  player_already_queued
"""

from __future__ import annotations


class MatchmakingError(Exception):
    code = "matchmaking_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TicketNotFound(MatchmakingError):
    code = "not_found"


class TicketForbidden(MatchmakingError):
    code = "forbidden"


class PlayerAlreadyQueued(MatchmakingError):
    code = "player_already_queued"
