"""The deck registry file (``deck.bin``): which tag UID is which piece of which game.

The host writes it once per mat (``tapmat tags`` calls ``pack``/``write``); the board reads it
with ``firmware/registry.py``, which binary-searches the file on flash instead of loading it, so
several hundred registered tags cost no RAM. Both ends use the constants and checks below.

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
import binascii
import os

from shared_rules import catalogue, tokens

MAGIC = b"TMDK"
VERSION = const(1)
HEADER_SIZE = const(8)
RECORD_SIZE = const(12)
CRC_SIZE = const(4)
UID_LEN = const(7)
_MAX_RECORDS = const(65535)

# Record byte offsets.
R_GAME = const(7)
R_KIND = const(8)
R_CODE = const(9)
R_SEAT = const(10)
R_DECK = const(11)

ANY_GAME = const(0)
GAMES = (None, "skull", "deadmans", "sheriff")  # index = GAME_ID of the game's rules module
DECKS = (1, 1, 2, 1)                            # deck numbers a game may use
KINDS = ("card", "disc", "token", "trait", "module")
CARD = const(0)
DISC = const(1)
TOKEN = const(2)
TRAIT = const(3)
MODULE = const(4)   # a card of an expansion module, outside the main deck (Sheriff: Merry Men)
OWNER_SEATS = const(12)  # Skull seats whose discs can be told apart (one colour per seat)
NO_SEAT = const(255)
# How many codes each (game, kind) has (index game * len(KINDS) + kind; 0: no such piece), so that
# the board checks a registry without loading any catalogue section (tests/test_rules_literals.py
# checks it against ``codes``).
_CODE_COUNTS = const(b"\x00\x00\x1f\x00\x00\x00\x02\x00\x00\x00<\x00\x00\x11\x00\x0f\x00\x00\x00?")
FIELDS = ("uid", "game", "kind", "code", "seat", "deck")


class DeckError(ValueError):
    """A registry (file or host records) that cannot be used; the message says why."""


def game_id(name):
    """The file's game byte for a game name, or -1."""
    for i in range(1, len(GAMES)):
        if GAMES[i] == name:
            return i
    return -1


def codes(game, kind):
    """The code table of a kind of piece in a game (game 0 = tokens), or None if there is none."""
    if kind == TOKEN:
        return tokens.CODES if game == ANY_GAME else None
    name = GAMES[game] if 0 < game < len(GAMES) else None
    if kind == DISC:
        return catalogue.SKULL_CODES if name == "skull" else None
    if kind == TRAIT:
        return catalogue.DMD_TRAITS if name == "deadmans" else None
    if kind == MODULE:
        return catalogue.SHERIFF_MODULE_CARDS if name == "sheriff" else None
    if kind == CARD and name in ("deadmans", "sheriff"):
        return catalogue.codes(name)
    return None


def copies(row):
    """How many tags one deck may bind to the piece of a record (0 = no limit: tokens)."""
    game, kind, code = row[R_GAME], row[R_KIND], row[R_CODE]
    if kind == DISC:
        return catalogue.SKULL_PER_SEAT[code]
    if kind == MODULE:
        return 1
    if GAMES[game] == "sheriff":
        return catalogue.SHERIFF_GOODS[code][2]
    return 0 if kind == TOKEN else 1


def compare_uid(a, a_off, b, b_off):
    """Order of two 7-byte UIDs held in buffers at the given offsets (<0, 0, >0); allocates nothing."""
    for i in range(UID_LEN):
        d = a[a_off + i] - b[b_off + i]
        if d:
            return d
    return 0


def uid_hex(uid, off=0):
    """Lower-case hex of a UID (14 digits)."""
    return "".join("%02x" % uid[off + i] for i in range(UID_LEN))


def parse_uid(v):
    """7 UID bytes from bytes or hex (``04a1..`` or ``04:A1:..``); DeckError otherwise."""
    if isinstance(v, (bytes, bytearray)):
        if len(v) == UID_LEN:
            return bytes(v)
    elif isinstance(v, str):
        h = v.replace(":", "").replace(" ", "")
        if len(h) == 2 * UID_LEN:
            try:
                return binascii.unhexlify(h)
            except ValueError:
                pass
    raise DeckError("bad UID %r: 7 bytes (14 hex digits) expected" % (v,))


def describe(row, off=0):
    """Words for a record, for error messages: ``skull disc flower of seat 2``."""
    game, kind, code = row[off + R_GAME], row[off + R_KIND], row[off + R_CODE]
    table = codes(game, kind)
    words = KINDS[kind] + " " + table[code]
    if game != ANY_GAME:
        words = GAMES[game] + " " + words
    if kind == DISC:
        words += " of seat %d" % row[off + R_SEAT]
    if row[off + R_DECK]:
        words += " (deck %d)" % row[off + R_DECK]
    return words


def record_problem(row, off=0):
    """What is wrong with the record at ``row[off:]`` read from a file, or None if it is valid."""
    game, kind, code = row[off + R_GAME], row[off + R_KIND], row[off + R_CODE]
    if game >= len(GAMES) or kind >= len(KINDS):
        return "unknown game %d or kind %d" % (game, kind)
    if code >= _CODE_COUNTS[game * len(KINDS) + kind]:
        return "no piece %d of kind %s in game %s" % (code, KINDS[kind], GAMES[game])
    seat = row[off + R_SEAT]
    if (seat >= OWNER_SEATS) if kind == DISC else seat != NO_SEAT:
        return "bad owner seat %d" % seat
    if row[off + R_DECK] >= DECKS[game]:
        return "bad deck number %d" % row[off + R_DECK]
    return None


def header_count(head, size):
    """The record count announced by the 8 header bytes of a file of ``size`` bytes (DeckError)."""
    if size < HEADER_SIZE + CRC_SIZE:
        raise DeckError("too short for a deck registry (%d bytes)" % size)
    if bytes(head[0:4]) != MAGIC:
        raise DeckError("not a deck registry (magic %r, expected %r)" % (bytes(head[0:4]), MAGIC))
    if head[4] != VERSION:
        raise DeckError("registry format version %d, this build reads version %d" % (head[4], VERSION))
    if head[5] != RECORD_SIZE:
        raise DeckError("record size %d, expected %d" % (head[5], RECORD_SIZE))
    n = head[6] | (head[7] << 8)
    if size != HEADER_SIZE + n * RECORD_SIZE + CRC_SIZE:
        raise DeckError("%d records announced, but the file has %d bytes instead of %d" % (
            n, size, HEADER_SIZE + n * RECORD_SIZE + CRC_SIZE))
    return n


def _index(table, v):
    for i in range(len(table)):
        if table[i] == v:
            return i
    return -1


def _small_int(v, lo, hi):
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _row(r):
    """A host record dict -> its 12 record bytes (DeckError naming the tag and the field)."""
    if not isinstance(r, dict):
        raise DeckError("a tag record must be an object, not %r" % (r,))
    uid = parse_uid(r.get("uid"))
    tag = "tag " + uid_hex(uid)
    for key in r:
        if key not in FIELDS:
            raise DeckError("%s: unknown field %r" % (tag, key))
    kind = _index(KINDS, r.get("kind"))
    if kind < 0:
        raise DeckError("%s: unknown kind %r (card, disc, token, trait or module)" % (tag, r.get("kind")))
    name = r.get("game")
    if kind == TOKEN:
        if name is not None:
            raise DeckError("%s: a command token belongs to no game (drop 'game')" % tag)
        game = ANY_GAME
    else:
        game = game_id(name)
        if game < 0:
            raise DeckError("%s: unknown game %r" % (tag, name))
    table = codes(game, kind)
    if table is None:
        raise DeckError("%s: %s has no %s pieces" % (tag, name, KINDS[kind]))
    code = _index(table, r.get("code"))
    if code < 0:
        raise DeckError("%s: unknown %s code %r%s" % (
            tag, KINDS[kind], r.get("code"), "" if name is None else " in " + name))
    seat = r.get("seat")
    if kind == DISC:
        if not _small_int(seat, 0, OWNER_SEATS - 1):
            raise DeckError("%s: a disc needs its owner 'seat', 0..%d (got %r)" % (tag, OWNER_SEATS - 1, seat))
    elif seat is not None:
        raise DeckError("%s: only Skull discs have an owner seat" % tag)
    else:
        seat = NO_SEAT
    number = r.get("deck", 0)
    if not _small_int(number, 0, DECKS[game] - 1):
        raise DeckError("%s: deck number %r out of range 0..%d for %s" % (
            tag, number, DECKS[game] - 1, name or "tokens"))
    return uid + bytes((game, kind, code, seat, number))


def pack(records):
    """The registry file bytes for a list of host records (DeckError for any bad record)."""
    if not isinstance(records, (list, tuple)):
        raise DeckError("tag records must be a list, not %r" % (records,))
    rows = [_row(r) for r in records]
    if len(rows) > _MAX_RECORDS:
        raise DeckError("%d tags: a registry holds at most %d" % (len(rows), _MAX_RECORDS))
    rows.sort()
    held = {}
    for i in range(len(rows)):
        row = rows[i]
        if i and row[0:UID_LEN] == rows[i - 1][0:UID_LEN]:
            raise DeckError("duplicate UID %s: registered as %s and as %s" % (
                uid_hex(row), describe(rows[i - 1]), describe(row)))
        key = row[UID_LEN:]
        held[key] = held.get(key, 0) + 1
        limit = copies(row)
        if limit and held[key] > limit:
            raise DeckError("tag %s: one more %s than the game has (%d)" % (uid_hex(row), describe(row), limit))
    n = len(rows)
    body = MAGIC + bytes((VERSION, RECORD_SIZE, n & 255, n >> 8)) + b"".join(rows)
    return body + (binascii.crc32(body) & 0xFFFFFFFF).to_bytes(CRC_SIZE, "little")


def unpack(blob):
    """Host records from registry file bytes (DeckError naming the problem)."""
    n = header_count(blob, len(blob))
    end = len(blob) - CRC_SIZE
    if binascii.crc32(blob[0:end]) & 0xFFFFFFFF != int.from_bytes(blob[end:], "little"):
        raise DeckError("CRC mismatch: the file is damaged")
    out = []
    for i in range(n):
        off = HEADER_SIZE + i * RECORD_SIZE
        problem = record_problem(blob, off)
        if problem is None and i and compare_uid(blob, off - RECORD_SIZE, blob, off) >= 0:
            problem = "UIDs not in ascending order"
        if problem:
            raise DeckError("record %d: %s" % (i, problem))
        out.append(_record(blob, off))
    return out


def _record(row, off):
    game, kind = row[off + R_GAME], row[off + R_KIND]
    r = {"uid": uid_hex(row, off), "kind": KINDS[kind], "code": codes(game, kind)[row[off + R_CODE]],
         "deck": row[off + R_DECK]}
    if game != ANY_GAME:
        r["game"] = GAMES[game]
    if kind == DISC:
        r["seat"] = row[off + R_SEAT]
    return r


def write(path, records):
    """Pack records and write them to ``path`` atomically (a new file, then renamed over)."""
    blob = pack(records)
    tmp = path + ".new"
    with open(tmp, "wb") as f:
        f.write(blob)
    getattr(os, "replace", os.rename)(tmp, path)
    return len(blob)


def read(path):
    """Host records of a registry file (DeckError naming the file for a bad one)."""
    try:
        with open(path, "rb") as f:
            blob = f.read()
        return unpack(blob)
    except OSError as e:
        raise DeckError("deck registry %s: cannot read (%s)" % (path, e))
    except DeckError as e:
        raise DeckError("deck registry %s: %s" % (path, e))
