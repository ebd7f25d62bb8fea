"""Files of a board's filesystem that the rules core reads itself: the deck profile (``profile.bin``,
beside ``game.json``), which a header on the link names by digest (docs/protocol.md, section 10)."""

PROFILE_FILE = "profile.bin"
profile_path = None   # type: str | None  # set by the firmware (firmware/app.py) on a board; None elsewhere
