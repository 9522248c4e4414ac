"""The players' side tables on each store: what one replica writes another reads, a
player vouched for twice at once gets one pseudonym, erasure deletes the whole row."""

from __future__ import annotations

from service.game.application import RummyApplication
from service.players.identities import Identities, Shown
from service.players.pseudonyms import new_secret, pseudonym
from service.store.player_tables import KeyRow, PlayerRow, player_tables
from tests.game.stores import StoreUnderTest

KEY = KeyRow(kid="k1", alg="HS256", material="c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTEyMzQ")


def row(player: str, secret: str | None = None) -> PlayerRow:
    secret = secret if secret is not None else new_secret()
    ref = f"p1:{player}"
    return PlayerRow(pseudonym(secret, ref), "p1", player, secret, player.title())


def test_platforms_keys_and_players_round_trip(games: RummyApplication) -> None:
    tables = player_tables(games.recorder)
    tables.add_platform("p1", "Parlour", "hash-of-token", KEY)
    assert tables.platform_of("hash-of-token") == "p1"
    assert tables.platform_of("another") is None
    assert tables.has_platform("p1")
    assert not tables.has_platform("p2")
    second = KeyRow(kid="k2", alg="EdDSA", material="pem")
    assert tables.add_key("p1", second)
    assert not tables.add_key("p1", KeyRow(kid="k2", alg="HS256", material="x")), "kept as it was"
    assert tables.keys("p1") == [KEY, second]
    assert tables.retire_key("p1", "k1")
    assert not tables.retire_key("p1", "k1"), "retired already"
    assert tables.keys("p1") == [second]

    alice, bob = tables.add_player(row("alice")), tables.add_player(row("bob"))
    assert tables.add_player(row("alice")) == alice, "the first writer's secret stands"
    tables.rename(alice.pseudonym, "Alice B.")
    assert tables.player("p1", "alice") == PlayerRow(
        alice.pseudonym, "p1", "alice", alice.secret, "Alice B."
    )
    assert set(tables.shown([alice.pseudonym, bob.pseudonym, "ps_nobody"])) == {
        alice.pseudonym,
        bob.pseudonym,
    }
    assert tables.erase("p1", "alice")
    assert not tables.erase("p1", "alice"), "erased already"
    assert tables.player("p1", "alice") is None
    assert set(tables.shown([alice.pseudonym, bob.pseudonym])) == {bob.pseudonym}


def test_a_replica_reads_what_another_wrote_and_erased(shared_store: StoreUnderTest) -> None:
    one, two = shared_store.games(), shared_store.games()
    first, second = Identities(player_tables(one.recorder)), Identities(player_tables(two.recorder))
    registered = first.register("Parlour", KEY)
    assert second.platform_of(registered.token) == registered.platform_id
    written = first.tables.add_player(row("carol"))
    assert second.tables.add_player(row("carol")) == written, "one pseudonym across replicas"
    assert second.shown([written.pseudonym]) == {written.pseudonym: Shown("p1:carol", "Carol")}
    second.tables.erase("p1", "carol")
    assert first.shown([written.pseudonym]) == {written.pseudonym: Shown(None, "erased")}
