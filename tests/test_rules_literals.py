"""Values the board's modules take as literal ``const()``s, so that a board neither computes them
at import nor keeps (or imports) a name for them, agree with where they come from.

CPython only: a private ``const()`` name leaves no trace in a MicroPython module, so there is
nothing to read there; the CPython stand-in keeps it as a plain global.
"""
from __future__ import annotations

from shared_rules import sheriff
from shared_rules.catalogue import LEGAL, SHERIFF_CODES, SHERIFF_KIND, SHERIFF_VALUE


def test_sheriff_pay_order_is_legal_goods_then_contraband_by_value_then_code() -> None:
    order = sorted(range(len(SHERIFF_CODES)),
                   key=lambda g: (SHERIFF_KIND[g] != LEGAL, SHERIFF_VALUE[g], SHERIFF_CODES[g]))
    assert sheriff._PAY_ORDER == bytes(order)


def test_the_firmware_loop_reads_the_mats_poll_results_as_its_own_constants() -> None:
    from firmware import app, mat
    assert (app._NOTHING, app._READY) == (mat.NOTHING, mat.READY)


def test_the_codecs_largest_frame_is_the_worst_case_stuffing_of_the_largest_raw_frame() -> None:
    from shared_rules import cobs, codec
    assert codec.MAX_RAW == codec.MAX_BODY + codec.FRAME_OVERHEAD
    assert codec.MAX_FRAME == cobs.max_stuffed_len(codec.MAX_RAW)


def test_the_replay_reads_reason_codes_and_the_record_size_as_its_own_constants() -> None:
    from shared_rules import actions, engine, replay
    assert (replay._MALFORMED, replay._BAD_SEAT) == (engine.MALFORMED, engine.BAD_SEAT)
    assert replay._ACTION_SIZE == actions.ACTION_SIZE
