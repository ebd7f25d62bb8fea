"""The signed tapmat record on a tag: an NDEF message that lets a deck move to another mat.

Layout (docs/hardware.md section 6; docs/provisioning.md has the byte table): one NFC Forum
Type 2 Tag NDEF TLV from page 4 of the NTAG (NFC Forum Type 2 Tag spec 2.3: TLV 03h, then the
terminator TLV FEh), holding one short record of the external type ``tapmat:card``
(NDEF spec 3.2: header MB ME SR, TNF 4):

    03 LL | D4 0B PL "tapmat:card" | 01 | deck id (4, BE) | n | piece name (n) | MAC (16) | FE

MAC = HMAC-SHA256(deck key, UID (7 bytes) || payload up to the MAC), first 16 bytes (RFC 2104
section 5 allows truncation to half the output). The deck key (32 random bytes) stays on the
host; a mat that should accept the deck gets the key file. The UID in the MAC binds the record
to that factory-programmed tag: copying it to another tag breaks it.

The piece name is the catalogue code (codes are unique across games and kinds), then
``/s<seat>`` for the owner seat of a Skull disc and ``/d<n>`` for deck number n > 0: a record
must name the piece exactly, not just its kind (host/board/tags.py ``Piece.name``).
"""
from __future__ import annotations

import hmac
import json
import os
import secrets
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path
from typing import Iterable

TYPE = b"tapmat:card"
VERSION = 1
UID_LEN = 7
KEY_LEN = 32
MAC_LEN = 16
NAME_MAX = 32
RECORD_HEADER = 0xD4  # MB=1 ME=1 CF=0 SR=1 IL=0 TNF=4 (NFC Forum external type)
TLV_NDEF = 0x03
TLV_TERMINATOR = 0xFE
FIRST_PAGE = 4        # NTAG21x user memory starts at page 4 (datasheet 8.5)
READ_BYTES = 80       # 5 READs of 16 bytes hold the longest record (39 + 32 = 71 bytes)


class NdefError(ValueError):
    """Not a tapmat record, a damaged one, one of an unknown deck, or a forged one."""


@dataclass(frozen=True)
class DeckKey:
    """A deck's identity and secret: ``deck_id`` goes on every tag, ``key`` never does."""

    deck_id: int
    key: bytes

    @classmethod
    def new(cls) -> "DeckKey":
        return cls(secrets.randbits(32), secrets.token_bytes(KEY_LEN))

    @classmethod
    def load(cls, path: Path) -> "DeckKey":
        try:
            doc = json.loads(Path(path).read_text())
            key = cls(int(doc["deck_id"], 16), bytes.fromhex(doc["key"]))
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise NdefError(f"deck key {path}: not a tapmat deck key file ({e})") from None
        if len(key.key) != KEY_LEN or not 0 <= key.deck_id < 1 << 32:
            raise NdefError(f"deck key {path}: expected a 32-bit deck id and a {KEY_LEN}-byte key")
        return key

    def save(self, path: Path) -> None:
        """Write the key file readable by its owner only (it is the deck's secret)."""
        text = json.dumps({"deck_id": "%08x" % self.deck_id, "key": self.key.hex()}) + "\n"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(text)


@dataclass(frozen=True)
class Signed:
    """A verified record: the deck it belongs to and the piece it names."""

    deck_id: int
    name: str


def _mac(key: bytes, uid: bytes, signed_part: bytes) -> bytes:
    return hmac.new(key, uid + signed_part, sha256).digest()[:MAC_LEN]


def _check_uid(uid: bytes) -> None:
    if len(uid) != UID_LEN:
        raise NdefError(f"UID {uid.hex()}: a signed record needs a 7-byte NTAG UID")


def encode(uid: bytes, name: str, key: DeckKey) -> bytes:
    """The bytes to write from page 4: TLV, record, terminator (39 + len(name) bytes)."""
    _check_uid(uid)
    if not name.isascii() or not 1 <= len(name) <= NAME_MAX:
        raise NdefError(f"piece name {name!r}: 1..{NAME_MAX} ASCII characters")
    raw = name.encode()
    signed_part = bytes((VERSION,)) + key.deck_id.to_bytes(4, "big") + bytes((len(raw),)) + raw
    payload = signed_part + _mac(key.key, uid, signed_part)
    record = bytes((RECORD_HEADER, len(TYPE), len(payload))) + TYPE + payload
    return bytes((TLV_NDEF, len(record))) + record + bytes((TLV_TERMINATOR,))


def decode(memory: bytes) -> tuple[int, str, bytes, bytes]:
    """(deck id, piece name, signed part, MAC) of the record at the start of user memory."""
    m = bytes(memory)
    if len(m) < 2 or m[0] != TLV_NDEF:
        raise NdefError("no NDEF message on the tag" if m[:1] in (b"", b"\x00", b"\xfe")
                        else f"user memory starts with {m[:1].hex()}h, not an NDEF TLV (03h)")
    size = m[1]
    if size == 0:
        raise NdefError("no NDEF message on the tag (an empty NDEF TLV: a blank tag)")
    record = m[2:2 + size]
    if size == 0xFF or len(record) != size or len(record) < 3 + len(TYPE):
        raise NdefError("NDEF TLV length does not fit the data read")
    if record[0] != RECORD_HEADER or record[1] != len(TYPE) or record[3:3 + len(TYPE)] != TYPE:
        raise NdefError("the NDEF record is not a tapmat:card record")
    payload = record[3 + len(TYPE):]
    if record[2] != len(payload) or len(payload) < 6 + MAC_LEN:
        raise NdefError("tapmat record: payload length does not match")
    if payload[0] != VERSION:
        raise NdefError(f"tapmat record version {payload[0]}, this tapmat reads version {VERSION}")
    n = payload[5]
    if len(payload) != 6 + n + MAC_LEN or not 1 <= n <= NAME_MAX:
        raise NdefError("tapmat record: name length does not match")
    try:
        name = payload[6:6 + n].decode("ascii")
    except UnicodeError:
        raise NdefError("tapmat record: the piece name is not ASCII") from None
    return int.from_bytes(payload[1:5], "big"), name, payload[:6 + n], payload[6 + n:]


def verify(uid: bytes, memory: bytes, keys: Iterable[DeckKey]) -> Signed:
    """The record on tag ``uid`` if one of ``keys`` signed it for that UID; NdefError otherwise."""
    _check_uid(uid)
    deck_id, name, signed_part, mac = decode(memory)
    for k in keys:
        if k.deck_id == deck_id:
            if not hmac.compare_digest(_mac(k.key, uid, signed_part), mac):
                raise NdefError(f"tag {uid.hex()}: the record of deck {deck_id:08x} ({name}) has "
                                f"a wrong MAC: copied from another tag, altered, or another key")
            return Signed(deck_id, name)
    raise NdefError(f"tag {uid.hex()}: signed by deck {deck_id:08x}, whose key is not loaded")
