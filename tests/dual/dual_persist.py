"""Persistence on both interpreters: seeded games persisted action by action, then power cuts
(the journal cut at every byte, bytes flipped, a half-written snapshot, a cut before every
filesystem operation, a cut before every flash program/erase of a real littlefs in RAM); after
each, boot must restore exactly the state after the last fully written action, never another."""
import binascii
import builtins
import json
import os
import sys

from firmware import persist
from firmware.persist import Persist
from firmware.emu.nor_flash import Flash, PowerCut
from shared_rules import games
from shared_rules.core.actions import ACTION_SIZE
from shared_rules.wire.crc import crc16
from soak import SOAK, count
from shared_rules.core.engine import crc32
from host.sim.playout import Playout
from shared_rules.core.rng import Rng
import scratch

# The journal layout (docs/persistence.md; firmware/persist.py keeps these as private consts,
# tests/test_rules_literals.py checks they agree): header, per-record overhead, end mark.
JRN_HEADER = 13
REC_OVERHEAD = 5
END_SIZE = 3

try:
    import micropython
except ImportError:
    micropython = None
try:
    import vfs          # MicroPython: littlefs (VfsLfs2) on a block device of our own
except ImportError:
    vfs = None

SKULL = '{"game": "skull", "players": 6}'
# a power cut before each filesystem operation of a Skull game this long (checkpoints every 4
# actions: four of them in make test, seven in make soak)
CUT_ACTIONS = count(18, 30)
HEADERS = [SKULL, '{"game": "deadmans", "players": 4}', '{"game": "sheriff", "players": 5}']
# One directory per process: other test runs may use this module at the same time.
TMP = scratch.TMP + "/tapmat_persist_%s_%s" % (sys.implementation.name,
                                     binascii.hexlify(os.urandom(4)).decode())
LFS = "/lfs"


# -- helpers ---------------------------------------------------------------------------------
def available(header):
    try:
        games.from_header(json.loads(header))
        return True
    except ValueError:
        return False


def recorded(header, seed, limit=100000):
    """A seeded game's records and digests (digests[i]: the state after i actions)."""
    p = Playout(json.loads(header), seed)
    recs, digests = [], [p.game.digest()]
    while len(recs) < limit and p.step() is not None:
        recs.append(bytes(p.rec))
        digests.append(p.game.digest())
    return recs, digests


def fresh(header):
    return games.from_header(json.loads(header))


def rec_of(raw):
    rec = bytearray(ACTION_SIZE)
    rec[:] = raw
    return rec


def clear(path):
    try:
        names = os.listdir(path)
    except OSError:
        os.mkdir(path)
        return path
    for n in names:
        os.remove(path + "/" + n)
    return path


def cleanup(*paths):
    for path in paths:
        clear(path)
        os.rmdir(path)


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def copy(src, dst, edit=None):
    """Copy the files of ``src`` into a cleared ``dst``; ``edit`` maps a name to a new content."""
    clear(dst)
    for n in os.listdir(src):
        data = read(src + "/" + n)
        if edit and n in edit:
            data = edit[n](data)
        if data is not None:
            write(dst + "/" + n, data)


def persisted(root, header, recs, every):
    """Persist a new game and ``recs`` in ``root``; return the Persist."""
    per = Persist(clear(root), every)
    game = fresh(header)
    per.new_game(header, game)
    for r in recs:
        rec = rec_of(r)
        assert game.accept(rec) == 0
        per.accepted(rec)
        per.tidy()
    return per


def boot(root, every=32):
    per = Persist(root, every)
    game, info = per.boot()
    return per, game, info


def record_ends(journal):
    """Offsets where each whole record of a journal ends (its end mark follows the last)."""
    ends = []
    at = JRN_HEADER
    while at < len(journal) - END_SIZE:
        at += journal[at] + REC_OVERHEAD
        ends.append(at)
    return ends


def record_bytes(rec, seq, seed):
    """One journal record built from the documented format (docs/persistence.md)."""
    n = len(rec)
    while n and rec[n - 1] == 0:
        n -= 1
    body = bytes((n, seq & 255, seq >> 8)) + bytes(rec[0:n])
    crc = crc16(body, 0, len(body), seed)
    return body + bytes((crc & 255, crc >> 8))


def finish(root, per, game, recs, start, digests, more=10):
    """Continue a recovered game with the next ``more`` actions, reboot, compare the state."""
    stop = min(start + more, len(recs))
    for r in recs[start:stop]:
        rec = rec_of(r)
        assert game.accept(rec) == 0
        per.accepted(rec)
        per.tidy()
    per.close()
    _, again, info = boot(root)
    assert again.digest() == digests[stop] and info["actions"] == stop, info


# -- ordinary operation ------------------------------------------------------------------------
def test_reboot_after_every_action_restores_it():
    out = []
    for header in HEADERS:
        if not available(header):
            continue
        recs, digests = recorded(header, 11)
        per = persisted(TMP, header, [], 5)
        game = per.game
        for i in range(len(recs)):
            rec = rec_of(recs[i])
            assert game.accept(rec) == 0
            per.accepted(rec)
            per.tidy()
            per.close()
            per, game, info = boot(TMP, 5)
            assert game.digest() == digests[i + 1] and info["actions"] == i + 1, (i, info)
            assert not info["repaired"] and info["source"] == "snap.bin", info
        out.append([len(recs), game.digest(), info["gen"]])
    cleanup(TMP)
    return out


def test_journal_replays_across_checkpoints_and_measures_bytes_per_action():
    out = []
    for header in HEADERS:
        if not available(header):
            continue
        sizes = []
        for seed in (1, 2, 3):
            recs, digests = recorded(header, seed)
            per = persisted(TMP, header, recs, 32)
            st = per.stats()
            assert st["snapshots"] == 1 + len(recs) // 32
            per.close()
            _, game, info = boot(TMP)
            assert game.digest() == digests[-1] and info["replayed"] == len(recs) % 32, info
            sizes.append([len(recs), st["record_bytes"], st["snapshot_bytes"]])
        out.append([header, sizes])
    cleanup(TMP)
    return out


def test_files_follow_the_documented_format():
    """Snapshot and journal bytes rebuilt independently from docs/persistence.md."""
    recs, digests = recorded(SKULL, 2, 32 + 5)
    persisted(TMP, SKULL, recs, 32).close()
    game = fresh(SKULL)
    for r in recs[0:32]:
        game.accept(rec_of(r))
    header = SKULL.encode()
    prefix = b"TP\x01" + bytes((2, 0, 32, 0, 0, 0, len(header), 0)) + header
    c = crc32(prefix)
    snap = prefix + bytes((c & 255, (c >> 8) & 255, (c >> 16) & 255, c >> 24)) + game.snapshot()
    assert read(TMP + "/snap.bin") == snap
    name = snap[len(prefix):len(prefix) + 4] + snap[len(snap) - 4:]
    head = b"TJ\x01" + name
    seed = crc16(head)
    journal = head + bytes((seed & 255, seed >> 8))
    for i in range(5):
        journal += record_bytes(recs[32 + i], 32 + i, seed)
    journal += bytes((0xFF, 37, 0))  # the end mark: the seqno of the next record
    assert read(TMP + "/jrn.bin") == journal
    cleanup(TMP)
    return [len(snap), len(journal), crc32(journal)]


def test_empty_directory_boots_nothing_and_bad_input_is_refused():
    root = clear(TMP)
    game, info = Persist(root).boot()
    assert game is None and info["source"] is None and not info["lost"]
    for every in (0, -3, True, "32"):
        try:
            Persist(root, every)
            assert False, every
        except ValueError:
            pass
    per = Persist(root)
    try:
        per.accepted(bytearray(ACTION_SIZE))
        assert False, "no game yet"
    except ValueError:
        pass
    skull = fresh(SKULL)
    for bad in ('{"game": "sheriff", "players": 5}', "not json", "[1, 2]"):
        try:
            per.new_game(bad, skull)
            assert False, bad
        except ValueError:
            pass
    assert os.listdir(root) == []
    per.new_game({"game": "skull", "players": 6}, skull)
    before = read(root + "/jrn.bin")
    try:
        per.accepted(bytearray(ACTION_SIZE + 1))
        assert False, "a record too long"
    except ValueError:
        pass
    assert read(root + "/jrn.bin") == before
    cleanup(TMP)
    return len(before)


def test_accepted_allocates_nothing():
    """The journal append with the heap locked (posix files here, littlefs below)."""
    recs, digests = recorded(SKULL, 4)
    per = persisted(TMP, SKULL, [], len(recs) + 1)
    game = per.game
    locked = [rec_of(r) for r in recs]
    if micropython:
        micropython.heap_lock()
    try:
        for rec in locked:
            game.accept(rec)
            per.accepted(rec)
            per.tidy()
    finally:
        if micropython:
            micropython.heap_unlock()
    per.close()
    _, again, info = boot(TMP)
    assert again.digest() == digests[-1] == game.digest() and info["replayed"] == len(recs)
    cleanup(TMP)
    return digests[-1]


# -- damaged files -----------------------------------------------------------------------------
def test_a_journal_cut_at_every_byte_restores_the_last_whole_record():
    dst = TMP + "_cut"
    out = []
    for header in HEADERS:
        if not available(header):
            continue
        recs, digests = recorded(header, 21)
        persisted(TMP, header, recs[0:32 + 14], 32).close()
        journal = read(TMP + "/jrn.bin")
        ends = record_ends(journal)
        assert len(ends) == 14 and ends[-1] == len(journal) - END_SIZE
        for cut in range(len(journal) + 1):
            copy(TMP, dst, {"jrn.bin": lambda d: d[0:cut]})
            per, game, info = boot(dst)
            whole = len([e for e in ends if e <= cut])
            assert game.digest() == digests[32 + whole], (cut, info)
            start = ends[whole - 1] if whole else JRN_HEADER
            clean = cut == len(journal)
            assert info["dropped"] == (cut - start if JRN_HEADER <= cut < len(journal) else 0), (cut, info)
            # Every cut, even exactly between two records, is seen and reported as a loss.
            assert info["repaired"] != clean and info["lost"] != clean, (cut, info)
            assert (persist.trouble(info) is None) == clean, (cut, info)
            if cut % 7 == 0:
                finish(dst, per, game, recs, 32 + whole, digests)
            per.close()
        out.append([len(journal), digests[-1]])
    cleanup(TMP, dst)
    return out


def flip(data, at, rng):
    b = bytearray(data)
    b[at] ^= 1 + rng.below(255)
    return bytes(b)


def test_flipped_bytes_never_restore_a_wrong_state():
    rng = Rng(5)
    dst = TMP + "_flip"
    out = []
    for header in HEADERS:
        if not available(header):
            continue
        recs, digests = recorded(header, 8, 64 + 20)
        persisted(TMP, header, recs, 32).close()
        journal = read(TMP + "/jrn.bin")
        ends = record_ends(journal)
        snap = read(TMP + "/snap.bin")
        for _ in range(40):
            # a damaged journal byte: replay stops before the record that holds it
            at = rng.below(len(journal))
            copy(TMP, dst, {"jrn.bin": lambda d: flip(d, at, rng)})
            _, game, info = boot(dst)
            # (a damaged header: the records still name the snapshot, all are replayed)
            whole = len([e for e in ends if e <= at]) if at >= JRN_HEADER else len(ends)
            assert game.digest() == digests[64 + whole], (at, info)
            assert persist.trouble(info) is not None, (at, info)
            # a damaged newest snapshot: snap.old + jrn.old, then jrn.bin through the chain
            at = rng.below(len(snap))
            copy(TMP, dst, {"snap.bin": lambda d: flip(d, at, rng)})
            _, game, info = boot(dst)
            assert game.digest() == digests[-1] and info["source"] == "snap.old", info
            assert info["journals"] == ["jrn.old", "jrn.bin"] and not info["lost"], info
            # a snapshot torn on a filesystem without atomic writes: the same
            cut = rng.below(len(snap))
            copy(TMP, dst, {"snap.bin": lambda d: d[0:cut]})
            _, game, info = boot(dst)
            assert game.digest() == digests[-1] and info["source"] == "snap.old", info
        # a damaged snap.bin and no jrn.bin: the old pair, flagged as possibly incomplete
        copy(TMP, dst, {"snap.bin": lambda d: d[0:len(d) // 2], "jrn.bin": lambda d: None})
        _, game, info = boot(dst)
        assert game.digest() == digests[64] and info["source"] == "snap.old" and info["lost"]
        out.append([len(journal), len(snap)])
    cleanup(TMP, dst)
    return out


def _damaged_boot(dst, digests, total, edit):
    """Boot a copy of TMP with ``edit`` applied: a true state, every loss flagged, and the
    damage reported (``persist.trouble``). Returns whether every action was restored."""
    copy(TMP, dst, edit)
    per, game, info = boot(dst, 4)
    per.close()
    assert game is not None and game.digest() == digests[info["actions"]], info
    assert info["actions"] == total or info["lost"], info
    assert persist.trouble(info) is not None, info
    return info["actions"] == total


def test_every_bit_flip_and_truncation_of_every_file_is_reported():
    """Every single-bit flip (make test: one bit of every byte, its position turning; make soak:
    all eight) and every truncation of snap.bin, jrn.bin, snap.old and jrn.old, and every file
    deleted: boot restores a true state, flags any possible loss and reports the damage (the
    host's DIAG line and the mat's buzz come from that report)."""
    dst = TMP + "_bits"
    header = '{"game": "skull", "players": 3}'
    recs, digests = recorded(header, 12, 4 * 2 + 3)
    total = len(recs)
    persisted(TMP, header, recs, 4).close()
    out = []
    for name in ("snap.bin", "jrn.bin", "snap.old", "jrn.old"):
        data = read(TMP + "/" + name)
        whole = 0
        cases = 0
        for at in range(len(data)):
            for bit in (range(8) if SOAK else (at % 8,)):
                flipped = bytearray(data)
                flipped[at] ^= 1 << bit
                whole += _damaged_boot(dst, digests, total, {name: lambda d: bytes(flipped)})
                cases += 1
        for cut in range(len(data)):
            whole += _damaged_boot(dst, digests, total, {name: lambda d: d[0:cut]})
            cases += 1
        whole += _damaged_boot(dst, digests, total, {name: lambda d: None})
        out.append([name, len(data), cases + 1, whole])
    # Every file of the game gone: boot finds nothing and says the stored game is gone.
    copy(TMP, dst, {"snap.bin": lambda d: None, "jrn.bin": lambda d: None,
                    "snap.old": lambda d: None, "jrn.old": lambda d: None})
    _, game, info = boot(dst, 4)
    assert game is None and info["lost"] and persist.trouble(info) is not None, info
    # Undamaged: nothing to report, the ordinary boot.
    copy(TMP, dst)
    per, game, info = boot(dst, 4)
    per.close()
    assert persist.trouble(info) is None and not info["repaired"] and info["actions"] == total, info
    cleanup(TMP, dst)
    return out


def test_a_repeated_or_misplaced_record_stops_the_replay():
    """Whole records with good CRCs in the wrong place (a write retried, sectors reordered on a
    non-atomic filesystem): the sequence number stops the replay there."""
    dst = TMP + "_seq"
    out = []
    for header in HEADERS:
        if not available(header):
            continue
        recs, digests = recorded(header, 13, 32 + 12)
        persisted(TMP, header, recs, 32).close()
        journal = read(TMP + "/jrn.bin")
        ends = [JRN_HEADER] + record_ends(journal)
        for k in range(11):
            rec_k = journal[ends[k]:ends[k + 1]]
            repeated = journal[0:ends[k + 1]] + rec_k + journal[ends[k + 1]:]
            swapped = journal[0:ends[k]] + journal[ends[k + 1]:ends[k + 2]] + rec_k \
                + journal[ends[k + 2]:]
            for bad, kept in ((repeated, k + 1), (swapped, k)):
                copy(TMP, dst, {"jrn.bin": lambda d: bad})
                _, game, info = boot(dst)
                assert game.digest() == digests[32 + kept] and info["replayed"] == kept, info
                assert info["dropped"] == len(bad) - ends[kept], info
        out.append(digests[-1])
    cleanup(TMP, dst)
    return out


def test_a_record_the_game_refuses_stops_the_replay():
    """A well-formed record (right length, seqno and CRC) that the rules refuse: stop there."""
    dst = TMP + "_refused"
    recs, digests = recorded(SKULL, 17, 32 + 12)
    persisted(TMP, SKULL, recs, 32).close()
    journal = read(TMP + "/jrn.bin")
    ends = [JRN_HEADER] + record_ends(journal)
    seed = journal[JRN_HEADER - 2] | (journal[JRN_HEADER - 1] << 8)
    stopped = []
    for k in range(12):
        game = fresh(SKULL)
        for r in recs[0:32 + k]:
            game.accept(rec_of(r))
        bad = rec_of(recs[32 + k])
        bad[1] = (bad[1] + 1) % 6              # the same move by the next seat
        if game.accept(bad) == 0:
            continue
        forged = journal[0:ends[k]] + record_bytes(bad, 32 + k, seed) + journal[ends[k + 1]:]
        copy(TMP, dst, {"jrn.bin": lambda d: forged})
        _, game, info = boot(dst)
        assert game.digest() == digests[32 + k] and info["replayed"] == k, (k, info)
        assert info["dropped"] == len(forged) - ends[k], info
        stopped.append(k)
    assert len(stopped) > 5
    cleanup(TMP, dst)
    return stopped


def test_a_damaged_snapshot_is_not_kept_as_the_fallback():
    """Boot from snap.old removes the damaged snap.bin before its checkpoint, so the valid
    snap.old stays: a second damage still finds a true state (the one after jrn.old)."""
    dst = TMP + "_twice"
    recs, digests = recorded(SKULL, 6, 64 + 20)
    persisted(TMP, SKULL, recs, 32).close()
    copy(TMP, dst, {"snap.bin": lambda d: d[0:len(d) - 1]})
    per, game, info = boot(dst)
    per.close()
    assert game.digest() == digests[-1] and info["source"] == "snap.old" and info["repaired"]
    snap = read(dst + "/snap.bin")
    write(dst + "/snap.bin", snap[0:len(snap) - 1])
    _, game, info = boot(dst)
    assert info["source"] == "snap.old" and info["lost"], info
    assert game.digest() == digests[64], info
    cleanup(TMP, dst)
    return digests[64]


def test_a_damaged_first_snapshot_is_rebuilt_from_its_header():
    """Before the first checkpoint of a game there is no snap.old: the intact, self-checked
    header rebuilds the new game and its journal follows; a damaged header leaves nothing."""
    dst = TMP + "_hdr"
    recs, digests = recorded(SKULL, 3, 20)
    persisted(TMP, SKULL, recs, 32).close()
    snap = read(TMP + "/snap.bin")
    head = persist.read_prefix(snap)
    results = []
    for at in range(len(snap)):
        copy(TMP, dst, {"snap.bin": lambda d: flip(d, at, Rng(at))})
        _, game, info = boot(dst)
        if at < head[3]:
            assert game is None and info["lost"], (at, info)
        else:
            assert game.digest() == digests[-1] and info["source"] == "header", (at, info)
            assert info["journals"] == ["jrn.bin"] and not info["lost"], info
        results.append(game is None)
    cleanup(TMP, dst)
    return [results.count(True), results.count(False)]


def test_stale_files_are_ignored():
    dst = TMP + "_stale"
    recs, digests = recorded(SKULL, 9, 40)
    persisted(TMP, SKULL, recs, 32).close()
    # a half-written snap.new (and a complete one) next to the real pair
    for cut in (0, 17, 100):
        copy(TMP, dst)
        write(dst + "/snap.new", read(TMP + "/snap.bin")[0:cut] if cut < 100 else b"\xff" * 300)
        _, game, info = boot(dst)
        assert game.digest() == digests[-1] and info["replayed"] == 8 and info["repaired"], info
        assert "snap.new" not in os.listdir(dst)
    # the snapshot renamed but the journal not yet reset: jrn.bin still names the old snapshot
    copy(TMP, dst)
    before = read(dst + "/jrn.bin")
    per, game, info = boot(dst)
    per.checkpoint()
    per.close()
    write(dst + "/jrn.bin", before)
    _, game, info = boot(dst)
    assert game.digest() == digests[-1] and info["journals"] == [] and info["replayed"] == 0, info
    assert info["lost"], info  # no journal for snap.bin: boot cannot tell what came after it
    # a journal of another game (the same header and seed numbers) is never replayed
    copy(TMP, dst)
    persisted(dst + "_x", SKULL, recorded(SKULL, 10, 40)[0], 32).close()
    write(dst + "/jrn.bin", read(dst + "_x/jrn.bin"))
    _, game, info = boot(dst)
    assert game.digest() == digests[32] and info["journals"] == [] and info["lost"], info
    cleanup(TMP, dst, dst + "_x")
    return digests[-1]


# -- power cuts at every filesystem operation -------------------------------------------------
class CutFs:
    """Stands in for ``os`` and ``open`` in ``firmware.persist``. Written data is staged and
    lands only at ``flush``/``close`` (as on littlefs, or CPython's buffered files); the power
    fails at operation number ``at`` (open for writing, write, flush, close, rename, remove).
    When ``torn``, a failing flush/close lands half of what was staged (as FAT might)."""

    def __init__(self, at, torn):
        self.ops = 0
        self.at = at
        self.torn = torn
        self.dead = False

    def tick(self):
        if self.dead:
            raise PowerCut()
        self.ops += 1
        if self.ops == self.at:
            self.dead = True
            raise PowerCut()

    def rename(self, a, b):
        self.tick()
        os.rename(a, b)

    def remove(self, path):
        self.tick()
        os.remove(path)

    def stat(self, path):
        return os.stat(path)

    def open(self, path, mode="r"):
        if "r" in mode and "+" not in mode:
            return builtins.open(path, mode)
        self.tick()
        return CutFile(self, builtins.open(path, mode))


class CutFile:
    def __init__(self, fs, f):
        self.fs = fs
        self.f = f
        self.pos = f.tell()
        self.staged = []  # (position, bytes)

    def seek(self, pos):
        self.pos = pos
        return pos

    def write(self, buf, n=-1):
        data = bytes(buf)
        self.fs.tick()
        data = data[0:n] if n >= 0 else data
        self.staged.append((self.pos, data))
        self.pos += len(data)

    def _land(self, budget):
        for pos, data in self.staged:
            if budget <= 0:
                break
            self.f.seek(pos)
            self.f.write(data[0:budget])
            budget -= len(data)
        self.f.flush()

    def flush(self):
        try:
            self.fs.tick()
        except PowerCut:
            if self.fs.torn and self.fs.ops == self.fs.at:
                self._land(sum([len(d) for _, d in self.staged]) // 2)
            raise
        self._land(1 << 30)
        self.staged = []

    def close(self):
        """Commit, then close; after the power failed, nothing lands any more."""
        if self.f is None:
            return
        try:
            if not self.fs.dead:
                self.flush()
        finally:
            self.f.close()
            self.f = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def run_until_cut(root, header, recs, every, plan=None):
    """Persist a game until the power fails; return how many steps had returned (-1: the power
    never failed). A step is a record's index in ``recs`` to accept (``plan`` None: each in
    order), or -1 to take the last accepted one back as the board's referee does (its state
    before it, then ``Persist.undone``)."""
    per = Persist(clear(root), every)
    done = 0
    try:
        game = fresh(header)
        per.new_game(header, game)
        befores = []
        for step in range(len(recs)) if plan is None else plan:
            if step < 0:
                game.s[:] = befores.pop()
                per.undone()
            else:
                befores.append(bytes(game.s))
                rec = rec_of(recs[step])
                game.accept(rec)
                per.accepted(rec)
                per.tidy()
            done += 1
        per.close()
    except PowerCut:
        try:
            per.close()     # the dead run's open journal, closed now rather than by the GC
        except OSError:
            pass
        return done
    return -1


def check_recovered(game, info, done, digests, counts=None):
    """After a cut with ``done`` steps acknowledged: that state, or the one being written;
    ``counts``: the actions after each step (``undo_plan``), default one more per step. Returns
    1 when it is the one being written."""
    if game is None:
        assert done == 0, info
        return 0
    counts = counts or list(range(len(digests)))
    n = info["actions"]
    assert n in counts[done:done + 2], (done, info)
    assert game.digest() == digests[n], (done, info)
    return int(n != counts[done])


def undo_plan(k):
    """Steps for ``run_until_cut``: k actions, the last taken back, again, one more, taken back;
    and the action count after each step."""
    plan = list(range(k)) + [-1, k - 1, k, -1]
    counts = [0]
    for step in plan:
        counts.append(counts[-1] - 1 if step < 0 else counts[-1] + 1)
    return plan, counts


def cut_at_every_operation(recs, digests, torn, plan=None, counts=None):
    """A power cut before each filesystem operation in turn (``CutFs``) of ``run_until_cut``
    (``every`` 4), then boot: the state of the last step that returned or of the one under way,
    no report when writes land whole, every 5th recovered game continued and rebooted. Returns
    the operations and how many cuts kept the step under way."""
    at = 1
    extra = 0
    while True:
        fs = CutFs(at, torn)
        persist.os, persist.open = fs, fs.open
        try:
            done = run_until_cut(TMP, SKULL, recs, 4, plan)
        finally:
            persist.os, persist.open = os, builtins.open
        if done < 0:
            return [at, extra]
        per, game, info = boot(TMP, 4)
        extra += check_recovered(game, info, done, digests, counts)
        # Writes that land whole (littlefs): a cut never looks like a loss.
        assert torn or persist.trouble(info) is None, (at, info)
        if game is not None and at % 5 == 0:
            finish(TMP, per, game, recs, info["actions"], digests)
        per.close()
        at += 1


def test_a_power_cut_before_any_filesystem_operation_loses_at_most_the_action_being_written():
    recs, digests = recorded(SKULL, 31, CUT_ACTIONS)
    out = [cut_at_every_operation(recs, digests, torn) for torn in (False, True)]
    cleanup(TMP)
    return out


def test_a_power_cut_around_an_undo_never_brings_the_action_back():
    """Undo the last action (in the journal, or just snapshot by ``tidy``), go on, undo again; the
    power fails before every filesystem operation. Boot restores the state of the last step that
    returned or of the one under way: an acknowledged undo never comes back, nothing acknowledged
    is lost, and the game goes on from there."""
    recs, digests = recorded(SKULL, 31, CUT_ACTIONS)
    out = []
    for torn in (False, True):
        for k in (6, 8):   # every 4: action k-1 lies in the journal (6) or was just snapshot (8)
            out.append(cut_at_every_operation(recs, digests, torn, *undo_plan(k)))
    cleanup(TMP)
    return out


# -- power cuts on littlefs, at every flash program/erase (MicroPython) --------------------------
def mount(image):
    flash = Flash(image)
    vfs.mount(vfs.VfsLfs2(flash, progsize=256), LFS)    # the rp2 port's settings
    return flash


def test_littlefs_power_cut_at_every_flash_operation():
    """A real littlefs (the RP2040 port's geometry: 4 KiB blocks, 256-byte pages) on flash whose
    power fails at each program/erase of the first actions, then at random ones."""
    recs, digests = recorded(SKULL, 77, 60)
    if vfs is None:
        return [len(recs), digests[-1]]
    blank = Flash(bytearray(32 * 4096))
    vfs.VfsLfs2.mkfs(blank, progsize=256)
    ops = []
    for n in (12, len(recs)):       # count the operations of 12 actions, of all
        flash = mount(bytearray(blank.data))
        assert run_until_cut(LFS, SKULL, recs[0:n], 8) < 0
        ops.append(flash.ops)
        vfs.umount(LFS)
    rng = Rng(3)
    cuts = list(range(1, ops[0])) + [ops[0] + rng.below(ops[1] - ops[0]) for _ in range(60)]
    extra = 0
    for cut in cuts:
        flash = mount(bytearray(blank.data))
        flash.cut = cut
        done = run_until_cut(LFS, SKULL, recs, 8)
        assert flash.dead and done >= 0, cut
        vfs.umount(LFS)
        mount(bytearray(flash.data))
        per, game, info = boot(LFS, 8)
        extra += check_recovered(game, info, done, digests)
        assert persist.trouble(info) is None, (cut, info)  # littlefs commits whole: no loss
        per.close()
        vfs.umount(LFS)
    assert extra > 0    # some cuts came after the record landed, before accepted() returned
    return [len(recs), digests[-1]]


def test_littlefs_power_cut_at_every_flash_operation_around_an_undo():
    """As above, for ``undo_plan``s (the undone action in the journal, or just snapshot): at
    every program/erase, an acknowledged undo never comes back and nothing is reported."""
    recs, digests = recorded(SKULL, 77, 20)
    if vfs is None:
        return [len(recs), digests[-1]]
    blank = Flash(bytearray(32 * 4096))
    vfs.VfsLfs2.mkfs(blank, progsize=256)
    for k in (10, 8):   # every 8: action k-1 lies in the journal (10) or was just snapshot (8)
        plan, counts = undo_plan(k)
        flash = mount(bytearray(blank.data))
        assert run_until_cut(LFS, SKULL, recs, 8, plan) < 0
        ops = flash.ops
        vfs.umount(LFS)
        for cut in range(1, ops):
            flash = mount(bytearray(blank.data))
            flash.cut = cut
            done = run_until_cut(LFS, SKULL, recs, 8, plan)
            assert flash.dead and done >= 0, cut
            vfs.umount(LFS)
            mount(bytearray(flash.data))
            per, game, info = boot(LFS, 8)
            check_recovered(game, info, done, digests, counts)
            assert persist.trouble(info) is None, (k, cut, info)
            per.close()
            vfs.umount(LFS)
    return [len(recs), digests[-1]]


def test_littlefs_append_allocates_nothing():
    """Heap-locked appends on littlefs (a C block device on the board; ours copies in loops)."""
    recs, digests = recorded(SKULL, 4)
    if vfs is None:
        return digests[-1]
    blank = Flash(bytearray(32 * 4096))
    vfs.VfsLfs2.mkfs(blank, progsize=256)
    mount(blank.data)
    per = Persist(LFS, len(recs) + 1)
    game = fresh(SKULL)
    per.new_game(SKULL, game)
    locked = [rec_of(r) for r in recs]
    micropython.heap_lock()
    try:
        for rec in locked:
            game.accept(rec)
            per.accepted(rec)
            per.tidy()
    finally:
        micropython.heap_unlock()
    per.close()
    vfs.umount(LFS)
    mount(bytearray(blank.data))
    _, again, info = boot(LFS)
    vfs.umount(LFS)
    assert again.digest() == digests[-1] and info["replayed"] == len(recs), info
    return digests[-1]
