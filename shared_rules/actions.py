"""Action vocabularies: JSON action objects <-> fixed-layout action records.

The rules core never touches JSON on the accept path: every action is first encoded into a
preallocated ``bytearray`` record (``ACTION_SIZE`` bytes) whose field offsets are fixed per
action kind, so a game reads ``rec[OFFSET]`` without allocating. The same record is what the
serial link carries for host actions, and what a delta frame carries (with hidden fields masked).

Record layout: ``rec[0]`` action kind (index in the vocabulary), ``rec[1]`` seat ``p``, then each
field at its offset. Field kinds:

* ``U8``/``U16``: an integer (U16 little-endian); optional fields get a presence byte first.
* ``NAME``: a string looked up in a tuple of names; stored as its index.
* ``LIST``: a list of names (or of small ints when the table is ``None``): count byte + capacity.
* ``OBJ``: a nested object with its own fields (Sheriff's bribe), stored inline.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

U8 = const(0)
U16 = const(1)
NAME = const(2)
LIST = const(3)
OBJ = const(4)

ACTION_SIZE = const(128)
_ABSENT = const(255)

OK = const(0)
MALFORMED = const(1)
UNKNOWN_CODE = const(2)

# Kinds of the flat checks (_flat_checks).
_C_FLAG = const(0)
_C_NAME = const(1)
_C_LIST = const(2)


def field(name, kind, table=None, optional=False, cap=1, hidden=False):
    """Describe one action field (``table``: names for NAME/LIST, sub-fields for OBJ)."""
    return (name, kind, table, optional, cap, hidden)


def _size(f):
    kind = f[1]
    if kind == U8 or kind == NAME:
        n = 1
    elif kind == U16:
        n = 2
    elif kind == LIST:
        n = 1 + f[4]
    else:
        n = 0
        for sub in f[2]:
            n += _size(sub)
    return n + (1 if f[3] else 0)


def _offsets(fields, start):
    offs = []
    at = start
    for f in fields:
        offs.append(at)
        at += _size(f)
    return offs, at


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


class Vocabulary:
    """The actions of one game: names, fields and their fixed offsets in a record."""

    def __init__(self, actions):
        self.names = tuple(a[0] for a in actions)
        self.fields = tuple(a[1] for a in actions)
        self.offsets = []
        for fields in self.fields:
            offs, end = _offsets(fields, 2)
            if end > ACTION_SIZE:
                raise ValueError("action record too large")
            self.offsets.append(tuple(offs))
        self.offsets = tuple(self.offsets)
        self.checks = tuple(_flat_checks(fields, self.offsets[k]) for k, fields in enumerate(self.fields))

    def kind(self, name):
        """Index of an action name, or -1."""
        for i in range(len(self.names)):
            if self.names[i] == name:
                return i
        return -1

    def offset(self, action, fname):
        """Offset of a field (used once, at import time, to name constants)."""
        k = self.kind(action)
        fields = self.fields[k]
        for i in range(len(fields)):
            if fields[i][0] == fname:
                return self.offsets[k][i] + (1 if fields[i][3] else 0)
        raise KeyError(fname)

    def encode(self, obj, rec):
        """Fill ``rec`` from a JSON action object; return OK, MALFORMED or UNKNOWN_CODE."""
        if not isinstance(obj, dict):
            return MALFORMED
        k = self.kind(obj.get("a"))
        p = obj.get("p")
        if k < 0 or not _is_int(p) or p < 0 or p > 254:
            return MALFORMED
        for i in range(ACTION_SIZE):
            rec[i] = 0
        rec[0] = k
        rec[1] = p
        allowed = ["a", "p"]
        fields = self.fields[k]
        offs = self.offsets[k]
        for i in range(len(fields)):
            allowed.append(fields[i][0])
            err = _put(fields[i], obj, rec, offs[i])
            if err:
                return err
        for key in obj:
            if key not in allowed:
                return MALFORMED
        return OK

    def decode(self, rec, public=False):
        """The JSON action object of a record (hidden fields left out when ``public``)."""
        k = rec[0]
        obj = {"a": self.names[k], "p": rec[1]}
        fields = self.fields[k]
        offs = self.offsets[k]
        for i in range(len(fields)):
            if not (public and fields[i][5]):
                _get(fields[i], rec, offs[i], obj)
        return obj

    def valid(self, rec):
        """Whether a record read from the wire is well formed: a known kind, names inside their
        tables, list counts within capacity. Allocates nothing."""
        k = rec[0]
        if k >= len(self.names):
            return False
        checks = self.checks[k]
        for i in range(0, len(checks), 4):
            at = checks[i]
            what = checks[i + 1]
            limit = checks[i + 2]
            v = rec[at]
            if what == _C_FLAG:
                if v > 1:
                    return False
            elif what == _C_NAME:
                if v >= limit:
                    return False
            elif what == _C_LIST:
                if v > checks[i + 3]:
                    return False
                for j in range(v):
                    if rec[at + 1 + j] >= limit:
                        return False
        return True

    def mask_into(self, buf, start=0, n=ACTION_SIZE):
        """Zero the hidden fields of the record at ``buf[start:start+n]`` (what a public mirror
        may see). Allocates nothing."""
        k = buf[start]
        fields = self.fields[k]
        offs = self.offsets[k]
        for i in range(len(fields)):
            if fields[i][5]:
                for j in range(offs[i], offs[i] + _size(fields[i])):
                    if j < n:
                        buf[start + j] = 0




def _flat_checks(fields, offs):
    """Flat (offset, what, limit, cap) quadruples for ``Vocabulary.valid``, nested objects included."""
    out = []
    for i in range(len(fields)):
        name, kind, table, optional, cap, _ = fields[i]
        at = offs[i]
        if optional:
            out.extend((at, _C_FLAG, 0, 0))
            at += 1
        if kind == NAME:
            out.extend((at, _C_NAME, len(table), 0))
        elif kind == LIST:
            out.extend((at, _C_LIST, 255 if table is None else len(table), cap))
        elif kind == OBJ:
            sub, _ = _offsets(table, at)
            out.extend(_flat_checks(table, sub))
    return tuple(out)


def _code(table, v):
    if table is None:
        return v if _is_int(v) and 0 <= v < 255 else -2
    if not isinstance(v, str):
        return -2
    for i in range(len(table)):
        if table[i] == v:
            return i
    return -1


def _put(f, obj, rec, at):
    name, kind, table, optional, cap, _ = f
    if name not in obj:
        if optional:
            rec[at] = 0
            return OK
        return MALFORMED
    v = obj[name]
    if optional:
        rec[at] = 1
        at += 1
    if kind == U8:
        if not _is_int(v) or v < 0 or v > 254:
            return MALFORMED
        rec[at] = v
    elif kind == U16:
        if not _is_int(v) or v < 0 or v > 65535:
            return MALFORMED
        rec[at] = v & 255
        rec[at + 1] = v >> 8
    elif kind == NAME:
        c = _code(table, v)
        if c < 0:
            return UNKNOWN_CODE if c == -1 else MALFORMED
        rec[at] = c
    elif kind == LIST:
        if not isinstance(v, list) or len(v) > cap:
            return MALFORMED
        rec[at] = len(v)
        for i in range(len(v)):
            c = _code(table, v[i])
            if c < 0:
                return UNKNOWN_CODE if c == -1 else MALFORMED
            rec[at + 1 + i] = c
    else:
        if not isinstance(v, dict):
            return MALFORMED
        subs = table
        offs, _ = _offsets(subs, at)
        for key in v:
            if _find(subs, key) < 0:
                return MALFORMED
        for i in range(len(subs)):
            err = _put(subs[i], v, rec, offs[i])
            if err:
                return err
    return OK


def _find(fields, name):
    for i in range(len(fields)):
        if fields[i][0] == name:
            return i
    return -1


def _get(f, rec, at, obj):
    name, kind, table, optional, cap, _ = f
    if optional:
        if not rec[at]:
            return
        at += 1
    if kind == U8:
        obj[name] = rec[at]
    elif kind == U16:
        obj[name] = rec[at] | (rec[at + 1] << 8)
    elif kind == NAME:
        obj[name] = table[rec[at]]
    elif kind == LIST:
        n = rec[at]
        obj[name] = [rec[at + 1 + i] if table is None else table[rec[at + 1 + i]] for i in range(n)]
    else:
        sub = {}
        offs, _ = _offsets(table, at)
        for i in range(len(table)):
            _get(table[i], rec, offs[i], sub)
        obj[name] = sub
