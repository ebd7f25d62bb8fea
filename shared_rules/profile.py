"""Deck profile: the Merry Men expansion's per-card data that is not public (Black Market values
now; law, special order and Merry Man data later), filled in by the owner of a physical copy.

Three forms of one thing: the JSON file the owner edits (schema in ``docs/rules-merry-men.md``,
"Deck profile"), the same object inline in a log header (so a log replays anywhere), and a compact
binary form ``make flash`` writes to the board (``profile.bin``). ``check`` validates any parsed
profile and names the file and field of every error. Runs on both interpreters; only header
parsing and flashing use it, never the accept path.
"""
import binascii

FORMAT = 1
MAGIC = b"TPRF"
FILE = "profile.bin"   # on the board, beside game.json
BLACK_MARKET_GOODS = ("pepper", "mead", "silk")
FIELDS = ("format", "name", "placeholders", "black_market")
# Sections the laws / special orders / Merry Men modules will add (named so the error is clear).
LATER = ("laws", "special_orders", "merry_men")
_NAME_MAX = 64
_F_PLACEHOLDERS = 1
_S_BLACK_MARKET = 1   # binary section tags


def _bad(where, field, why):
    raise ValueError("%s: %s: %s" % (where, field, why))


def _whole(v, lo, hi):
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def check(obj, where="profile"):
    """Validate a parsed profile; return it, or raise ``ValueError("where: field: why")``."""
    if not isinstance(obj, dict):
        _bad(where, "(top)", "a profile is a JSON object")
    for key in obj:
        if key not in FIELDS:
            _bad(where, key, "not supported by this build yet" if key in LATER else "unknown field")
    if obj.get("format") != FORMAT:
        _bad(where, "format", "must be %d" % FORMAT)
    name = obj.get("name")
    if not isinstance(name, str) or not 0 < len(name) <= _NAME_MAX:
        _bad(where, "name", "a text of 1 to %d characters" % _NAME_MAX)
    if not isinstance(obj.get("placeholders"), bool):
        _bad(where, "placeholders", "true when the values are not the printed ones, else false")
    bm = obj.get("black_market")
    if bm is not None:
        if not isinstance(bm, dict):
            _bad(where, "black_market", "an object {pepper, mead, silk}")
        for key in bm:
            if key not in BLACK_MARKET_GOODS:
                _bad(where, "black_market." + key, "not a Black Market good (pepper, mead, silk)")
        for good in BLACK_MARKET_GOODS:
            pair = bm.get(good)
            at = "black_market." + good
            if not isinstance(pair, list) or len(pair) != 2:
                _bad(where, at, "a list [top card value, lower card value]")
            for i in range(2):
                if not _whole(pair[i], 0, 255):
                    _bad(where, "%s[%d]" % (at, i), "a whole number from 0 to 255")
            if pair[0] < pair[1]:
                _bad(where, at, "the top card has the higher value: [higher, lower]")
    return obj


def black_market_values(obj):
    """Six values (pepper top, lower, mead top, lower, silk top, lower), or None."""
    bm = obj.get("black_market")
    if bm is None:
        return None
    return bytes([v for good in BLACK_MARKET_GOODS for v in bm[good]])


def encode(obj):
    """The binary form: magic, format, flags, name, sections (tag, length, data), CRC-32."""
    check(obj)
    name = obj["name"].encode()
    body = bytearray(MAGIC)
    body.extend(bytes((FORMAT, _F_PLACEHOLDERS if obj["placeholders"] else 0, len(name))))
    body.extend(name)
    values = black_market_values(obj)
    if values is not None:
        body.extend(bytes((_S_BLACK_MARKET, len(values))))
        body.extend(values)
    c = binascii.crc32(body) & 0xFFFFFFFF
    body.extend(bytes((c & 255, (c >> 8) & 255, (c >> 16) & 255, c >> 24)))
    return bytes(body)


def decode(blob, where="profile.bin"):
    """The profile object of a binary form (``ValueError`` naming ``where`` if it is damaged)."""
    n = len(blob)
    if n < 11 or blob[0:4] != MAGIC:
        _bad(where, "(file)", "not a tapmat deck profile")
    c = blob[n - 4] | (blob[n - 3] << 8) | (blob[n - 2] << 16) | (blob[n - 1] << 24)
    if binascii.crc32(blob[0:n - 4]) & 0xFFFFFFFF != c:
        _bad(where, "(file)", "damaged (checksum)")
    if blob[4] != FORMAT:
        _bad(where, "format", "must be %d" % FORMAT)
    at = 7 + blob[6]
    obj = {"format": FORMAT, "name": bytes(blob[7:at]).decode(), "placeholders": bool(blob[5] & _F_PLACEHOLDERS)}
    while at < n - 4:
        tag = blob[at]
        size = blob[at + 1]
        data = blob[at + 2:at + 2 + size]
        if tag == _S_BLACK_MARKET and size == 6:
            obj["black_market"] = dict((BLACK_MARKET_GOODS[i], [data[2 * i], data[2 * i + 1]]) for i in range(3))
        else:
            _bad(where, "(section %d)" % tag, "not known to this build")
        at += 2 + size
    return check(obj, where)


def complete(header, path):
    """A header naming modules but no profile gets the profile stored at ``path`` (the board's
    ``profile.bin``), so the journalled header replays anywhere. Unchanged without the file;
    ``ValueError`` naming the file if it is damaged."""
    try:
        f = open(path, "rb")
    except OSError:
        return header
    try:
        blob = f.read()
    finally:
        f.close()
    header["profile"] = decode(blob, path)
    return header
