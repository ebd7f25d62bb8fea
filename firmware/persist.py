"""Power-loss-safe persistence of the running game: a journal of accepted actions plus periodic
atomic snapshots on the board's filesystem. Formats, boot algorithm and failure cases:
``docs/persistence.md``.

The promise: once ``accepted(rec)`` has returned, that action survives a power cut; a cut while
it runs loses at most that one action; boot never restores a state the game did not reach.

Files in ``root``: ``snap.bin`` (newest snapshot) and ``jrn.bin`` (the actions after it),
``snap.old`` and ``jrn.old`` (the pair before, the fallback), ``snap.new``/``jrn.new`` (a
checkpoint being written), ``played`` (a game was stored here). A journal names the exact snapshot
it continues (the CRC-32s of its prefix and of its game state; every record's CRC is seeded from
that name), so it is never replayed on another base, and ends in an end mark, so a cut anywhere
shows. Every damage or possible loss boot finds is in ``info["damage"]``, worded by
``trouble(info)`` for the host and the players.

API::

    p = Persist("/data", every=32)     # every: actions per journal before a new snapshot
    game, info = p.boot()              # the recovered game (None: nothing to recover) + report
    if game is None:
        game = games.from_header(header)
        p.new_game(header, game)       # header: the log header (dict or JSON text)
    if game.accept(rec) == OK:
        p.accepted(rec)                # durable when it returns: tell the host only then
    p.tidy()                           # between actions: a snapshot every ``every`` actions
    p.checkpoint()                     # snapshot now (e.g. before a planned power-off)
    p.stats()                          # journal bytes per action, snapshot bytes, ...

``accepted`` allocates nothing on MicroPython (preallocated record buffer, the journal kept open,
``write(buf, n)`` + ``flush()``); the snapshot every ``every`` actions is written by ``tidy()``,
outside the accept path.
``flush`` is the durability point: on littlefs it is ``lfs_file_sync``, an atomic commit.
Filesystem errors (full, I/O) propagate as ``OSError``; call ``boot()`` again after one.
Only ``open``, ``os.rename``, ``os.remove`` and ``os.stat`` are used (every port has them).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

import binascii
import gc
import json
import os
import sys

from shared_rules.core.actions import ACTION_SIZE
from shared_rules.wire.crc import crc16
from firmware import journal_format as fmt

# Private: firmware.recover has its own copies and tests/test_rules_literals.py checks they agree
# (the file formats: firmware.journal_format).
_JRN_HEADER = const(13)      # magic 2, format 1, snapshot name 8, CRC-16 2 (= the record CRC seed)
_REC_OVERHEAD = const(5)     # length 1, seqno 2, CRC-16 2
_END_MARK = const(0xFF)      # the end mark: 0xFF, then the seqno the next record will have (u16)
_END_SIZE = const(3)
# The engine's snapshot tag (shared_rules.core.engine: magic "TM", version): ``checkpoint`` writes a
# game's snapshot from its state without building it (tests/test_rules_literals.py).
_STATE_TAG = const(b"TM\x01")
_NAMES = const(("snap.bin", "snap.old", "snap.new", "jrn.bin", "jrn.old", "jrn.new", "played"))

if sys.implementation.name == "micropython":
    def _write(f, buf, n):
        """MicroPython streams take a length: no slice object, nothing allocated."""
        f.write(buf, n)
else:
    def _write(f, buf, n):
        f.write(memoryview(buf)[:n])


class Persist:
    """Journal + snapshots of one game in directory ``root`` (see the module docstring)."""

    def __init__(self, root, every=32):
        if not isinstance(every, int) or isinstance(every, bool) or every < 1:
            raise ValueError("every must be a whole number >= 1")
        self.every = every
        p = {}
        for name in _NAMES:
            p[name] = root + "/" + name
        self.path = p
        self.game = None
        self.header = b""
        self.gen = 0
        self.count = 0          # actions since the new game
        self.in_journal = 0     # records in the open journal
        self._jf = None
        self._seed = 0
        self._end = 0           # offset of the journal's end mark
        self._buf = bytearray(ACTION_SIZE + _REC_OVERHEAD + _END_SIZE)
        self.records = 0        # statistics since construction
        self.record_bytes = 0
        self.snapshots = 0
        self.snapshot_bytes = 0

    # -- normal operation --------------------------------------------------------------------
    def new_game(self, header, game):
        """Start persisting ``game`` (fresh from ``header``); replaces what was stored."""
        text = json.dumps(header) if isinstance(header, dict) else header
        raw = text.encode() if isinstance(text, str) else bytes(text)
        try:
            parsed = json.loads(raw.decode())
        except ValueError:
            raise ValueError("the header is not JSON")
        if not isinstance(parsed, dict) or parsed.get("game") != game.NAME or len(raw) > 65535:
            raise ValueError("the header does not describe this game")
        self.game = game
        self.header = raw
        self.count = 0
        self.checkpoint()
        if not fmt.exists(self.path["played"]):
            # A game was stored here: if every file of it vanishes, boot says so instead of
            # silently starting afresh (tapmat flash removes this with the journal).
            with open(self.path["played"], "wb") as f:
                f.write(b"1")
        # The previous game is no fallback for this one: a damaged snap.bin is rebuilt from its
        # intact header instead (a new game), then its journal is replayed.
        fmt.remove(self.path["snap.old"])
        fmt.remove(self.path["jrn.old"])

    def accepted(self, rec):
        """Append one accepted action record to the journal and flush it (allocation-free).

        The record overwrites the journal's end mark and carries a new one after it, in one
        write: a journal cut anywhere, even exactly between two records, lacks its end mark."""
        n = len(rec)
        if n > ACTION_SIZE or self._jf is None:
            raise ValueError("not an action record, or no game")
        while n and rec[n - 1] == 0:
            n -= 1
        b = self._buf
        seq = self.count & 0xFFFF
        b[0] = n
        b[1] = seq & 255
        b[2] = seq >> 8
        for i in range(n):
            b[3 + i] = rec[i]
        c = crc16(b, 0, 3 + n, self._seed)
        b[3 + n] = c & 255
        b[4 + n] = c >> 8
        seq = (seq + 1) & 0xFFFF
        b[5 + n] = _END_MARK
        b[6 + n] = seq & 255
        b[7 + n] = seq >> 8
        self._jf.seek(self._end)
        _write(self._jf, b, n + _REC_OVERHEAD + _END_SIZE)
        self._jf.flush()
        self._end += n + _REC_OVERHEAD
        self.count += 1
        self.in_journal += 1
        self.records += 1
        self.record_bytes += n + _REC_OVERHEAD

    def undone(self):
        """The last accepted action was taken back (the game's state is the one before it again):
        a snapshot of that state now, so that no journal replays the action after a power cut.
        Like ``tidy``, it allocates (an undo is a host command, not the accept path)."""
        if self.count < 1:
            raise ValueError("no action to take back")
        self.count -= 1
        self.checkpoint()

    def tidy(self):
        """Snapshot when the journal holds ``every`` actions. Call between actions (the event
        loop does when the line is quiet): a snapshot allocates, accepting must not."""
        if self.in_journal >= self.every:
            self.checkpoint()

    def checkpoint(self):
        """Write a snapshot of the game now and start a new journal after it.

        Order (each step leaves a recoverable set of files): write ``snap.new`` and ``jrn.new``
        (naming it, no records) and close them; retire ``snap.bin``/``jrn.bin`` to ``.old`` (the
        previous pair is removed first); rename ``jrn.new`` to ``jrn.bin``, then ``snap.new`` to
        ``snap.bin``. So a valid ``snap.bin`` always has its ``jrn.bin``: a missing one is a
        loss that boot reports, never the trace of a power cut."""
        if self.game is None:
            raise ValueError("no game")
        p = self.path
        gen = (self.gen + 1) & 0xFFFF
        # fmt.snapshot_file(), written piece by piece: the game's snapshot (``Game.snapshot``: tag,
        # game id, state, CRC-32) comes from its state in place, so that a checkpoint takes no
        # block of the state's size while a game runs (Sheriff's is ~0.5 KB).
        head = fmt.snapshot_head(gen, self.count, self.header)
        state = self.game.s
        tag = _STATE_TAG + bytes((self.game.GAME_ID,))
        c = binascii.crc32(state, binascii.crc32(tag))
        crc = bytes((c & 255, (c >> 8) & 255, (c >> 16) & 255, (c >> 24) & 255))
        name = head[len(head) - 4:] + crc   # as fmt.snapshot_name(fmt.snapshot_file(...))
        with open(p["snap.new"], "wb") as f:
            f.write(head)
            f.write(tag)
            f.write(state)
            f.write(crc)
        with open(p["jrn.new"], "wb") as f:
            f.write(fmt.journal_header(name) + fmt.end_mark(self.count))
        self.close()
        if fmt.exists(p["snap.bin"]):
            fmt.remove(p["snap.old"])
            fmt.remove(p["jrn.old"])
            if fmt.exists(p["jrn.bin"]):
                os.rename(p["snap.bin"], p["snap.old"])
                os.rename(p["jrn.bin"], p["jrn.old"])
            else:
                os.remove(p["snap.bin"])  # no journal of its own: no fallback pair
        fmt.remove(p["jrn.bin"])
        os.rename(p["jrn.new"], p["jrn.bin"])
        os.rename(p["snap.new"], p["snap.bin"])
        self.gen = gen
        self.snapshots += 1
        self.snapshot_bytes = len(head) + len(tag) + len(state) + 4
        self._open_journal(name, 0, _JRN_HEADER)

    def _open_journal(self, name, records, end):
        """Keep ``jrn.bin`` (``records`` long, continuing snapshot ``name``, its end mark at
        ``end``) open to append."""
        self._seed = fmt.u16(fmt.journal_header(name), _JRN_HEADER - 2)
        self.in_journal = records
        self._end = end
        self._jf = open(self.path["jrn.bin"], "r+b")

    def forget(self):
        """Remove every file of the stored game (a new game was asked for and starts at boot)."""
        self.close()
        self.game = None
        for name in _NAMES:
            fmt.remove(self.path[name])

    def close(self):
        if self._jf is not None:
            self._jf.close()
            self._jf = None

    def boot(self, between=None):
        """Restore the newest recoverable game: ``(game or None, info)`` (``firmware.recover``:
        the algorithm and ``info``). The recovery code is loaded for this and let go after it:
        a running game never holds it. ``between``: as ``games.from_header``'s, for a game
        built from a stored header (the app lets go of the deck profile's code there)."""
        gc.collect()   # its code loads into the heap with the start's garbage freed
        from firmware import recover
        try:
            return recover.boot(self, between)
        finally:
            del sys.modules["firmware.recover"]
            package = sys.modules.get("firmware")
            if package is not None and hasattr(package, "recover"):
                delattr(package, "recover")

    def stats(self):
        """What persistence costs: journal bytes per action (x100, integer), snapshot size."""
        r = self.records
        return {"records": r, "record_bytes": self.record_bytes,
                "bytes_per_action_x100": self.record_bytes * 100 // r if r else 0,
                "snapshots": self.snapshots, "snapshot_bytes": self.snapshot_bytes,
                "journal_header_bytes": _JRN_HEADER}


def trouble(info):
    """One line for the players and the host when boot found damage, else None."""
    if not info or not info.get("damage"):
        return None
    return "stored game damaged (%s): %d actions restored%s" % (
        ", ".join(info["damage"]), info.get("actions", 0),
        "; recent actions may be missing" if info.get("lost") else ", nothing lost")


def __getattr__(name):
    # What only boot uses lives in firmware.recover (loaded for boot, then let go); the tests
    # read some of it here.
    from firmware import recover
    try:
        return getattr(recover, name)
    except AttributeError:
        raise AttributeError(name)
