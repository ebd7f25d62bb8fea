"""Client of a running virtual board's control socket (``tapmat board``; host/vboard/process.py).

For tests and the simulator: put tags on readers, shut bag clasps, cut the power, read back
the LEDs and buzzer. One JSON object per line each way; docs/virtual-board.md lists them.

    with VirtualBoardClient("build/vboard") as board:
        board.place(3, "04a1b2c3d4e5f6")
        board.switch(0, closed=True)
        print(board.status()["leds"])
"""
from __future__ import annotations

import json
import socket
import time
from pathlib import Path
from typing import Any, Callable, Generator

SOCKET_NAME = "ctl.sock"  # host/vboard/process.py SOCKET_NAME
POLL_S = 0.02
READY_STATES = ("main", "exec", "repl")


class VirtualBoardError(RuntimeError):
    """The board refused a request (its message says why) or did not answer."""


class VirtualBoardClient:
    def __init__(self, board_dir: str | Path, timeout: float = 5.0) -> None:
        self.path = Path(board_dir) / SOCKET_NAME
        self.timeout = timeout
        self._sock = self._connect()
        self._buf = b""

    def _connect(self) -> socket.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        try:
            sock.connect(str(self.path))
        except OSError as e:
            sock.close()
            raise VirtualBoardError(f"no virtual board at {self.path}: {e}") from None
        return sock

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> "VirtualBoardClient":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- protocol ----------------------------------------------------------------------------
    def _line(self) -> dict[str, Any]:
        while b"\n" not in self._buf:
            try:
                data = self._sock.recv(65536)
            except socket.timeout:
                raise VirtualBoardError("the virtual board did not answer") from None
            if not data:
                raise VirtualBoardError("the virtual board closed the connection")
            self._buf += data
        line, self._buf = self._buf.split(b"\n", 1)
        return json.loads(line)

    def request(self, cmd: str, **args: Any) -> dict[str, Any]:
        """Send one request; its reply, or VirtualBoardError with the board's reason."""
        self._sock.sendall(json.dumps({"cmd": cmd, **args}).encode() + b"\n")
        reply = self._line()
        if not reply.get("ok"):
            raise VirtualBoardError(reply.get("error", "refused"))
        return reply

    # -- the physical world ------------------------------------------------------------------
    def place(self, reader: int, uid: str, memory: str | None = None) -> int | None:
        """Put tag uid (hex) on a reader; returns the reader it was moved from, if any."""
        args: dict[str, Any] = {"reader": reader, "uid": uid}
        if memory is not None:
            args["memory"] = memory
        return self.request("place", **args)["moved_from"]

    def remove(self, uid: str) -> int:
        """Take a tag off the mat; returns the reader it lay on."""
        return self.request("remove", uid=uid)["reader"]

    def clear(self, reader: int | None = None) -> list[str]:
        """Take every tag off one reader (None: the whole mat); returns their UIDs."""
        args = {} if reader is None else {"reader": reader}
        return self.request("clear", **args)["removed"]

    def switch(self, index: int, closed: bool = True) -> None:
        self.request("switch", index=index, closed=closed)

    def fault(self, reader: int, fault: str, count: int = 1) -> None:
        """An emulator fault (no_answer, bad_crc, flip, noise) on a reader's next exchanges."""
        self.request("fault", reader=reader, fault=fault, count=count)

    def power_cut(self, off_ms: int = 200) -> int:
        """Kill the interpreter, boot again after off_ms; returns the boot count before."""
        return self.request("power_cut", off_ms=off_ms)["boots"]

    def scans(self) -> dict[str, Any]:
        """What the firmware has looked at since power-on (docs/virtual-board.md, ``scans``):
        ``boots``, ``steps``, ``scans`` per reader, ``switch_reads`` per clasp switch."""
        return self.request("scans")

    # -- what the board shows ----------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        return self.request("status")

    def leds(self) -> list[list[int]] | None:
        """[[r, g, b], ...] as last shown, or None before the firmware's first show()."""
        return self.status()["leds"]

    def buzzer(self) -> list[dict[str, Any]]:
        """Recent buzzer events: {"play": id, "n": k} or {"tone": [hz, ms], "n": k}."""
        return self.status()["buzzer"]

    # -- waiting -----------------------------------------------------------------------------
    def wait_for(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 10.0,
                 what: str = "the virtual board") -> dict[str, Any]:
        """Poll status() until predicate(status) holds; that status, or VirtualBoardError."""
        end = time.monotonic() + timeout
        while True:
            st = self.status()
            if predicate(st):
                return st
            if time.monotonic() > end:
                raise VirtualBoardError(f"timed out waiting for {what} (last status: "
                                        f"state {st['state']}, boots {st['boots']})")
            time.sleep(POLL_S)

    def wait_booted(self, after: int = 0, timeout: float = 10.0,
                    firmware: bool = False) -> dict[str, Any]:
        """Wait for a power-on later than boot number ``after`` to be running (main.py or REPL);
        with firmware=True, until the virtual profile is up."""
        return self.wait_for(
            lambda st: st["boots"] > after and st["state"] in READY_STATES
            and (st["firmware"] or not firmware),
            timeout, f"boot #{after + 1}")

    def events(self, timeout: float | None = None) -> Generator[dict[str, Any], None, None]:
        """Subscribe (now) on a second connection; iterate over the state, firmware, leds and
        buzzer events as they come. With a timeout, VirtualBoardError when none comes for that
        long. close() the iterator to unsubscribe."""
        sub = VirtualBoardClient(self.path.parent, timeout=self.timeout)
        sub.request("subscribe")
        sub._sock.settimeout(timeout)
        return self._stream(sub)

    @staticmethod
    def _stream(sub: "VirtualBoardClient") -> Generator[dict[str, Any], None, None]:
        try:
            while True:
                yield sub._line()
        finally:
            sub.close()
