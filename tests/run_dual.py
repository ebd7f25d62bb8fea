"""Run every ``test_*`` function of one dual test module; print one JSON line per test.

Runs unchanged on CPython and on MicroPython, so ``tests/conftest.py`` can run the same
module on both interpreters and compare what each test returned.
"""
import sys
import json

sys.path.insert(0, "tests/dual")
sys.path.insert(0, "")


def _trace(exc):
    try:
        import traceback
        return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    except ImportError:
        import io
        buf = io.StringIO()
        sys.print_exception(exc, buf)
        return buf.getvalue()


def main():
    mod = __import__(sys.argv[1])
    wanted = sys.argv[2:]
    names = [n for n in dir(mod) if n.startswith("test_")]
    names.sort()
    for name in names:
        if wanted and name not in wanted:
            continue
        try:
            rec = {"t": name, "ok": True, "r": getattr(mod, name)()}
        except Exception as exc:  # a failing test is reported, not fatal
            rec = {"t": name, "ok": False, "e": _trace(exc)}
        print(json.dumps(rec))


main()
