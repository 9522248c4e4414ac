"""HTTP throughput: concurrent clients playing complete games against real
`rummy serve` processes. Run it as `python -m bench.load` (__main__.py says
how); it was `bench/http.py`, a name that shadowed the standard `http` package.

By job:

- `options`: what one run is asked to do (the command line's `Options`);
- `servers`: the throw-away store and the server processes over it (started
  and stopped by tests/servers.py, the store from tests/postgres.py);
- `clients`: HTTP/1.1 clients, a lean one on asyncio streams and httpx;
- `players`: the simulated players, timing each request;
- `stats`, `cpu`, `locks`: what a run measures (latencies, CPU by party, the
  PostgreSQL events table's lock);
- `report`: the printed report and the summary of several replica counts.
"""
