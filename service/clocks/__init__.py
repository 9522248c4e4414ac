"""The turn clocks: the keeper that follows the feed and fires what is due, and its deadlines."""
