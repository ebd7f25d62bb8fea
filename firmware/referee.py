"""The referee on the board: one place where an action is accepted or refused.

Actions come from the mat (sensor gestures) or from the host (ACTION frames); both go through
``submit`` (the mat: ``check``, its light, then ``commit``): the rules core checks it, an accepted
action is journalled *before* it is mirrored, then the host gets a DELTA (the action, public
fields only, plus the changed view bytes) or a REJECT. Preallocated views and records: nothing
here allocates, except an undo's snapshot on flash.

A host entry (an ACTION frame) may be taken back (UNDO) until the next action accepted from the
mat: the referee keeps the state from before it (``before``) and the entry, hidden fields masked
(``last``), and an undo puts that state back and snapshots it (``Persist.undone``), so the journal
never brings the entry back.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules.wire import codec
from shared_rules.core.actions import ACTION_SIZE

_PUBLIC = const(0)      # the views a host may subscribe to
_REFEREE = const(1)
_FROM_HOST = const(255)  # the "reader" of a host action (firmware.app restates it)
_OK = const(0)           # shared_rules.core.engine's (tests/test_rules_literals.py)
_UNKNOWN_TAG = const(8)


class Referee:
    def __init__(self, link, persist):
        self.link = link
        self.persist = persist
        self.game = None
        self.header = b""
        self.view = _PUBLIC
        self.old = None
        self.new = None
        self.accepted = 0
        self.refused = 0
        self.before = None        # the state before the last host entry (``fit`` sizes it)
        self.last = bytearray(ACTION_SIZE)  # that entry, hidden fields masked
        self.undo_why = codec.UNDO_NONE     # why an UNDO is refused now (0: it may go)

    def start(self, game, header):
        """Referee ``game`` (restored or new; ``header``: its log header as JSON bytes) from now on;
        tell the host with HELLO and a SNAPSHOT."""
        self.game = game
        self.header = header
        self.undo_why = codec.UNDO_NONE
        self.fit(game)
        self.hello()
        self.snapshot()

    def fit(self, game):
        """Make the view buffers big enough for ``game``. ``App.new_game`` calls it as soon as the
        game exists, so that they are placed before the gestures and the mat, not between them."""
        size = max(game.PUBLIC_SIZE, len(game.s))
        if self.old is None or len(self.old) < size:
            self.old = self.new = self.before = None
            self.old = bytearray(size)
            self.new = bytearray(size)
            self.before = bytearray(size)

    def _fill(self, out):
        """The mirrored view: public bytes, or the whole state for a referee subscription."""
        if self.view == _REFEREE:
            s = self.game.s
            for i in range(len(s)):
                out[i] = s[i]
            return len(s)
        self.game.public(out)
        return self.game.PUBLIC_SIZE

    def subscribe(self, view):
        self.view = _REFEREE if view == _REFEREE else _PUBLIC
        self.hello()
        self.snapshot()

    def hello(self):
        """HELLO: protocol and firmware version, game id, seats, then the game's log header."""
        body = self.link.body
        body[0] = codec.PROTOCOL_VERSION
        body[1] = 0
        body[2] = 1
        body[3] = 0
        g = self.game
        body[4] = g.GAME_ID if g else 0
        body[5] = g.seats() if g else 0
        n = 6
        header = self.header
        for i in range(len(header)):
            body[n + i] = header[i]
        self.link.send(codec.HELLO, n + len(header))

    def snapshot(self):
        body = self.link.body
        g = self.game
        if g is None:
            body[0] = self.view
            body[1] = 0
            self.link.send(codec.SNAPSHOT, 2)
            return
        n = self._fill(self.old)
        body[0] = self.view
        body[1] = g.GAME_ID
        for i in range(n):
            body[2 + i] = self.old[i]
        self.link.send(codec.SNAPSHOT, 2 + n)

    def peek(self):
        """SEEN: the whole state once, for the hub alone (it shows each paired phone its own
        bag and hand); the subscription and the mirrored view stay as they are."""
        g = self.game
        if g is None:
            return
        body = self.link.body
        body[0] = _REFEREE
        body[1] = g.GAME_ID
        s = g.s
        for i in range(len(s)):
            body[2 + i] = s[i]
        self.link.send(codec.SEEN, 2 + len(s))

    def submit(self, rec, reader):
        """Accept or refuse an action record; ``reader``: where it came from (FROM_HOST)."""
        err = self.check(rec, reader)
        if err == _OK:
            self.commit(rec)
        return err

    def check(self, rec, reader):
        """The rules' verdict: a refusal is told at once; an accepted action has changed the game
        and must be ``commit``-ted before anything else happens (the mat lights it between the
        two: the light waits for no flash write, docs/persistence.md "Light first")."""
        g = self.game
        if reader != _FROM_HOST:
            err = g.accept(rec)
            if err == _OK:
                self.undo_why = codec.UNDO_MAT
        else:
            err = g.verdict(rec)
            if err == _OK:
                _copy(g.s, self.before, len(g.s))
                g.apply(rec)
                _copy(rec, self.last, ACTION_SIZE)
                g.VOCAB.mask_into(self.last)
                self.undo_why = 0
        if err != _OK:
            self.refuse(err, rec, reader, None)
            return err
        self.accepted += 1
        return _OK

    def undo(self, rec):
        """UNDO: take back the last host entry if ``rec`` names it (hidden fields aside) and no
        action from the mat came after it; answer UNDONE (why not, or the entry taken back), then
        a SNAPSHOT. Journalled before the host hears of it. Returns why not (0: undone)."""
        g = self.game
        why = self.undo_why if g is not None else codec.UNDO_NONE
        if not why:
            if not g.VOCAB.valid(rec):
                why = codec.UNDO_OTHER
            else:
                g.VOCAB.mask_into(rec)
                for i in range(ACTION_SIZE):
                    if rec[i] != self.last[i]:
                        why = codec.UNDO_OTHER
                        break
        body = self.link.body
        body[0] = why
        if why:
            body[1] = 0
            self.link.send(codec.UNDONE, 2)
            return why
        _copy(self.before, g.s, len(g.s))
        self.undo_why = codec.UNDO_NONE
        self.accepted -= 1
        if self.persist:
            self.persist.undone()
        at = self.link.put_record(1, self.last, None)
        self.link.send(codec.UNDONE, at)
        self.snapshot()
        return 0

    def commit(self, rec):
        """Journal the action ``check`` accepted, then tell the host (DELTA): the host hears of an
        action only once it survives a power cut."""
        g = self.game
        if self.persist:
            self.persist.accepted(rec)
        # DELTA: the action (public fields) and the changed runs of the mirrored view.
        link = self.link
        n = self._fill(self.new)
        at = link.put_record(0, rec, None if self.view == _REFEREE else g.VOCAB)
        runs = codec.diff_runs(self.old, self.new, link.body, n, at)
        if runs < 0:
            self.snapshot()  # fills the mirrored view afresh
            return
        self.old, self.new = self.new, self.old
        link.send(codec.DELTA, at + runs)

    def refuse(self, err, rec, reader, uid):
        """Tell the host and the players that something was refused (rules or mat reason)."""
        self.refused += 1
        if rec is not None and not self.game.VOCAB.valid(rec):
            rec = None  # malformed: nothing in it is worth echoing
        body = self.link.body
        body[0] = err
        body[1] = reader
        at = 2
        if rec is not None:
            at = self.link.put_record(2, rec, None if self.view == _REFEREE else self.game.VOCAB)
        else:
            body[2] = 0
            at = 3
        if uid is not None and (err == _UNKNOWN_TAG or self.view == _REFEREE):
            # A registered tag's UID would name the piece (a Skull disc, a card in a bag).
            for i in range(7):
                body[at + i] = uid[i]
            at += 7
        self.link.send(codec.REJECT, at)

    def message(self, text):
        """DIAG message: a line the host shows (a damaged deck registry, a repaired journal)."""
        data = text.encode()
        body = self.link.body
        body[0] = codec.DIAG_MESSAGE
        n = min(len(data), len(body) - 1)
        for i in range(n):
            body[1 + i] = data[i]
        self.link.send(codec.DIAG, 1 + n)

    def reader_health(self, reader, state, version):
        """DIAG reader: a reader went down, came back, or its pad keeps failing scans."""
        body = self.link.body
        body[0] = codec.DIAG_READER
        body[1] = reader
        body[2] = state
        body[3] = version
        self.link.send(codec.DIAG, 4)

    def prompt(self, what, seats, zone, reader):
        """PROMPT: what the mat waits for (the gesture module's prompt index), from which seats
        (bit mask), on which zone and pad."""
        body = self.link.body
        body[0] = what
        body[1] = seats & 255
        body[2] = seats >> 8
        body[3] = zone
        body[4] = reader
        self.link.send(codec.PROMPT, 5)


def _copy(src, dst, n):
    """``dst[0:n] = src[0:n]`` without a slice object."""
    for i in range(n):
        dst[i] = src[i]
