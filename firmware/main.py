"""``main.py`` of a tapmat board: MicroPython runs it at power-on (after ``boot.py``)."""
from firmware.app import main

main()
