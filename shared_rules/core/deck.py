"""The deck registry file (``deck.bin``): which tag UID is which piece of which game.

The host writes it once per mat (``tapmat tags`` calls ``pack``/``write``); the board reads it
with ``firmware/registry.py``, which binary-searches the file on flash instead of loading it, so
several hundred registered tags cost no RAM. Both ends use the constants below; the
host's side (records to file bytes and back: ``pack``, ``unpack``, ``write``, ``read``, ``codes``,
``describe``, ...) is in ``deck_records``, loaded on first use as if it were here
(``deck.pack``), so a board reading its registry never holds it. The checks of a file, which both
ends run, are in ``deck_check`` (a board loads them once, when it opens its registry).

Layout, integers little-endian (also in ``docs/mat.md``)::

    0        4  magic "TMDK"
    4        1  version (1)
    5        1  record size (12)
    6        2  record count n (0..65535)
    8     12 n  records, sorted by UID, strictly ascending
    8+12n    4  CRC-32 (binascii/zlib) of every byte before it

A record: UID (7 bytes, as the reader reports it), game (0 = any game: command tokens; otherwise
the game's ``GAME_ID``), kind (``KINDS``), code (index in that game's table for the kind), seat
(owner of a Skull disc, 255 otherwise), deck (0; 1 for the second deck of a two-deck game).

Host records are dicts, the same shape ``unpack`` returns::

    {"uid": "04a1b2c3d4e5f6", "game": "skull", "kind": "disc", "code": "flower", "seat": 2}
    {"uid": "04:11:22:33:44:55:66", "kind": "token", "code": "pass"}

``deck`` is optional (default 0); ``game`` is absent for tokens and ``seat`` only for discs.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x


# Private literals: a board keeps no name for them (the host and tests read the public names in
# ``deck_records``, through ``__getattr__`` below; tests/test_rules_literals.py ties them). The file's
# layout and the record checks are in ``deck_check``. Public: what gesture modules read on the board.
UID_LEN = const(7)
_GAMES = const((None, "skull", "deadmans", "sheriff"))  # index = GAME_ID of the game's rules module
CARD = const(0)
MODULE = const(4)   # a card of an expansion module, outside the main deck (Sheriff: Merry Men)


class DeckError(ValueError):
    """A registry (file or host records) that cannot be used; the message says why."""


def game_id(name):
    """The file's game byte for a game name, or -1."""
    for i in range(1, len(_GAMES)):
        if _GAMES[i] == name:
            return i
    return -1


def compare_uid(a, a_off, b, b_off):
    """Order of two 7-byte UIDs held in buffers at the given offsets (<0, 0, >0); allocates nothing."""
    for i in range(UID_LEN):
        d = a[a_off + i] - b[b_off + i]
        if d:
            return d
    return 0


def __getattr__(name):
    if name.startswith("__"):   # the import system's probes (``__path__``...) load nothing
        raise AttributeError(name)
    records = __import__("shared_rules.core.deck_records", None, None, ("x",))
    try:
        return getattr(records, name)
    except AttributeError:
        raise AttributeError(name)
