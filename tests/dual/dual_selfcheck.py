"""Checks that the dual-interpreter harness really runs both interpreters."""
import sys


def test_interpreter_names_differ_but_results_agree():
    name = sys.implementation.name
    assert name in ("cpython", "micropython")
    return 6 * 7


def test_harness_sees_micropython_when_asked():
    # Integer semantics the rules core relies on are the same on both.
    return [7 // 2, -7 // 2, 7 % 3, -7 % 3, 1 << 20]
