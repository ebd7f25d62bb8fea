# Freeze tapmat's board modules into your own MicroPython firmware (docs/flashing.md):
#
#     make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/tapmat/manifest.py
#
# Frozen bytecode runs from flash like a ROMFS image, so the modules take no heap for their
# code. The files are those `tapmat flash` puts on a Pico (host/board/image.py, target "pico";
# tests/test_flash_romfs.py checks that both lists agree). MicroPython's manifest tools run this
# file from its own folder, so the paths are relative to the repository.
import os

include("$(PORT_DIR)/boards/manifest.py")

HOST_ONLY = ("layout.py", "rng.py")  # host/board/build.py HOST_ONLY
LEAVE_OUT = ("firmware/main.py", "firmware/boards/vrom.py", "firmware/boards/virtual.py", "firmware/emu/")


def board_files(pkg):
    """Every .py under ``pkg`` a Pico runs, relative to ``pkg``, sorted."""
    out = []
    for top, dirs, files in os.walk(pkg):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            path = os.path.join(top, name).replace(os.sep, "/")
            if name.endswith(".py") and not name.endswith(HOST_ONLY) and not path.startswith(LEAVE_OUT):
                out.append(path[len(pkg) + 1:])
    return sorted(out)


for _pkg in ("shared_rules", "firmware"):
    package(_pkg, files=board_files(_pkg))
