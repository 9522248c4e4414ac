"""Players across games: identity a platform vouches for, kept apart from the events.

A platform (registered by the admin) signs short-lived player assertions
(JWTs, `assertions.py`) with keys it may rotate (`keys.py`); a seat taken with
one records only a pseudonym (`pseudonyms.py`), and `identities.py` is the use
cases: registering platforms and keys, vouching for a seat's player, showing a
pseudonym as `platform:player` and erasing a player. The tables live beside the
event store (service/store/player_tables.py). Nothing here knows the game:
docs/players.md and docs/privacy.md say how it is used and what it keeps.
"""
