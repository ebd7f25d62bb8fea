"""tapmat firmware (MicroPython): drivers, board profiles, mat layer, event loop."""
