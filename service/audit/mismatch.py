"""A verifier's finding: the `Mismatch` between an exported log and the rules, and
the wording of what was malformed in it."""

from __future__ import annotations

from typing import Any

from service.domain.cards import Card, parse_cards
from service.domain.errors import RummyError


class Mismatch(Exception):
    """The event in hand is not what the rules produce here, or (with `field`) the
    export's header field that the event shows wrong."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def logged_cards(codes: Any, what: str) -> list[Card]:
    """The cards of a logged list of codes; a `Mismatch` naming `what` if malformed."""
    try:
        return parse_cards(list(codes))
    except (TypeError, RummyError) as error:
        raise Mismatch(f"{what} is malformed: {error_text(error)}") from None


def error_text(error: BaseException) -> str:
    """An error as a verifier's message says it: a missing key named, a rule's sentence."""
    if isinstance(error, KeyError):
        return f"missing {error.args[0]!r}"
    if isinstance(error, RummyError):
        return error.message
    return str(error)
