"""The physical truth of each game's table for simulations: every legal action (MicroPython-compatible)."""
