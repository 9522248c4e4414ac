"""Live streams: the event hub and the games' event streams."""
