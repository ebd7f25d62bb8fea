"""Replay an action log (JSON Lines) and print the result, per ``docs/action-log.md``.

``micropython -m shared_rules.replay LOG`` here and ``tapmat replay LOG --json`` on the host run
this same code, so both interpreters give equal JSON. The file is read a bounded piece at a time:
a line longer than ``_MAX_LINE`` bytes is refused without being held whole, at most
``_MAX_LISTED`` refusals are listed (``rejected_count`` has them all), so any file, however long
or broken, needs bounded memory and gives bounded output.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

import gc
import json
import sys

from shared_rules import games
from shared_rules.actions import ACTION_SIZE, LIST, NAME, OBJ, U8, U16, _is_int
from shared_rules.engine import BAD_SEAT

_MAX_LINE = const(4096)     # bytes in a line, newline excluded: the longest real action is under 400
_MAX_LISTED = const(1000)   # refusals listed in ``rejected``; ``rejected_count`` counts every one
_MAX_DEPTH = const(4)       # nesting of JSON containers in a line (an action needs 3: bribe -> bag list)
# The header line may be longer and deeper: a deck profile's law / Merry Man cards inline
# (header -> profile -> laws -> card -> effects -> primitive: 6; the sample profile is ~6 KB).
_MAX_HEADER = const(16384)
_HEADER_DEPTH = const(6)
_MALFORMED = const(1)
_PIECE = const(256)       # bytes read at a time: real action lines fit in one piece
_QUOTE = const(0x22)
_BACKSLASH = const(0x5C)
_OPEN_LIST = const(0x5B)
_CLOSE_LIST = const(0x5D)
_OPEN_OBJ = const(0x7B)
_CLOSE_OBJ = const(0x7D)
_BOM = const(b"\xef\xbb\xbf")
_HASH = const(0x23)
_OPENERS = const(b"[{")
_CLOSERS = const(b"]}")


class LogError(Exception):
    """A log that cannot be replayed at all (missing file, bad header): exit status 2."""

    def __init__(self, path, line, message):
        super().__init__("%s:%d: %s" % (path, line, message))


def _depth(raw):
    """The deepest nesting of ``[``/``{`` outside strings (JSON parsers recurse on it), over the
    line's bytes: UTF-8 never puts these ASCII bytes inside a longer character, and on
    MicroPython iterating a ``str`` interns each distinct character as a name (a qstr)."""
    depth = most = 0
    in_str = esc = False
    for c in raw:
        if in_str:
            if esc:
                esc = False
            elif c == _BACKSLASH:
                esc = True
            elif c == _QUOTE:
                in_str = False
        elif c == _QUOTE:
            in_str = True
        elif c == _OPEN_LIST or c == _OPEN_OBJ:
            depth += 1
            if depth > most:
                most = depth
        elif c == _CLOSE_LIST or c == _CLOSE_OBJ:
            depth -= 1
    return most


def _parse(raw, limit):
    """``(object, None)`` for a JSON line, ``(None, None)`` for an ignored (blank/comment) line,
    ``(False, why)`` for a line that is not one JSON value. The checks look at bytes: indexing a
    ``str`` makes a one-character string (interned, on MicroPython)."""
    raw = raw.strip()
    try:
        text = raw.decode("utf-8")
    except UnicodeError:
        return False, "not UTF-8 text"
    if not raw or raw[0] == _HASH:
        return None, None
    if _depth(raw) > limit:
        return False, "nested more than %d deep" % limit
    try:
        return json.loads(text), None
    except ValueError:
        if raw[0] in _OPENERS and raw[-1] not in _CLOSERS:
            return False, "truncated line (not valid JSON)"
        return False, "not valid JSON"


def _field_problem(f, obj):
    """Why field ``f`` of an action object is malformed, or None."""
    name, kind, table, optional, cap = f[0], f[1], f[2], f[3], f[4]
    if name not in obj:
        return None if optional else "missing field '%s'" % name
    v = obj[name]
    if kind == U8 or kind == U16:
        top = 254 if kind == U8 else 65535
        if not _is_int(v):
            return "field '%s' is not a whole number" % name
        if v < 0 or v > top:
            return "field '%s' out of range 0..%d" % (name, top)
    elif kind == NAME:
        return _code_problem(name, table, v)
    elif kind == LIST:
        if not isinstance(v, list):
            return "field '%s' is not a list" % name
        if len(v) > cap:
            return "field '%s' has more than %d items" % (name, cap)
        for item in v:
            why = _code_problem(name, table, item)
            if why:
                return why
    elif kind == OBJ:
        if not isinstance(v, dict):
            return "field '%s' is not an object" % name
        for key in v:
            if key not in [sub[0] for sub in table]:
                return "unknown field '%s.%s'" % (name, key)
        for sub in table:
            why = _field_problem(sub, v)
            if why:
                return name + "." + why
    return None


def _code_problem(name, table, v):
    if table is None:
        if not _is_int(v) or v < 0 or v > 254:
            return "field '%s' holds a value out of range 0..254" % name
        return None
    if not isinstance(v, str):
        return "field '%s' is not a code" % name
    if v not in table:
        return "field '%s': unknown code '%s'" % (name, v)
    return None


def explain(game, obj):
    """What is wrong with an action object the vocabulary refused, in a few words."""
    if not isinstance(obj, dict):
        return "not a JSON object"
    vocab = game.VOCAB
    if "a" not in obj:
        return "no action name ('a')"
    k = vocab.kind(obj["a"])
    if k < 0:
        return "unknown action %s" % json.dumps(obj["a"])
    p = obj.get("p")
    if not isinstance(p, int) or isinstance(p, bool):
        return "seat ('p') missing or not a whole number"
    if p < 0 or p >= game.seats():
        return "seat %d out of range 0..%d" % (p, game.seats() - 1)
    fields = vocab.fields[k]
    names = [f[0] for f in fields]
    for key in obj:
        if key != "a" and key != "p" and key not in names:
            return "unknown field '%s' for %s" % (key, obj["a"])
    for f in fields:
        why = _field_problem(f, obj)
        if why:
            return why
    return None


class Replay:
    """Feeds log lines to a game; keeps the first ``_MAX_LISTED`` refusals and counts them all."""

    def __init__(self, path="<log>"):
        self.path = path
        self.game = None
        self.rejected = []
        self.refused = 0
        self.line = 0
        self.rec = bytearray(ACTION_SIZE)

    def feed(self, raw):
        """Process one raw line (bytes; None for a line over ``_MAX_LINE`` bytes); return the
        reason code (0 also for ignored lines)."""
        self.line += 1
        if raw is None:
            obj, why = False, "line longer than %d bytes" % (_MAX_LINE if self.game else _MAX_HEADER)
        else:
            if self.line == 1 and raw[0:3] == _BOM:
                raw = raw[3:]  # a UTF-8 byte order mark, as some editors write
            obj, why = _parse(raw, _MAX_DEPTH if self.game else _HEADER_DEPTH)
        if obj is None:
            return 0
        if self.game is None:
            if obj is False:
                raise LogError(self.path, self.line, "header: " + why)
            try:
                gc.collect()  # the header's pieces go before the game's modules load
                self.game = games.from_header(obj)
                # Load what the result will need (a scoring module, its names) now, while the
                # heap is in one piece: at the end of a long log a module or a new qstr pool
                # may find no block large enough.
                self.game.summary()
            except ValueError as e:
                raise LogError(self.path, self.line, "bad header: " + str(e))
            return 0
        err = _MALFORMED if obj is False else self.game.VOCAB.encode(obj, self.rec)
        if err and obj is not False:
            why = explain(self.game, obj)
        if not err:
            err = self.game.accept(self.rec)
            if err == BAD_SEAT:
                why = "seat %d out of range 0..%d" % (self.rec[1], self.game.seats() - 1)
        if err:
            self.refused += 1
            if len(self.rejected) < _MAX_LISTED:
                entry = {"line": self.line, "error": self.game.reason(err)}
                if why:
                    entry["detail"] = why
                self.rejected.append(entry)
        return err

    def result(self):
        if self.game is None:
            raise LogError(self.path, self.line, "no header line")
        out = self.game.summary()
        out["rejected"] = self.rejected
        out["rejected_count"] = self.refused
        return out


def _line(f, limit):
    """The next line of a binary file (bytes), None for one longer than ``limit`` (the rest of it
    is skipped, never held), b"" at the end. Read ``_PIECE`` bytes at a time: ``readline(n)``
    reserves n bytes before it reads, so asking for the limit at once would take a 4-16 KB block
    per line however short the line."""
    raw = f.readline(_PIECE)
    if len(raw) < _PIECE or raw[-1] == 10:
        return raw
    parts = [raw]
    n = len(raw)
    while True:
        piece = f.readline(_PIECE)
        n += len(piece)
        if n <= limit + 1:
            parts.append(piece)
        if len(piece) < _PIECE or piece[-1] == 10:
            break
    if n - (1 if piece[-1:] == b"\n" else 0) > limit:
        return None
    return b"".join(parts)


def replay_file(path, strict=False):
    """Replay a log file; return the result dict (``LogError`` if it cannot be read)."""
    r = Replay(path)
    try:
        f = open(path, "rb")
    except OSError:
        raise LogError(path, 0, "cannot open the file")
    try:
        while True:
            try:
                raw = _line(f, _MAX_LINE if r.game else _MAX_HEADER)
            except OSError:
                raise LogError(path, r.line + 1, "cannot read the file")
            if raw == b"":
                break
            if r.feed(raw) and strict:
                break
    finally:
        f.close()
    return r.result()


def main(argv):
    """Print the result one refusal at a time: a long refusal list as one string would need one
    large block of a small heap."""
    if len(argv) != 2:
        sys.stderr.write("usage: micropython -m shared_rules.replay LOG\n")
        return 2
    try:
        result = replay_file(argv[1])
    except LogError as e:
        sys.stderr.write("error: %s\n" % e)
        return 2
    out = sys.stdout
    rejected = result.pop("rejected")
    out.write(json.dumps(result)[:-1] + ', "rejected": [')
    for i, r in enumerate(rejected):
        out.write((", " if i else "") + json.dumps(r))
    out.write("]}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
