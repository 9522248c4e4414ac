"""Players across games, from the feed: recall, statistics, ratings, leaderboards
(`standings.Standings`). A projection: rebuilt from the events, never their source."""
