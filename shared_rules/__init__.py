"""tapmat rules core: pure Python that runs unchanged on MicroPython and CPython."""
