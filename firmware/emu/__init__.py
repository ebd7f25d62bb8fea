"""Register-level emulation of the mat's hardware (MFRC522 readers, NTAG21x tags).

Used by the virtual board (MicroPython unix port) and by the tests on both interpreters.
"""
