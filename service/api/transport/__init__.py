"""How requests arrive and answers leave: protocol, timeouts, bodies, logs, limits, metrics."""
