"""Generated from shared_rules/sheriff/modules/expansion.py by ``python -m host.layout``: do not edit.

The module's ``const()`` values by name, for tests and host tools; never on a board.
"""
NO_SEAT = 255
U8 = 0
NAME = 2
LIST = 3
DEPUTIES = 1
BLACK_MARKET = 2
SEATS6 = 6
CHEST = 6
R_DEPUTY2 = 12
R_CYCLE = 13
R_MODULES = 14
R_FIRST_MERCHANT = 15
SEAT_BASE = 31
SEAT_BYTES = 42
GOLD = 0
HAND_N = 2
KINDS = 15
PUB_SEAT = 11
R_PHASE = 1
R_SHERIFF = 2
R_ROUND = 4
R_ROUNDS = 5
R_SEATS = 0
R_PILE1 = 9
R_PILE2 = 10
PILE_CAP = 216
SEAT6 = 457
STATE_END = 559
A_SETUP = 0
A_INSPECT = 5
A_DEPUTY = 6
A_LOOT = 7
A_CLAIM = 8
MODULE_OFF = 37
REVEAL = 6
LOOT = 7
PUB_SEAT6 = 283
PUB_CHEST = 294
PUB_MM = 305
PUB_SIZE = 324
