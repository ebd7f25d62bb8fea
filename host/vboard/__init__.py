"""The virtual board: the firmware on the MicroPython unix port, its physical world, its control client."""
