"""Boot-time recovery of the stored game (``firmware/persist.py``; formats and cases:
``docs/persistence.md``). Only ``Persist.boot`` loads this module, and lets go of it after: a
running game never holds the recovery code.
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

from shared_rules import games
from shared_rules.core.actions import ACTION_SIZE
from shared_rules.wire.crc import crc16
from shared_rules.core.engine import OK, crc32
from firmware.journal_format import exists as _exists, journal_header, snapshot_file, snapshot_name, u16 as _u16

# persist's private constants (tests/test_rules_literals.py checks they are the same).
_FORMAT = const(1)
_SNAP_MAGIC = const(b"TP")
_PREFIX = const("<2sBHIH")
_SNAP_FIXED = const(11)
_JRN_HEADER = const(13)
_REC_OVERHEAD = const(5)
_END_MARK = const(0xFF)
_END_SIZE = const(3)


def read_prefix(data):
    """``(gen, count, header bytes, state offset)`` if the self-checked prefix is intact."""
    if data is None or len(data) < _SNAP_FIXED:
        return None
    magic, fmt, gen, count, size = struct.unpack_from(_PREFIX, data, 0)
    end = _SNAP_FIXED + size
    if magic != _SNAP_MAGIC or fmt != _FORMAT or len(data) < end + 4:
        return None
    if crc32(data[0:end]) != struct.unpack_from("<I", data, end)[0]:
        return None
    return gen, count, bytes(data[_SNAP_FIXED:end]), end + 4


def game_for(header, between=None):
    """A new game from stored header bytes, or None if they no longer describe one
    (``profile.Missing`` raised when the deck profile the header names is not the board's).
    ``between``: as ``games.from_header``'s (the app lets go of the profile code there)."""
    try:
        header = json.loads(header.decode())
        gc.collect()   # the game's modules load into the holes boot's garbage leaves (app.new_game)
        return games.from_header(header, between)
    except ValueError as e:
        if getattr(e, "keep", False):
            raise   # intact, but the board's deck profile is gone or another: keep it (app.boot)
        return None


def restore_snapshot(data, between=None):
    """``(game, gen, count, header, name)`` from a fully valid snapshot file, else None."""
    head = read_prefix(data)
    game = game_for(head[2], between) if head else None
    if game is None or game.restore(data[head[3]:]) != OK:
        return None
    return game, head[0], head[1], head[2], snapshot_name(data)


def journal_seed(data, name):
    """The record CRC seed if ``data`` is a journal that continues snapshot ``name``, else -1."""
    h = journal_header(name)
    if data is None or len(data) < _JRN_HEADER or data[0:_JRN_HEADER] != h:
        return -1
    return _u16(h, _JRN_HEADER - 2)


def _record_ok(data, at, seed, seq):
    """Whether a whole record with seqno ``seq`` and a good CRC starts at ``at``."""
    if at + _REC_OVERHEAD > len(data):
        return False
    n = data[at]
    end = at + 3 + n
    return (n <= ACTION_SIZE and end + 2 <= len(data) and _u16(data, at + 1) == seq & 0xFFFF
            and crc16(data, at, end, seed) == _u16(data, end))


def _ends_at(data, at, seq):
    """Whether the journal ends at ``at`` with the end mark for ``seq``: nothing cut off."""
    return (len(data) == at + _END_SIZE and data[at] == _END_MARK
            and _u16(data, at + 1) == seq & 0xFFFF)


def replay(game, data, seed, count):
    """Accept the journal's records in order; return ``(records replayed, bytes used, ended)``.

    Stops at the first record that is short, has a bad length, sequence number or CRC, or that
    the game refuses: what follows can not be trusted (a torn write or damage). ``ended``: the
    journal ends right there with its end mark, so no record was cut off (a cut at a record
    boundary leaves no end mark)."""
    rec = bytearray(ACTION_SIZE)
    at = _JRN_HEADER
    done = 0
    while _record_ok(data, at, seed, count + done):
        n = data[at]
        for i in range(ACTION_SIZE):
            rec[i] = data[at + 3 + i] if i < n else 0
        if game.accept(rec) != OK:
            break
        done += 1
        at += n + _REC_OVERHEAD
    return done, at, _ends_at(data, at, count + done)


def journal_continues(data, name, count):
    """The record CRC seed if ``data`` continues snapshot ``name`` (at ``count`` actions) even
    though its header is damaged: its first record (or its end mark, when it has none) must
    carry seqno ``count`` and, for a record, a CRC seeded by that snapshot's name. Else -1."""
    if data is None or len(data) < _JRN_HEADER + _END_SIZE:
        return -1
    if crc16(data, 0, _JRN_HEADER - 2) == _u16(data, _JRN_HEADER - 2):
        return -1   # an intact header naming another snapshot (after an undo, counts repeat)
    seed = _u16(journal_header(name), _JRN_HEADER - 2)
    if _record_ok(data, _JRN_HEADER, seed, count) or _ends_at(data, _JRN_HEADER, count):
        return seed
    return -1


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def boot(persist, between=None):
    """Restore the newest recoverable game: ``(game or None, info)``.

    Base: ``snap.bin`` if valid, else ``snap.old``, else a new game from the self-checked
    header of either. Then follow the chain: replay the journal that names the base, compute
    the snapshot a checkpoint would have written after it, replay the journal naming that
    one, and so on. Unless this was the ordinary case (valid ``snap.bin``, its ``jrn.bin``
    replayed to its end mark, an intact fallback pair), write a fresh snapshot + journal, so
    a torn tail is cut away and new records never land behind garbage.

    ``between``: as ``games.from_header``'s, for each game a header builds here.

    ``info``: ``source`` (``"snap.bin"``, ``"snap.old"``, ``"header"`` or None),
    ``journals`` (replayed, in order), ``replayed``, ``dropped`` (journal bytes not replayed:
    a torn or damaged tail), ``actions`` (since the new game), ``gen``, ``damage`` (what was
    found damaged or missing, short phrases), ``lost`` (acknowledged actions may be missing)
    and ``repaired`` (a fresh snapshot + journal were written). ``trouble(info)`` words it."""
    persist.close()
    p = persist.path
    info = {"source": None, "journals": [], "replayed": 0, "dropped": 0, "actions": 0,
            "gen": 0, "lost": False, "repaired": False, "damage": []}
    damage = info["damage"]
    snap = _read(p["snap.bin"])
    old = _read(p["snap.old"])
    journals = (("jrn.bin", _read(p["jrn.bin"])), ("jrn.old", _read(p["jrn.old"])),
                ("jrn.new", _read(p["jrn.new"])))
    source = "snap.new"
    new = _read(p["snap.new"])
    base = (_finished_snapshot(new, journals[2][1], between)
            or _finished_snapshot(new, journals[0][1], between))
    if base is None:
        source = "snap.bin"
        base = restore_snapshot(snap, between)
        if base is None and snap is not None:
            damage.append("snap.bin damaged")
    if base is None:
        if snap is None and old is not None and not _exists(p["snap.new"]):
            damage.append("snap.bin missing")  # a checkpoint cut before its rename has snap.new
        source = "snap.old"
        base = restore_snapshot(old, between)
        if base is None and old is not None:
            damage.append("snap.old damaged")
    if base is None:
        source = "header"
        base = _base_from_header(snap, old, between)
    if base is None:
        if snap is not None or old is not None or _exists(p["played"]):
            damage.append("the stored game is gone")
            info["lost"] = True
        return None, info
    game, gen, count, header, name = base
    count, last_gen, last_name, next_name, ended = _chain(game, gen, count, header, name,
                                                          journals, info)
    used = info["journals"]
    persist.game, persist.header, persist.count, persist.gen = game, header, count, last_gen
    info["source"], info["actions"] = source, count
    if used and not ended:
        damage.append("%s: %d bytes unreadable" % (used[-1], info["dropped"]) if info["dropped"]
                      else used[-1] + " cut short")
        info["lost"] = True
    elif not used or used[-1] not in ("jrn.bin", "jrn.new"):
        # The chain stopped short of the newest journal: fine only after a power cut inside
        # a checkpoint, when the snapshot it was writing carries the chain's next name.
        if not _cut_in_checkpoint(persist, next_name if used else name):
            damage.append("jrn.bin missing or damaged")
            info["lost"] = True
    ordinary = (source == "snap.bin" and used == ["jrn.bin"] and ended and not damage
                and journals[2][1] is None and not _exists(p["snap.new"]))
    if ordinary and not _fallback_ok(old, journals[1][1]):
        damage.append("the fallback snap.old/jrn.old damaged")
        ordinary = False
    if ordinary:
        persist._open_journal(last_name, info["replayed"], len(journals[0][1]) - _END_SIZE)
    else:
        if snap is not None and source in ("snap.old", "header"):
            os.remove(p["snap.bin"])    # damaged: keep the valid snap.old as the fallback
        persist.checkpoint()
        info["repaired"] = True
    info["gen"] = persist.gen
    return game, info


def _cut_in_checkpoint(persist, name):
    """Whether the chain's end (snapshot name ``name``) is a checkpoint that a power cut
    stopped before its journal became ``jrn.bin``: ``snap.new`` carries that name."""
    data = _read(persist.path["snap.new"])
    return data is not None and read_prefix(data) is not None and snapshot_name(data) == name


def _base_from_header(new, old, between):
    """A new game from the first intact snapshot header (of ``snap.bin``'s bytes ``new``, else
    ``snap.old``'s), named like the file it came from."""
    for data in (new, old):
        head = read_prefix(data)
        game = game_for(head[2], between) if head else None
        if game is not None:
            name = snapshot_name(snapshot_file(head[0], 0, head[2], game))
            return game, head[0], 0, head[2], name
    return None


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
        info["dropped"] += len(data) - end - (_END_SIZE if ended else 0)
        used.append(file)
        last_gen, last_name = gen, name
        gen = (gen + 1) & 0xFFFF
        name = snapshot_name(snapshot_file(gen, count, header, game))
        if not ended:
            break
    return count, last_gen, last_name, name, ended


def _finished_snapshot(data, journal, between):
    """``restore_snapshot(data)`` when ``journal`` is its complete, empty journal: a checkpoint
    that wrote both and was cut before its renames (``jrn.new``) or between them (``jrn.bin``):
    nothing was accepted after it. Else None. Its state need not follow from the chain before:
    an undo's checkpoint (``Persist.undone``) is the state before the last journalled action."""
    if data is None or journal is None:
        return None
    base = restore_snapshot(data, between)
    if base is None or journal_seed(journal, base[4]) < 0 or not _ends_at(journal, _JRN_HEADER, base[2]):
        return None
    return base


def _fallback_ok(old, journal):
    """Whether the fallback pair is intact without building a game: ``snap.old``'s prefix and
    state CRCs, ``jrn.old`` naming it, whole records to its end mark (or neither file)."""
    if old is None or journal is None:
        return old is None and journal is None
    head = read_prefix(old)
    if head is None or len(old) < head[3] + 8:
        return False
    n = len(old)
    if crc32(old[head[3]:n - 4]) != old[n - 4] | (old[n - 3] << 8) | (old[n - 2] << 16) | (old[n - 1] << 24):
        return False
    seed = journal_seed(journal, snapshot_name(old))
    at = _JRN_HEADER
    seq = head[1]
    while seed >= 0 and _record_ok(journal, at, seed, seq):
        at += journal[at] + _REC_OVERHEAD
        seq += 1
    return seed >= 0 and _ends_at(journal, at, seq)


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
