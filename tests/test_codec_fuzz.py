"""Property tests of the link codec on the host (hypothesis); the known answers are in dual_codec.py."""
from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shared_rules.wire import codec
from shared_rules.wire.cobs import stuff_into

frame_types = st.integers(0, 0xFF)
seqs = st.integers(0, 0xFFFF)
bodies = st.binary(max_size=codec.MAX_BODY)
frames_st = st.tuples(frame_types, seqs, bodies)
garbage = st.binary(max_size=1500)
chunk_sizes = st.lists(st.integers(1, 300), min_size=1, max_size=20)

fuzz = settings(max_examples=200, deadline=None)


def crc_reference(data: bytes) -> int:
    """Bit-by-bit CRC-16/CCITT-FALSE, independent of shared_rules.crc."""
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1) & 0xFFFF
    return crc


def feed_chunked(reader: codec.FrameReader, data: bytes, sizes: list[int]) -> list[tuple[int, int, bytes]]:
    """Feed data in chunks of the given sizes (cycled); check each frame's CRC as it comes out."""
    out = []
    at = 0
    i = 0
    while at < len(data):
        chunk = data[at:at + sizes[i % len(sizes)]]
        at += len(chunk)
        i += 1
        pos = 0
        while pos < len(chunk):
            pos = reader.feed(chunk, pos, len(chunk))
            if reader.ready:
                raw = bytes(reader.buf[:reader.body_len + codec.FRAME_OVERHEAD])
                assert crc_reference(raw[:-2]) == raw[-2] | raw[-1] << 8
                out.append((reader.type, reader.seq, bytes(reader.body[:reader.body_len])))
    return out


@fuzz
@given(frames_st)
def test_arbitrary_frames_round_trip(frame: tuple[int, int, bytes]) -> None:
    encoded = codec.encode(*frame)
    assert len(encoded) <= codec.MAX_FRAME
    assert 0x03 not in encoded
    assert encoded.index(0) == len(encoded) - 1
    assert list(codec.FrameReader().frames(encoded)) == [frame]


@fuzz
@given(garbage, chunk_sizes)
def test_garbage_in_any_chunking_never_raises_and_yields_only_valid_frames(
        data: bytes, sizes: list[int]) -> None:
    reader = codec.FrameReader()
    chunked = feed_chunked(reader, data, sizes)
    whole = codec.FrameReader()
    assert list(whole.frames(data)) == chunked
    assert whole.errors == reader.errors


@fuzz
@given(st.lists(st.tuples(garbage, frames_st), min_size=1, max_size=5), garbage, chunk_sizes)
def test_frames_with_garbage_between_all_come_out(
        parts: list[tuple[bytes, tuple[int, int, bytes]]], tail: bytes, sizes: list[int]) -> None:
    for noise, _ in parts:  # noise that happens to hold a valid frame would be a frame too
        assume(not list(codec.FrameReader().frames(noise + b"\x00")))
    stream = b"".join(noise + b"\x00" + codec.encode(*frame) for noise, frame in parts) + tail
    got = feed_chunked(codec.FrameReader(), stream, sizes)
    assert got[:len(parts)] == [frame for _, frame in parts]


@fuzz
@given(frames_st, st.data())
def test_any_single_bit_error_is_caught(frame: tuple[int, int, bytes], data: st.DataObject) -> None:
    ftype, seq, body = frame
    raw = bytearray([ftype, seq & 0xFF, seq >> 8]) + body
    crc = crc_reference(bytes(raw))
    raw += bytes([crc & 0xFF, crc >> 8])
    bit = data.draw(st.integers(0, len(raw) * 8 - 1))
    raw[bit // 8] ^= 1 << (bit % 8)
    out = bytearray(codec.MAX_FRAME)
    reader = codec.FrameReader()
    assert list(reader.frames(out[:stuff_into(out, raw)])) == []
    assert reader.errors[codec.ERR_CRC] == 1


@fuzz
@given(st.binary(min_size=1, max_size=600), st.data())
def test_diff_then_apply_rebuilds_the_new_bytes(old: bytes, data: st.DataObject) -> None:
    new = data.draw(st.binary(min_size=len(old), max_size=len(old)))
    out = bytearray(2 * len(old) + 3)
    n = codec.diff_runs(old, new, out)
    assert n >= 0
    rebuilt = bytearray(old)
    assert codec.apply_runs(rebuilt, out, 0, n) >= 0
    assert rebuilt == new


@fuzz
@given(st.binary(max_size=40), st.integers(1, 40))
def test_apply_runs_never_raises_and_is_all_or_nothing(runs: bytes, size: int) -> None:
    buf = bytearray(size)
    if codec.apply_runs(buf, runs) < 0:
        assert buf == bytearray(size)


@fuzz
@given(seqs, st.integers(0, 0xFFFE))
def test_seq_gap_counts_missing_frames(last: int, missing: int) -> None:
    seq = (last + missing + 1) & 0xFFFF
    assert codec.seq_gap(last, seq) == missing
    assert (codec.seq_gap(last, seq) == 0) == (seq == codec.seq_next(last))
