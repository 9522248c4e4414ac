"""Computer players: strategies that play from one seat's own view.

    strategies.py  the strategies by name; `random`
    basic.py       `basic`, the way good players describe it
    melding.py     how a hand splits into melds, lay-offs and deadwood
    view.py        the player view, read back into typed cards
    seats.py       bot seats in a live game (used by the application)
    simulate.py    `rummy simulate`: bots against bots, in process

Dependencies point one way: game → bots → projections → domain.
"""
