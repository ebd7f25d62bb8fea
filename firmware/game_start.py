"""Building a game to start on the board: the one ``game.json`` names at power-on when no stored
game came back (``configured``), the one a host's NEWGAME names (``new_game``), and what a header
needs first (the deck profile, the game table).

Setup code, like the deck profile's: ``App`` imports it to build a game and lets go of it before
the game starts (``App._prepared``), so a game in play never holds it (docs/performance.md,
round 13). Its functions take the app, as ``firmware.upload``'s do.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

import gc
import json

from shared_rules.core.board_files import PROFILE_FILE, board_path
from shared_rules.wire import codec

_GAME_FILE = const("game.json")
_REPLACE = const("replace")  # NEWGAME's confirmation that a game under way may end (docs/protocol.md)
_IN_PROGRESS = const("a game is in progress")  # the refusal's words the host recognises


def with_profile(root, header):
    """Sheriff modules without a ``profile`` in the header take the board's ``profile.bin``
    (written by ``make flash PROFILE=...``), named by its digest for those modules (the link form,
    docs/protocol.md); unchanged without the file. The profile code is imported only then."""
    if isinstance(header, dict) and header.get("modules") and "profile" not in header:
        from shared_rules.sheriff.modules import profile
        if not [key for key, _ in profile.SECTION_TAGS if key in header["modules"]]:
            return header   # deputies alone read no card data: the game must not depend on the file
        path = board_path(root, PROFILE_FILE)
        try:
            with open(path, "rb") as f:
                blob = f.read()
        except OSError:
            return header
        header["profile"] = profile.Stored(blob, header["modules"], path).digest
    return header


def known_game(name):
    """Whether the referee knows the game ``name`` (the game table is setup code too)."""
    from shared_rules import games
    return name in games.names()


def build(app, header):
    """The game for a parsed header (``games.from_header``: ``ValueError`` saying why not),
    letting go of the deck profile's code before the rules load (``App.set_up``)."""
    from shared_rules import games
    return games.from_header(header, app.set_up)


def configured(app, conf):
    """The game ``game.json`` names (``conf``, parsed), built and journalled at boot when no
    stored game came back: ``(game, header)`` for ``App.start``, or None if the file no longer
    makes a game."""
    try:
        conf = with_profile(app.root, conf)
        gc.collect()   # as in new_game
        game = build(app, conf)
        header = json.dumps(conf).encode()
    except ValueError:
        return None
    if app.persist:
        app.persist.new_game(header, game)
    app.set_up()
    return game, header


def new_game(app, text):
    """NEWGAME from the host, a log header as JSON text: ``(game, header)`` built and journalled
    for ``App.start``, or None (refused with an ERROR frame; the running game goes on).

    A game under way (actions accepted, not over) is ended only when the host confirms it:
    the header then carries ``"replace": true`` (taken out before the header is checked and
    stored), so a stray or repeated NEWGAME never wipes a game the players are in.

    Switching to another game first lets go of the running one and of its modules (rules,
    gestures), so the two never share the heap; if the new header is then refused, the
    running game comes back from the journal. With too little heap left in one piece for
    the new game, the board restarts (``board.soft_reset``) and boots into it."""
    try:
        header = json.loads(text)
        if not isinstance(header, dict):
            raise ValueError("the header is not a JSON object")
        confirmed = header.pop(_REPLACE, False) is True
        going = under_way(app)
        if going and not confirmed:
            raise ValueError("%s (%d actions): confirm to end it" % (_IN_PROGRESS, going))
        header = with_profile(app.root, header)
        name = header.get("game")
        if not known_game(name):
            raise ValueError("unknown game")
    except ValueError as e:
        refuse(app, e)
        return None
    game = None
    old = app.referee.game
    if old is not None and old.NAME != name:
        app.let_go_of_game()
    old = None
    # Collect first, so the game's modules load into a heap with boot's and the last game's
    # garbage freed, not into what a collection forced mid-import leaves (measured: the
    # smallest heap for a whole Dead Man's Draw game through the loop, ROMFS, 93.6 -> 79.5 KB).
    gc.collect()
    try:
        game = build(app, header)
        app.set_up()
    except ValueError as e:
        refuse(app, e)
        if app.referee.game is None:
            app.boot()  # the game let go of above, as journalled
        return None
    except MemoryError:
        game = None  # too little heap left beside what is loaded: see below
    raw = json.dumps(header).encode()
    try:
        with open(board_path(app.root, _GAME_FILE), "w") as f:
            f.write(raw.decode())
    except OSError:
        pass  # the journal still holds the game; only a reboot without it loses the choice
    try:
        if game is not None:
            if app.persist:
                app.persist.new_game(raw, game)
            return game, raw
    except MemoryError:
        pass
    # Too little heap in one piece beside what is loaded: start the new game from a fresh
    # heap. The old game's journal goes (a new game was asked for), so boot starts game.json's.
    game = None
    if app.persist:
        app.persist.forget()
    app.board.soft_reset()
    return None


def under_way(app):
    """Actions accepted in the running game if it is not over, else 0 (a NEWGAME may then
    replace it without confirmation). Without a journal, a running game counts as one."""
    game = app.referee.game
    if game is None or game.over():
        return 0
    if app.persist:
        return app.persist.count
    return 1


def refuse(app, why):
    """A NEWGAME header refused: why (e.g. the deck profile it names is not the board's), then
    ERROR ``body``; the running game goes on."""
    app.referee.message("new game refused: %s" % why)
    app.error(codec.ERR_BODY)
