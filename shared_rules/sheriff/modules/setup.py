"""A Sheriff game for a header that names Merry Men modules or a deck profile: the header checked,
the profile read in its binary form, and the game class that plays those modules (loaded only for
such a header: base Sheriff's board never imports this).

Two steps, so a board never holds the code that reads a deck profile and the rules' code at once:
first the header and the profile's card tables (no rules loaded), then ``between()`` (a board lets
go of the profile code there, firmware/app.py), then the rules and the game.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules.core import engine
from shared_rules.sheriff.modules import MODULES

# Module bits, in header order of ``MODULES``.
_DEPUTIES = const(1)
_BLACK_MARKET = const(2)
_LAWS = const(4)
_CARD_MODULES = const(28)     # laws 4, special orders 8, Merry Men 16: ``cards`` (issue 11)
_MERRY_MEN = const(16)
_SEATS6 = const(6)
_MAX_SEATS = const(5)


def from_header(header, between=None):
    """A game for a header with ``modules`` and/or ``profile`` (``ValueError`` naming the key).
    ``between``: called once the header and the card tables are read, before the rules load."""
    engine.check_options(header, ["game", "players", "first_sheriff", "royal", "modules", "profile"])
    if not isinstance(header.get("modules", []), list):
        raise ValueError("modules must be a list")
    royal = header.get("royal", True)
    if not isinstance(royal, bool):
        raise ValueError("royal must be true or false")
    mods = 0
    for m in header.get("modules", []):
        if m not in MODULES:
            raise ValueError("unknown module %r (known: %s)" % (m, ", ".join(MODULES)))
        bit = 1 << MODULES.index(m)
        if mods & bit:
            raise ValueError("module %r is listed twice" % (m,))
        mods |= bit
    prof = _profile(header)
    values = prof.black_market_values() if prof else None
    if mods & _BLACK_MARKET and values is None:
        raise ValueError("black_market needs the Black Market values: a header 'profile' with 'black_market'")
    if mods & _DEPUTIES:
        if header.get("players") != _SEATS6:
            raise ValueError("deputies needs exactly 6 players")
        if "first_sheriff" in header:
            raise ValueError("first_sheriff: with deputies the deputy deck chooses")
        seats, first = _SEATS6, 0
    else:
        seats = engine.int_option(header, "players", 0, 3, _MAX_SEATS)
        first = engine.int_option(header, "first_sheriff", 0, 0, seats - 1)
    tables = _card_tables(prof, mods) if mods & _CARD_MODULES else ()
    prof = None   # the game keeps its tables, not the profile (nor, through it, the profile code)
    if between is not None:
        between()
    if not mods:
        from shared_rules.sheriff import rules
        return rules.Sheriff(seats, first, royal)   # a profile alone changes nothing
    if mods & _CARD_MODULES:   # issue 11: laws, special orders, Merry Men (loaded only now)
        from shared_rules.sheriff.modules import cards
        return cards.SheriffCards(seats, first, royal, mods, values, *tables)
    from shared_rules.sheriff.modules import expansion
    return expansion.SheriffMM(seats, first, royal, mods, values)


def _profile(header):
    """The header's profile as ``profile.Stored``, or None: an inline profile (a log) or, on the
    board, the digest of its profile.bin, read in its binary form either way, so the board and a
    replay build the game from the same bytes. The profile code is imported here only (as in
    ``_card_tables``)."""
    if "profile" not in header:
        return None
    from shared_rules.sheriff.modules import profile
    return profile.load(header["profile"], header.get("modules", ()))


def _card_tables(prof, mods):
    """The card modules' tables: special orders, Merry Men, laws (``profile_cards.tables``). A
    function of its own so that no frame of ``from_header`` holds the profile code once
    ``between`` lets it go."""
    from shared_rules.sheriff.modules import profile_cards
    return profile_cards.tables(prof, mods)
