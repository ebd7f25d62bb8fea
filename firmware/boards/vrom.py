"""The virtual board's ROM: what MicroPython does at power-on, for the unix port.

    micropython firmware/boards/vrom.py BOARD_DIR [--raw] [--rom=PARTITION_FILE]

A real board boots, mounts its filesystem, runs ``boot.py`` then ``main.py`` and ends in the REPL
on its USB serial port. This module does the same with stdin/stdout as that serial port
(``host/vboard/process.py`` bridges them to a pseudo-terminal): it changes into BOARD_DIR (the board's
filesystem), sets ``sys.path`` as on a board ('', the ROM partition's ``/rom`` and ``/rom/lib``
when ``--rom`` gives one, 'lib'; the repository comes last, standing in for frozen modules), runs ``boot.py``, ``main.py`` (friendly mode only, as ports/rp2/main.c
does) and then the REPL, byte for byte as ``shared/runtime/pyexec.c`` answers it, because
``mpremote`` (transport_serial.py) depends on those exact bytes:

- friendly REPL: banner, ``>>> `` / ``... `` prompts, echo, paste mode (Ctrl-E);
- raw REPL (Ctrl-A): ``raw REPL; CTRL-B to exit\\r\\n>``, code until Ctrl-D, ``OK``, output,
  0x04, exception text, 0x04, ``>``; Ctrl-B back to friendly; raw-paste (Ctrl-E 'A' Ctrl-A)
  with its 0x01 window flow control;
- Ctrl-D on an empty line, ``sys.exit()`` and ``machine.soft_reset()``: soft reset. The process
  prints ``MPY: soft reboot`` and exits with EXIT_SOFT_RESET / EXIT_SOFT_RESET_RAW, so the host
  starts a fresh interpreter (a fresh heap, as on a board) in the same REPL mode;
  ``machine.reset()``: EXIT_HARD_RESET.

Globals persist across REPL executions and are shared with boot.py and main.py, as on a board
(``mpremote fs cp`` keeps a file object in them between commands). ``print`` is cooked (LF sent
as CR LF) like a board's ``sys.stdout``; ``sys.stdout.buffer`` stays raw for the serial link.

Ctrl-C while code runs: the board profile's link raises KeyboardInterrupt when it reads 0x03
(firmware/boards/virtual.py); code that never reads the link gets a SIGINT from the host bridge
when a 0x03 stays unread, which the unix port turns into KeyboardInterrupt.

Progress is reported on the control pipe named by TAPMAT_VBOARD_CTL_OUT (a file descriptor),
one byte per line: M running boot.py/main.py, E executing REPL input, Q waiting at
the REPL.
"""
import builtins
import io
import os
import sys

import micropython
from micropython import const

EXIT_SOFT_RESET = const(80)      # soft reset from the friendly REPL: main.py runs again
EXIT_SOFT_RESET_RAW = const(81)  # soft reset from the raw REPL: straight back to the raw REPL
EXIT_HARD_RESET = const(82)      # machine.reset()

_CTRL_A = const(1)
_CTRL_B = const(2)
_CTRL_C = const(3)
_CTRL_D = const(4)
_CTRL_E = const(5)

# parse_compile_execute() results (pyexec.h)
_NORMAL = const(0)
_FORCED_EXIT = const(1)
_HARD_RESET = const(2)

_PASTE_WINDOW = const(128)  # MICROPY_REPL_STDIN_BUFFER_MAX / 2, the raw-paste flow-control window
_COMPOUND = ("if", "while", "for", "try", "with", "def", "class", "async")


class PowerOff(Exception):
    """stdin reached end of file: the host bridge is gone, so the board loses power."""


class HardReset(SystemExit):
    """Raised by machine.reset(); SystemExit so that exec'd code does not swallow it lightly."""


def continue_with_input(line):
    """Whether the friendly REPL reads another line (py/repl.c mp_repl_continue_with_input)."""
    try:
        src = bytes(line).decode()
    except UnicodeError:
        return False
    if not src:
        return False
    first = src.split("\n", 1)[0]
    compound = first.startswith("@")
    for kw in _COMPOUND:
        if first.startswith(kw) and (len(first) == len(kw) or not _ident(first[len(kw)])):
            compound = True
    depth = 0
    quote = ""
    i = 0
    n = len(src)
    while i < n:
        c = src[i]
        if c == "\\" and quote and i + 1 < n and src[i + 1] in "'\"\\":
            i += 1
        elif c in "'\"":
            if src[i:i + 3] == c * 3 and quote in ("", c * 3):
                quote = "" if quote else c * 3
                i += 2
            elif quote in ("", c):
                quote = "" if quote else c
        elif not quote:
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
        i += 1
    if len(quote) == 3 or depth > 0 or src[-1] == "\\":
        return True
    return compound and src[-1] != "\n"


def _ident(c):
    return c.isalpha() or c.isdigit() or c == "_"


def unlock_heap():
    """Code that stopped under heap_lock() leaves the heap locked; pyexec.c unlocks it too."""
    micropython.heap_lock()  # from depth d to d + 1 >= 1, so the loop below ends at 0
    while micropython.heap_unlock():
        pass


class Rom:
    """The REPL and boot sequence of one power-on; run() returns the process exit code."""

    def __init__(self, raw):
        self.raw = raw
        self.globals = {"__name__": "__main__"}
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._byte = bytearray(1)
        self._own_frame = ('  File "%s"' % __file__).encode()
        self._ctl = None
        fd = os.getenv("TAPMAT_VBOARD_CTL_OUT")
        if fd:
            try:
                self._ctl = open("/dev/fd/" + fd, "wb")
            except OSError:
                pass  # started by hand with a stale variable: run without reporting

    # -- the serial port -------------------------------------------------------------------
    def getc(self):
        """Next byte from the host, waiting for it."""
        try:
            n = self._in.readinto(self._byte)
        except KeyboardInterrupt:
            return _CTRL_C  # the host's SIGINT arrived while waiting: same as the Ctrl-C byte
        if not n:
            raise PowerOff()
        return self._byte[0]

    def write(self, data):
        self._out.write(data)

    def cooked(self, text):
        """Text (str or bytes) as a board's stdout sends it: every LF as CR LF."""
        if isinstance(text, str):
            text = text.encode()
        self._out.write(text.replace(b"\n", b"\r\n"))

    def report(self, line):
        if self._ctl is not None:
            try:
                self._ctl.write(line)
            except OSError:
                self._ctl = None  # the host stopped listening; the board runs on

    # -- running code ----------------------------------------------------------------------
    def format_exception(self, exc):
        """The traceback a board prints (bytes: the message may hold any byte, as the code
        did), without this module's own frame."""
        buf = io.BytesIO()
        sys.print_exception(exc, buf)
        own = self._own_frame
        return b"\n".join([ln for ln in buf.getvalue().split(b"\n") if not ln.startswith(own)])

    def execute(self, src, kind, name, print_eof):
        """pyexec.c parse_compile_execute(): run src, print its exception; _NORMAL or a reset."""
        ret = _NORMAL
        err = None
        try:
            exec(compile(src, name, kind), self.globals)
        except HardReset:
            ret = _HARD_RESET
        except SystemExit:
            ret = _FORCED_EXIT
        except BaseException as e:  # KeyboardInterrupt too: the board prints it and goes on
            err = e
        unlock_heap()
        if print_eof:
            self.write(b"\x04")
        if err is not None:
            self.cooked(self.format_exception(err))
        if print_eof:
            self.write(b"\x04")
        return ret

    def run_file(self, name):
        """pyexec_file_if_exists(): a missing file counts as success."""
        try:
            with open(name) as f:
                src = f.read()
        except OSError:
            return _NORMAL
        return self.execute(src, "exec", name, False)

    # -- raw REPL --------------------------------------------------------------------------
    def raw_repl(self):
        """pyexec_raw_repl(): returns _NORMAL to switch to the friendly REPL, else a reset."""
        self.write(b"raw REPL; CTRL-B to exit\r\n")
        while True:
            self.write(b">")
            self.report(b"Q\n")
            line = bytearray()
            while True:
                c = self.getc()
                if c == _CTRL_A:
                    if len(line) == 2 and line[0] == _CTRL_E:
                        ret = self.raw_paste(line[1])
                        if ret:
                            return ret
                        line = bytearray()
                        self.write(b">")
                        self.report(b"Q\n")
                        continue
                    self.write(b"raw REPL; CTRL-B to exit\r\n>")
                    line = bytearray()
                elif c == _CTRL_B:
                    self.write(b"\r\n")
                    self.raw = False
                    return _NORMAL
                elif c == _CTRL_C:
                    line = bytearray()
                elif c == _CTRL_D:
                    break
                else:
                    line.append(c)
            self.write(b"OK")
            if not line:
                self.write(b"\r\n")
                return _FORCED_EXIT
            self.report(b"E\n")
            ret = self.execute(bytes(line), "exec", "<stdin>", True)
            if ret:
                return ret

    def raw_paste(self, kind):
        """pyexec.c do_reader_stdin(): code in windows acknowledged with 0x01, ended by 0x04."""
        if kind != ord("A"):
            self.write(b"R\x00")
            return _NORMAL
        self.write(b"R\x01")
        self.write(bytes((_PASTE_WINDOW & 0xFF, _PASTE_WINDOW >> 8, 1)))
        code = bytearray()
        remain = _PASTE_WINDOW
        while True:
            c = self.getc()
            if c == _CTRL_C or c == _CTRL_D:
                self.write(b"\x04")
                break
            code.append(c)
            remain -= 1
            if not remain:
                self.write(b"\x01")
                remain = _PASTE_WINDOW
        self.report(b"E\n")
        if c == _CTRL_C:
            return self.execute("raise KeyboardInterrupt", "exec", "<stdin>", True)
        return self.execute(bytes(code), "exec", "<stdin>", True)

    # -- friendly REPL ---------------------------------------------------------------------
    def readline(self, prompt, line):
        """shared/readline: edit one line into bytearray ``line``; 0 on Enter, else a Ctrl code."""
        self.cooked(prompt)
        self.report(b"Q\n")
        start = len(line)
        last = 0
        while True:
            c = self.getc()
            prev, last = last, c
            if _CTRL_A <= c <= _CTRL_E and len(line) == start:
                return c
            if c == _CTRL_C:
                return c
            if c == 13 or (c == 10 and prev != 13):
                self.write(b"\r\n")
                return 0
            if c in (8, 127):
                if len(line) > start:
                    k = len(line) - 1
                    while k > start and line[k] & 0xC0 == 0x80:
                        k -= 1  # a UTF-8 continuation byte: delete back to its lead byte
                    line[k:] = b""
                    self.write(b"\b \b")
            elif c == 27:
                self.skip_escape()
            elif c >= 32:
                line.append(c)
                self.write(bytes((c,)))

    def skip_escape(self):
        """VT100 keys (ESC [ A, ESC [ 3 ~, ...) are not supported; like readline.c, at most
        three bytes after ESC are taken, whatever they are."""
        if self.getc() in (ord("["), ord("O")) and 0x30 <= self.getc() <= 0x39:
            self.getc()

    def banner(self):
        version = sys.version.split("; ", 1)[-1]
        self.cooked(version + "; tapmat virtual board with unix port\n"
                    'Type "help()" for more information.\n')

    def friendly_repl(self):
        """pyexec_friendly_repl(): returns _NORMAL to switch to the raw REPL, else a reset."""
        self.banner()
        while True:
            line = bytearray()
            ret = self.readline(">>> ", line)
            kind = "single"
            if ret == _CTRL_A:
                self.write(b"\r\n")
                self.raw = True
                return _NORMAL
            if ret == _CTRL_B:
                self.write(b"\r\n")
                self.banner()
                continue
            if ret == _CTRL_C:
                self.write(b"\r\n")
                continue
            if ret == _CTRL_D:
                self.write(b"\r\n")
                return _FORCED_EXIT
            if ret == _CTRL_E:
                if not self.paste_mode(line):
                    continue
                kind = "exec"
            elif not line:
                continue
            else:
                while continue_with_input(line):
                    line.append(10)
                    ret = self.readline("... ", line)
                    if ret == _CTRL_C:
                        self.write(b"\r\n")
                        break
                    if ret == _CTRL_D:
                        ret = 0
                        break
                if ret == _CTRL_C:
                    continue
            self.report(b"E\n")
            ret = self.execute(bytes(line), kind, "<stdin>", False)
            if ret:
                return ret

    def paste_mode(self, line):
        """Ctrl-E: echo everything until Ctrl-D (True: run it) or Ctrl-C (False: drop it)."""
        self.write(b"\r\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\r\n=== ")
        while True:
            c = self.getc()
            if c == _CTRL_C or c == _CTRL_D:
                self.write(b"\r\n")
                return c == _CTRL_D
            line.append(c)
            self.write(b"\r\n=== " if c == 13 else bytes((c,)))

    # -- power-on --------------------------------------------------------------------------
    def run(self):
        """Boot, then serve the REPL until a reset; the process exit code for the host."""
        self.report(b"M\n")
        ret = self.run_file("boot.py")
        if not ret and not self.raw:
            ret = self.run_file("main.py")
        while not ret:
            try:
                ret = self.raw_repl() if self.raw else self.friendly_repl()
            except KeyboardInterrupt:
                ret = _NORMAL  # a late host interrupt between two inputs: just go on
        if ret == _HARD_RESET:
            return EXIT_HARD_RESET
        self.cooked("MPY: soft reboot\n")
        return EXIT_SOFT_RESET_RAW if self.raw else EXIT_SOFT_RESET


class Machine:
    """``machine`` as the unix port has it, plus reset() as a board has it (mpremote reset)."""

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        return getattr(self._real, name)

    def reset(self):
        raise HardReset()


def install(rom):
    """Board-like print (cooked, to the serial port), REPL echo and machine.reset()."""
    plain_print = builtins.print

    def board_print(*args, sep=" ", end="\n", file=None):
        if file is not None and file is not sys.stdout and file is not sys.stderr:
            plain_print(*args, sep=sep, end=end, file=file)
            return
        sep = " " if sep is None else sep
        rom.cooked(sep.join([str(a) for a in args]) + ("\n" if end is None else end))

    def repl_print(obj):
        if obj is not None:
            rom.cooked(repr(obj) + "\n")
            builtins._ = obj

    builtins.print = board_print
    builtins.__repl_print__ = repl_print
    import machine
    sys.modules["machine"] = Machine(machine)


_ROMFS_HEADER = b"\xd2\xcd\x31"  # extmod/vfs_rom.c
_ROM_BLOCK = const(4096)           # erase unit: what vfs.rom_ioctl(6) answers
_ROM_MIN_WRITE = const(4)          # what a prepare answers: the smallest write
_EINVAL = const(22)


class RomPartition:
    """One ROM partition kept in a file, behind ``vfs.rom_ioctl`` as extmod/vfs_rom_ioctl.c
    defines it (1 count, 2 the partition's memory, 3 prepare = erase, 4 write, 5 end, 6 block
    size), so that ``mpremote romfs query/deploy`` and ``tapmat flash`` run against it for real.
    The unix port has no flash to map: the partition's bytes live in one heap buffer (the host
    enlarges the heap by its size) and every write goes through to the file."""

    def __init__(self, path):
        self.path = path
        self.mem = bytearray(os.stat(path)[6])
        with open(path, "rb") as f:
            f.readinto(self.mem)

    def store(self, offset, data):
        self.mem[offset:offset + len(data)] = data
        with open(self.path, "r+b") as f:
            f.seek(offset)
            f.write(data)

    def ioctl(self, op, rom_id=0, *args):
        if op == 1:
            return 1
        if rom_id != 0:
            return -_EINVAL
        if op == 2:
            return self.mem
        if op == 3:  # prepare (length) or (offset, length): erased to 0xFF
            offset, n = (0, args[0]) if len(args) == 1 else args
            self.store(offset, b"\xff" * max(0, min(n, len(self.mem) - offset)))
            return _ROM_MIN_WRITE
        if op == 4:
            self.store(args[0], args[1])
            return 0
        if op == 5:
            return 0
        if op == 6:
            return _ROM_BLOCK
        return -_EINVAL


class Vfs:
    """``vfs`` as the unix port has it, plus ``rom_ioctl`` for the board's ROM partition."""

    def __init__(self, real, rom):
        self._real = real
        self.rom_ioctl = rom.ioctl

    def __getattr__(self, name):
        return getattr(self._real, name)


def mount_rom(argv):
    """``--rom=PARTITION_FILE``: the board has a ROM partition (``vfs.rom_ioctl``); a ROMFS image
    found in it is mounted at ``/rom`` as a board with one does at boot. Returns the paths it
    adds to ``sys.path``."""
    for arg in argv:
        if arg.startswith("--rom="):
            import vfs
            rom = RomPartition(arg[6:])
            sys.modules["vfs"] = Vfs(vfs, rom)
            if rom.mem[:3] == _ROMFS_HEADER:
                vfs.mount(vfs.VfsRom(rom.mem), "/rom")
                return ["/rom", "/rom/lib"]
    return []


def power_on(argv):
    """Start the board in the folder argv[1]; return the exit code for the host."""
    here = __file__ if __file__.startswith("/") else os.getcwd() + "/" + __file__
    rom_dir = here.rsplit("/", 3)[0]  # the repository: <rom_dir>/firmware/boards/vrom.py
    rom_paths = mount_rom(argv)
    os.chdir(argv[1])
    sys.path[:] = ["", ".frozen"] + rom_paths + ["lib", rom_dir]
    rom = Rom("--raw" in argv)
    install(rom)
    try:
        return rom.run()
    except PowerOff:
        return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.stderr.write("usage: micropython vrom.py BOARD_DIR [--raw] [--rom=PARTITION_FILE]\n")
        sys.exit(2)
    sys.exit(power_on(sys.argv))
