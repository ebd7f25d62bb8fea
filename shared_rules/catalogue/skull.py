"""Skull pieces: each seat's discs (one colour per seat)."""

SKULL_CODES = ("flower", "skull")
SKULL_PER_SEAT = (3, 1)
