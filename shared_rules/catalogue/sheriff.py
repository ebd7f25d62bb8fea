"""Sheriff of Nottingham (1st edition): goods with count, 4+ marks, value, penalty, King/Queen
bonus, and what a royal good counts as."""

LEGAL = 0
CONTRABAND = 1
ROYAL = 2
# code, kind, count, 4+ marked, value, penalty, king, queen, counts as (legal code index), as many
SHERIFF_GOODS = (
    ("apple", LEGAL, 48, 0, 2, 2, 20, 10, 0, 1),
    ("cheese", LEGAL, 36, 0, 3, 2, 15, 10, 1, 1),
    ("bread", LEGAL, 36, 36, 3, 2, 15, 10, 2, 1),
    ("chicken", LEGAL, 24, 0, 4, 2, 10, 5, 3, 1),
    ("pepper", CONTRABAND, 22, 4, 6, 4, 0, 0, 255, 0),
    ("mead", CONTRABAND, 21, 5, 7, 4, 0, 0, 255, 0),
    ("silk", CONTRABAND, 12, 3, 8, 4, 0, 0, 255, 0),
    ("crossbow", CONTRABAND, 5, 0, 9, 4, 0, 0, 255, 0),
    ("green_apples", ROYAL, 2, 0, 4, 3, 0, 0, 0, 2),
    ("golden_apples", ROYAL, 2, 1, 6, 4, 0, 0, 0, 3),
    ("gouda", ROYAL, 2, 0, 6, 4, 0, 0, 1, 2),
    ("bleu", ROYAL, 1, 1, 9, 5, 0, 0, 1, 3),
    ("rye", ROYAL, 2, 2, 6, 4, 0, 0, 2, 2),
    ("pumpernickel", ROYAL, 1, 1, 9, 5, 0, 0, 2, 3),
    ("royal_rooster", ROYAL, 2, 1, 8, 4, 0, 0, 3, 2),
)
SHERIFF_CODES = tuple(g[0] for g in SHERIFF_GOODS)
SHERIFF_LEGAL_KINDS = 4
# The same columns as byte strings, so the rules core reads them without allocating.
SHERIFF_KIND = bytes(g[1] for g in SHERIFF_GOODS)
SHERIFF_VALUE = bytes(g[4] for g in SHERIFF_GOODS)
SHERIFF_PENALTY = bytes(g[5] for g in SHERIFF_GOODS)
SHERIFF_KING = bytes(g[6] for g in SHERIFF_GOODS)
SHERIFF_QUEEN = bytes(g[7] for g in SHERIFF_GOODS)
SHERIFF_AS_GOOD = bytes(g[8] for g in SHERIFF_GOODS)
SHERIFF_AS_MANY = bytes(g[9] for g in SHERIFF_GOODS)


def sheriff_count(good, players, royal):
    """Copies of a good in the deck for this seat count (3 players: no 4+ cards)."""
    g = SHERIFF_GOODS[good]
    if g[1] == ROYAL and not royal:
        return 0
    return g[2] - g[3] if players == 3 else g[2]


def sheriff_deck_size(players, royal):
    """Cards in the deck: 216 with royal goods (162 at 3 players), 204 without (156)."""
    n = 0
    for good in range(len(SHERIFF_GOODS)):
        n += sheriff_count(good, players, royal)
    return n
