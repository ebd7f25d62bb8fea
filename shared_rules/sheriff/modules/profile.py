"""Deck profile: the Merry Men expansion's per-card data that is not public (Black Market values,
law, special order and Merry Man cards), filled in by the owner of a physical copy.

Three forms of one thing: the JSON file the owner edits (schema in ``docs/rules-merry-men.md``,
"Deck profile"), the same object inline in a log header (so a log replays anywhere), and a compact
binary form the board keeps (``profile.bin``: ``make flash PROFILE=``, or pushed over the link).
On the link and on the board a header names that file by the digest of the sections it uses
(``link_header``, ``Stored``, ``load``; docs/protocol.md section 10). Games are always built from
the binary form. ``check`` validates any parsed profile and names the file and field of every
error. Runs on both interpreters; only header parsing, pushes and flashing use it, never the
accept path.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

import binascii

from shared_rules.core import board_files

_FORMAT = const(1)
MAGIC = b"TPRF"
FILE = board_files.PROFILE_FILE   # on the board, beside game.json
BLACK_MARKET_GOODS = ("pepper", "mead", "silk")
FIELDS = ("format", "name", "placeholders", "black_market", "laws", "special_orders", "merry_men")
_NAME_MAX = const(64)
_F_PLACEHOLDERS = const(1)
_S_BLACK_MARKET = const(1)   # binary section tags


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
            _bad(where, key, "unknown field")
    if obj.get("format") != _FORMAT:
        _bad(where, "format", "must be %d" % _FORMAT)
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
    if "laws" in obj or "special_orders" in obj or "merry_men" in obj:   # issue 11: card sections
        _cards().check(obj, where)
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
    body.extend(bytes((_FORMAT, _F_PLACEHOLDERS if obj["placeholders"] else 0, len(name))))
    body.extend(name)
    values = black_market_values(obj)
    if values is not None:
        body.extend(bytes((_S_BLACK_MARKET, len(values))))
        body.extend(values)
    if "laws" in obj or "special_orders" in obj or "merry_men" in obj:   # issue 11: card sections
        _cards().sections(obj, body)
    c = binascii.crc32(body) & 0xFFFFFFFF
    body.extend(bytes((c & 255, (c >> 8) & 255, (c >> 16) & 255, c >> 24)))
    return bytes(body)


def _verified(blob, where):
    """The offset of the first section of an intact binary form (``ValueError`` naming ``where``)."""
    n = len(blob)
    if n < 11 or blob[0:4] != MAGIC:
        _bad(where, "(file)", "not a tapmat deck profile")
    if _crc(blob) != binascii.crc32(blob[0:n - 4]) & 0xFFFFFFFF:
        _bad(where, "(file)", "damaged (checksum)")
    if blob[4] != _FORMAT:
        _bad(where, "format", "must be %d" % _FORMAT)
    return 7 + blob[6]


def _crc(blob):
    n = len(blob)
    return blob[n - 4] | (blob[n - 3] << 8) | (blob[n - 2] << 16) | (blob[n - 1] << 24)


def decode(blob, where="profile.bin"):
    """The profile object of a binary form (``ValueError`` naming ``where`` if it is damaged)."""
    n = len(blob)
    at = _verified(blob, where)
    obj = {"format": _FORMAT, "name": bytes(blob[7:at]).decode(), "placeholders": bool(blob[5] & _F_PLACEHOLDERS)}
    while at < n - 4:
        tag = blob[at]
        size = blob[at + 1]
        data = blob[at + 2:at + 2 + size]
        if tag == _S_BLACK_MARKET and size == 6:
            obj["black_market"] = dict((BLACK_MARKET_GOODS[i], [data[2 * i], data[2 * i + 1]]) for i in range(3))
        elif tag > _S_BLACK_MARKET and _cards().decode_section(tag, data, obj):   # issue 11
            pass
        else:
            _bad(where, "(section %d)" % tag, "not known to this build")
        at += 2 + size
    return check(obj, where)


def _cards():
    """Laws, special orders and Merry Men sections (issue 11), imported only when present."""
    from shared_rules.sheriff.modules import profile_cards
    return profile_cards


def for_modules(obj, modules):
    """The part of a profile a header naming ``modules`` needs (issue 11: the card sections make a
    whole profile too long for one frame to the board, and a log needs only its modules' data)."""
    out = {}
    for key in obj:
        if key in ("format", "name", "placeholders") or key in modules:
            out[key] = obj[key]
    return out


# -- the link form: a header names the board's profile by its digest (docs/protocol.md) ---------
DIGEST = "crc32:"
SECTION_TAGS = (("black_market", _S_BLACK_MARKET), ("laws", 2), ("special_orders", 3), ("merry_men", 4))


def digest(obj, modules):
    """``"crc32:xxxxxxxx"``: the CRC-32 of the binary form of the part of ``obj`` that a header
    naming ``modules`` uses. A board computes the same from its ``profile.bin`` (``Stored``)."""
    return DIGEST + "%08x" % _crc(encode(for_modules(obj, modules)))


def link_header(header):
    """The header as NEWGAME and HELLO carry it: an inline profile replaced by its digest (the
    card sections do not fit a frame; the board reads them from its own ``profile.bin``)."""
    prof = header.get("profile")
    if not isinstance(prof, dict):
        return header
    out = dict(header)
    out["profile"] = digest(prof, header.get("modules", ()))
    return out


class Stored:
    """A binary profile read for one header's ``modules``: its digest over the sections they use,
    their places in the blob (read on demand by ``profile_cards``), the Black Market values. Holds
    the blob, never the JSON objects (the board's heap)."""

    def __init__(self, blob, modules, where):
        n = len(blob)
        at = _verified(blob, where)
        self.blob = blob
        self.where = where
        self.name = bytes(blob[7:at]).decode()
        self.places = {}    # type: dict[int, list[tuple[int, int]]]  # tag -> (start, size) of the modules' sections
        keep = [tag for key, tag in SECTION_TAGS if key in modules]
        crc = binascii.crc32(blob[0:at])
        while at < n - 4:
            tag = blob[at]
            size = blob[at + 1]
            if at + 2 + size > n - 4:
                _bad(where, "(section %d)" % tag, "cut short")
            if tag in keep:
                crc = binascii.crc32(blob[at:at + 2 + size], crc)
                if tag not in self.places:
                    self.places[tag] = []
                self.places[tag].append((at + 2, size))
            at += 2 + size
        self.digest = DIGEST + "%08x" % (crc & 0xFFFFFFFF)

    def black_market_values(self):
        """Six values (pepper top, lower, mead top, lower, silk top, lower), or None."""
        places = self.places.get(_S_BLACK_MARKET)
        if not places or places[0][1] != 6:
            return None
        start = places[0][0]
        return bytes(self.blob[start:start + 6])

    def sections(self, tag):
        """The data of each section with ``tag`` (memoryviews into the blob)."""
        view = memoryview(self.blob)
        return [view[start:start + size] for start, size in self.places.get(tag, ())]


class Missing(ValueError):
    """The board's profile.bin is missing or is not the deck profile a header names: the game is
    refused, or, journalled, kept and not restored until the right profile is written (``keep``:
    ``firmware/persist.py`` tells it so from other refusals without importing this module)."""
    keep = True


_WRITE = "push the game's profile (tapmat profile push deck.json --port PORT) or flash it (make flash PROFILE=deck.json)"


def load(prof, modules, where="header profile"):
    """The ``Stored`` profile a header's ``profile`` names for ``modules``: an inline profile
    (checked; a log), or the digest of the board's ``profile.bin`` (the link form; ``ValueError``
    naming both digests when the board's profile is missing or serves this game differently)."""
    if isinstance(prof, dict):
        check(prof, where)
        return Stored(encode(for_modules(prof, modules)), modules, where)
    if not isinstance(prof, str) or not prof.startswith(DIGEST) or len(prof) != len(DIGEST) + 8:
        _bad(where, "profile", "the deck profile object (or, on the link to a board, its \"crc32:xxxxxxxx\" digest)")
    path = board_files.profile_path
    if path is None:
        raise ValueError("%s: profile: %s names a board's profile.bin by its digest; a log carries the profile itself" % (
            where, prof))
    try:
        with open(path, "rb") as f:
            blob = f.read()
    except OSError:
        raise Missing("deck profile: this game needs %s and the board has no %s: %s" % (prof, FILE, _WRITE))
    try:
        stored = Stored(blob, modules, path)
    except ValueError as e:
        raise Missing("deck profile: this game needs %s; %s: %s" % (prof, e, _WRITE))
    if stored.digest != prof:
        raise Missing("deck profile: this game needs %s, the board's %s (%r) gives %s for its modules: %s" % (
            prof, FILE, stored.name, stored.digest, _WRITE))
    return stored

