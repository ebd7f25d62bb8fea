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

# The rules core loads before the header names a game: a game's modules, imported later, then
# find the heap with fewer holes (the smallest heap that replays a log is ~1 KB smaller).
from shared_rules import actions, engine, games  # noqa: F401

_MAX_LINE = const(4096)     # bytes in a line, newline excluded: the longest real action is under 400
_MAX_LISTED = const(1000)   # refusals listed in ``rejected``; ``rejected_count`` counts every one
_MAX_DEPTH = const(4)       # nesting of JSON containers in a line (an action needs 3: bribe -> bag list)
# The header line may be longer and deeper: a deck profile's law / Merry Man cards inline
# (header -> profile -> laws -> card -> effects -> primitive: 6; the sample profile is ~6 KB).
_MAX_HEADER = const(16384)
_HEADER_DEPTH = const(6)
_MALFORMED = const(1)      # engine.MALFORMED
_BAD_SEAT = const(3)       # engine.BAD_SEAT
_ACTION_SIZE = const(128)  # actions.ACTION_SIZE
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
    """A log that cannot be replayed at all (missing file, bad header): exit status 2. Its
    message is ``path:line: what``."""


def _parse(raw, limit):
    """``(object, None)`` for a JSON line, ``(None, None)`` for an ignored (blank/comment) line,
    ``(False, why)`` for a line that is not one JSON value. The checks look at bytes: indexing a
    ``str`` makes a one-character string (interned, on MicroPython).

    Lines nested deeper than ``limit`` (JSON parsers recurse on it) are refused: the depth counts
    ``[``/``{`` outside strings, over the bytes (UTF-8 never puts these ASCII bytes inside a
    longer character)."""
    raw = raw.strip()
    try:
        text = raw.decode("utf-8")
    except UnicodeError:
        return False, "not UTF-8 text"
    if not raw or raw[0] == _HASH:
        return None, None
    depth = 0
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
            if depth > limit:
                return False, "nested more than %d deep" % limit
        elif c == _CLOSE_LIST or c == _CLOSE_OBJ:
            depth -= 1
    try:
        return json.loads(text), None
    except ValueError:
        if raw[0] in _OPENERS and raw[-1] not in _CLOSERS:
            return False, "truncated line (not valid JSON)"
        return False, "not valid JSON"


class Replay:
    """Feeds log lines to a game; keeps the first ``_MAX_LISTED`` refusals and counts them all."""

    def __init__(self, path="<log>"):
        self.path = path
        self.game = None
        self.rejected = []
        self.refused = 0
        self.line = 0
        self.rec = bytearray(_ACTION_SIZE)

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
                raise LogError("%s:%d: header: %s" % (self.path, self.line, why))
            try:
                gc.collect()  # the header's pieces go before the game's modules load
                self.game = games.from_header(obj)
                # Load what the result will need (a scoring module, its names) now, while the
                # heap is in one piece: at the end of a long log a module or a new qstr pool
                # may find no block large enough.
                self.game.summary()
            except ValueError as e:
                raise LogError("%s:%d: bad header: %s" % (self.path, self.line, e))
            return 0
        err = _MALFORMED if obj is False else self.game.VOCAB.encode(obj, self.rec)
        if err and obj is not False:
            from shared_rules.replay_why import explain
            why = explain(self.game, obj)
        if not err:
            err = self.game.accept(self.rec)
            if err == _BAD_SEAT:
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
            raise LogError("%s:%d: no header line" % (self.path, self.line))
        out = self.game.summary()
        out["rejected"] = self.rejected
        out["rejected_count"] = self.refused
        return out


def replay_file(path, strict=False):
    """Replay a log file; return the result dict (``LogError`` if it cannot be read).

    Lines are read ``_PIECE`` bytes at a time: ``readline(n)`` reserves n bytes before it reads,
    so asking for the limit at once would take a 4-16 KB block per line however short the line.
    A line over the limit goes to ``feed`` as None: the rest of it is skipped, never held."""
    r = Replay(path)
    try:
        f = open(path, "rb")
    except OSError:
        raise LogError("%s:0: cannot open the file" % path)
    try:
        while True:
            limit = _MAX_LINE if r.game else _MAX_HEADER
            try:
                raw = f.readline(_PIECE)
                line = raw  # type: bytes | None
                if len(raw) == _PIECE and raw[-1] != 10:
                    parts = [raw]
                    n = len(raw)
                    while True:
                        raw = f.readline(_PIECE)
                        n += len(raw)
                        if n <= limit + 1:
                            parts.append(raw)
                        if len(raw) < _PIECE or raw[-1] == 10:
                            break
                    line = None if n - (1 if raw[-1:] == b"\n" else 0) > limit else b"".join(parts)
            except OSError:
                raise LogError("%s:%d: cannot read the file" % (path, r.line + 1))
            if line == b"":
                break
            if r.feed(line) and strict:
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
