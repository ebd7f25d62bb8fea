"""A board profile made of plain objects, for firmware tests on both interpreters."""
import os
import sys

from shared_rules.wire import codec
import scratch


class FakePort:
    """The serial link: bytes the test queued for the board, frames the board wrote."""

    def __init__(self, size=16384):
        self.inbox = bytearray(size)
        self.in_len = 0
        self.in_pos = 0
        self.sent = []

    def push(self, data):
        if self.in_pos == self.in_len:
            self.in_pos = self.in_len = 0
        for b in data:
            self.inbox[self.in_len] = b
            self.in_len += 1

    def readinto(self, buf):
        n = 0
        while n < len(buf) and self.in_pos < self.in_len:
            buf[n] = self.inbox[self.in_pos]
            self.in_pos += 1
            n += 1
        return n

    def write(self, buf, n):
        self.sent.append(bytes(buf[:n]))

    def frames(self):
        """Decode and forget what the board sent: [(type, seq, body)]."""
        reader = codec.FrameReader()
        out = []
        for chunk in self.sent:
            for f in reader.frames(chunk):
                out.append(f)
        self.sent = []
        return out


def scratch_dir(name):
    """An empty scratch folder for a board filesystem (no tempfile on MicroPython)."""
    path = scratch.TMP + "/tapmat-test-" + name
    try:
        os.mkdir(path)
    except OSError:
        for f in os.listdir(path):
            os.remove(path + "/" + f)
    return path


class FakeBoard:
    name = "fake"

    def __init__(self, root=None, port_size=16384):
        self.fs_root = root or scratch_dir(sys.implementation.name)
        self.link = FakePort(port_size)
        self.readers = []
        self.switches = []
        self.t = 0

    def ticks_ms(self):
        """A clock that moves 5 ms each time it is read."""
        self.t += 5
        return self.t

    def idle(self):
        pass
