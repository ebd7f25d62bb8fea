"""Known-answer vectors, round trips, error kinds and zero-allocation proofs for the link codec.

Runs on CPython and MicroPython (tests/dual_runner.py); tests return hex strings or counts so the
harness also checks that both interpreters produce the same bytes.
"""
import binascii
import sys

from shared_rules.wire import codec
from shared_rules.wire.cobs import Unstuffer, max_stuffed_len, stuff_into
from shared_rules.wire.crc import crc16

try:
    import micropython
except ImportError:
    micropython = None

ON_MICROPYTHON = sys.implementation.name == "micropython"


def _hex(data):
    return binascii.hexlify(data).decode()


def _unhex(text):
    return binascii.unhexlify(text.replace(" ", ""))


def _lock():
    if micropython:
        micropython.heap_lock()


def _unlock():
    if micropython:
        micropython.heap_unlock()


class _Prng:
    """Tiny LCG (Numerical Recipes constants): random.seed differs between interpreters."""

    def __init__(self, seed):
        self.x = seed

    def byte(self):
        self.x = (self.x * 1664525 + 1013904223) & 0xFFFFFFFF
        return self.x >> 24

    def below(self, n):
        return ((self.byte() << 8) | self.byte()) % n

    def bytes(self, n):
        out = bytearray(n)
        for i in range(n):
            out[i] = self.byte()
        return out


def _stuff(raw):
    out = bytearray(max_stuffed_len(len(raw)))
    return bytes(out[:stuff_into(out, raw)])


def _unstuff(stuffed):
    """Packets and error counts from a fresh Unstuffer fed all of stuffed."""
    u = Unstuffer(600)
    packets = []
    pos = 0
    while pos < len(stuffed):
        pos = u.feed(stuffed, pos, len(stuffed))
        if u.ready:
            packets.append(bytes(u.buf[:u.length]))
    return packets, u.errors


def _decode(data, reader=None):
    reader = reader or codec.FrameReader()
    return list(reader.frames(data)), reader


def _escape_ref(cobs_bytes):
    """Reference for the escape step, written independently of cobs.py."""
    out = bytearray()
    for b in cobs_bytes:
        if b == 0x03 or b == 0x10:
            out.append(0x10)
            out.append(b ^ 0x20)
        else:
            out.append(b)
    return bytes(out) + b"\x00"


# --- CRC-16/CCITT-FALSE -------------------------------------------------------------------

def test_crc_check_value():
    assert crc16(b"123456789") == 0x29B1
    return crc16(b"123456789")


def test_crc_known_values():
    assert crc16(b"") == 0xFFFF
    assert crc16(b"\x00") == 0xE1F0
    assert crc16(b"\xff") == 0xFF00
    assert crc16(b"A") == 0xB915
    assert crc16(b"xx123456789yy", 2, 11) == 0x29B1
    assert crc16(b"56789", 0, -1, crc16(b"1234")) == 0x29B1  # a running CRC continues


# --- COBS and the escape step ------------------------------------------------------------

# (raw, COBS) pairs from Cheshire & Baker 1999 / Wikipedia "Consistent Overhead Byte Stuffing";
# the stuffed form is the COBS bytes escaped (0x03, 0x10) plus the 0x00 delimiter.
_COBS_VECTORS = [
    ("00", "01 01"),
    ("00 00", "01 01 01"),
    ("00 11 00", "01 02 11 01"),
    ("11 22 00 33", "03 11 22 02 33"),
    ("11 22 33 44", "05 11 22 33 44"),
    ("11 00 00 00", "02 11 01 01 01"),
]


def _long_cobs_vectors():
    """The 254- and 255-byte vectors of the same table, built by construction."""
    r = bytes(range(256))
    return [
        (r[1:255], b"\xff" + r[1:255]),                           # 01..FE
        (r[0:255], b"\x01\xff" + r[1:255]),                       # 00..FE
        (r[1:256], b"\xff" + r[1:255] + b"\x02\xff"),             # 01..FF
        (r[2:256] + b"\x00", b"\xff" + r[2:256] + b"\x01\x01"),   # 02..FF 00
        (r[3:256] + b"\x00\x01", b"\xfe" + r[3:256] + b"\x02\x01"),  # 03..FF 00 01
    ]


def test_cobs_known_answers_both_ways():
    pairs = [(_unhex(a), _unhex(b)) for a, b in _COBS_VECTORS] + _long_cobs_vectors()
    lengths = []
    for raw, cobs in pairs:
        stuffed = _stuff(raw)
        assert stuffed == _escape_ref(cobs), _hex(raw)
        packets, errors = _unstuff(stuffed)
        assert packets == [raw] and sum(errors) == 0, _hex(raw)
        lengths.append(len(stuffed))
    return lengths


def test_escape_known_answers():
    vectors = [
        (b"\x03", "02 10 23 00"),              # Ctrl-C as data
        (b"\x10", "02 10 30 00"),              # DLE as data
        (b"\x11\x22", "10 23 11 22 00"),       # COBS code byte 0x03
        (b"\x41" * 15, "10 30" + " 41" * 15 + " 00"),  # COBS code byte 0x10
        (b"\x03\x10\x00\x03", "10 23 10 23 10 30 02 10 23 00"),
    ]
    for raw, stuffed in vectors:
        assert _stuff(raw) == _unhex(stuffed), _hex(raw)
        assert _unstuff(_unhex(stuffed))[0] == [raw]


def test_stuff_refuses_a_small_buffer():
    out = bytearray(max_stuffed_len(4) - 1)
    try:
        stuff_into(out, b"\x03\x03\x03\x03")
    except ValueError:
        return "refused"
    assert False, "no error"


# --- complete frames ----------------------------------------------------------------------

# (type, seq, body, raw frame, encoded frame): CRC and COBS worked out independently of the codec.
_FRAMES = [
    (codec.PING, 0, "", "85 00 00 36 1c", "02 85 01 10 23 36 1c 00"),
    (codec.HELLO, 1, "01 00 01 00 03 04", "41 01 00 01 00 01 00 03 04 98 cd",
     "10 23 41 01 02 01 02 01 05 10 23 04 98 cd 00"),
    (codec.ACTION, 0x1003, "10 03 00", "83 03 10 10 03 00 95 f7",
     "06 83 10 23 10 30 10 30 10 23 10 23 95 f7 00"),
    (codec.RESYNC, 0xFFFF, "", "82 ff ff a9 84", "06 82 ff ff a9 84 00"),
]


def test_frames_known_answers():
    out = bytearray(codec.MAX_FRAME)
    for ftype, seq, body, raw, encoded in _FRAMES:
        body = _unhex(body)
        raw = _unhex(raw)
        assert crc16(raw, 0, len(raw) - 2) == raw[-2] | (raw[-1] << 8)
        n = codec.encode_into(out, ftype, seq, body)
        assert bytes(out[:n]) == _unhex(encoded), ftype
        assert codec.encode(ftype, seq, body) == _unhex(encoded)
        frames, reader = _decode(_unhex(encoded))
        assert frames == [(ftype, seq, body)], ftype
        assert bytes(reader.buf[:len(raw)]) == raw
        assert reader.body_len == len(body)
    return [f[4] for f in _FRAMES]


def test_round_trip_body_lengths():
    rng = _Prng(7)
    out = bytearray(codec.MAX_FRAME)
    reader = codec.FrameReader()
    sizes = []
    for n in (0, 1, 2, 253, 254, 255, 256, 300, 508, 509, 510, 511, 512, codec.MAX_BODY):
        body = rng.bytes(n)
        seq = rng.below(0x10000)
        size = codec.encode_into(out, codec.SNAPSHOT, seq, body)
        frames, _ = _decode(out[:size], reader)
        assert frames == [(codec.SNAPSHOT, seq, bytes(body))], n
        sizes.append(size)
    assert sum(reader.errors) == 0
    return sizes


def test_round_trip_in_exact_size_buffers_with_worst_case_bodies():
    """In-place stuffing must never overwrite unread bytes, even when every byte is escaped."""
    rng = _Prng(11)
    bodies = [b"\x03" * 512, b"\x10" * 512, b"\x00" * 512, b"\x03\x03\x00" * 170,
              (b"\x10" * 15 + b"\x00") * 32, b"\xff" * 512, b"\x03" * 254 + b"\x00" * 258]
    for _ in range(40):
        bodies.append(rng.bytes(rng.below(513)))
    longest = 0
    for body in bodies:
        out = bytearray(max_stuffed_len(len(body) + codec.FRAME_OVERHEAD))
        size = codec.encode_into(out, codec.DELTA, 0x0310, body)
        frames, _ = _decode(out[:size])
        assert frames == [(codec.DELTA, 0x0310, bytes(body))], _hex(body[:8])
        longest = max(longest, size)
    assert longest <= codec.MAX_FRAME
    return longest


def test_encode_refuses_bad_input():
    out = bytearray(codec.MAX_FRAME)
    refused = 0
    for ftype, body, buf in ((256, b"", out), (-1, b"", out), (1, bytes(codec.MAX_BODY + 1), out),
                             (1, b"abc", bytearray(10))):
        try:
            codec.encode_into(buf, ftype, 0, body)
        except ValueError:
            refused += 1
    assert refused == 4
    return refused


def test_encode_uses_body_prefix_and_wraps_seq():
    out = bytearray(codec.MAX_FRAME)
    n = codec.encode_into(out, codec.PING, 0x12345, b"abcdefgh", 3)
    assert _decode(out[:n])[0] == [(codec.PING, 0x2345, b"abc")]


def test_no_ctrl_c_and_no_inner_zero_in_any_encoded_frame():
    """Exhaustive over single-byte bodies, types and seq bytes; random bodies from a fixed PRNG."""
    out = bytearray(codec.MAX_FRAME)
    checked = 0
    digest = 0xFFFF

    def check(digest, ftype, seq, body):
        size = codec.encode_into(out, ftype, seq, body)
        for i in range(size - 1):
            assert out[i] != 0x03 and out[i] != 0x00, (ftype, seq, _hex(body))
        assert out[size - 1] == 0
        return crc16(out, 0, size, digest)

    for b in range(256):
        digest = check(digest, codec.ACTION, 0x0310, bytes((b,)))
        digest = check(digest, b, b | (b << 8), b"")
        digest = check(digest, codec.DELTA, b, bytes((b, b, 0, b)))
        checked += 3
    rng = _Prng(2024)
    for _ in range(150):
        body = rng.bytes(rng.below(513))
        digest = check(digest, rng.byte(), rng.below(0x10000), body)
        checked += 1
    return [checked, digest]


# --- streaming decoder: chunking, errors, resync ------------------------------------------

def _sample_frames():
    return [codec.encode(codec.HELLO, 0, b"\x01\x00\x01\x00\x03\x04"),
            codec.encode(codec.DELTA, 1, bytes(range(40))),
            codec.encode(codec.PONG, 2, b"")]


def test_any_chunking_gives_the_same_frames():
    stream = b"".join(_sample_frames())
    whole, _ = _decode(stream)
    assert [f[1] for f in whole] == [0, 1, 2]
    reader = codec.FrameReader()
    one_by_one = []
    one = bytearray(1)
    for b in stream:
        one[0] = b
        reader.feed(one)
        if reader.ready:
            one_by_one.append((reader.type, reader.seq, bytes(reader.body[:reader.body_len])))
    assert one_by_one == whole
    for chunk in (2, 3, 7, 64):
        reader = codec.FrameReader()
        got = []
        for at in range(0, len(stream), chunk):
            got += list(reader.frames(stream[at:at + chunk]))
        assert got == whole, chunk
    return len(stream)


def test_leading_and_repeated_delimiters_are_idle():
    hello, delta, pong = _sample_frames()
    frames, reader = _decode(b"\x00\x00" + hello + b"\x00" + delta + b"\x00\x00\x00" + pong)
    assert [f[1] for f in frames] == [0, 1, 2]
    assert sum(reader.errors) == 0


def _error_cases():
    """(name, bad bytes ending in 0x00, expected kind)."""
    good = codec.encode(codec.PING, 9, b"hello")
    corrupt = bytearray(good)
    corrupt[3] ^= 0x01
    return [
        ("cobs", _unhex("05 11 22 00"), codec.ERR_COBS),
        ("escape", _unhex("03 10 41 22 00"), codec.ERR_ESCAPE),
        ("raw ctrl-c", _unhex("03 03 22 00"), codec.ERR_ESCAPE),
        ("dangling dle", _unhex("02 10 00"), codec.ERR_ESCAPE),
        ("oversize", (b"\xff" + b"\x41" * 254) * 3 + b"\x00", codec.ERR_OVERSIZE),
        ("oversize zero", (b"\xff" + b"\x41" * 254) * 2 + b"\x02\x41" * ((codec.MAX_RAW - 508) // 2 + 1) + b"\x02\x00",
         codec.ERR_OVERSIZE),
        ("empty", _unhex("01 00"), codec.ERR_SHORT),
        ("short", _unhex("05 85 09 01 36 00"), codec.ERR_SHORT),
        ("crc", bytes(corrupt), codec.ERR_CRC),
    ]


def test_every_error_kind_is_counted_and_followed_by_resync():
    after = codec.encode(codec.PONG, 10, b"ok")
    seen = []
    for name, bad, kind in _error_cases():
        frames, reader = _decode(bad + after)
        assert frames == [(codec.PONG, 10, b"ok")], name
        assert reader.errors[kind] == 1 and sum(reader.errors) == 1, name
        assert reader.last_error == kind, name
        seen.append(codec.ERROR_NAMES[kind])
    return seen


def test_truncated_frame_is_dropped_at_the_next_delimiter():
    good = codec.encode(codec.SNAPSHOT, 3, bytes(range(1, 100)))
    next_frame = codec.encode(codec.PONG, 4, b"")
    kinds = []
    for cut in (1, 2, 5, 50, len(good) - 2):
        frames, reader = _decode(good[:cut] + b"\x00" + next_frame)
        assert frames == [(codec.PONG, 4, b"")], cut
        assert sum(reader.errors) == 1, cut
        kinds.append(reader.last_error)
    return kinds


def test_garbage_never_raises_and_never_yields_a_frame():
    rng = _Prng(99)
    reader = codec.FrameReader()
    fed = 0
    for _ in range(30):
        garbage = rng.bytes(rng.below(700))
        frames, _ = _decode(garbage, reader)
        assert frames == []
        fed += len(garbage)
    every_byte = bytes(range(256))
    assert _decode(every_byte + every_byte, reader)[0] == []
    frames, _ = _decode(b"\x00" + codec.encode(codec.PONG, 5, b"x"), reader)
    assert frames == [(codec.PONG, 5, b"x")]
    return [fed, reader.errors]


# --- sequence numbers ---------------------------------------------------------------------

def test_sequence_numbers_wrap_and_gaps_are_seen():
    assert codec.seq_next(0) == 1 and codec.seq_next(0xFFFF) == 0
    assert codec.seq_gap(0xFFFF, 0) == 0
    assert codec.seq_gap(41, 42) == 0
    assert codec.seq_gap(41, 44) == 2
    assert codec.seq_gap(0xFFFE, 1) == 2
    return [codec.seq_gap(5, 5), codec.seq_gap(5, 4)]


# --- delta runs ---------------------------------------------------------------------------

def test_diff_runs_known_answer():
    old = bytearray(12)
    new = bytearray(12)
    new[1] = 0x0A
    new[3] = 0x0B   # one equal byte between: same run
    new[7] = 0x0C   # three equal bytes before: new run
    new[10] = 0x0D  # two equal bytes before: same run
    out = bytearray(32)
    n = codec.diff_runs(old, new, out)
    assert bytes(out[:n]) == _unhex("01 00 03 0a 00 0b  07 00 04 0c 00 00 0d")
    assert codec.diff_runs(new, new, out) == 0
    assert codec.apply_runs(old, out, 0, n) == 2 and old == new
    return _hex(out[:n])


def test_diff_runs_split_long_runs_and_report_overflow():
    old = bytearray(600)
    new = bytearray(b"\x01" * 600)
    out = bytearray(620)
    n = codec.diff_runs(old, new, out)
    assert n == 600 + 3 * 3  # 255 + 255 + 90
    assert out[2] == 255 and out[258] == 0xFF and out[259] == 0 and out[260] == 255
    assert codec.diff_runs(old, new, bytearray(608)) == -1
    assert codec.apply_runs(old, out, 0, n) == 3 and old == new
    return n


def test_diff_apply_round_trip_random():
    rng = _Prng(5)
    out = bytearray(1024)
    total = 0
    for _ in range(60):
        size = 1 + rng.below(400)
        old = rng.bytes(size)
        new = bytearray(old)
        for _ in range(rng.below(12)):
            at = rng.below(size)
            for k in range(at, min(size, at + rng.below(6))):
                new[k] = rng.byte()
        n = codec.diff_runs(old, new, out)
        copy = bytearray(old)
        assert codec.apply_runs(copy, out, 0, n) >= 0
        assert copy == new
        total += n
    return total


def test_apply_runs_refuses_malformed_runs_and_changes_nothing():
    bad = ["00", "00 00", "01 00 00", "08 00 04 01 02 03 04",
           "00 00 02 01", "00 00 01 09 ff", "00 00 01 09 0a 00 01 0b"]
    for text in bad:
        buf = bytearray(10)
        assert codec.apply_runs(buf, _unhex(text)) == -1, text
        assert buf == bytearray(10), text
    buf = bytearray(10)
    assert codec.apply_runs(buf, _unhex("ee 00 00 01 08 ee"), 1, 5) == 1  # a run inside a body
    assert buf[0] == 8
    return len(bad)


# --- zero allocation (MicroPython heap locked; no-op on CPython) --------------------------

def test_heap_lock_really_catches_allocation():
    if not ON_MICROPYTHON:
        return None
    _lock()
    try:
        bytearray(16)
        caught = False
    except MemoryError:
        caught = True
    finally:
        _unlock()
    assert caught
    return None


def test_encode_into_allocates_nothing():
    out = bytearray(codec.MAX_FRAME)
    body = bytearray(range(256)) + bytearray(256)
    _lock()
    try:
        n1 = codec.encode_into(out, codec.SNAPSHOT, 0x1003, body, 512)
        n2 = codec.encode_into(out, codec.PING, 7, body, 0)
        crc = crc16(body)
    finally:
        _unlock()
    assert _decode(out[:n2])[0] == [(codec.PING, 7, b"")]
    return [n1, n2, crc]


def test_decoding_allocates_nothing():
    stream = b"".join(_sample_frames()) + codec.encode(codec.SNAPSHOT, 0x0310, bytes(512))
    garbage = b"\x05\x11\x00\x02\x10\x41\x00\x03\x00" + (b"\xff" + b"\x41" * 254) * 3 + b"\x00"
    reader = codec.FrameReader()
    seqs = bytearray(8)
    lasts = bytearray(8)
    zero = bytearray(1)
    _lock()
    try:
        count = 0
        pos = 0
        end = len(stream)
        while pos < end:
            pos = reader.feed(stream, pos, end)
            if reader.ready:
                seqs[count] = reader.seq & 0xFF
                lasts[count] = reader.body[reader.body_len - 1] if reader.body_len else 0xEE
                count += 1
        pos = 0
        while pos < len(garbage):
            pos = reader.feed(garbage, pos, len(garbage))
        reader.feed(zero)
        ready = reader.ready
    finally:
        _unlock()
    assert count == 4 and not ready
    return [_hex(seqs[:count]), _hex(lasts[:count]), reader.errors]


def test_runs_and_sequence_helpers_allocate_nothing():
    old = bytearray(300)
    new = bytearray(300)
    for i in range(0, 300, 7):
        new[i] = i & 0xFF
    out = bytearray(400)
    _lock()
    try:
        n = codec.diff_runs(old, new, out)
        applied = codec.apply_runs(old, out, 0, n)
        gap = codec.seq_gap(0xFFFF, codec.seq_next(0xFFFF))
    finally:
        _unlock()
    assert old == new and gap == 0
    return [n, applied]


def test_diff_runs_can_write_after_a_prefix():
    old = bytearray(40)
    new = bytearray(40)
    new[3] = 7
    new[30] = 9
    out = bytearray(64)
    out[0] = 0xAA
    n = codec.diff_runs(old, new, out, 40, 5)
    assert out[0] == 0xAA and n == 8
    assert codec.apply_runs(old, out, 5, 5 + n) == 2 and old == new
    return list(out[5:5 + n])
