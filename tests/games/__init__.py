"""What the generic tests (tests/test_games.py) need to know of each game: one module per game."""
