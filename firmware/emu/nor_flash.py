"""NOR flash in RAM for littlefs (MicroPython's ``vfs.VfsLfs2``): counts what the board's flash
would do (tests/dual/dual_persist.py: power cuts at every operation; bench/journal_flash.py: the
journal's flash work per action, which the timing model turns into time)."""


class PowerCut(Exception):
    pass


class Flash:
    """NOR flash in RAM behind MicroPython's extended block-device protocol. The power fails at
    program/erase number ``cut``: that operation lands half, nothing after it lands at all.
    Copies byte by byte so that littlefs itself can run with the heap locked."""

    def __init__(self, image, size=4096):
        self.data = image
        self.size = size
        self.ops = 0
        self.cut = -1
        self.dead = False
        self.programmed = 0     # bytes
        self.programs = 0       # program operations
        self.pages = 0          # 256-byte pages they program (the flash's unit: tPP each)
        self.erased = 0

    def readblocks(self, n, buf, off=0):
        a = n * self.size + off
        d = self.data
        for i in range(len(buf)):
            buf[i] = d[a + i]

    def _land(self, a, src, m):
        """Do one program/erase of ``m`` bytes at ``a`` (``src`` None: erase) unless dead."""
        if self.dead:
            return
        self.ops += 1
        if self.ops == self.cut:
            m //= 2
        d = self.data
        for i in range(m):
            d[a + i] = 255 if src is None else src[i]
        if self.ops == self.cut:
            self.dead = True
            raise PowerCut()

    def writeblocks(self, n, buf, off=0):
        self._land(n * self.size + off, buf, len(buf))
        self.programmed += len(buf)
        self.programs += 1
        self.pages += (len(buf) + 255) // 256

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // self.size
        if op == 5:
            return self.size
        if op == 6:
            self._land(arg * self.size, None, self.size)
            self.erased += 1
        return 0
