"""The stored game's file formats (``docs/persistence.md``): snapshot files, a journal's header and
end mark. ``firmware.persist`` writes them; ``firmware.recover`` reads them at boot.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

import os
import struct

from shared_rules.wire.crc import crc16
from shared_rules.core.engine import crc32

# firmware.persist's (tests/test_rules_literals.py checks they agree).
_FORMAT = const(1)
_SNAP_MAGIC = const(b"TP")
_JRN_MAGIC = const(b"TJ")
_PREFIX = const("<2sBHIH")
_SNAP_FIXED = const(11)
_END_MARK = const(0xFF)


def u16(b, at):
    return b[at] | (b[at + 1] << 8)


def snapshot_file(gen, count, header, game):
    """The bytes of a snapshot file (also recomputed at boot to follow a journal chain).

    No CRC over the whole file: the engine's snapshot ends in a CRC-32 of itself, and a CRC-32
    over a prefix plus such data depends only on the prefix and the length (CRC residue), so it
    could not tell two states apart. The prefix gets its own CRC-32 instead."""
    return snapshot_head(gen, count, header) + game.snapshot()


def snapshot_head(gen, count, header):
    """A snapshot file up to the game's snapshot: the prefix and its CRC-32."""
    prefix = struct.pack(_PREFIX, _SNAP_MAGIC, _FORMAT, gen, count, len(header)) + header
    return prefix + struct.pack("<I", crc32(prefix))


def snapshot_name(data):
    """What a journal names its snapshot by: the prefix CRC-32 and the state's own CRC-32."""
    state_at = _SNAP_FIXED + u16(data, 9) + 4
    return bytes(data[state_at - 4:state_at]) + bytes(data[len(data) - 4:])


def journal_header(name):
    h = _JRN_MAGIC + bytes((_FORMAT,)) + name
    return h + struct.pack("<H", crc16(h))


def end_mark(seq):
    """The journal's last 3 bytes: the end mark and the seqno of the record that would follow."""
    return bytes((_END_MARK, seq & 255, (seq >> 8) & 255))


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def remove(path):
    if exists(path):
        os.remove(path)
