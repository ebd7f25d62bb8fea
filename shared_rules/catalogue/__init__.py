"""The card catalogue: every physical piece tapmat knows, for every game, in one place.

The rules cores, the deck registry (tag UID -> card), the host display and the simulators all
read their card codes, counts and values from here. Codes are the lower-case strings of the
rules files; a card's number in a game is its index in that game's ``*_CODES`` tuple.

One section per game (``catalogue/skull.py``, ``deadmans.py``, ``sheriff.py``; the Sheriff
expansion's module cards in ``sheriff_modules.py``), loaded on first
use: ``from shared_rules.catalogue import DMD_CODES`` works as with one module, but a board
playing Skull never holds the Sheriff's tables in RAM.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

# "prefix:section" pairs; a game's first pair gives the prefix of its ``*_CODES``. One string
# constant (read in place from ROM): a tuple of strings would put each string on the heap.
_SECTIONS = const("SKULL_:skull DMD_:deadmans dmd_:deadmans SHERIFF_MODULE:sheriff_modules "
                  "sheriff_module:sheriff_modules SHERIFF_:sheriff sheriff_:sheriff LEGAL:sheriff "
                  "CONTRABAND:sheriff ROYAL:sheriff")


def __getattr__(name):
    """A catalogue name, from the section its prefix names (loaded then, kept here after)."""
    for pair in _SECTIONS.split():
        prefix, game = pair.split(":")
        if name.startswith(prefix):
            # A true fromlist returns the section itself (a constant tuple would be a heap object).
            section = __import__("shared_rules.catalogue." + game, None, None, True)  # type: ignore[arg-type]
            value = getattr(section, name)
            globals()[name] = value
            return value
    raise AttributeError(name)


def codes(game):
    """The card codes of a game (what a tag in that game's deck may stand for): its section's
    ``<PREFIX>CODES``, the prefix being the game's first in ``_SECTIONS``."""
    for pair in _SECTIONS.split():
        prefix, name = pair.split(":")
        if name == game:
            section = __import__("shared_rules.catalogue." + game, None, None, True)  # type: ignore[arg-type]
            return getattr(section, prefix + "CODES")
    raise ValueError("unknown game %r" % (game,))
