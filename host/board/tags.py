"""Deck provisioning: bind every physical tag to the piece it is stuck on, in the deck registry.

Three ways in (``tapmat tags``, docs/provisioning.md):
- **tap**: the host names the next piece, the player taps it on a reader of the mat
  (``Session``: progress, undo of the last tap, resume of an interrupted session);
- **import**: a UID list from a tag vendor or a phone app, CSV or JSON (``read_uid_list``);
- **signed**: tags that carry a signed record (host/board/ndef.py) register themselves, in any
  order, on a mat that has the deck's key (``signed_record``).

Every path refuses, naming the UID and the piece: a UID tapped or listed twice, an unknown
code, a tag that the registry already binds to another piece, more copies of a piece than the
game has. The registry is written with ``shared_rules/core/deck.py`` ``write`` (atomic).

The board side is a small script run with mpremote (``BoardReader``): it scans one reader with
the real MFRC522 driver and the firmware's debouncing (firmware/presence.py) and prints a line
per tag that arrives or leaves, with the tag's user memory when asked; on the host's request it
writes a signed record into a tag on that reader (NTAG WRITE) and reads it back. The firmware
itself is unchanged, so this works the same on a Pico and on the virtual board.
"""
from __future__ import annotations

import csv
import io
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from host.board.mfrc522_layout import FIRST_USER_PAGE, STATUS_NAMES
from host.board.presence_layout import ARRIVE
from host.board import ndef
from host.board.flash import READ_TIMEOUT_S, BoardError, Connection
from shared_rules import catalogue
from shared_rules.core import deck
from shared_rules.core import tokens

COMMAND_PAD = 15  # hardware/mat_layout.json: every layout's "command" reader


class ProvisionError(ValueError):
    """A tap, a list line or a record that cannot go into the registry; the message says why."""


# -- pieces ------------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Piece:
    """One physical piece: what a registry record says apart from the UID."""

    kind: str
    code: str
    game: str | None = None
    seat: int | None = None
    deck: int = 0

    def record(self, uid: str) -> dict[str, Any]:
        """The registry record (shared_rules/core/deck.py host form) binding ``uid`` to this piece."""
        r: dict[str, Any] = {"uid": uid, "kind": self.kind, "code": self.code, "deck": self.deck}
        if self.game is not None:
            r["game"] = self.game
        if self.seat is not None:
            r["seat"] = self.seat
        return r

    @property
    def name(self) -> str:
        """The piece name of a signed record: code, then /s<seat> and /d<deck> when needed."""
        return self.code + ("" if self.seat is None else f"/s{self.seat}") + \
            (f"/d{self.deck}" if self.deck else "")

    def __str__(self) -> str:
        words = f"{self.game + ' ' if self.game else ''}{self.kind} {self.code}"
        if self.seat is not None:
            words += f" of seat {self.seat}"
        return words + (f" (deck {self.deck})" if self.deck else "")


def _code_index() -> dict[str, tuple[str | None, str]]:
    """code -> (game, kind) for every code of every table; codes must be unique across them."""
    index: dict[str, tuple[str | None, str]] = {}
    for g, game in enumerate(deck.GAMES):
        for k, kind in enumerate(deck.KINDS):
            for code in deck.codes(g, k) or ():
                if code in index:
                    raise RuntimeError(f"code {code!r} names two pieces: a signed record would be ambiguous")
                index[code] = (game, kind)
    return index


CODES = _code_index()


def piece_of(record: dict[str, Any]) -> Piece:
    """The piece of a registry record (canonical form: ``deck.unpack`` output)."""
    return Piece(record["kind"], record["code"], record.get("game"), record.get("seat"),
                 record.get("deck", 0))


def resolve(code: Any, seat: Any = None, number: Any = None) -> Piece:
    """The piece named by a catalogue code (+ owner seat of a disc / deck number otherwise)."""
    if not isinstance(code, str) or code not in CODES:
        raise ProvisionError(f"unknown code {code!r} (codes: shared_rules/catalogue, tokens)")
    game, kind = CODES[code]
    if kind == "disc" and seat in (None, ""):
        raise ProvisionError(f"code {code!r}: a Skull disc needs its owner seat "
                             f"(0..{deck.OWNER_SEATS - 1})")
    piece = Piece(kind, code, game, _int(seat, "seat") if kind == "disc" else None,
                  _int(number, "deck") if number not in (None, "") else 0)
    if kind != "disc" and seat not in (None, ""):
        raise ProvisionError(f"code {code!r}: only Skull discs have an owner seat")
    try:
        deck.pack([piece.record("00" * deck.UID_LEN)])  # the rules of deck.py, one place
    except deck.DeckError as e:
        raise ProvisionError(str(e).replace("tag " + "00" * deck.UID_LEN + ": ", f"code {code!r}: ")) from None
    return piece


def parse_name(name: str) -> Piece:
    """The piece of a signed record's piece name (``flower/s2``, ``anchor2/d1``, ``pass``)."""
    code, *rest = name.split("/")
    seat = number = None
    for part in rest:
        if part[:1] == "s" and seat is None:
            seat = part[1:]
        elif part[:1] == "d" and number is None:
            number = part[1:]
        else:
            raise ProvisionError(f"piece name {name!r}: unknown part {part!r}")
    return resolve(code, seat, number)


def _int(v: Any, what: str) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        raise ProvisionError(f"{what} {v!r} is not a number") from None


def pieces_for(game: str | None, seats: Iterable[int] = (), number: int = 0,
               token_copies: int = 1, modules: Iterable[str] = ()) -> list[Piece]:
    """The pieces of one physical set, in the order the host asks for them.

    skull: 3 flowers and a skull per seat; deadmans: the 60 suit cards of deck ``number`` (and
    the 17 trait cards with deck 0); sheriff: the 216 goods cards, then the module cards of the
    Merry Men ``modules`` named; None: the command tokens.
    """
    if game == "skull":
        return [Piece("disc", code, game, seat) for seat in seats
                for code, n in zip(catalogue.SKULL_CODES, catalogue.SKULL_PER_SEAT) for _ in range(n)]
    if game == "deadmans":
        out = [Piece("card", code, game, None, number) for code in catalogue.DMD_CODES]
        return out + ([Piece("trait", t, game) for t in catalogue.DMD_TRAITS] if number == 0 else [])
    if game == "sheriff":
        return [Piece("card", g[0], game) for g in catalogue.SHERIFF_GOODS for _ in range(g[2])] + \
            [Piece("module", code, game) for m in modules for code in catalogue.sheriff_module_cards(m)]
    if game is None:
        return [Piece("token", code) for code in tokens.CODES for _ in range(token_copies)]
    raise ProvisionError(f"unknown game {game!r}: skull, deadmans, sheriff (or tokens)")


# -- the registry ------------------------------------------------------------------------------
def load_registry(path: Path) -> list[dict[str, Any]]:
    """The records of an existing registry file; none if it does not exist yet."""
    if not Path(path).exists():
        return []
    try:
        return list(deck.read(str(path)))
    except deck.DeckError as e:
        raise ProvisionError(str(e)) from None


def merge(existing: list[dict[str, Any]], new: list[dict[str, Any]], where: str = "the registry"
          ) -> list[dict[str, Any]]:
    """``existing`` plus the records of ``new`` not in it yet; a UID bound to another piece is
    refused. The result is checked as a whole (copies per game) by deck.pack."""
    have = {r["uid"]: piece_of(r) for r in existing}
    out = list(existing)
    for r in new:
        old = have.get(r["uid"])
        if old is None:
            out.append(r)
            have[r["uid"]] = piece_of(r)
        elif old != piece_of(r):
            raise ProvisionError(f"tag {r['uid']} is already registered as {old} in {where}, "
                                 f"not {piece_of(r)}")
    try:
        deck.pack(out)
    except deck.DeckError as e:
        raise ProvisionError(str(e)) from None
    return out


def write_registry(path: Path, records: list[dict[str, Any]]) -> int:
    """Write the registry (its folder too: ``--out decks/home.bin`` on a fresh clone)."""
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        return int(deck.write(str(path), records))
    except deck.DeckError as e:
        raise ProvisionError(str(e)) from None


def read_uid_list(path: Path) -> list[dict[str, Any]]:
    """Registry records from a UID list: CSV ``uid,code[,seat/deck]`` or JSON.

    CSV: one tag per line; an optional header line names the columns (uid, code, seat, deck);
    without one, the third column is the owner seat for a Skull disc, the deck number
    otherwise. JSON: a list of objects with uid, code and optionally seat, deck. Errors name
    the line (CSV) or the entry (JSON) and the UID or code.
    """
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeError) as e:
        raise ProvisionError(f"{path}: cannot read ({e})") from None
    rows: list[tuple[str, dict[str, Any]]] = []
    if text.lstrip().startswith(("[", "{")):
        try:
            doc = json.loads(text)
        except ValueError as e:
            raise ProvisionError(f"{path}: not JSON ({e})") from None
        if not isinstance(doc, list):
            raise ProvisionError(f"{path}: expected a JSON list of tags")
        for i, entry in enumerate(doc):
            if not isinstance(entry, dict):
                raise ProvisionError(f"{path}: entry {i}: expected an object, not {entry!r}")
            rows.append((f"entry {i}", entry))
    else:
        lines = [(n, row) for n, row in enumerate(csv.reader(io.StringIO(text)), 1)
                 if row and any(c.strip() for c in row) and not row[0].lstrip().startswith("#")]
        header = None
        if lines and {"uid", "code"} <= {c.strip().lower() for c in lines[0][1]}:
            header = [c.strip().lower() for c in lines[0][1]]
            lines = lines[1:]
        for n, row in lines:
            cells = [c.strip() for c in row]
            if header:
                rows.append((f"line {n}", dict(zip(header, cells))))
            else:
                third = cells[2] if len(cells) > 2 else None
                code = cells[1] if len(cells) > 1 else None
                kind = CODES.get(code or "", (None, ""))[1]
                rows.append((f"line {n}", {"uid": cells[0], "code": code,
                                           "seat" if kind == "disc" else "deck": third}))
    return _records(path, rows)


def _records(path: Path, rows: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    out = []
    seen: dict[str, tuple[str, Piece]] = {}
    for where, entry in rows:
        unknown = set(entry) - {"uid", "code", "seat", "deck"}
        if unknown:
            raise ProvisionError(f"{path}, {where}: unknown field(s) {', '.join(sorted(unknown))}")
        try:
            uid = deck.uid_hex(deck.parse_uid(entry.get("uid")))
            piece = resolve(entry.get("code"), entry.get("seat"), entry.get("deck"))
        except (ProvisionError, deck.DeckError) as e:
            raise ProvisionError(f"{path}, {where}: {e}") from None
        if uid in seen:
            first, other = seen[uid]
            raise ProvisionError(f"{path}, {where}: duplicate UID {uid} (already {first}: {other})")
        seen[uid] = (where, piece)
        out.append(piece.record(uid))
    return out


# -- tapping -----------------------------------------------------------------------------------
@dataclass
class Session:
    """Bind the pending pieces, in order, to the tags tapped; ``existing`` is the registry so far.

    Pieces the registry already holds enough copies of are not asked for again, so an
    interrupted session resumes where it stopped.
    """

    pieces: list[Piece]
    existing: list[dict[str, Any]] = field(default_factory=list)
    taps: list[tuple[str, Piece]] = field(default_factory=list)

    def __post_init__(self) -> None:
        held = Counter(piece_of(r) for r in self.existing)
        self.pending: list[Piece] = []
        for p in self.pieces:
            if held[p]:
                held[p] -= 1
            else:
                self.pending.append(p)
        self.already = len(self.pieces) - len(self.pending)
        self._registered = {r["uid"]: piece_of(r) for r in self.existing}

    @property
    def expected(self) -> Piece | None:
        """The piece to tap next, None when every piece is registered."""
        return self.pending[len(self.taps)] if len(self.taps) < len(self.pending) else None

    @property
    def done(self) -> bool:
        return self.expected is None

    def progress(self) -> tuple[int, int]:
        """(pieces registered, pieces in the set)."""
        return self.already + len(self.taps), len(self.pieces)

    def tap(self, uid: str) -> Piece:
        """Bind ``uid`` to the expected piece; ProvisionError (nothing changes) if it cannot be."""
        piece = self.expected
        if piece is None:
            raise ProvisionError("every piece is registered already")
        uid = deck.uid_hex(deck.parse_uid(uid))
        for i, (u, p) in enumerate(self.taps):
            if u == uid:
                raise ProvisionError(f"tag {uid} was tapped already, as {p} (tap {i + 1}); "
                                     f"take the next piece: {piece}")
        old = self._registered.get(uid)
        if old is not None:
            raise ProvisionError(f"tag {uid} is already registered as {old}; lift it and tap {piece}")
        self.taps.append((uid, piece))
        try:
            deck.pack(self.records())
        except deck.DeckError as e:
            self.taps.pop()
            raise ProvisionError(str(e)) from None
        return piece

    def undo(self) -> tuple[str, Piece]:
        """Forget the last tap of this session (its piece is asked for again)."""
        if not self.taps:
            raise ProvisionError("nothing to undo in this session")
        return self.taps.pop()

    def records(self) -> list[dict[str, Any]]:
        return self.existing + [p.record(u) for u, p in self.taps]


def signed_record(uid: str, memory: bytes, keys: list[ndef.DeckKey]) -> dict[str, Any]:
    """The registry record a tag's signed NDEF record vouches for (ProvisionError if none)."""
    raw = deck.parse_uid(uid)
    try:
        signed = ndef.verify(raw, memory, keys)
    except ndef.NdefError as e:
        raise ProvisionError(str(e)) from None
    return parse_name(signed.name).record(deck.uid_hex(raw))


# -- the board ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class TagEvent:
    kind: str                  # "arrive" or "leave"
    uid: str                   # 14 hex digits
    memory: bytes | None = None  # user memory from page 4 (arrivals, when asked for)


# The driver's status names, its first user page and presence's arrival code, defined in the
# script (the board holds none of these names).
READER_SCRIPT = "STATUS_NAMES = %r\nFIRST_USER_PAGE = %d\nARRIVE = %d\n" % (
    STATUS_NAMES, FIRST_USER_PAGE, ARRIVE) + """\
import binascii
from firmware import boards
from firmware.tag_writer import TagWriter
from firmware.presence import Presence
_b = boards.load()
_R = %(reader)d
if not 0 <= _R < len(_b.readers):
    raise ValueError('reader %%d: the board has readers 0..%%d' %% (_R, len(_b.readers) - 1))
_r = TagWriter.of(_b.readers[_R])
_p = Presence(readers=1, slots=5, misses=3)
_u = bytearray(35)
_d = bytearray(80)
_idle = getattr(_b, 'idle', None) or (lambda: _b.sleep_ms(5))
def _mem(uid):
    out = bytearray()
    for page in range(4, 4 + %(pages)d, 4):
        _r.antenna_on()
        n = _r.scan(_u, _d, page)
        _r.antenna_off()
        for i in range(n):
            if _u[7 * i:7 * i + 7] == uid:
                out.extend(_d[16 * i:16 * i + 16])
                break
        else:
            return '-'
    return binascii.hexlify(out).decode() or '-'
def _write(uid, data):
    # the record from page 4, a WRITE per page, then READ back: (result, page, memory read)
    _r.antenna_on()
    st = _r.select_uid(uid)
    page = FIRST_USER_PAGE
    for p in range(len(data) // 4):
        if st:
            break
        page = FIRST_USER_PAGE + p
        st = _r.write(page, data, 4 * p)
    back = bytearray()
    for p in range(0, len(data), 16):
        if st:
            break
        page = FIRST_USER_PAGE + p // 4
        st = _r.read(page, _d, 0)
        back.extend(_d[:16])
    _r.antenna_off()
    if st:
        return STATUS_NAMES[st], page, '-'
    for i in range(len(data)):
        if back[i] != data[i]:
            return 'differs', FIRST_USER_PAGE + i // 4, binascii.hexlify(back).decode()
    return 'ok', page, binascii.hexlify(back).decode()
_line = bytearray(320)
_n = 0
_c = bytearray(64)
def _command():
    # host commands on the serial link, one a line: W <uid hex> <data hex, whole pages>
    global _n
    k = _b.link.readinto(_c)
    for i in range(k):
        if _c[i] != 10:
            if _n < len(_line):
                _line[_n] = _c[i]
            _n += 1
            continue
        words = []
        try:
            words = bytes(_line[:_n]).decode().split() if _n <= len(_line) else []
            uid = binascii.unhexlify(words[1]) if len(words) == 3 and words[0] == 'W' else b''
            data = binascii.unhexlify(words[2]) if uid else b''
        except (ValueError, UnicodeError):
            uid = data = b''
        _n = 0
        if len(uid) == 7 and data and not len(data) & 3:
            print('W', words[1], *_write(uid, data))
        elif words and words[0] == 'W':
            print('W', words[1] if len(words) > 1 else '-', 'bad', 0, '-')
print('I', _r.init(), len(_b.readers))
while True:
    _idle()
    _command()
    _r.antenna_on()
    n = _r.scan(_u)
    _r.antenna_off()
    _p.feed(0, n, _u, _r.status == 0)
    while True:
        k = _p.pop()
        if not k:
            break
        uid = bytes(_p.uid)
        print('A' if k == ARRIVE else 'L', binascii.hexlify(uid).decode(),
              _mem(uid) if k == ARRIVE and %(pages)d else '-')
"""
READ_PAGES = ndef.READ_BYTES // 4
WRITE_PAGES_MAX = 36  # NTAG213 user memory: pages 4..39 (the smallest tag the mat uses)


class BoardReader:
    """Tags arriving on and leaving one reader of a board, while the firmware is stopped.

    ``memory=True`` reads each arriving tag's user memory (5 READs, enough for a signed
    record); ``write`` puts a record into a tag on the reader. Closing stops the script and
    restarts the board into its firmware.
    """

    def __init__(self, port: str, reader: int = COMMAND_PAD, memory: bool = False,
                 timeout: float = 5.0) -> None:
        self.board = Connection(port, timeout)
        self._buf = b""
        self._events: list[TagEvent] = []  # seen while waiting for a write's answer
        try:
            self.board.start(READER_SCRIPT % {"reader": reader, "pages": READ_PAGES if memory else 0})
            words = self._line(time.monotonic() + timeout)
            if words is None or words[0] != "I":
                raise BoardError(f"{port}: the reader script did not start: {self._failure(words)}")
            if words[1] != "0":
                raise BoardError(f"{port}: reader {reader} does not answer (MFRC522 driver status "
                                 f"{words[1]}): check its wiring and chip select")
        except BaseException:
            self._restart()
            raise

    def _failure(self, words: list[str] | None) -> str:
        """Why the script is not running: its last error line, if it ended."""
        if words is None or words[0] != "\x04":
            return "no answer" if words is None else " ".join(words)
        err, self._buf = self._buf, b""
        if b"\x04" not in err:
            err += self.board.transport.read_until(1, b"\x04", timeout=2)
        lines = err.split(b"\x04")[0].decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else "it ended"

    def _line(self, deadline: float) -> list[str] | None:
        """The next output line as words (["\\x04"] if the script ended), None at the deadline."""
        port = self.board.serial
        while b"\n" not in self._buf and b"\x04" not in self._buf:
            if time.monotonic() >= deadline:
                return None
            port.timeout = max(0.0, min(0.05, deadline - time.monotonic()))
            self._buf += port.read(max(1, port.in_waiting))
        if b"\x04" in self._buf.split(b"\n", 1)[0]:
            self._buf = self._buf[self._buf.index(b"\x04") + 1:]
            return ["\x04"]
        line, self._buf = self._buf.split(b"\n", 1)
        return line.decode(errors="replace").split()

    def next(self, timeout: float) -> TagEvent | None:
        """The next arrival or departure within ``timeout`` seconds, else None."""
        if self._events:
            return self._events.pop(0)
        deadline = time.monotonic() + timeout
        while True:
            words = self._words(deadline)
            if words is None:
                return None
            if words[0] in ("A", "L") and len(words) == 3:  # else a print of the board profile
                return self._event(words)

    def _words(self, deadline: float) -> list[str] | None:
        words = self._line(deadline)
        if words is not None and words[0] == "\x04":
            raise BoardError(f"{self.board.port}: the reader script stopped: {self._failure(words)}")
        return words

    @staticmethod
    def _event(words: list[str]) -> TagEvent:
        memory = None if words[2] == "-" else bytes.fromhex(words[2])
        return TagEvent("arrive" if words[0] == "A" else "leave", words[1], memory)

    def write(self, uid: str, data: bytes, timeout: float = 5.0) -> bytes:
        """Write ``data`` from page 4 into tag ``uid`` lying on the reader and read it back.

        On the board: ``select_uid`` and one NTAG WRITE per page with the real driver (a lost
        ACK is settled by reading the page back, firmware/mfrc522.py), then READs of
        the pages written, compared byte by byte. Returns the bytes read back (whole pages);
        ProvisionError names the page and the driver status when the tag was not written.
        """
        data = bytes(data) + bytes(-len(data) % 4)
        if not data or len(data) > 4 * WRITE_PAGES_MAX:
            raise ProvisionError(f"tag {uid}: {len(data)} bytes do not fit its user memory")
        self.board.serial.write(f"W {uid} {data.hex()}\n".encode())
        deadline = time.monotonic() + timeout
        while True:
            words = self._words(deadline)
            if words is None:
                raise BoardError(f"{self.board.port}: no answer to writing tag {uid}")
            if words[0] in ("A", "L") and len(words) == 3:
                self._events.append(self._event(words))
            elif words[:2] == ["W", uid] and len(words) == 5:
                break
        result, page, memory = words[2], words[3], words[4]
        if result == "ok":
            back = bytes.fromhex(memory)
            if back[:len(data)] == data:
                return back
            result = "differs"  # the board said ok but the bytes disagree: never trust it
        why = {"no_tag": "it is not on the reader", "nak": "the tag refused it (locked?)",
               "denied": "the page is not user memory",
               "differs": "what was read back differs"}.get(result, "driver status " + result)
        raise ProvisionError(f"tag {uid}: writing the record failed at page {page}: {why}; "
                             f"lift it and tap it again")

    def close(self) -> None:
        """Stop the script, restart the firmware (soft reset), release the port."""
        self.board.serial.timeout = READ_TIMEOUT_S
        try:
            self.board.stop()
        except BoardError:
            pass  # it ended already (an error the caller has seen)
        self._restart()

    def _restart(self) -> None:
        try:
            self.board.reset(hard=False)
        except BoardError:
            self.board.close()

    def __enter__(self) -> "BoardReader":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
