"""CRC-16/CCITT-FALSE, the checksum of every frame on the host <-> board link.

Parameters (Greg Cook's CRC catalogue, "CRC-16/IBM-3740", alias CCITT-FALSE): width 16,
poly 0x1021, init 0xFFFF, no reflection, xorout 0; check("123456789") = 0x29B1.
Computed byte-wise without a table (the shift/xor form of the 0x1021 polynomial), so it costs
no RAM, allocates nothing and keeps every intermediate below 2**24 (small ints on 32-bit ports).
"""


def crc16(data, start=0, end=-1, crc=0xFFFF):
    """CRC of data[start:end] (end < 0: to the end); pass `crc` back in to continue a running CRC."""
    if end < 0:
        end = len(data)
    for i in range(start, end):
        x = ((crc >> 8) ^ data[i]) & 0xFF
        x ^= x >> 4
        crc = ((crc << 8) ^ (x << 12) ^ (x << 5) ^ x) & 0xFFFF
    return crc
