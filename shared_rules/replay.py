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

_TYPING = const(0)
if _TYPING:  # for mypy only: a const false test, so MicroPython compiles no trace of it
    from typing import Any  # noqa: F401  (type comments only)

# The rules core loads before the header names a game, not with the game's modules: measured,
# that order decides where the holes fall; it needs 1.8 KB less for Sheriff (the largest replay),
# 1.1 KB more for Skull, the same for Dead Man's Draw (docs/performance.md, rules core).
from shared_rules import games
from shared_rules.core import actions
from shared_rules.core import engine  # noqa: F401

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
_GC_EVERY = const(1024)   # bytes allocated between collections while a replay loads its game (MicroPython)
_PIECE = const(128)       # the read buffer: real action lines (Skull, DMD, most of Sheriff's) fit in it
_QUOTE = const(0x22)
_BACKSLASH = const(0x5C)
_OPEN_LIST = const(0x5B)
_CLOSE_LIST = const(0x5D)
_OPEN_OBJ = const(0x7B)
_CLOSE_OBJ = const(0x7D)
_HASH = const(0x23)
_NEWLINE = const(0x0A)
# What is wrong with a line or a log: the texts are in ``replay_why`` (by these numbers), imported
# where something is wrong and only then (a string constant is a heap object once imported; a
# wrapper function would be one more object held from import: the import lines are bytecode, in ROM).
_W_UTF8 = const(1)
_W_DEEP = const(2)
_W_JSON = const(3)
_W_LONG = const(4)
_W_SEAT = const(5)
_W_HEADER = const(6)
_W_BAD_HEADER = const(7)
_W_NO_HEADER = const(8)
_W_OPEN = const(9)
_W_READ = const(10)
_W_USAGE = const(11)


class Replay:
    """A replay in progress: what ``feed`` takes line by line and ``result`` sums up."""

    def __init__(self, path="<log>"):
        self.path = path      # the log's name, for errors
        self.game = None      # the game, once the header is in
        self.rejected = []    # the first _MAX_LISTED refusals: {"line", "error"[, "detail"]}
        self.refused = 0      # every refusal, counted
        self.line = 0         # lines fed so far
        self.rec = None       # the action record, made with the game (the game's import finds the heap without it)


def feed(r, raw):
    """Feed the replay ``r`` (a ``Replay``) one raw line (bytes, or a memoryview of the reader's
    buffer used before the next read; None for a line over ``_MAX_LINE`` bytes); return the
    reason code (0 also for ignored lines).

    A line is refused if it is not UTF-8, is nested deeper than JSON parsers should recurse
    (the limit counts ``[``/``{`` outside strings, over the bytes: UTF-8 never puts these
    ASCII bytes inside a longer character; indexing a ``str`` would make a one-character
    string, interned on MicroPython) or is not one JSON value. Blank and ``#`` lines are
    ignored."""
    r.line += 1
    limit = _MAX_DEPTH if r.game else _HEADER_DEPTH
    bad = 0
    obj = False
    if raw is None:
        bad = _W_LONG
    else:
        i = 0
        j = len(raw)
        if r.line == 1 and j > 2 and raw[0] == 0xEF and raw[1] == 0xBB and raw[2] == 0xBF:
            i = 3  # a UTF-8 byte order mark, as some editors write
        while i < j and raw[i] in b" \t\n\r\x0b\x0c":   # bytes.strip()'s whitespace, without a copy
            i += 1
        while j > i and raw[j - 1] in b" \t\n\r\x0b\x0c":
            j -= 1
        raw = raw[i:j]
        try:
            text = str(raw, "utf-8")
        except UnicodeError:
            bad = _W_UTF8
        if not bad:
            if not raw or raw[0] == _HASH:
                return 0
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
                        bad = _W_DEEP
                        break
                elif c == _CLOSE_LIST or c == _CLOSE_OBJ:
                    depth -= 1
        if not bad:
            try:
                obj = json.loads(text)
            except ValueError:
                bad = _W_JSON
            if obj is None:
                return 0  # a JSON null line counts as blank
    why = None
    if bad:
        from shared_rules.replay_why import say
        why = say((bad, _MAX_LINE if r.game else _MAX_HEADER, limit, raw))
    raw = None  # a header's copies go before its game's modules load (a profile's is ~6 KB)
    text = ""
    game = r.game
    if game is None:
        if obj is False:
            from shared_rules.replay_why import say
            raise ValueError(say((_W_HEADER, r.path, r.line, why)))
        try:
            gc.collect()  # the header's pieces go before the game's modules load
            game = r.game = games.from_header(obj)
            # Load what the result will need (a scoring module, its names) now, while the
            # heap is in one piece: at the end of a long log a module or a new qstr pool
            # may find no block large enough.
            game.summary()
            r.rec = bytearray(_ACTION_SIZE)
        except ValueError as e:
            from shared_rules.replay_why import say
            raise ValueError(say((_W_BAD_HEADER, r.path, r.line, e)))
        return 0
    rec = r.rec
    err = _MALFORMED if obj is False else game.VOCAB.encode(obj, rec)
    if err and obj is not False:
        from shared_rules.replay_why import explain
        why = explain(game, obj)
    if not err:
        err = game.accept(rec)
        if err == _BAD_SEAT:
            from shared_rules.replay_why import say
            why = say((_W_SEAT, rec[1], game.seats() - 1))
    if err:
        r.refused += 1
        if len(r.rejected) < _MAX_LISTED:
            entry = {"line": r.line, "error": game.reason(err)}
            if why:
                entry["detail"] = why
            r.rejected.append(entry)
    return err


def result(r):
    """The result of the replay ``r``: the game's summary, the refusals listed and counted
    (``ValueError`` if no header came)."""
    if r.game is None:
        from shared_rules.replay_why import say
        raise ValueError(say((_W_NO_HEADER, r.path, r.line)))
    out = r.game.summary()
    out["rejected"] = r.rejected
    out["rejected_count"] = r.refused
    return out


def replay_file(path, strict=False):
    """Replay a log file; return the result dict (``ValueError``, its message ``path:line: what``,
    if it cannot be replayed at all: missing file, bad or no header).

    The file is read into one ``_PIECE``-byte buffer, made once; a line that fits in it goes to
    ``feed`` as a view of it, without a copy (``readline(n)`` would reserve n fresh bytes for
    every line, however short). A longer line is gathered in pieces and joined; one over the
    limit goes to ``feed`` as None: the rest of it is skipped, never held."""
    r = Replay(path)
    try:
        f = open(path, "rb")
    except OSError:
        from shared_rules.replay_why import say
        raise ValueError(say((_W_OPEN, path)))
    buf = view = None  # type: Any  # made for the first line, again after the header's game loads
    start = end = 0  # unread bytes: buf[start:end]
    # MicroPython collects only when the heap is full: the game's modules, loaded with the header,
    # are then placed among the header's garbage, whose holes are too small for what comes next.
    # Until the game is loaded, a collection every _GC_EVERY bytes; then the caller's setting
    # again (collecting that often through a long log made it five times slower to replay).
    threshold = getattr(gc, "threshold", None)   # None: CPython's collector, which needs no help
    every = threshold() if threshold else None
    if threshold:
        threshold(_GC_EVERY)
    try:
        while True:
            if buf is None:
                buf = bytearray(_PIECE)
                view = memoryview(buf)
            limit = _MAX_LINE if r.game else _MAX_HEADER
            parts = None  # type: list | None
            n = 0  # bytes of the line in parts
            try:
                while True:
                    stop = buf.find(b"\n", start, end)
                    if stop >= 0:
                        break
                    if end - start == _PIECE:   # a full buffer and no newline: a long line's piece
                        n += _PIECE
                        if parts is None:
                            parts = []
                        if n <= limit:
                            parts.append(bytes(buf))
                        start = end = 0
                    elif start:   # move a line's beginning to the front (byte by byte: no copy made)
                        for k in range(end - start):
                            buf[k] = buf[start + k]
                        end -= start
                        start = 0
                    # A short header one byte at a time: nothing is read past its line, so the
                    # buffer can go while the header's game loads (and is made again after). A
                    # long one (a deck profile) in whole pieces: byte reads cost it its heap.
                    got = f.readinto(view[end:] if r.game or parts is not None else view[end:end + 1])
                    if not got:
                        stop = end  # the last line has no newline
                        break
                    end += got
            except OSError:
                from shared_rules.replay_why import say
                raise ValueError(say((_W_READ, path, r.line + 1)))
            if parts is None:
                if stop == start and start == end:
                    break  # the end of the file
                line = view[start:stop]  # type: bytes | memoryview | None
            elif n + stop - start > limit:
                line = None
            else:
                parts.append(bytes(view[start:stop]))
                line = b"".join(parts)
            parts = None  # the pieces go before feed (a header's game loads in it)
            start = stop + 1 if stop < end else end
            header = r.game is None
            if header:
                if line is not None:
                    line = bytes(line)
                if start == end:   # nothing read past the header
                    buf = view = None
                    start = end = 0
            if feed(r, line) and strict:
                break
            line = None
            if header and r.game is not None and threshold:
                threshold(every)
    finally:
        f.close()
        if threshold:
            threshold(every)
    return result(r)


def main(argv):
    """Print the result one refusal at a time: a long refusal list as one string would need one
    large block of a small heap."""
    if len(argv) != 2:
        from shared_rules.replay_why import say
        sys.stderr.write(say((_W_USAGE,)))
        return 2
    try:
        result = replay_file(argv[1])
    except ValueError as e:  # the log cannot be replayed at all
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
