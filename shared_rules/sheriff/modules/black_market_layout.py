"""Generated from shared_rules/sheriff/modules/black_market.py by ``python -m host.layout``: do not edit.

The module's ``const()`` values by name, for tests and host tools; never on a board.
"""
OK = 0
WRONG_PHASE = 5
R_PHASE = 1
INSPECT = 4
STAND = 27
BM_VALUES = 541
BM_LEFT = 547
BM_REMOVED = 550
BM_HELD = 553
BM_GOODS = b'\x04\x05\x06'
F_CLAIM_GOOD = 2
PUB_BM = 309
SEATS6 = 6
NOT_BLACK_MARKET = 43
MARKET_EXHAUSTED = 44
NEED_THREE = 45
