"""Fan-out semantics (host/web/fanout.py): one build per change, the same bytes to every client
of an audience, and a client that looks late gets the newest state, never an older one."""
from __future__ import annotations

import json

from host.web.fanout import Fanout


class Board:
    """A stand-in for the hub: a version counter and the state each version shows."""

    def __init__(self) -> None:
        self.version = 0
        self.during_build = None  # a change that lands while the view is being built

    def build(self, lang: str) -> dict:
        shown = self.version
        if self.during_build:
            self.during_build, change = None, self.during_build
            change()
        return {"shows": shown, "lang": lang}


def personal(view: dict, seat: int) -> dict:
    return {"seat": seat, "of": view["shows"]}


def test_one_build_per_change_and_the_same_bytes_for_each_audience():
    board = Board()
    fan = Fanout(lambda: board.version, board.build, personal)
    frames = [fan.current(("en", None)) for _ in range(50)] + [fan.current(("en", 2)) for _ in range(50)]
    assert fan.builds == 1
    assert len({id(f) for _, f in frames[:50]}) == 1 and len({id(f) for _, f in frames[50:]}) == 1
    assert json.loads(frames[0][1]) == {"shows": 0, "lang": "en", "you": None, "version": 0}
    assert json.loads(frames[50][1]) == {"shows": 0, "lang": "en", "you": {"seat": 2, "of": 0}, "version": 0}


def test_a_late_client_skips_to_the_newest_state():
    board = Board()
    fan = Fanout(lambda: board.version, board.build, personal)
    seen = [json.loads(fan.current(("en", None))[1])["shows"]]
    board.version += 5  # five changes while this client was busy sending
    version, frame = fan.current(("en", None))
    seen.append(json.loads(frame)["shows"])
    assert seen == [0, 5] and version == 5 and fan.builds == 2


def test_a_change_during_the_build_is_never_hidden():
    """The frame carries the version read before building: a change landing meanwhile makes the
    next look build again, so no client stops at a stale view."""
    board = Board()
    fan = Fanout(lambda: board.version, board.build, personal)

    def change() -> None:
        board.version += 1
    board.during_build = change
    version, frame = fan.current(("en", None))
    assert (version, json.loads(frame)["shows"]) == (0, 0)
    assert board.version == 1  # the client's loop sees version 1 != 0 and asks again
    version, frame = fan.current(("en", None))
    assert (version, json.loads(frame)["shows"]) == (1, 1) and fan.builds == 2


def test_each_language_is_built_once_per_change():
    board = Board()
    fan = Fanout(lambda: board.version, board.build, personal)
    views = [json.loads(fan.current((lang, None))[1]) for lang in ("en", "vi", "en", "vi")]
    assert [v["lang"] for v in views] == ["en", "vi", "en", "vi"] and fan.builds == 2
