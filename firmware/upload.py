"""A deck profile pushed over the link (PROFILE frames, docs/protocol.md section 6): written to
``profile.new`` chunk by chunk, checked whole, then renamed over ``profile.bin`` in one step.

Imported on the first PROFILE frame only. A push never changes a game: it is refused while a game
in play names another profile (its journal could no longer be restored after a power cut), and a
damaged or incomplete upload leaves ``profile.bin`` as it was.
"""
import json
import os

from shared_rules.core import board_files
from shared_rules.wire import codec
from shared_rules.sheriff.modules import profile

NEW = "profile.new"
_HEAD = 4   # offset:u16, total:u16


def receive(app, body, n):
    """PROFILE from the host (``app``: the board's ``App``): a chunk of a deck profile for
    ``profile.bin``. The last one is answered by STORED (the profile's CRC-32 and size), a refusal
    by a message and ERROR ``body``. True once the whole profile is stored (the caller then boots
    a board with no game running, with this code let go)."""
    up = app.upload
    if up is None:
        up = app.upload = Upload(app.root)
    ref = app.referee
    try:
        # a finished game changes no more: its profile may go (its standings stay on the screens)
        blob = up.chunk(body, n, ref.header if ref.game is not None and not ref.game.over() else b"")
    except (ValueError, OSError) as e:
        ref.message("deck profile refused: %s" % e)
        app.error(codec.ERR_BODY)
        return False
    if blob is None:
        return False
    out = app.link.body
    size = len(blob)
    for i in range(4):
        out[i] = blob[size - 4 + i]
    out[4] = size & 255
    out[5] = size >> 8
    app.link.send(codec.STORED, 6)
    return True


class Upload:
    def __init__(self, root):
        prefix = "" if root in ("", ".") else root.rstrip("/") + "/"
        self.new = prefix + NEW
        self.path = prefix + board_files.PROFILE_FILE
        self.at = -1   # bytes written so far; -1: no upload under way

    def chunk(self, body, n, header):
        """One PROFILE frame. Returns None (more to come), the stored blob (complete and checked),
        or raises ``ValueError`` saying why the upload is refused (it must start again)."""
        if n < _HEAD + 1:
            raise ValueError("a PROFILE frame holds offset, total and at least one byte")
        offset = body[0] | (body[1] << 8)
        total = body[2] | (body[3] << 8)
        if offset == 0:
            self.at = 0
        elif offset != self.at:
            why = "chunk at byte %d, expected %d: start the upload again" % (offset, max(self.at, 0))
            self.at = -1
            raise ValueError(why)
        if offset + n - _HEAD > total:
            self.at = -1
            raise ValueError("more bytes than the announced %d" % total)
        with open(self.new, "wb" if offset == 0 else "ab") as f:
            f.write(bytes(body[_HEAD:n]))
        self.at = offset + n - _HEAD
        if self.at < total:
            return None
        self.at = -1
        with open(self.new, "rb") as f:
            blob = f.read()
        try:
            self._check(blob, header)
        except ValueError:
            os.remove(self.new)
            raise
        os.rename(self.new, self.path)
        return blob

    def _check(self, blob, header):
        """The blob is an intact profile, and the running game (``header``: its link-form JSON
        bytes, or empty) still finds in it the profile it names."""
        stored = profile.Stored(blob, (), "the pushed profile")
        running = json.loads(header.decode()) if header else {}
        named = running.get("profile")
        if isinstance(named, str):
            mine = profile.Stored(blob, running.get("modules", ()), "the pushed profile").digest
            if mine != named:
                raise ValueError("the running game uses deck profile %s, this one (%r) gives %s for its modules: "
                                 "start another game first" % (named, stored.name, mine))
