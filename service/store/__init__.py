"""How events are kept and read: recorders, feed order, refusals, tickets, lobby tables."""
