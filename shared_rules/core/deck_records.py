"""The host's side of the deck registry (``shared_rules/core/deck.py``): host records (dicts) to file
bytes and back, the code tables and the words for a record. MicroPython-compatible (tests run it on
both interpreters), but a board never loads it: ``deck`` hands these names on at first use
(``deck.pack`` works as if they were there).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
import binascii
import io
import os

from shared_rules import catalogue
from shared_rules.core import tokens
from shared_rules.core.deck import CARD, MODULE, UID_LEN, DeckError, game_id
from shared_rules.core.deck_check import check

# The file's layout and piece kinds, by name for the host and tests (``deck.R_GAME`` reads them
# through ``deck.__getattr__``): ``deck`` holds them as private literals, so that a board keeps no
# name for them; tests/test_rules_literals.py checks both are the same.
MAGIC = b"TMDK"
VERSION = 1
HEADER_SIZE = 8
RECORD_SIZE = 12
CRC_SIZE = 4
R_GAME = 7   # record byte offsets
R_KIND = 8
R_CODE = 9
R_SEAT = 10
R_DECK = 11
ANY_GAME = 0
GAMES = (None, "skull", "deadmans", "sheriff")  # index = GAME_ID of the game's rules module
DECKS = (1, 1, 2, 1)                            # deck numbers a game may use
KINDS = ("card", "disc", "token", "trait", "module")
DISC = 1
TOKEN = 2
TRAIT = 3
OWNER_SEATS = 12  # Skull seats whose discs can be told apart (one colour per seat)
NO_SEAT = 255

_MAX_RECORDS = const(65535)
FIELDS = ("uid", "game", "kind", "code", "seat", "deck")


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
    """Host records from registry file bytes (DeckError naming the problem, as a board would)."""
    n = check(io.BytesIO(blob))[0]
    return [_record(blob, HEADER_SIZE + i * RECORD_SIZE) for i in range(n)]


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
