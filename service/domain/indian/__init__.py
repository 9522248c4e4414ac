"""Indian 13-card Rummy: its engine (`engine.py`), turn, deals, group judge and best
grouping."""
