"""Ratings of players across games: Glicko-2 (`glicko2`), and a table of three or
more rated seat by seat against each other seat by finishing order (`tables`).
Pure: no storage, no clock; the projection that feeds it reads the game feed."""
