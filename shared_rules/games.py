"""The games the referee knows, by the log header's ``game`` name (modules load on demand)."""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x


_NAMES = const("skull deadmans sheriff")
# The errors, "|" between them: one string constant (separate ones would each be a heap object).
_TEXTS = const("the header must be a JSON object|unknown game %r|game %r is not available in this build")


def names():
    """The header names of the games; each one's rules are the module ``shared_rules.<name>.rules``."""
    return _NAMES.split()


def game_class(name):
    """The game class for a header name; ``ValueError`` for a game tapmat does not referee."""
    if name in names():
        try:
            # A true fromlist returns the module itself (a constant tuple would be a heap object).
            return __import__("shared_rules." + name + ".rules", None, None, True).GAME  # type: ignore[arg-type]
        except ImportError:
            raise ValueError(_TEXTS.split("|")[2] % (name,))
    raise ValueError(_TEXTS.split("|")[1] % (name,))


def from_header(header, between=None):
    """A new game from a parsed log header (``ValueError`` with a message if it is bad).
    ``between``: for a header with Sheriff modules or a deck profile, called once the header and
    the profile's card tables are read, before the rules' code loads (``setup.from_header``)."""
    if not isinstance(header, dict):
        raise ValueError(_TEXTS.split("|")[0])
    name = header.get("game")
    if name == "sheriff" and (header.get("modules") or "profile" in header):
        # The Merry Men modules: code loaded only for such a header (base Sheriff's heap does not
        # grow), and it reads the header and the profile before any rules load.
        try:
            from shared_rules.sheriff.modules import setup
        except ImportError:
            raise ValueError(_TEXTS.split("|")[2] % (name,))
        return setup.from_header(header, between)
    return game_class(name).from_header(header)
