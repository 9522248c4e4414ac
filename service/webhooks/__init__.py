"""Signed webhooks: the feed's events sent to the endpoints a platform registers.

`endpoints.py` keeps the endpoints, their positions in the feed, their leases and
their delivery logs beside the events (memory, SQLite, PostgreSQL);
`sender.py` delivers (Standard Webhooks signatures, retries with backoff and
jitter, disabling); docs/webhooks.md says how and why.
"""
