"""Generated from firmware/sensors.py by ``python -m host.layout``: do not edit.

The module's ``const()`` values by name, for tests and host tools; never on a board.
"""
UID_SLOTS = 6
HOT_MAX = 6
SWEEP_TAGS = 2
SWEEP_FIELDS = 3
NO_DOCK = 255
NO_KEEP = 255
SPARE = 1
DOCK = 2
FEW_HOT = 3
READER_OK = 0
READER_DOWN = 1
READER_STUCK = 2
STUCK_SCANS = 3
RETRY_FIRST = 16
RETRY_MAX = 1024
CLASP_STABLE = 2
BAG_SCANS = 1
PICKS = 6
W_LOADED = 4
STEP_UNITS = 10
FEW_UNITS = 3
HOT_UNITS = 2
ROLLS = 240
NONE = 255
OK = 0
COLLISION = 4
CHIP_ERR = 8
OVERFLOW = 9
PARTIAL = 11
NO_EVENT = 0
ARRIVE = 1
