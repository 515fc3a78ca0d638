"""Bot tests, one module per game."""
