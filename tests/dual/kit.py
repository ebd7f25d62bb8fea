"""Helpers for dual-interpreter rule tests: drive a game through the real replay path."""
import json

from shared_rules.replay import Replay


def play(header, actions):
    """Replay a header and actions (dicts, or raw strings for malformed lines); return the Replay."""
    r = Replay()
    r.feed(json.dumps(header).encode())
    for a in actions:
        r.feed(a.encode() if isinstance(a, str) else json.dumps(a).encode())
    return r


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
