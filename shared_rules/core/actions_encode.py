"""JSON action objects encoded into action records: for the host, tests and the replay.

``actions.Vocabulary`` serves ``encode`` as its attribute (``Vocabulary.__getattr__``) and loads
this module the first time it is asked for: a board accepts records (from its mat, or from the
host, which encoded them) and never holds it. A game whose log writes an action in another shape
encodes that shape itself and then calls ``encode`` here (``shared_rules/sheriff/actions_json.py``).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules.core.fields import LIST, OBJ, U16, U8, _size

# ``actions``' record size and codes (restated, tests/test_rules_literals.py: ``actions`` loads
# this module, which then needs nothing of it).
_ACTION_SIZE = const(128)
_OK = const(0)
_MALFORMED = const(1)
_UNKNOWN_CODE = const(2)


def encode(vocab, obj, rec):
    """``vocab.encode(obj, rec)``: fill ``rec`` from a JSON action object; return OK, MALFORMED or
    UNKNOWN_CODE (``actions``' codes)."""
    if not isinstance(obj, dict):
        return _MALFORMED
    a = obj.get("a")
    k = len(vocab.names) - 1
    while k >= 0 and vocab.names[k] != a:
        k -= 1
    p = obj.get("p")
    if k < 0 or not isinstance(p, int) or isinstance(p, bool) or p < 0 or p > 254:
        return _MALFORMED
    for i in range(_ACTION_SIZE):
        rec[i] = 0
    rec[0] = k
    rec[1] = p
    return _put(vocab.fields[k], obj, rec, 2, True)


def _put(fields, obj, rec, at, top):
    """Encode the fields of ``obj`` into ``rec`` from ``at`` on; OK or the first error. Keys that
    are no field are MALFORMED: checked after the fields for an action (``top``, which also
    has ``a`` and ``p``), before them for a nested object."""
    bad = False
    for key in obj:
        if not top or (key != "a" and key != "p"):
            for f in fields:
                if f[0] == key:
                    break
            else:
                bad = True
    if bad and not top:
        return _MALFORMED
    for f in fields:
        name, kind, table, optional, cap, hidden = f
        end = at + _size(f)
        if name in obj:
            v = obj[name]
            if optional:
                rec[at] = 1
                at += 1
            if kind == U8 or kind == U16:
                if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v > (254 if kind == U8 else 65535):
                    return _MALFORMED
                rec[at] = v & 255
                if kind == U16:
                    rec[at + 1] = v >> 8
            elif kind == OBJ:
                if not isinstance(v, dict):
                    return _MALFORMED
                err = _put(table, v, rec, at, False)
                if err:
                    return err
            else:
                items = (v,)
                if kind == LIST:
                    if isinstance(v, list) and len(v) <= cap:
                        items = v
                    elif hidden != 2 or not isinstance(v, str):
                        return _MALFORMED
                    rec[at] = len(items)
                    at += 1
                for c in items:
                    if table is None:
                        if not isinstance(c, int) or isinstance(c, bool) or c < 0 or c >= 255:
                            return _MALFORMED
                    elif not isinstance(c, str):
                        return _MALFORMED
                    elif c in table:
                        c = table.index(c)
                    else:
                        return _UNKNOWN_CODE
                    rec[at] = c
                    at += 1
        elif not optional:
            return _MALFORMED
        at = end
    return _MALFORMED if bad else _OK
