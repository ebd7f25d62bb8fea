"""Host side of the virtual board without processes: the world model, requests, constants."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from host.vboard import process as vboard
from host.vboard.process import VirtualBoard
from host.vboard.world import BoardConfig, World, WorldError

ROOT = Path(__file__).resolve().parent.parent
UID = "04a1b2c3d4e5f6"


def _module_ints(path: Path, names: set[str]) -> dict[str, object]:
    """NAME = const(N) / NAME = N assignments of a module, read without importing it."""
    out: dict[str, object] = {}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            value = node.value
            if isinstance(value, ast.Call):
                value = value.args[0]
            if name in names and isinstance(value, ast.Constant):
                out[name] = value.value
    return out


def test_exit_codes_agree_with_vrom() -> None:
    names = {"EXIT_SOFT_RESET", "EXIT_SOFT_RESET_RAW", "EXIT_HARD_RESET"}
    rom = _module_ints(ROOT / "firmware" / "boards" / "vrom.py", names)
    assert rom == {n: getattr(vboard, n) for n in names}
    assert len(set(rom.values())) == 3


def test_defaults_and_limits_agree_with_profile() -> None:
    text = (ROOT / "firmware" / "boards" / "virtual.py").read_text()
    tree = ast.parse(text)
    found = {node.targets[0].id: ast.literal_eval(node.value) for node in tree.body
             if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
             and node.targets[0].id in ("DEFAULTS", "LIMITS")}
    from host.vboard import world as vboard_world
    assert found == {"DEFAULTS": vboard_world.DEFAULTS, "LIMITS": vboard_world.LIMITS}


def test_place_move_remove_clear_lines() -> None:
    w = World(BoardConfig(readers=4, switches=2, leds=4))
    assert w.place(1, UID.upper()) == ([b"P 1 " + UID.encode() + b"\n"], None)
    assert w.place(3, UID, "0103") == ([b"R 1 %s\n" % UID.encode(),
                                        b"P 3 %s 0103\n" % UID.encode()], 1)
    assert w.remove(UID) == ([b"R 3 %s\n" % UID.encode()], 3)
    w.place(0, "0badf00d")
    w.place(0, "04112233445566")
    assert w.clear(0) == ([b"C 0\n"], ["04112233445566", "0badf00d"])
    assert w.switch(1, True) == [b"S 1 1\n"]
    assert w.replay() == [b"C *\n", b"S 0 0\n", b"S 1 1\n"]


@pytest.mark.parametrize("call", [
    lambda w: w.place(4, UID),
    lambda w: w.place(-1, UID),
    lambda w: w.place(True, UID),
    lambda w: w.place("1", UID),
    lambda w: w.place(0, "04a1"),
    lambda w: w.place(0, "88a1b2c3d4e5f6"),
    lambda w: w.place(0, "zz"),
    lambda w: w.place(0, 1234),
    lambda w: w.place(0, "0badf00d", "00"),
    lambda w: w.place(0, UID, "00" * 145),
    lambda w: w.remove(UID),
    lambda w: w.clear(9),
    lambda w: w.switch(2, True),
    lambda w: w.switch(0, 1),
    lambda w: w.fault(0, "fire"),
    lambda w: w.fault(0, "flip", 256),
])
def test_bad_requests_change_nothing(call) -> None:
    w = World(BoardConfig(readers=4, switches=2, leds=4))
    w.place(2, "04112233445566")
    before = w.snapshot()
    with pytest.raises(WorldError):
        call(w)
    assert w.snapshot() == before


def test_reconfigure_drops_what_no_longer_fits() -> None:
    w = World(BoardConfig(readers=4, switches=3, leds=4))
    w.place(3, UID)
    w.place(1, "04112233445566")
    w.switch(2, True)
    w.reconfigure(BoardConfig(readers=2, switches=2, leds=2))
    assert w.snapshot() == {"tags": {"04112233445566": {"reader": 1, "memory": ""}},
                            "switches": [False, False]}


def test_config_file(tmp_path: Path) -> None:
    assert BoardConfig.load(tmp_path) == BoardConfig()
    BoardConfig(readers=5, switches=1, leds=5).save(tmp_path)
    assert BoardConfig.load(tmp_path) == BoardConfig(5, 1, 5)
    for bad in ("{", "[]", '{"readers": 65}', '{"leds": -1}', '{"switches": "2"}'):
        (tmp_path / "board.json").write_text(bad)
        with pytest.raises(WorldError):
            BoardConfig.load(tmp_path)


def test_requests_without_a_running_board(tmp_path: Path) -> None:
    board = VirtualBoard(tmp_path, BoardConfig(readers=2, switches=1, leds=2),
                         micropython="/bin/false", log=lambda _msg: None)

    def ask(line: bytes) -> dict:
        return board.request_line(line)

    assert ask(json.dumps({"cmd": "place", "reader": 1, "uid": UID}).encode()) == \
        {"ok": True, "moved_from": None}
    for bad in (b"{", b"[]", b"\xff\xfe", b"[" * 50000, b'{"cmd": 3}', b'{"cmd": "explode"}',
                b'{"cmd": "place", "reader": 2, "uid": "04a1b2c3d4e5f6"}',
                b'{"cmd": "switch", "index": 0, "closed": "yes"}',
                b'{"cmd": "fault", "reader": 0, "fault": "flip"}',
                b'{"cmd": "power_cut", "off_ms": -5}'):
        reply = ask(bad)
        assert reply["ok"] is False and reply["error"]
    st = ask(b'{"cmd": "status"}')
    assert st["tags"] == {UID: {"reader": 1, "memory": ""}}
    assert st["switches"] == [False] and st["state"] == "off" and st["boots"] == 0
    assert st["config"] == {"readers": 2, "switches": 1, "leds": 2}
