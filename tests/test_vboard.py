"""The virtual board end to end: ``tapmat board`` with a real interpreter, mpremote and pty.

One board process serves the whole module (boots take ~0.1 s, an mpremote call ~0.5 s). Each
test leaves the board without main.py, so the next starts from a plain REPL.
"""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest
import serial  # type: ignore[import-untyped]

from host.vboard.client import VirtualBoardClient, VirtualBoardError
from vboards import Board, running_board

ROOT = Path(__file__).resolve().parent.parent
UID = "04a1b2c3d4e5f6"

MAIN_LOOP = """\
with open("main_runs.txt", "a") as f:   # before the profile is up: a test that waited for it counts this run
    f.write("run\\n")
from firmware import boards
board = boards.load()
buf = bytearray(16)
got = 0
while True:
    got += board.link.readinto(buf)
    board.idle()
"""

SCAN = """\
from firmware import boards
b = boards.load()
b.idle()
def scan(i):
    r = b.readers[i]
    r.init()
    r.antenna_on()
    u = bytearray(35)
    n = r.scan(u)
    return [bytes(u[7 * k:7 * k + 7]).hex() for k in range(n)]
print(scan(3), scan(5), [s.value() for s in b.switches])
"""


def runs(board: Board) -> int:
    """How often main.py started (it appends a line to main_runs.txt)."""
    path = board.fs / "main_runs.txt"
    return len(path.read_text().splitlines()) if path.exists() else 0


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Board]:
    with running_board(tmp_path_factory.mktemp("vb") / "vboard", "--readers", "8", "--switches", "3",
                       "--leds", "8") as b:
        yield b


@pytest.fixture
def main_py(board: Board) -> Iterator[Path]:
    """main.py that loops reading the link; removed (and the board rebooted) afterwards."""
    path = board.fs / "main.py"
    path.write_text(MAIN_LOOP)
    (board.fs / "main_runs.txt").unlink(missing_ok=True)
    yield path
    path.unlink()
    board.reboot()


def test_exec_prints(board: Board) -> None:
    assert board.mpremote("exec", "print(1+1)").strip() == "2"
    assert board.client.status()["tty"] == str(board.dir / "tty")
    assert os.path.realpath(board.dir / "tty") == board.port
    assert json.loads((board.fs / "board.json").read_text()) == \
        {"readers": 8, "switches": 3, "leds": 8}


def test_fs_cp_ls_cat(board: Board, tmp_path: Path) -> None:
    local = tmp_path / "local.py"
    local.write_text("def hello():\n    return 'hi'\n")
    board.mpremote("fs", "cp", str(local), ":x.py")
    assert (board.fs / "x.py").read_bytes() == local.read_bytes()
    assert "x.py" in board.mpremote("fs", "ls").split()
    assert board.mpremote("fs", "cat", "x.py").replace("\r\n", "\n") == local.read_text()
    assert board.mpremote("exec", "import x; print(x.hello())").strip() == "hi"
    board.mpremote("fs", "rm", "x.py")
    assert not (board.fs / "x.py").exists()


def test_mpremote_interrupts_main(board: Board, main_py: Path) -> None:
    board.reboot()
    board.client.wait_booted(firmware=True)
    # resume: no soft reset, so the REPL sees the globals of the main.py it interrupted
    out = board.mpremote("resume", "exec", "print(board.name, got >= 0)")
    assert out.strip() == "virtual True"
    assert runs(board) == 1
    assert board.mpremote("exec", "print(3*3)").strip() == "9"


def test_soft_reset_restarts_interpreter_and_main(board: Board, main_py: Path) -> None:
    st = board.reboot()
    board.client.wait_booted(firmware=True)
    board.mpremote("soft-reset")
    after = board.client.wait_booted(st["boots"])
    assert after["pid"] != st["pid"]
    assert runs(board) == 1  # a soft reset from the raw REPL goes straight back to it
    with serial.Serial(board.port, timeout=0.2) as port:  # mpremote left the friendly REPL
        boots = board.client.status()["boots"]
        port.write(b"\x04")  # Ctrl-D at the friendly prompt: soft reset, main.py runs again
        board.client.wait_booted(boots, firmware=True)
        seen = port.read(200)
    assert b"MPY: soft reboot\r\n" in seen
    assert runs(board) == 2


def test_power_cut_and_sigkill_boot_again(board: Board, main_py: Path) -> None:
    st = board.reboot()
    board.client.wait_booted(firmware=True)
    os.kill(st["pid"], signal.SIGKILL)
    st2 = board.client.wait_booted(st["boots"], firmware=True)
    assert st2["pid"] != st["pid"] and runs(board) == 2
    boots = board.client.power_cut(off_ms=300)
    assert board.client.status()["state"] == "off"
    board.client.wait_booted(boots, firmware=True)
    assert runs(board) == 3
    assert board.mpremote("exec", "print('back')").strip() == "back"


def test_control_channel_tags_switches_leds_buzzer(board: Board) -> None:
    c = board.client
    assert c.place(3, UID) is None
    c.switch(1, closed=True)
    assert board.mpremote("exec", SCAN).strip() == f"['{UID}'] [] [0, 1, 0]"
    assert c.place(5, UID) == 3  # a card is in one place: placing it elsewhere moves it
    c.switch(1, closed=False)
    assert board.mpremote("exec", SCAN).strip() == f"[] ['{UID}'] [0, 0, 0]"
    assert c.remove(UID) == 5
    events = c.events(timeout=10)
    board.mpremote("exec", "from firmware import boards\nb = boards.load()\n"
                           "b.leds.set(1, 10, 20, 30)\nb.leds.show()\nb.buzzer.play(2)\n"
                           "b.buzzer.tone(880, 60)")
    seen = next(e for e in events if e["event"] == "leds")
    events.close()
    assert seen["leds"][1] == [10, 20, 30]
    st = c.wait_for(lambda s: len(s["buzzer"]) >= 2 and s["leds"] is not None)
    assert st["leds"][1] == [10, 20, 30] and len(st["leds"]) == 8
    assert [{k: v for k, v in e.items() if k != "n"} for e in st["buzzer"][-2:]] == \
        [{"play": 2}, {"tone": [880, 60]}]
    with pytest.raises(VirtualBoardError, match="reader"):
        c.place(8, UID)
    assert c.status()["tags"] == {}


def _read_until(port: serial.Serial, marker: bytes, timeout: float = 5.0) -> bytes:
    data = b""
    end = time.monotonic() + timeout
    while not data.endswith(marker) and time.monotonic() < end:
        data += port.read(1)
    assert data.endswith(marker), data
    return data


def test_friendly_repl(board: Board) -> None:
    with serial.Serial(board.port, timeout=0.1) as port:
        port.write(b"\x03\x02")  # Ctrl-C, Ctrl-B: banner and a fresh prompt
        assert b"tapmat virtual board" in _read_until(port, b"information.\r\n>>> ")
        port.write(b"for i in range(2):\r")
        assert _read_until(port, b"... ").endswith(b"for i in range(2):\r\n... ")
        port.write(b"  print(i * 7)\r\r")
        assert _read_until(port, b">>> ").endswith(b"\r\n0\r\n7\r\n>>> ")
        port.write(b'x = """a\r(b\r"""\r')
        assert _read_until(port, b">>> ").endswith(b'x = """a\r\n... (b\r\n... """\r\n>>> ')
        port.write(b"len(x), (1 +\r2)\r")
        assert _read_until(port, b">>> ").endswith(b"\r\n... 2)\r\n(5, 3)\r\n>>> ")
        port.write(b"1/0\r")
        assert _read_until(port, b">>> ").endswith(
            b'Traceback (most recent call last):\r\n  File "<stdin>", line 1, in <module>\r\n'
            b"ZeroDivisionError: divide by zero\r\n>>> ")
        port.write(b"abc\x7f\x7f\x7f\x1b[A7*6\r")
        assert _read_until(port, b">>> ").endswith(b"\r\n42\r\n>>> ")


def test_garbage_on_the_port(board: Board) -> None:
    noise = bytes(random.Random(7).randrange(256) for _ in range(3000))
    with serial.Serial(board.port, timeout=0.2) as port:
        for k in range(0, len(noise), 100):
            port.write(noise[k:k + 100])
        time.sleep(0.3)
        port.read(100000)
    assert board.proc.poll() is None
    board.client.wait_booted()
    assert board.mpremote("exec", "print(6*7)").strip() == "42"


def test_one_bridge_per_board_dir(board: Board) -> None:
    config = (board.fs / "board.json").read_text()
    out = subprocess.run([sys.executable, "-m", "host.cli", "board", "--dir", str(board.dir),
                          "--readers", "2"], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert out.returncode == 2 and "already runs" in out.stderr
    assert (board.fs / "board.json").read_text() == config
    assert board.client.status()["state"] in ("main", "exec", "repl")


def test_interpreter_ends_when_the_bridge_dies(tmp_path: Path) -> None:
    (tmp_path / "fs").mkdir()
    (tmp_path / "fs" / "main.py").write_text(MAIN_LOOP)
    proc = subprocess.Popen([sys.executable, "-m", "host.cli", "board", "--dir", str(tmp_path)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not (tmp_path / "ctl.sock").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        with VirtualBoardClient(tmp_path) as client:
            pid = client.wait_booted(firmware=True)["pid"]
    finally:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid)


def _alive(pid: int) -> bool:
    """Running (a zombie left to a non-reaping init counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
