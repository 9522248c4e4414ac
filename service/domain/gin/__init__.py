"""Gin Rummy: its engine (`engine.py`), turn, hands, counts and options."""
