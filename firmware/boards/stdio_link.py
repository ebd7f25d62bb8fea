"""The host link on the serial port the REPL also uses: the interpreter's stdin and stdout.

Shared by the board profiles. Reading stdin blocks until the requested count has arrived
(MicroPython's shared/runtime/sys_stdio_mphal.c), so ``readinto`` takes one byte at a time and
only while poll says one waits. Allocation-free once built.

Ctrl-C: on a board, MicroPython's ``kbd_intr(3)`` turns 0x03 into KeyboardInterrupt before it
reaches stdin. Where stdin is a plain pipe (the virtual board) ``interrupt=True`` does the same
here (the virtual profile's ``kbd_intr`` sets it). The frame codec (shared_rules/wire/cobs.py) escapes
0x03, so no frame carries one; while it referees, the firmware turns the interrupt off anyway
(line noise or another program must not stop a game) and turns it back on for a while when the
host sends CONSOLE (docs/flashing.md).
"""
import select


def poller(stream):
    """A select.poll on stream and its ipoll: allocation-free once called (CPython: poll)."""
    p = select.poll()
    p.register(stream, select.POLLIN)
    ipoll = getattr(p, "ipoll", None) or p.poll
    ipoll(0)  # ipoll allocates its result tuple on the first call only
    return ipoll


def ready(ipoll):
    """Whether a byte waits on the polled stream."""
    for ev in ipoll(0):
        return ev[1] & select.POLLIN
    return 0


class StdioLink:
    def __init__(self, src, dst, interrupt=False):
        self._in = src
        self._out = dst
        self.interrupt = interrupt
        self._byte = bytearray(1)
        self._ipoll = poller(src)

    def readinto(self, buf):
        """Copy the bytes already received into buf without waiting; return how many (0: none)."""
        n = 0
        one = self._byte
        cap = len(buf)
        while n < cap and ready(self._ipoll):
            if not self._in.readinto(one):
                break
            if self.interrupt and one[0] == 3:
                raise KeyboardInterrupt
            buf[n] = one[0]
            n += 1
        return n

    def write(self, buf, n):
        """Send buf[0:n] without slicing; ValueError (nothing sent) if n is not within buf."""
        if not 0 <= n <= len(buf):
            raise ValueError("write length")
        return self._out.write(buf, n)
