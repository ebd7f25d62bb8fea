"""Four Merry Men logs an outside audit found refereed wrong (tests/logs/merry_men/), replayed by
``tapmat replay`` and by ``micropython -m shared_rules.replay``: both must give the rules' result.

The referee never sees a shuffle, but it knows the cards it put under a deck and how many unknown
cards lie above them (docs/rules-merry-men.md, "Deck order"). Three logs end with a draw of such a
card that the cards above it still cover: refused ``not_on_top``, the game as it was before that
line. The fourth ends with the one-card draw owed after regaining the Merry Men's trust: accepted.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from shared_rules.replay import replay_file

ROOT = Path(__file__).resolve().parent.parent
LOGS = Path(__file__).resolve().parent / "logs" / "merry_men"
MICROPYTHON = str(Path(sys.executable).parent / "micropython")

# log, the line refused (its last), and why the rules refuse it (the seed's words)
REFUSED = [
    # Round 1's Sheriff put law 3 under a 22-card law deck; round 2's Sheriff draws the top two
    # ("cảnh sát trưởng mới rút 2 lá bài trên cùng"): 19 unknown laws lie above law 3.
    ("law-bottom-redrawn.jsonl", 17),
    # All players are dealt two first ("chia 2 thẻ cho mỗi người chơi"); seat 0 put Merry Man 2
    # under the deck: seat 1 cannot have been dealt it.
    ("merry-setup-bottom-kept.jsonl", 4),
    # Robin Hood smuggled through goes under the deck, then its owner draws two *new* cards
    # ("đặt nó vào cuối của chồng bài Merry Men. Cuối cùng, họ rút 2 thẻ Merry Men mới").
    ("merry-smuggled-redrawn.jsonl", 18),
]


def both(log: Path) -> dict:
    """The replay's JSON from CPython, checked equal to MicroPython's."""
    host = replay_file(str(log))
    mp = subprocess.run([MICROPYTHON, "-m", "shared_rules.replay", str(log)], cwd=ROOT,
                        capture_output=True, text=True, timeout=120)
    assert mp.returncode == 0, mp.stderr
    assert json.loads(mp.stdout) == json.loads(json.dumps(host))
    return host


@pytest.mark.parametrize("name, line", REFUSED)
def test_a_card_put_under_the_deck_cannot_be_drawn_while_cards_cover_it(tmp_path: Path, name: str,
                                                                       line: int) -> None:
    log = LOGS / name
    lines = log.read_text().splitlines(keepends=True)
    assert len(lines) == line
    got = both(log)
    assert got["rejected"] == [{"line": line, "error": "not_on_top"}], got["rejected"]
    before = tmp_path / name
    before.write_text("".join(lines[:-1]))
    was = both(before)
    assert was["rejected"] == []
    assert {k: v for k, v in got.items() if "rejected" not in k} == {k: v for k, v in was.items() if "rejected" not in k}


def test_after_regaining_trust_one_card_is_drawn() -> None:
    """Seat 1's Merry Man was found; their pepper then got through, so they "may at once draw one
    new card" ("có thể ngay lập tức rút một thẻ Merry Men mới"): ``{"a": "merry", "p": 1, "keep": 8}``
    is accepted and seat 1 holds Merry Man 8."""
    from dual.kit import Played
    from shared_rules.sheriff.modules import merry_men
    log = LOGS / "merry-regain-one-card.jsonl"
    got = both(log)
    assert got["rejected"] == [], got["rejected"]
    lines = log.read_bytes().splitlines()
    played = Played()
    for raw in lines[:-1]:
        assert played.feed(raw) == 0, raw
    assert merry_men.status(played.game, 1) == merry_men.OWED | merry_men.ONE
    assert played.feed(lines[-1]) == 0
    assert merry_men.held(played.game, 1) == 8 and merry_men.status(played.game, 1) == 0
