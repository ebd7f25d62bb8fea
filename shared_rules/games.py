"""The games the referee knows, by the log header's ``game`` name (modules load on demand)."""

PROFILE_FILE = "profile.bin"   # the board's deck profile, beside game.json (shared_rules/profile.py)
board_profile = None   # type: str | None  # its path on a board (firmware/app.py): headers name it by digest


def names():
    """The header names of the games; each one's rules are the module ``shared_rules.<name>``."""
    return "skull deadmans sheriff".split()


def game_class(name):
    """The game class for a header name; ``ValueError`` for a game tapmat does not referee."""
    if name in names():
        try:
            # A true fromlist returns the module itself (a constant tuple would be a heap object).
            module = __import__("shared_rules." + name, None, None, True)  # type: ignore[arg-type]
        except ImportError:
            raise ValueError("game %r is not available in this build" % name)
        return module.GAME
    raise ValueError("unknown game %r" % (name,))


def from_header(header):
    """A new game from a parsed log header (``ValueError`` with a message if it is bad)."""
    if not isinstance(header, dict):
        raise ValueError("the header must be a JSON object")
    return game_class(header.get("game")).from_header(header)
