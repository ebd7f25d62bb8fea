"""Action vocabularies: JSON action objects <-> fixed-layout action records.

The rules core never touches JSON on the accept path: every action is first encoded into a
preallocated ``bytearray`` record (``ACTION_SIZE`` bytes) whose field offsets are fixed per
action kind, so a game reads ``rec[OFFSET]`` without allocating. The same record is what the
serial link carries for host actions, and what a delta frame carries (with hidden fields masked).

Record layout: ``rec[0]`` action kind (index in the vocabulary), ``rec[1]`` seat ``p``, then each
field at its offset (field kinds and sizes: ``fields``).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules.core.fields import U8, U16, NAME, LIST, OBJ, field, _size  # noqa: F401  (re-exported: the games' vocabularies)

ACTION_SIZE = const(128)

OK = const(0)
MALFORMED = const(1)
UNKNOWN_CODE = const(2)


class Vocabulary:
    """The actions of one game: names, fields and their fixed offsets in a record."""

    def __init__(self, actions, fields=None):
        """``Vocabulary(names, fields)``: a tuple of action names and one of their field tuples, kept
        as they are; or ``Vocabulary(actions)``: (name, fields) pairs, split into those two."""
        if fields is not None:
            self.names = actions
            self.fields = fields
            return
        names = []
        fields = []
        for a in actions:
            names.append(a[0])
            fields.append(a[1])
        self.names = tuple(names)
        self.fields = tuple(fields)

    def __getattr__(self, name):
        """``kind(name)`` (an action's index, or -1), ``offset(action, field)`` (where a field's
        value is), ``offsets`` (per action, each field's offset) and ``decode(rec, public=False)``
        (a record back to its JSON object): for the host, tests, tools and the replay's
        explanations, from ``actions_lookup``, loaded on first use (a board accepting records
        never asks, nor does a replay)."""
        from shared_rules.core import actions_lookup
        return actions_lookup.attribute(self, name)

    def encode(self, obj, rec):
        """Fill ``rec`` from a JSON action object; return OK, MALFORMED or UNKNOWN_CODE."""
        if not isinstance(obj, dict):
            return MALFORMED
        a = obj.get("a")
        k = len(self.names) - 1
        while k >= 0 and self.names[k] != a:
            k -= 1
        p = obj.get("p")
        if k < 0 or not isinstance(p, int) or isinstance(p, bool) or p < 0 or p > 254:
            return MALFORMED
        for i in range(ACTION_SIZE):
            rec[i] = 0
        rec[0] = k
        rec[1] = p
        return _put(self.fields[k], obj, rec, 2, True)

    def valid(self, rec):
        """Whether a record read from the wire is well formed: a known kind, presence bytes 0/1,
        names inside their tables, list counts within capacity. Allocates nothing."""
        return rec[0] < len(self.names) and _valid(self.fields[rec[0]], rec, 2) > 0

    def mask_into(self, buf, start=0, n=ACTION_SIZE):
        """Zero the hidden fields of the record at ``buf[start:start+n]`` (what a public mirror
        may see). Allocates nothing."""
        at = 2
        for f in self.fields[buf[start]]:
            end = at + _size(f)
            if f[5]:
                for j in range(at, end if end < n else n):
                    buf[start + j] = 0
            at = end


def _valid(fields, rec, at):
    """``Vocabulary.valid`` for the fields from ``rec[at]`` on, nested objects included: the offset
    after them, or -1. A value is checked whether or not its presence byte is set (encode writes
    zeros for absent fields). On the accept path: sizes inline, a call only for a nested object."""
    for f in fields:
        kind = f[1]
        if f[3]:
            if rec[at] > 1:
                return -1
            at += 1
        if kind == NAME:
            if rec[at] >= len(f[2]):
                return -1
            at += 1
        elif kind == LIST:
            n = rec[at]
            if n > f[4]:
                return -1
            limit = 255 if f[2] is None else len(f[2])
            for j in range(at + 1, at + 1 + n):
                if rec[j] >= limit:
                    return -1
            at += 1 + f[4]
        elif kind == OBJ:
            at = _valid(f[2], rec, at)
            if at < 0:
                return -1
        else:
            at += 1 if kind == U8 else 2
    return at


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
        return MALFORMED
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
                    return MALFORMED
                rec[at] = v & 255
                if kind == U16:
                    rec[at + 1] = v >> 8
            elif kind == OBJ:
                if not isinstance(v, dict):
                    return MALFORMED
                err = _put(table, v, rec, at, False)
                if err:
                    return err
            else:
                items = (v,)
                if kind == LIST:
                    if isinstance(v, list) and len(v) <= cap:
                        items = v
                    elif hidden != 2 or not isinstance(v, str):
                        return MALFORMED
                    rec[at] = len(items)
                    at += 1
                for c in items:
                    if table is None:
                        if not isinstance(c, int) or isinstance(c, bool) or c < 0 or c >= 255:
                            return MALFORMED
                    elif not isinstance(c, str):
                        return MALFORMED
                    elif c in table:
                        c = table.index(c)
                    else:
                        return UNKNOWN_CODE
                    rec[at] = c
                    at += 1
        elif not optional:
            return MALFORMED
        at = end
    return MALFORMED if bad else OK

