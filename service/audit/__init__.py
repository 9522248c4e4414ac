"""The independent audit of a finished game: the hash chain and the verifier.

This package imports nothing of the service but `service.domain`: it checks
an audit export (docs/audit.md) with the rules alone, re-deriving every deck
from the seed by docs/fairness.md's algorithm (`service.domain.shuffle`), so
that it trusts nothing the running service computed.
"""
