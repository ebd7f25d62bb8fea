"""Generated from firmware/sensors.py by ``python -m host.layout``: do not edit.

The module's ``const()`` values by name, for tests and host tools; never on a board.
"""
UID_SLOTS = 6
HOT_MAX = 6
SWEEP_TAGS = 2
SWEEP_FIELDS = 3
KEEP_CONFIRM = 2
NO_DOCK = 255
NO_KEEP = 255
SPARE = 1
DOCK = 2
AT_HOT = 0
AT_RARE = 1
AT_LIGHT = 2
AT_DOCK = 3
AT_ROUND = 4
AT_KEEP = 5
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
ROLLS = 240
NONE = 255
OK = 0
COLLISION = 4
CHIP_ERR = 8
OVERFLOW = 9
PARTIAL = 11
NO_EVENT = 0
ARRIVE = 1
