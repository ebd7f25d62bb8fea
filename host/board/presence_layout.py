"""Generated from firmware/presence.py by ``python -m host.layout``: do not edit.

The module's ``const()`` values by name, for tests and host tools; never on a board.
"""
NONE = 0
ARRIVE = 1
LEAVE = 2
UID_LEN = 7
EV = 9
