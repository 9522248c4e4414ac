"""500 Rum: its engine (`engine.py`), turn (`turn.py`), spread pile and called card
(`pile.py`), meld credit and scores (`credit.py`) and hands (`hands.py`)."""
