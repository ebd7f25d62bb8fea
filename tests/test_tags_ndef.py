"""The signed tapmat NDEF record (host/board/ndef.py): byte layout, verification, forgeries."""
from __future__ import annotations

import hashlib
import hmac
import stat
from pathlib import Path

import pytest

from host.board import ndef
from host.board.ndef import DeckKey, NdefError, Signed, decode, encode, verify

UID = bytes.fromhex("04a1b2c3d4e5f6")
KEY = DeckKey(0x01020304, bytes(range(32)))


def test_layout_follows_the_documented_bytes() -> None:
    data = encode(UID, "flower/s2", KEY)
    signed_part = b"\x01" + b"\x01\x02\x03\x04" + b"\x09" + b"flower/s2"
    mac = hmac.new(bytes(range(32)), UID + signed_part, hashlib.sha256).digest()[:16]
    record = b"\xd4\x0b" + bytes([len(signed_part) + 16]) + b"tapmat:card" + signed_part + mac
    assert data == b"\x03" + bytes([len(record)]) + record + b"\xfe"
    assert len(data) == 39 + len("flower/s2")
    assert decode(data + bytes(20)) == (0x01020304, "flower/s2", signed_part, mac)
    assert len(encode(UID, "x" * 32, KEY)) == 71 <= ndef.READ_BYTES


def test_verify_accepts_the_right_tag_and_key_only() -> None:
    data = encode(UID, "anchor2/d1", KEY) + bytes(9)
    other = DeckKey(0x0A0B0C0D, bytes(32))
    assert verify(UID, data, [other, KEY]) == Signed(0x01020304, "anchor2/d1")
    with pytest.raises(NdefError, match="wrong MAC: copied from another tag"):
        verify(bytes.fromhex("04a1b2c3d4e5f7"), data, [KEY])  # the record copied to another tag
    with pytest.raises(NdefError, match="wrong MAC"):
        verify(UID, data, [DeckKey(KEY.deck_id, bytes(32))])   # the deck id with another key
    with pytest.raises(NdefError, match="deck 01020304, whose key is not loaded"):
        verify(UID, data, [other])
    for i in range(7 + 11, 2 + 3 + 11 + 6 + 10 + 16):  # every byte of the name and MAC
        forged = bytearray(data)
        forged[i] ^= 0x01
        with pytest.raises(NdefError):
            verify(UID, bytes(forged), [KEY])


@pytest.mark.parametrize("memory,message", [
    (bytes(80), "no NDEF message"),
    (b"\x03\x00\xfe" + bytes(77), "no NDEF message on the tag .an empty NDEF TLV"),
    (b"\x03\x40\xd4\x0b\x1ftapmat:card", "NDEF TLV length"),
    (b"\x01\x03\xa0\x0c\x34\x03\x00\xfe", "not an NDEF TLV"),
    (b"\x03\x10\xd1\x01\x0cU\x04example.com\xfe", "not a tapmat:card record"),
])
def test_foreign_or_empty_memory_is_refused(memory: bytes, message: str) -> None:
    with pytest.raises(NdefError, match=message):
        verify(UID, memory, [KEY])


def test_version_and_lengths_are_checked() -> None:
    data = bytearray(encode(UID, "pass", KEY))
    data[2 + 3 + 11] = 2
    with pytest.raises(NdefError, match="version 2"):
        decode(bytes(data))
    with pytest.raises(NdefError, match="7-byte"):
        encode(UID[:4], "pass", KEY)
    with pytest.raises(NdefError, match="1..32 ASCII"):
        encode(UID, "é", KEY)
    with pytest.raises(NdefError, match="1..32 ASCII"):
        encode(UID, "x" * 33, KEY)


def test_key_files(tmp_path: Path) -> None:
    path = tmp_path / "home.key"
    key = DeckKey.new()
    key.save(path)
    assert DeckKey.load(path) == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with pytest.raises(FileExistsError):
        DeckKey.new().save(path)  # never overwrite a deck's key
    bad = tmp_path / "bad.key"
    bad.write_text('{"deck_id": "zz", "key": "00"}')
    with pytest.raises(NdefError, match="not a tapmat deck key file"):
        DeckKey.load(bad)
    bad.write_text('{"deck_id": "01", "key": "00"}')
    with pytest.raises(NdefError, match="32-byte key"):
        DeckKey.load(bad)
