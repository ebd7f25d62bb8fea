"""Helpers for dual-interpreter rule tests: drive a game through the real replay path."""
import json

from shared_rules import replay

class Played:
    """A replay fed through ``replay.feed``: its game, refusals and action record as attributes."""

    def __init__(self):
        self.r = replay.Replay()

    def feed(self, raw):
        """``replay.feed`` one raw line; its reason code."""
        return replay.feed(self.r, raw)

    def result(self):
        return replay.result(self.r)

    @property
    def game(self):
        return self.r.game

    @property
    def rejected(self):
        return self.r.rejected

    @property
    def rec(self):
        return self.r.rec


def play(header, actions):
    """Replay a header and actions (dicts, or raw strings for malformed lines); return it played."""
    p = Played()
    p.feed(json.dumps(header).encode())
    for a in actions:
        p.feed(a.encode() if isinstance(a, str) else json.dumps(a).encode())
    return p


def errors(r):
    """Rejections as [line, code] pairs (line 1 is the header, actions start at 2)."""
    return [[x["line"], x["error"]] for x in r.rejected]


def last_error(r):
    return r.rejected[-1]["error"] if r.rejected else None


def act(name, p, **fields):
    d = {"a": name, "p": p}
    d.update(fields)
    return d


def accepted_headers(headers):
    """The headers among ``headers`` that the games accept (tests expect none of them)."""
    from shared_rules import games
    out = []
    for h in headers:
        try:
            games.from_header(h)
            out.append(h)
        except ValueError:
            pass
    return out
