"""Matchmaking (docs/players.md, "Matchmaking"): players a platform vouches for wait on
tickets and are seated together by rating.

`tickets.py` is the use cases the API asks (open, read, cancel a ticket, and the
`match_found` webhook items); `bands.py` who may play whom (the band widening
with waiting time, the groups); `matcher.py` the matcher that claims groups and
creates their games, once across replicas (a thread of each process, or
`run_once`); `sealing.py` how a seat token waits for its ticket's holder. The
tickets are kept beside the events (service/store/match_tickets.py).
"""
