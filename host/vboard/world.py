"""The virtual board's physical world: which tag lies on which reader, which bag clasps are shut.

The bridge (host/vboard/process.py) owns this state, not the interpreter: tags do not fall off the mat
when the board reboots, so every fresh interpreter gets the whole world again (``replay()``),
and every change becomes one line of the control-pipe protocol of firmware/boards/virtual.py.
Requests are checked here first; a bad one raises ``WorldError`` and changes nothing.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CONFIG_FILE = "board.json"
DEFAULTS = {"readers": 16, "switches": 6, "leds": 16}  # firmware/boards/virtual.py DEFAULTS
LIMITS = {"readers": 64, "switches": 32, "leds": 64}  # firmware/boards/virtual.py LIMITS
UID_SIZES = (4, 7, 10)  # ISO/IEC 14443-3 single, double, triple size; 7 = NTAG21x, else foreign
CASCADE_TAG = 0x88      # no UID may start with it (ISO/IEC 14443-3 6.5.4)
USER_MEMORY_MAX = 144   # NTAG213 user pages 4..39
FAULTS = {"no_answer": 1, "bad_crc": 2, "flip": 3, "noise": 4}  # firmware/emu/mfrc522_emu.py
FAULT_COUNT_MAX = 255


class WorldError(ValueError):
    """A request that does not describe a possible change of the mat."""


@dataclass
class BoardConfig:
    """How many readers, clasp switches and LEDs the board has (board.json on its filesystem)."""

    readers: int = DEFAULTS["readers"]
    switches: int = DEFAULTS["switches"]
    leds: int = DEFAULTS["leds"]

    @classmethod
    def load(cls, fs_dir: Path) -> "BoardConfig":
        """board.json of the board filesystem; missing file: defaults; bad content: WorldError."""
        path = fs_dir / CONFIG_FILE
        if not path.exists():
            return cls()
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError) as e:
            raise WorldError(f"{path}: not readable JSON ({e})") from None
        if not isinstance(data, dict):
            raise WorldError(f"{path}: expected a JSON object")
        return cls(**{k: check_count(k, data.get(k, DEFAULTS[k])) for k in DEFAULTS})

    def save(self, fs_dir: Path) -> None:
        (fs_dir / CONFIG_FILE).write_text(json.dumps(self.as_dict()) + "\n")

    def as_dict(self) -> dict[str, int]:
        return {"readers": self.readers, "switches": self.switches, "leds": self.leds}


def check_count(key: str, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= LIMITS[key]:
        raise WorldError(f"{key} must be an integer 0..{LIMITS[key]}, not {value!r}")
    return value


def check_index(what: str, value: Any, n: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise WorldError(f"{what} must be an integer 0..{n - 1}, not {value!r}")
    return value


def check_hex(what: str, value: Any) -> bytes:
    if not isinstance(value, str):
        raise WorldError(f"{what} must be a hex string, not {value!r}")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise WorldError(f"{what} is not hex: {value!r}") from None


def check_uid(value: Any) -> str:
    """A UID as lower-case hex: 4, 7 or 10 bytes, not starting with the cascade tag."""
    uid = check_hex("uid", value)
    if len(uid) not in UID_SIZES:
        raise WorldError(f"uid must be 4, 7 or 10 bytes, not {len(uid)}")
    if uid[0] == CASCADE_TAG:
        raise WorldError("uid cannot start with 88 (the cascade tag)")
    return uid.hex()


@dataclass
class Tag:
    reader: int
    memory: str = ""  # user memory from page 4, hex (NTAG tags only)


@dataclass
class World:
    """Tags by UID (hex) and clasp states; each change returns the control lines to send."""

    config: BoardConfig
    tags: dict[str, Tag] = field(default_factory=dict)
    clasps: list[bool] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.clasps = (self.clasps + [False] * self.config.switches)[: self.config.switches]

    def place(self, reader: Any, uid: Any, memory: Any = None) -> tuple[list[bytes], int | None]:
        """Put a tag on a reader (moving it if it lay elsewhere); (lines, reader it came from)."""
        r = check_index("reader", reader, self.config.readers)
        u = check_uid(uid)
        mem = b"" if memory is None else check_hex("memory", memory)
        if mem and len(u) != 14:
            raise WorldError("only 7-byte (NTAG) UIDs carry user memory")
        if len(mem) > USER_MEMORY_MAX:
            raise WorldError(f"memory holds at most {USER_MEMORY_MAX} bytes")
        lines = []
        old = self.tags.get(u)
        if old is not None and old.reader != r:
            lines.append(b"R %d %s\n" % (old.reader, u.encode()))
        self.tags[u] = Tag(r, mem.hex())
        lines.append(self._place_line(u, self.tags[u]))
        return lines, None if old is None else old.reader

    def remove(self, uid: Any) -> tuple[list[bytes], int]:
        """Take a tag off the mat; (lines, reader it lay on)."""
        u = check_uid(uid)
        tag = self.tags.pop(u, None)
        if tag is None:
            raise WorldError(f"tag {u} is not on the mat")
        return [b"R %d %s\n" % (tag.reader, u.encode())], tag.reader

    def clear(self, reader: Any = None) -> tuple[list[bytes], list[str]]:
        """Take every tag off one reader (or all); (lines, UIDs removed)."""
        if reader is None:
            gone = sorted(self.tags)
            self.tags.clear()
            return [b"C *\n"], gone
        r = check_index("reader", reader, self.config.readers)
        gone = sorted(u for u, t in self.tags.items() if t.reader == r)
        for u in gone:
            del self.tags[u]
        return [b"C %d\n" % r], gone

    def switch(self, index: Any, closed: Any) -> list[bytes]:
        i = check_index("switch", index, self.config.switches)
        if not isinstance(closed, bool):
            raise WorldError(f"closed must be true or false, not {closed!r}")
        self.clasps[i] = closed
        return [b"S %d %d\n" % (i, closed)]

    def fault(self, reader: Any, kind: Any, count: Any = 1) -> list[bytes]:
        """An emulator fault on one reader's next exchanges (not part of the lasting world)."""
        r = check_index("reader", reader, self.config.readers)
        if kind not in FAULTS:
            raise WorldError(f"fault must be one of {', '.join(sorted(FAULTS))}, not {kind!r}")
        n = check_index("count", count, FAULT_COUNT_MAX + 1)
        return [b"F %d %d %d\n" % (r, FAULTS[kind], n)]

    def reconfigure(self, config: BoardConfig) -> None:
        """The board reported other counts (board.json changed on it): drop what no longer fits."""
        self.config = config
        self.tags = {u: t for u, t in self.tags.items() if t.reader < config.readers}
        self.clasps = (self.clasps + [False] * config.switches)[: config.switches]

    def replay(self) -> list[bytes]:
        """The lines that give a fresh interpreter this whole world."""
        lines = [b"C *\n"]
        lines += [self._place_line(u, t) for u, t in sorted(self.tags.items())]
        lines += [b"S %d %d\n" % (i, c) for i, c in enumerate(self.clasps)]
        return lines

    def snapshot(self) -> dict[str, Any]:
        return {
            "tags": {u: {"reader": t.reader, "memory": t.memory}
                     for u, t in sorted(self.tags.items())},
            "switches": list(self.clasps),
        }

    @staticmethod
    def _place_line(uid: str, tag: Tag) -> bytes:
        tail = b" " + tag.memory.encode() if tag.memory else b""
        return b"P %d %s%s\n" % (tag.reader, uid.encode(), tail)
