"""The deck registry file (``deck.bin``): which tag UID is which piece of which game.

The host writes it once per mat (``tapmat tags`` calls ``pack``/``write``); the board reads it
with ``firmware/registry.py``, which binary-searches the file on flash instead of loading it, so
several hundred registered tags cost no RAM. Both ends use the constants and checks below; the
host's side (records to file bytes and back: ``pack``, ``unpack``, ``write``, ``read``, ``codes``,
``describe``, ...) is in ``deck_records``, loaded on first use as if it were here
(``deck.pack``), so a board reading its registry never holds it.

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
# ``deck_records``, through ``__getattr__`` below; tests/test_rules_literals.py ties them). Public:
# what gesture modules read on the board.
_MAGIC = const(b"TMDK")
_VERSION = const(1)
_HEADER_SIZE = const(8)
_RECORD_SIZE = const(12)
_CRC_SIZE = const(4)
UID_LEN = const(7)

# Record byte offsets.
_R_GAME = const(7)
_R_KIND = const(8)
_R_CODE = const(9)
_R_SEAT = const(10)
_R_DECK = const(11)

_ANY_GAME = const(0)
_GAMES = const((None, "skull", "deadmans", "sheriff"))  # index = GAME_ID of the game's rules module
_DECKS = const(b"\x01\x01\x02\x01")                   # deck numbers a game may use
_KINDS = const(("card", "disc", "token", "trait", "module"))
CARD = const(0)
_DISC = const(1)
MODULE = const(4)   # a card of an expansion module, outside the main deck (Sheriff: Merry Men)
_OWNER_SEATS = const(12)  # Skull seats whose discs can be told apart (one colour per seat)
_NO_SEAT = const(255)
# How many codes each (game, kind) has (index game * len(KINDS) + kind; 0: no such piece), so that
# the board checks a registry without loading any catalogue section (tests/test_rules_literals.py
# checks it against ``codes``, in deck_records).
_CODE_COUNTS = const(b"\x00\x00\x1f\x00\x00\x00\x02\x00\x00\x00<\x00\x00\x11\x00\x0f\x00\x00\x00?")


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


def record_problem(row, off=0):
    """What is wrong with the record at ``row[off:]`` read from a file, or None if it is valid."""
    game, kind, code = row[off + _R_GAME], row[off + _R_KIND], row[off + _R_CODE]
    if game >= len(_GAMES) or kind >= len(_KINDS):
        return "unknown game %d or kind %d" % (game, kind)
    if code >= _CODE_COUNTS[game * len(_KINDS) + kind]:
        return "no piece %d of kind %s in game %s" % (code, _KINDS[kind], _GAMES[game])
    seat = row[off + _R_SEAT]
    if (seat >= _OWNER_SEATS) if kind == _DISC else seat != _NO_SEAT:
        return "bad owner seat %d" % seat
    if row[off + _R_DECK] >= _DECKS[game]:
        return "bad deck number %d" % row[off + _R_DECK]
    return None


def header_count(head, size):
    """The record count announced by the 8 header bytes of a file of ``size`` bytes (DeckError)."""
    if size < _HEADER_SIZE + _CRC_SIZE:
        raise DeckError("too short for a deck registry (%d bytes)" % size)
    if bytes(head[0:4]) != _MAGIC:
        raise DeckError("not a deck registry (magic %r, expected %r)" % (bytes(head[0:4]), _MAGIC))
    if head[4] != _VERSION:
        raise DeckError("registry format version %d, this build reads version %d" % (head[4], _VERSION))
    if head[5] != _RECORD_SIZE:
        raise DeckError("record size %d, expected %d" % (head[5], _RECORD_SIZE))
    n = head[6] | (head[7] << 8)
    if size != _HEADER_SIZE + n * _RECORD_SIZE + _CRC_SIZE:
        raise DeckError("%d records announced, but the file has %d bytes instead of %d" % (
            n, size, _HEADER_SIZE + n * _RECORD_SIZE + _CRC_SIZE))
    return n


def __getattr__(name):
    records = __import__("shared_rules.core.deck_records", None, None, ("x",))
    try:
        return getattr(records, name)
    except AttributeError:
        raise AttributeError(name)
