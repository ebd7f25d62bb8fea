"""Generated from shared_rules/sheriff/modules/laws.py by ``python -m host.layout``: do not edit.

The module's ``const()`` values by name, for tests and host tools; never on a board.
"""
OK = 0
PENALTY = b'\x02\x02\x02\x02\x04\x04\x04\x04\x03\x04\x04\x05\x04\x05\x04'
KINDS = 15
BAG_N = 4
BAG = 5
DECL_GOOD = 10
SIZE = 4
OP_BAG_MAX = 6
BANK = 0
OP_CONTRABAND = 1
OP_GOLD = 7
OP_NO_BRIBE = 5
OP_PENALTY = 4
OP_TAX = 2
LAWS = 24
LAW = 598
LAW_ROUND = 622
OUT = 0
DECK = 1
POS1 = 2
POS2 = 3
LAW_UNDER = 4
ROW = 17
MARK_4 = 1
MARK_5 = 2
F_KEEP = 2
F_BOTTOM = 5
NOBODY = 255
NOT_THE_SHERIFF = 21
BAG_SIZE = 27
NO_SUCH_LAW = 57
LAW_NOT_IN_DECK = 58
KEEP_COUNT = 59
BRIBE_FORBIDDEN = 60
NOT_ON_TOP = 61
