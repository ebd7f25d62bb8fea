"""``tapmat tags`` on the virtual board: the reader script, tapping a set with undo and
refusals, signing tags (the board's real MFRC522 driver writes the record into the emulated
NTAG and reads it back), and registering a signed deck on a mat that only has its key. Tags are
placed and lifted through the board's control client, as a player's hand would.
"""
from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from children import reap
from host.board import ndef
from host.board.flash import BoardError
from host.board.tags import BoardReader, Piece, ProvisionError, TagEvent, load_registry, piece_of
from test_flash import ROOT, Board, running_board

PAD = 15
UIDS = ["04b2000000000%d" % i for i in range(1, 8)]


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Board]:
    with running_board(tmp_path_factory.mktemp("tags") / "vboard") as b:
        yield b


def wait_gone(board: Board) -> None:
    """Give the reader script time to see a lifted tag leave (3 empty scans) before it returns."""
    time.sleep(0.3)


STARTED: list[subprocess.Popen] = []  # every Cli's process, reaped after its test


@pytest.fixture(autouse=True)
def reaped() -> Iterator[None]:
    """No ``tapmat tags`` child outlives its test, whatever the test did."""
    try:
        yield
    finally:
        reap(STARTED)
        STARTED.clear()


class Cli:
    """``tapmat tags ...`` as a child process: read its lines, type into it."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-u", "-m", "host.cli", "tags", *args], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        STARTED.append(self.proc)
        self.lines: list[str] = []
        self._partial = b""

    def expect(self, text: str, timeout: float = 10.0) -> str:
        """The first unread line containing ``text``; the lines before it are skipped."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        end = time.monotonic() + timeout
        while True:
            for i, line in enumerate(self.lines):
                if text in line:
                    self.lines = self.lines[i + 1:]
                    return line
            left = end - time.monotonic()
            assert left > 0, f"no {text!r} from tapmat tags; it said {self.lines}"
            if select.select([fd], [], [], left)[0]:
                data = os.read(fd, 4096)
                assert data, f"tapmat tags ended (status {self.proc.wait()}) before {text!r}: {self.lines}"
                *lines, self._partial = (self._partial + data).split(b"\n")
                self.lines += [ln.decode() for ln in lines]

    def type(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def status(self) -> int:
        return self.proc.wait(timeout=15)


def tap(board: Board, cli: Cli, uid: str, answer: str) -> str:
    """Put a tag on the pad, wait for the host's answer, lift it."""
    board.client.place(PAD, uid)
    line = cli.expect(answer)
    board.client.remove(uid)
    wait_gone(board)
    return line


def next_arrival(reader: BoardReader, timeout: float = 5.0) -> TagEvent:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        event = reader.next(0.2)
        if event is not None and event.kind == "arrive":
            return event
    raise AssertionError("no tag arrived")


def test_reader_script_reports_arrivals_leaves_and_memory(board: Board) -> None:
    record = ndef.encode(bytes.fromhex(UIDS[1]), "pass", ndef.DeckKey.new())
    with BoardReader(board.port, PAD, memory=True) as reader:
        board.client.place(PAD, UIDS[0])
        board.client.place(3, UIDS[2])  # another reader: not reported
        first = next_arrival(reader)
        assert first.uid == UIDS[0] and first.memory is not None
        assert first.memory[:3] == b"\x03\x00\xfe"  # a blank NTAG213: empty NDEF TLV (CC E1 10 12)
        board.client.remove(UIDS[0])
        gone = reader.next(3.0)
        assert gone == TagEvent("leave", UIDS[0])
        board.client.place(PAD, UIDS[1], memory=record.hex())
        second = next_arrival(reader)
        assert second.uid == UIDS[1] and second.memory is not None
        assert second.memory[:len(record)] == record and len(second.memory) == ndef.READ_BYTES
    board.client.clear()
    with pytest.raises(BoardError, match="reader 40: the board has readers 0..15"):
        BoardReader(board.port, 40)
    with BoardReader(board.port, PAD) as reader:  # the board is usable again
        assert reader.next(0.1) is None


def test_tap_a_skull_set_with_undo_and_refusals(board: Board, tmp_path: Path) -> None:
    out = tmp_path / "deck.bin"
    cli = Cli("tap", "--port", board.port, "--game", "skull", "--seats", "1", "--out", str(out))
    cli.expect("[0/4] tap: skull disc flower of seat 1")
    tap(board, cli, UIDS[0], f"ok: tag {UIDS[0]} = skull disc flower of seat 1")
    cli.expect("[1/4] tap: skull disc flower of seat 1")
    tap(board, cli, UIDS[0], f"refused: tag {UIDS[0]} was tapped already, as skull disc flower of seat 1")
    tap(board, cli, UIDS[1], f"ok: tag {UIDS[1]}")
    cli.type("u")
    cli.expect(f"undone: tag {UIDS[1]} is no longer skull disc flower of seat 1")
    cli.expect("[1/4] tap: skull disc flower of seat 1")
    assert len(load_registry(out)) == 1  # the registry follows every tap and undo
    for uid in UIDS[1:3]:
        tap(board, cli, uid, f"ok: tag {uid} = skull disc flower of seat 1")
    tap(board, cli, UIDS[3], f"ok: tag {UIDS[3]} = skull disc skull of seat 1")
    cli.expect("complete: 4/4 pieces registered")
    assert cli.status() == 0
    records = load_registry(out)
    assert {r["uid"]: str(piece_of(r)) for r in records} == {
        UIDS[0]: "skull disc flower of seat 1", UIDS[1]: "skull disc flower of seat 1",
        UIDS[2]: "skull disc flower of seat 1", UIDS[3]: "skull disc skull of seat 1"}

    # seat 2 into the same registry: a tag of seat 1 is refused; q stops and keeps the file
    cli = Cli("tap", "--port", board.port, "--game", "skull", "--seats", "1-2", "--out", str(out))
    cli.expect("4 of 8 pieces are in")
    cli.expect("[4/8] tap: skull disc flower of seat 2")
    tap(board, cli, UIDS[2], f"refused: tag {UIDS[2]} is already registered as skull disc flower of seat 1")
    cli.type("q")
    cli.expect("stopped")
    assert cli.status() == 3
    assert load_registry(out) == records


def test_the_board_writes_a_record_with_the_driver_and_reads_it_back(board: Board) -> None:
    key = ndef.DeckKey.new()
    uid = UIDS[3]
    record = ndef.encode(bytes.fromhex(uid), "pass", key)
    with BoardReader(board.port, PAD, memory=True) as reader:
        board.client.place(PAD, uid)
        assert next_arrival(reader).memory[:3] == b"\x03\x00\xfe"  # blank
        back = reader.write(uid, record)
        assert back[:len(record)] == record and len(back) == 48  # 3 READs for 11 pages
        # the tag stays on the pad: lost answers make the reader miss it, then find it again,
        # and the arrival's READs (another path through the driver) show the record
        board.client.fault(PAD, "no_answer", 12)
        assert reader.next(3.0) == TagEvent("leave", uid)
        again = next_arrival(reader)
        assert again.memory is not None and again.memory[:len(record)] == record
        assert ndef.verify(bytes.fromhex(uid), again.memory, [key]).name == "pass"
        board.client.remove(uid)
        assert reader.next(3.0) == TagEvent("leave", uid)
        with pytest.raises(ProvisionError, match=f"tag {uid}: writing the record failed at page 4: "
                                                 "it is not on the reader; lift it and tap it again"):
            reader.write(uid, record)
    board.client.clear()


def test_sign_then_register_the_deck_on_another_mat(board: Board, tmp_path: Path) -> None:
    home, away, key = tmp_path / "home.bin", tmp_path / "away.bin", tmp_path / "home.key"
    cli = Cli("tap", "--port", board.port, "--tokens", "--out", str(home), "--sign", str(key))
    cli.expect("new deck key")
    cli.expect("[0/31] tap: token digit0")
    tap(board, cli, UIDS[4], f"ok: tag {UIDS[4]} = token digit0 (signed, read back)")
    tap(board, cli, UIDS[5], f"ok: tag {UIDS[5]} = token digit1 (signed, read back)")
    cli.type("q")
    assert cli.status() == 3
    deck_key = ndef.DeckKey.load(key)

    # "another mat": no registry, only the key; the same physical tags in any order, one
    # with the record copied from another tag, one blank. The virtual world does not keep
    # what the board wrote into an emulated tag once it is lifted, so the tags come back
    # with their records encoded again (HMAC is deterministic: the same bytes).
    memory = {uid: ndef.encode(bytes.fromhex(uid), name, deck_key).hex()
              for uid, name in ((UIDS[4], "digit0"), (UIDS[5], "digit1"))}
    cli = Cli("signed", "--port", board.port, "--key", str(key), "--out", str(away))
    cli.expect("tap the signed tags")
    for uid in (UIDS[5], UIDS[4]):
        board.client.place(PAD, uid, memory=memory[uid])
        cli.expect(f"ok: tag {uid} = token digit{UIDS.index(uid) - 4}")
        board.client.remove(uid)
        wait_gone(board)
    board.client.place(PAD, UIDS[6], memory=memory[UIDS[4]])
    cli.expect(f"refused: tag {UIDS[6]}: the record of deck {deck_key.deck_id:08x} (digit0) has a wrong MAC")
    board.client.remove(UIDS[6])
    wait_gone(board)
    board.client.place(PAD, UIDS[0])
    cli.expect("refused: no NDEF message on the tag")
    board.client.remove(UIDS[0])
    cli.type("q")
    cli.expect("2 tags added")
    assert cli.status() == 0
    assert sorted(load_registry(away), key=lambda r: r["uid"]) == sorted(load_registry(home), key=lambda r: r["uid"])
    assert piece_of(load_registry(away)[0]) in {Piece("token", "digit0"), Piece("token", "digit1")}
