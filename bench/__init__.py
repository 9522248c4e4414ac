"""Benchmarks, run by hand: `uv run python bench/engine.py`."""
