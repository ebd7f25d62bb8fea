"""The card catalogue: every physical piece tapmat knows, for every game, in one place.

The rules cores, the deck registry (tag UID -> card), the host display and the simulators all
read their card codes, counts and values from here. Codes are the lower-case strings of the
rules files; a card's number in a game is its index in that game's ``*_CODES`` tuple.

One section per game (``catalogue/skull.py``, ``deadmans.py``, ``sheriff.py``; the Sheriff
expansion's module cards in ``sheriff_modules.py``), loaded on first
use: ``from shared_rules.catalogue import DMD_CODES`` works as with one module, but a board
playing Skull never holds the Sheriff's tables in RAM.
"""

_SECTIONS = (("SKULL_", "skull"), ("DMD_", "deadmans"), ("dmd_", "deadmans"), ("SHERIFF_MODULE", "sheriff_modules"),
             ("sheriff_module", "sheriff_modules"), ("SHERIFF_", "sheriff"),
             ("sheriff_", "sheriff"), ("LEGAL", "sheriff"), ("CONTRABAND", "sheriff"), ("ROYAL", "sheriff"))


def section(game):
    """The catalogue section of a game (a module)."""
    return __import__("shared_rules.catalogue." + game, None, None, ("_",))


def __getattr__(name):
    for prefix, game in _SECTIONS:
        if name.startswith(prefix):
            value = getattr(section(game), name)
            globals()[name] = value
            return value
    raise AttributeError(name)


def codes(game):
    """The card codes of a game (what a tag in that game's deck may stand for)."""
    if game == "skull":
        return section("skull").SKULL_CODES
    if game == "deadmans":
        return section("deadmans").DMD_CODES
    if game == "sheriff":
        return section("sheriff").SHERIFF_CODES
    raise ValueError("unknown game %r" % (game,))
