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
        p.accepted(rec)                # durable when it returns: tell the players only then
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

import gc
import json
import os
import struct
import sys

from shared_rules import games
from shared_rules.actions import ACTION_SIZE
from shared_rules.crc import crc16
from shared_rules.engine import OK, crc32

FORMAT = 1
_SNAP_MAGIC = const(b"TP")
_JRN_MAGIC = const(b"TJ")
_PREFIX = const("<2sBHIH")  # magic, format, gen, count (actions since the new game), header length
_SNAP_FIXED = const(11)      # struct.calcsize(_PREFIX); the header JSON follows
JRN_HEADER = 13      # magic 2, format 1, snapshot name 8, CRC-16 2 (= the record CRC seed)
REC_OVERHEAD = 5     # length 1, seqno 2, CRC-16 2
_END_MARK = const(0xFF)      # the end mark: 0xFF, then the seqno the next record will have (u16)
END_SIZE = 3
NAMES = ("snap.bin", "snap.old", "snap.new", "jrn.bin", "jrn.old", "jrn.new", "played")

if sys.implementation.name == "micropython":
    def _write(f, buf, n):
        """MicroPython streams take a length: no slice object, nothing allocated."""
        f.write(buf, n)
else:
    def _write(f, buf, n):
        f.write(memoryview(buf)[:n])


def _u16(b, at):
    return b[at] | (b[at + 1] << 8)


def snapshot_file(gen, count, header, game):
    """The bytes of a snapshot file (also recomputed at boot to follow a journal chain).

    No CRC over the whole file: the engine's snapshot ends in a CRC-32 of itself, and a CRC-32
    over a prefix plus such data depends only on the prefix and the length (CRC residue), so it
    could not tell two states apart. The prefix gets its own CRC-32 instead."""
    prefix = struct.pack(_PREFIX, _SNAP_MAGIC, FORMAT, gen, count, len(header)) + header
    return prefix + struct.pack("<I", crc32(prefix)) + game.snapshot()


def read_prefix(data):
    """``(gen, count, header bytes, state offset)`` if the self-checked prefix is intact."""
    if data is None or len(data) < _SNAP_FIXED:
        return None
    magic, fmt, gen, count, size = struct.unpack_from(_PREFIX, data, 0)
    end = _SNAP_FIXED + size
    if magic != _SNAP_MAGIC or fmt != FORMAT or len(data) < end + 4:
        return None
    if crc32(data[0:end]) != struct.unpack_from("<I", data, end)[0]:
        return None
    return gen, count, bytes(data[_SNAP_FIXED:end]), end + 4


def snapshot_name(data):
    """What a journal names its snapshot by: the prefix CRC-32 and the state's own CRC-32."""
    state_at = _SNAP_FIXED + _u16(data, 9) + 4
    return bytes(data[state_at - 4:state_at]) + bytes(data[len(data) - 4:])


def game_for(header):
    """A new game from stored header bytes, or None if they no longer describe one
    (``profile.Missing`` raised when the deck profile the header names is not the board's)."""
    try:
        header = json.loads(header.decode())
        gc.collect()   # the game's modules load into the holes boot's garbage leaves (app.new_game)
        return games.from_header(header)
    except ValueError as e:
        if getattr(e, "keep", False):
            raise   # intact, but the board's deck profile is gone or another: keep it (app.boot)
        return None


def restore_snapshot(data):
    """``(game, gen, count, header, name)`` from a fully valid snapshot file, else None."""
    head = read_prefix(data)
    game = game_for(head[2]) if head else None
    if game is None or game.restore(data[head[3]:]) != OK:
        return None
    return game, head[0], head[1], head[2], snapshot_name(data)


def journal_header(name):
    h = _JRN_MAGIC + bytes((FORMAT,)) + name
    return h + struct.pack("<H", crc16(h))


def journal_seed(data, name):
    """The record CRC seed if ``data`` is a journal that continues snapshot ``name``, else -1."""
    h = journal_header(name)
    if data is None or len(data) < JRN_HEADER or data[0:JRN_HEADER] != h:
        return -1
    return _u16(h, JRN_HEADER - 2)


def end_mark(seq):
    """The journal's last 3 bytes: the end mark and the seqno of the record that would follow."""
    return bytes((_END_MARK, seq & 255, (seq >> 8) & 255))


def _record_ok(data, at, seed, seq):
    """Whether a whole record with seqno ``seq`` and a good CRC starts at ``at``."""
    if at + REC_OVERHEAD > len(data):
        return False
    n = data[at]
    end = at + 3 + n
    return (n <= ACTION_SIZE and end + 2 <= len(data) and _u16(data, at + 1) == seq & 0xFFFF
            and crc16(data, at, end, seed) == _u16(data, end))


def _ends_at(data, at, seq):
    """Whether the journal ends at ``at`` with the end mark for ``seq``: nothing cut off."""
    return (len(data) == at + END_SIZE and data[at] == _END_MARK
            and _u16(data, at + 1) == seq & 0xFFFF)


def replay(game, data, seed, count):
    """Accept the journal's records in order; return ``(records replayed, bytes used, ended)``.

    Stops at the first record that is short, has a bad length, sequence number or CRC, or that
    the game refuses: what follows can not be trusted (a torn write or damage). ``ended``: the
    journal ends right there with its end mark, so no record was cut off (a cut at a record
    boundary leaves no end mark)."""
    rec = bytearray(ACTION_SIZE)
    at = JRN_HEADER
    done = 0
    while _record_ok(data, at, seed, count + done):
        n = data[at]
        for i in range(ACTION_SIZE):
            rec[i] = data[at + 3 + i] if i < n else 0
        if game.accept(rec) != OK:
            break
        done += 1
        at += n + REC_OVERHEAD
    return done, at, _ends_at(data, at, count + done)


def journal_continues(data, name, count):
    """The record CRC seed if ``data`` continues snapshot ``name`` (at ``count`` actions) even
    though its header is damaged: its first record (or its end mark, when it has none) must
    carry seqno ``count`` and, for a record, a CRC seeded by that snapshot's name. Else -1."""
    if data is None or len(data) < JRN_HEADER + END_SIZE:
        return -1
    seed = _u16(journal_header(name), JRN_HEADER - 2)
    if _record_ok(data, JRN_HEADER, seed, count) or _ends_at(data, JRN_HEADER, count):
        return seed
    return -1


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _remove(path):
    if _exists(path):
        os.remove(path)


class Persist:
    """Journal + snapshots of one game in directory ``root`` (see the module docstring)."""

    def __init__(self, root, every=32):
        if not isinstance(every, int) or isinstance(every, bool) or every < 1:
            raise ValueError("every must be a whole number >= 1")
        self.every = every
        p = {}
        for name in NAMES:
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
        self._buf = bytearray(ACTION_SIZE + REC_OVERHEAD + END_SIZE)
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
        if not _exists(self.path["played"]):
            # A game was stored here: if every file of it vanishes, boot says so instead of
            # silently starting afresh (tapmat flash removes this with the journal).
            with open(self.path["played"], "wb") as f:
                f.write(b"1")
        # The previous game is no fallback for this one: a damaged snap.bin is rebuilt from its
        # intact header instead (a new game), then its journal is replayed.
        _remove(self.path["snap.old"])
        _remove(self.path["jrn.old"])

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
        _write(self._jf, b, n + REC_OVERHEAD + END_SIZE)
        self._jf.flush()
        self._end += n + REC_OVERHEAD
        self.count += 1
        self.in_journal += 1
        self.records += 1
        self.record_bytes += n + REC_OVERHEAD

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
        data = snapshot_file(gen, self.count, self.header, self.game)
        name = snapshot_name(data)
        with open(p["snap.new"], "wb") as f:
            f.write(data)
        with open(p["jrn.new"], "wb") as f:
            f.write(journal_header(name) + end_mark(self.count))
        self.close()
        if _exists(p["snap.bin"]):
            _remove(p["snap.old"])
            _remove(p["jrn.old"])
            if _exists(p["jrn.bin"]):
                os.rename(p["snap.bin"], p["snap.old"])
                os.rename(p["jrn.bin"], p["jrn.old"])
            else:
                os.remove(p["snap.bin"])  # no journal of its own: no fallback pair
        _remove(p["jrn.bin"])
        os.rename(p["jrn.new"], p["jrn.bin"])
        os.rename(p["snap.new"], p["snap.bin"])
        self.gen = gen
        self.snapshots += 1
        self.snapshot_bytes = len(data)
        self._open_journal(name, 0, JRN_HEADER)

    def _open_journal(self, name, records, end):
        """Keep ``jrn.bin`` (``records`` long, continuing snapshot ``name``, its end mark at
        ``end``) open to append."""
        self._seed = _u16(journal_header(name), JRN_HEADER - 2)
        self.in_journal = records
        self._end = end
        self._jf = open(self.path["jrn.bin"], "r+b")

    def forget(self):
        """Remove every file of the stored game (a new game was asked for and starts at boot)."""
        self.close()
        self.game = None
        for name in NAMES:
            _remove(self.path[name])

    def close(self):
        if self._jf is not None:
            self._jf.close()
            self._jf = None

    def stats(self):
        """What persistence costs: journal bytes per action (x100, integer), snapshot size."""
        r = self.records
        return {"records": r, "record_bytes": self.record_bytes,
                "bytes_per_action_x100": self.record_bytes * 100 // r if r else 0,
                "snapshots": self.snapshots, "snapshot_bytes": self.snapshot_bytes,
                "journal_header_bytes": JRN_HEADER}

    # -- boot ----------------------------------------------------------------------------------
    def boot(self):
        """Restore the newest recoverable game: ``(game or None, info)``.

        Base: ``snap.bin`` if valid, else ``snap.old``, else a new game from the self-checked
        header of either. Then follow the chain: replay the journal that names the base, compute
        the snapshot a checkpoint would have written after it, replay the journal naming that
        one, and so on. Unless this was the ordinary case (valid ``snap.bin``, its ``jrn.bin``
        replayed to its end mark, an intact fallback pair), write a fresh snapshot + journal, so
        a torn tail is cut away and new records never land behind garbage.

        ``info``: ``source`` (``"snap.bin"``, ``"snap.old"``, ``"header"`` or None),
        ``journals`` (replayed, in order), ``replayed``, ``dropped`` (journal bytes not replayed:
        a torn or damaged tail), ``actions`` (since the new game), ``gen``, ``damage`` (what was
        found damaged or missing, short phrases), ``lost`` (acknowledged actions may be missing)
        and ``repaired`` (a fresh snapshot + journal were written). ``trouble(info)`` words it."""
        self.close()
        p = self.path
        info = {"source": None, "journals": [], "replayed": 0, "dropped": 0, "actions": 0,
                "gen": 0, "lost": False, "repaired": False, "damage": []}
        damage = info["damage"]
        snap = _read(p["snap.bin"])
        old = _read(p["snap.old"])
        journals = (("jrn.bin", _read(p["jrn.bin"])), ("jrn.old", _read(p["jrn.old"])),
                    ("jrn.new", _read(p["jrn.new"])))
        source = "snap.new"
        base = _finished_snapshot(_read(p["snap.new"]), journals[2][1])
        if base is None:
            source = "snap.bin"
            base = restore_snapshot(snap)
            if base is None and snap is not None:
                damage.append("snap.bin damaged")
        if base is None:
            if snap is None and old is not None and not _exists(p["snap.new"]):
                damage.append("snap.bin missing")  # a checkpoint cut before its rename has snap.new
            source = "snap.old"
            base = restore_snapshot(old)
            if base is None and old is not None:
                damage.append("snap.old damaged")
        if base is None:
            source = "header"
            base = self._base_from_header(snap, old)
        if base is None:
            if snap is not None or old is not None or _exists(p["played"]):
                damage.append("the stored game is gone")
                info["lost"] = True
            return None, info
        game, gen, count, header, name = base
        count, last_gen, last_name, next_name, ended = _chain(game, gen, count, header, name,
                                                              journals, info)
        used = info["journals"]
        self.game, self.header, self.count, self.gen = game, header, count, last_gen
        info["source"], info["actions"] = source, count
        if used and not ended:
            damage.append("%s: %d bytes unreadable" % (used[-1], info["dropped"]) if info["dropped"]
                          else used[-1] + " cut short")
            info["lost"] = True
        elif not used or used[-1] not in ("jrn.bin", "jrn.new"):
            # The chain stopped short of the newest journal: fine only after a power cut inside
            # a checkpoint, when the snapshot it was writing carries the chain's next name.
            if not self._cut_in_checkpoint(next_name if used else name):
                damage.append("jrn.bin missing or damaged")
                info["lost"] = True
        ordinary = (source == "snap.bin" and used == ["jrn.bin"] and ended and not damage
                    and journals[2][1] is None and not _exists(p["snap.new"]))
        if ordinary and not _fallback_ok(old, journals[1][1]):
            damage.append("the fallback snap.old/jrn.old damaged")
            ordinary = False
        if ordinary:
            self._open_journal(last_name, info["replayed"], len(journals[0][1]) - END_SIZE)
        else:
            if snap is not None and source in ("snap.old", "header"):
                os.remove(p["snap.bin"])    # damaged: keep the valid snap.old as the fallback
            self.checkpoint()
            info["repaired"] = True
        info["gen"] = self.gen
        return game, info

    def _cut_in_checkpoint(self, final):
        """Whether the chain's end (snapshot name ``final``) is a checkpoint that a power cut
        stopped before its journal became ``jrn.bin``: ``snap.new`` carries that name."""
        data = _read(self.path["snap.new"])
        return data is not None and read_prefix(data) is not None and snapshot_name(data) == final

    def _base_from_header(self, snap, old):
        """A new game from the first intact snapshot header, named like the file it came from."""
        for data in (snap, old):
            head = read_prefix(data)
            game = game_for(head[2]) if head else None
            if game is not None:
                name = snapshot_name(snapshot_file(head[0], 0, head[2], game))
                return game, head[0], 0, head[2], name
        return None


def trouble(info):
    """One line for the players and the host when boot found damage, else None."""
    if not info or not info.get("damage"):
        return None
    return "stored game damaged (%s): %d actions restored%s" % (
        ", ".join(info["damage"]), info.get("actions", 0),
        "; recent actions may be missing" if info.get("lost") else ", nothing lost")


def _chain(game, gen, count, header, name, journals, info):
    """Replay the journals that continue snapshot ``name``, one after the other (see boot).
    Returns ``(count, gen, name of the last base, name a checkpoint would give next, ended)``."""
    used = info["journals"]
    last_gen, last_name, ended = gen, name, True
    while len(used) < len(journals):
        file, data, seed = _journal_for(journals, used, name, count, info)
        if file is None:
            break
        done, end, ended = replay(game, data, seed, count)
        count += done
        info["replayed"] += done
        info["dropped"] += len(data) - end - (END_SIZE if ended else 0)
        used.append(file)
        last_gen, last_name = gen, name
        gen = (gen + 1) & 0xFFFF
        name = snapshot_name(snapshot_file(gen, count, header, game))
        if not ended:
            break
    return count, last_gen, last_name, name, ended


def _finished_snapshot(data, journal):
    """``restore_snapshot(data)`` when ``journal`` is its complete, empty journal: a checkpoint
    that wrote both and was cut before its renames (nothing was accepted after it). Else None."""
    if data is None or journal is None:
        return None
    base = restore_snapshot(data)
    if base is None or journal_seed(journal, base[4]) < 0 or not _ends_at(journal, JRN_HEADER, base[2]):
        return None
    return base


def _fallback_ok(old, jrn_old):
    """Whether the fallback pair is intact without building a game: ``snap.old``'s prefix and
    state CRCs, ``jrn.old`` naming it, whole records to its end mark (or neither file)."""
    if old is None or jrn_old is None:
        return old is None and jrn_old is None
    head = read_prefix(old)
    if head is None or len(old) < head[3] + 8:
        return False
    n = len(old)
    if crc32(old[head[3]:n - 4]) != old[n - 4] | (old[n - 3] << 8) | (old[n - 2] << 16) | (old[n - 1] << 24):
        return False
    seed = journal_seed(jrn_old, snapshot_name(old))
    at = JRN_HEADER
    seq = head[1]
    while seed >= 0 and _record_ok(jrn_old, at, seed, seq):
        at += jrn_old[at] + REC_OVERHEAD
        seq += 1
    return seed >= 0 and _ends_at(jrn_old, at, seq)


def _journal_for(journals, used, name, count, info):
    """The first unreplayed journal continuing snapshot ``name``: ``(file, data, seed)``; one
    whose header is damaged but whose first record (or end mark) continues it counts too."""
    for file, data in journals:
        if file not in used:
            seed = journal_seed(data, name)
            if seed >= 0:
                return file, data, seed
    for file, data in journals:
        if file not in used:
            seed = journal_continues(data, name, count)
            if seed >= 0:
                info["damage"].append(file + " header damaged")
                return file, data, seed
    return None, None, -1
