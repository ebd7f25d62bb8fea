"""Replay an action log (JSON Lines) and print the result, per ``docs/action-log.md``.

``micropython -m shared_rules.replay LOG`` here and ``tapmat replay LOG --json`` on the host run
this same code, so both interpreters give equal JSON. The file is read line by line, so a long
log needs no more memory than a short one.
"""
import json
import sys

from shared_rules import games
from shared_rules.actions import ACTION_SIZE


class LogError(Exception):
    """A log that cannot be replayed at all (missing file, bad header): exit status 2."""

    def __init__(self, path, line, message):
        super().__init__("%s:%d: %s" % (path, line, message))


def _parse(raw):
    """A decoded JSON object for a log line, or None for an ignored (blank/comment) line."""
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeError:
        return False
    if not text or text[0] == "#":
        return None
    try:
        return json.loads(text)
    except ValueError:
        return False


class Replay:
    """Feeds log lines to a game; keeps the rejected lines."""

    def __init__(self, path="<log>"):
        self.path = path
        self.game = None
        self.rejected = []
        self.line = 0
        self.rec = bytearray(ACTION_SIZE)

    def feed(self, raw):
        """Process one raw line (bytes); return the reason code (0 also for ignored lines)."""
        self.line += 1
        obj = _parse(raw)
        if obj is None:
            return 0
        if self.game is None:
            if obj is False:
                raise LogError(self.path, self.line, "header is not valid JSON")
            try:
                self.game = games.from_header(obj)
            except ValueError as e:
                raise LogError(self.path, self.line, "bad header: " + str(e))
            return 0
        err = 1 if obj is False else self.game.VOCAB.encode(obj, self.rec)
        if not err:
            err = self.game.accept(self.rec)
        if err:
            self.rejected.append({"line": self.line, "error": self.game.reason(err)})
        return err

    def result(self):
        if self.game is None:
            raise LogError(self.path, self.line, "no header line")
        out = self.game.summary()
        out["rejected"] = self.rejected
        return out


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
                raw = f.readline()
            except OSError:
                raise LogError(path, r.line + 1, "cannot read the file")
            if not raw:
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
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
