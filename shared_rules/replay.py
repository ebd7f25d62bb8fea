"""Replay an action log (JSON Lines) and print the result, per ``docs/action-log.md``.

``micropython -m shared_rules.replay LOG`` here and ``tapmat replay LOG --json`` on the host run
this same code, so both interpreters give equal JSON. The file is read a bounded piece at a time:
a line longer than ``MAX_LINE`` bytes is refused without being held whole, at most
``MAX_LISTED`` refusals are listed (``rejected_count`` has them all), so any file, however long
or broken, needs bounded memory and gives bounded output.
"""
import json
import sys

from shared_rules import games
from shared_rules.actions import ACTION_SIZE
from shared_rules.engine import BAD_SEAT

MAX_LINE = 4096     # bytes in a line, newline excluded: the longest real action is under 400
MAX_LISTED = 1000   # refusals listed in ``rejected``; ``rejected_count`` counts every one
MAX_DEPTH = 4       # nesting of JSON containers in a line (an action needs 3: bribe -> bag list)
# The header line may be longer and deeper: a deck profile's law / Merry Man cards inline
# (header -> profile -> laws -> card -> effects -> primitive: 6; the sample profile is ~6 KB).
MAX_HEADER = 16384
HEADER_DEPTH = 6
MALFORMED = 1
_PIECE = 256        # bytes read at a time: real action lines fit in one piece
_BOM = b"\xef\xbb\xbf"


class LogError(Exception):
    """A log that cannot be replayed at all (missing file, bad header): exit status 2."""

    def __init__(self, path, line, message):
        super().__init__("%s:%d: %s" % (path, line, message))


def _depth(text):
    """The deepest nesting of ``[``/``{`` outside strings (JSON parsers recurse on it)."""
    depth = most = 0
    in_str = esc = False
    for c in text:
        if in_str:
            if esc:
                esc = False
            elif c == "\\":
                esc = True
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c == "[" or c == "{":
            depth += 1
            if depth > most:
                most = depth
        elif c == "]" or c == "}":
            depth -= 1
    return most


def _parse(raw, max_depth=MAX_DEPTH):
    """``(object, None)`` for a JSON line, ``(None, None)`` for an ignored (blank/comment) line,
    ``(False, why)`` for a line that is not one JSON value."""
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeError:
        return False, "not UTF-8 text"
    if not text or text[0] == "#":
        return None, None
    if _depth(text) > max_depth:
        return False, "nested more than %d deep" % max_depth
    try:
        return json.loads(text), None
    except ValueError:
        if text[0] in "[{" and text[-1] not in "]}":
            return False, "truncated line (not valid JSON)"
        return False, "not valid JSON"


class Replay:
    """Feeds log lines to a game; keeps the first ``MAX_LISTED`` refusals and counts them all."""

    def __init__(self, path="<log>"):
        self.path = path
        self.game = None
        self.rejected = []
        self.refused = 0
        self.line = 0
        self.rec = bytearray(ACTION_SIZE)

    def feed(self, raw):
        """Process one raw line (bytes; None for a line over ``MAX_LINE`` bytes); return the
        reason code (0 also for ignored lines)."""
        self.line += 1
        if raw is None:
            obj, why = False, "line longer than %d bytes" % (MAX_LINE if self.game else MAX_HEADER)
        else:
            if self.line == 1 and raw[0:3] == _BOM:
                raw = raw[3:]  # a UTF-8 byte order mark, as some editors write
            obj, why = _parse(raw, MAX_DEPTH if self.game else HEADER_DEPTH)
        if obj is None:
            return 0
        if self.game is None:
            if obj is False:
                raise LogError(self.path, self.line, "header: " + why)
            try:
                self.game = games.from_header(obj)
            except ValueError as e:
                raise LogError(self.path, self.line, "bad header: " + str(e))
            return 0
        err = MALFORMED if obj is False else self.game.VOCAB.encode(obj, self.rec)
        if err and obj is not False:
            from shared_rules.replay_why import explain  # only a refused line pays for it
            why = explain(self.game, obj)
        if not err:
            err = self.game.accept(self.rec)
            if err == BAD_SEAT:
                why = "seat %d out of range 0..%d" % (self.rec[1], self.game.seats() - 1)
        if err:
            self.refused += 1
            if len(self.rejected) < MAX_LISTED:
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


class Lines:
    """Lines of a binary file: ``next()`` gives a line (bytes), None for one longer than the
    limit (the rest of it is skipped, never held), b"" at the end. Read ``_PIECE`` bytes at a
    time: ``readline(n)`` reserves n bytes before it reads, so asking for the limit at once
    would take a 4-16 KB block per line however short the line."""

    def __init__(self, f):
        self.f = f

    def next(self, limit=MAX_LINE):
        raw = self.f.readline(_PIECE)
        if len(raw) < _PIECE or raw[-1] == 10:
            return raw
        parts = [raw]
        n = len(raw)
        while True:
            piece = self.f.readline(_PIECE)
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
    lines = Lines(f)
    try:
        while True:
            try:
                raw = lines.next(MAX_LINE if r.game else MAX_HEADER)
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
    if len(argv) != 2:
        sys.stderr.write("usage: micropython -m shared_rules.replay LOG\n")
        return 2
    try:
        result = replay_file(argv[1])
    except LogError as e:
        sys.stderr.write("error: %s\n" % e)
        return 2
    write_json(result, sys.stdout)
    return 0


def write_json(result, out):
    """Print the result one refusal at a time: a long refusal list as one string would need one
    large block of a small heap."""
    rejected = result.pop("rejected")
    out.write(json.dumps(result)[:-1] + ', "rejected": [')
    for i, r in enumerate(rejected):
        out.write((", " if i else "") + json.dumps(r))
    out.write("]}\n")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
