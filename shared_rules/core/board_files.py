"""Files of a board's filesystem: where one is, reading a JSON one, and the deck profile
(``profile.bin``, beside ``game.json``) that the rules core reads itself, which a header on the
link names by digest (docs/protocol.md, section 10)."""
import json

PROFILE_FILE = "profile.bin"
profile_path = None   # type: str | None  # set by the firmware (firmware/app.py) on a board; None elsewhere


def board_path(root, name):
    """A file's path on the board filesystem (``root``: "" or "." for the current folder)."""
    return name if root in ("", ".") else root.rstrip("/") + "/" + name


def read_json(root, name):
    """A JSON file of the board filesystem, or None if it is missing or unreadable."""
    try:
        with open(board_path(root, name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
