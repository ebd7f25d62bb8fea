"""Checks of a deck registry file (layout: ``deck.py``): the header, every record's fields, the UID
order and the CRC-32, and the CL1s (UID0..2) that two or more of its UIDs share.

Apart from ``deck.py`` because a board runs them once, when it opens its registry
(``firmware/registry.py``), and lets go of them with the game's other setup code; the host reads
a file through the same checks (``deck_records.unpack``).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
import binascii

from shared_rules.core.deck import DeckError, compare_uid

# The file's layout and piece kinds (deck_records' public names, as private literals:
# tests/test_rules_literals.py ties them).
_MAGIC = const(b"TMDK")
_VERSION = const(1)
_HEADER_SIZE = const(8)
_RECORD_SIZE = const(12)
_CRC_SIZE = const(4)
_UID_LEN = const(7)
_R_GAME = const(7)   # record byte offsets
_R_KIND = const(8)
_R_CODE = const(9)
_R_SEAT = const(10)
_R_DECK = const(11)
_GAMES = const((None, "skull", "deadmans", "sheriff"))  # index = GAME_ID of the game's rules module
_DECKS = const(b"\x01\x01\x02\x01")                   # deck numbers a game may use
_KINDS = const(("card", "disc", "token", "trait", "module"))
_DISC = const(1)
_OWNER_SEATS = const(12)  # Skull seats whose discs can be told apart (one colour per seat)
_NO_SEAT = const(255)
# How many codes each (game, kind) has (index game * len(KINDS) + kind; 0: no such piece), so that
# the board checks a registry without loading any catalogue section (tests/test_rules_literals.py
# checks it against ``codes``, in deck_records).
_CODE_COUNTS = const(b"\x00\x00\x1f\x00\x00\x00\x02\x00\x00\x00<\x00\x00\x11\x00\x0f\x00\x00\x00?")
_CHUNK = const(16)  # records per read
_CL1 = const(3)     # UID0..2: what UID CL1 carries of a 7-byte UID, after the cascade tag


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


def check(f):
    """Check the whole registry in the open binary file ``f``, reading it in chunks of
    ``_CHUNK`` records (a board's RAM holds no more): ``(record count, CL1s shared by two or more
    UIDs, 3 bytes each, in order)``; DeckError saying what is wrong (a bad record is named after
    the CRC check: damage is the likelier cause)."""
    size = f.seek(0, 2)
    f.seek(0)
    head = bytearray(_HEADER_SIZE)
    got = f.readinto(head)
    n = header_count(head, size)  # a too short file is named as such first
    if got != _HEADER_SIZE:
        raise DeckError("cannot read the header")
    crc = binascii.crc32(head)
    buf = bytearray(_CHUNK * _RECORD_SIZE)
    view = memoryview(buf)
    prev = bytearray(_UID_LEN)
    twins = bytearray()
    first_problem = None
    done = 0
    while done < n:
        k = min(_CHUNK, n - done)
        part = view[0:k * _RECORD_SIZE]
        if f.readinto(part) != k * _RECORD_SIZE:
            raise DeckError("the file ended early")
        crc = binascii.crc32(part, crc)
        for i in range(k):
            off = i * _RECORD_SIZE
            problem = record_problem(buf, off)
            if problem is None and done + i and compare_uid(prev, 0, buf, off) >= 0:
                problem = "UIDs not in ascending order"
            if done + i and prev[:_CL1] == buf[off:off + _CL1] and twins[-_CL1:] != prev[:_CL1]:
                twins += prev[:_CL1]
            if problem and first_problem is None:
                first_problem = "record %d: %s" % (done + i, problem)
            prev[:] = buf[off:off + _UID_LEN]
        done += k
    tail = bytearray(_CRC_SIZE)
    if f.readinto(tail) != _CRC_SIZE or crc & 0xFFFFFFFF != int.from_bytes(tail, "little"):
        raise DeckError("CRC mismatch: the file is damaged")
    if first_problem:
        raise DeckError(first_problem)
    return n, bytes(twins)
