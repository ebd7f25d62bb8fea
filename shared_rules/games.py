"""The games the referee knows, by the log header's ``game`` name (modules load on demand)."""

MODULES = (("skull", "shared_rules.skull"), ("deadmans", "shared_rules.deadmans"),
           ("sheriff", "shared_rules.sheriff"))
PROFILE_FILE = "profile.bin"   # the board's deck profile, beside game.json (shared_rules/profile.py)
board_profile = None   # type: str | None  # its path on a board (firmware/app.py): headers name it by digest


def names():
    return [m[0] for m in MODULES]


def game_class(name):
    """The game class for a header name; ``ValueError`` for a game tapmat does not referee."""
    for n, mod in MODULES:
        if n == name:
            try:
                module = __import__(mod, None, None, ("GAME",))
            except ImportError:
                raise ValueError("game %r is not available in this build" % name)
            return module.GAME
    raise ValueError("unknown game %r" % (name,))


def from_header(header):
    """A new game from a parsed log header (``ValueError`` with a message if it is bad)."""
    if not isinstance(header, dict):
        raise ValueError("the header must be a JSON object")
    return game_class(header.get("game")).from_header(header)
