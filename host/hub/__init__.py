"""The hub: the one process owning a board's serial port, its mirror of the game, the port lock."""
