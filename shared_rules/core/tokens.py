"""Command tokens: tagged discs for the inputs no card or disc expresses (a bid, "pass", ...).

Tokens are registered in the deck registry like cards (kind ``token``, no game: one token set
serves every game). A token's number is its index in ``CODES``; registries store that number,
so the table only ever grows at the end. Codes never collide with a card code of the catalogue,
so a signed tag record naming a code is unambiguous. Meanings per game: ``docs/mat.md``.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

# Token numbers, in order (docs/mat.md "Meanings per game"):
#   0..9    digit0 .. digit9: a number is tapped digit by digit (docs/mat.md, "Numbers")
#   10..21  seat0 .. seat11: a seat (a target, the next first player)
#   22      confirm: ends a number, or confirms what the game waits for
#   23      cancel: drops a half-tapped number (never undoes an accepted action)
#   24      pass: Skull, pass the bidding; Sheriff, let the bag pass
#   25      collect: Dead Man's Draw, bank the play area
#   26      inspect: Sheriff, open the bag
#   27..30  declare_apple .. declare_chicken: the legal goods a Sheriff merchant may declare
#           (catalogue order)
# One const string: the board reads no code (its registry stores token numbers), and a tuple of 31
# strings built at import held 1.2 KB there. ``CODES`` (the tuple) is built when read.
_CODES = const("digit0 digit1 digit2 digit3 digit4 digit5 digit6 digit7 digit8 digit9 seat0 seat1 seat2 seat3 "
               "seat4 seat5 seat6 seat7 seat8 seat9 seat10 seat11 confirm cancel pass collect inspect "
               "declare_apple declare_cheese declare_bread declare_chicken")
DIGIT0 = const(0)
SEAT0 = const(10)
SEATS = const(12)
CONFIRM = const(22)
CANCEL = const(23)
PASS = const(24)
COLLECT = const(25)
INSPECT = const(26)
DECLARE0 = const(27)
DECLARABLE = const(4)


def __getattr__(name):
    if name == "CODES":
        return tuple(_CODES.split())
    raise AttributeError(name)


def index(code):
    """The token number of a code, or -1."""
    codes = _CODES.split()
    for i in range(len(codes)):
        if codes[i] == code:
            return i
    return -1


def digit(t):
    """The digit a token stands for, or -1."""
    return t - DIGIT0 if DIGIT0 <= t < DIGIT0 + 10 else -1


def seat(t):
    """The seat a token names, or -1."""
    return t - SEAT0 if SEAT0 <= t < SEAT0 + SEATS else -1


def declared(t):
    """The Sheriff good a declaration token names (index in ``catalogue.SHERIFF_CODES``), or -1."""
    return t - DECLARE0 if DECLARE0 <= t < DECLARE0 + DECLARABLE else -1
