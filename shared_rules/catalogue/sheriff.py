"""Sheriff of Nottingham (1st edition): goods with count, 4+ marks, value, penalty, King/Queen
bonus, and what a royal good counts as.

One column per property, as ``bytes`` literals indexed by card number (the index in
``SHERIFF_CODES``): a board reads them in place from its image, and nothing is built at import.
``SHERIFF_GOODS`` (one row per good) is built on demand for host tools and tests.

    code            kind        count 4+  value penalty king queen  counts as       as many
    apple           legal         48   0    2     2      20   10    apple            1
    cheese          legal         36   0    3     2      15   10    cheese           1
    bread           legal         36  36    3     2      15   10    bread            1
    chicken         legal         24   0    4     2      10    5    chicken          1
    pepper          contraband    22   4    6     4       0    0    -                0
    mead            contraband    21   5    7     4       0    0    -                0
    silk            contraband    12   3    8     4       0    0    -                0
    crossbow        contraband     5   0    9     4       0    0    -                0
    green_apples    royal          2   0    4     3       0    0    apple            2
    golden_apples   royal          2   1    6     4       0    0    apple            3
    gouda           royal          2   0    6     4       0    0    cheese           2
    bleu            royal          1   1    9     5       0    0    cheese           3
    rye             royal          2   2    6     4       0    0    bread            2
    pumpernickel    royal          1   1    9     5       0    0    bread            3
    royal_rooster   royal          2   1    8     4       0    0    chicken          2
"""

LEGAL = 0
CONTRABAND = 1
ROYAL = 2
SHERIFF_CODES = ("apple", "cheese", "bread", "chicken", "pepper", "mead", "silk", "crossbow", "green_apples",
                 "golden_apples", "gouda", "bleu", "rye", "pumpernickel", "royal_rooster")
SHERIFF_LEGAL_KINDS = 4
SHERIFF_KIND = b"\x00\x00\x00\x00\x01\x01\x01\x01\x02\x02\x02\x02\x02\x02\x02"
SHERIFF_COUNT = b"\x30\x24\x24\x18\x16\x15\x0c\x05\x02\x02\x02\x01\x02\x01\x02"
SHERIFF_MARKED = b"\x00\x00\x24\x00\x04\x05\x03\x00\x00\x01\x00\x01\x02\x01\x01"   # 4+ cards
SHERIFF_VALUE = b"\x02\x03\x03\x04\x06\x07\x08\x09\x04\x06\x06\x09\x06\x09\x08"
SHERIFF_PENALTY = b"\x02\x02\x02\x02\x04\x04\x04\x04\x03\x04\x04\x05\x04\x05\x04"
SHERIFF_KING = b"\x14\x0f\x0f\x0a\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
SHERIFF_QUEEN = b"\x0a\x0a\x0a\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
SHERIFF_AS_GOOD = b"\x00\x01\x02\x03\xff\xff\xff\xff\x00\x00\x01\x01\x02\x02\x03"   # 255: none
SHERIFF_AS_MANY = b"\x01\x01\x01\x01\x00\x00\x00\x00\x02\x03\x02\x03\x02\x03\x02"


def __getattr__(name):
    """``SHERIFF_GOODS``: one row per good (code, kind, count, 4+ marked, value, penalty, king,
    queen, counts as, as many), built when asked for (allocates: host tools and tests)."""
    if name != "SHERIFF_GOODS":
        raise AttributeError(name)
    return tuple((SHERIFF_CODES[g], SHERIFF_KIND[g], SHERIFF_COUNT[g], SHERIFF_MARKED[g], SHERIFF_VALUE[g],
                  SHERIFF_PENALTY[g], SHERIFF_KING[g], SHERIFF_QUEEN[g], SHERIFF_AS_GOOD[g], SHERIFF_AS_MANY[g])
                 for g in range(len(SHERIFF_CODES)))


def sheriff_count(good, players, royal):
    """Copies of a good in the deck for this seat count (3 players: no 4+ cards)."""
    if SHERIFF_KIND[good] == ROYAL and not royal:
        return 0
    return SHERIFF_COUNT[good] - (SHERIFF_MARKED[good] if players == 3 else 0)


def sheriff_deck_size(players, royal):
    """Cards in the deck: 216 with royal goods (162 at 3 players), 204 without (156)."""
    n = 0
    for good in range(len(SHERIFF_CODES)):
        n += sheriff_count(good, players, royal)
    return n
