"""A write whose reply is lost after it committed is answered as applied, once.

The proxy forwards every third insert of game events to PostgreSQL, waits
for the server to finish it (committed: the statement runs in autocommit),
then drops the reply and resets the connection. The driver retries the
insert and meets the events it stored itself. Issue 16 measured the service
answering 409 or 412 to such actions (58 of 6,797); now every action a
client sends is acknowledged, and the store holds each exactly once, at the
place its `If-Match` named.
"""

from __future__ import annotations

import random

import pytest

from tests.faults.ledger import Verdict, check, play, stored_moves
from tests.faults.service import GAME_EVENTS, direct, proxied_service
from tests.postgres import fresh_schema

pytestmark = pytest.mark.postgres

ACTIONS = 90


@pytest.mark.parametrize("keys", [False, True], ids=["without-keys", "with-keys"])
def test_every_action_whose_reply_was_lost_is_acknowledged_and_stored_once(keys: bool) -> None:
    with fresh_schema("rummy_faults") as settings:
        with proxied_service(settings) as service:
            service.proxy.lose_replies(GAME_EVENTS, every=3)
            ledger = play(service.client, random.Random(16), actions=ACTIONS, keys=keys)
            lost_replies = service.proxy.lost_replies
        with direct(settings) as games:
            verdict = check(ledger.attempts, stored_moves(games, ledger.game_ids))

    assert lost_replies >= ACTIONS // 3, "the proxy lost replies to committed inserts"
    assert verdict == Verdict(
        acknowledged=len(ledger.attempts),
        lost=0,
        applied_twice=0,
        false_refusals=0,
        orphans=0,
        unknown=0,
        unknown_stored=0,
    )
    assert set(ledger.statuses) == {200, 201}, ledger.statuses
