"""The scoreboard: one picture of a mirrored game, drawn with rich to fit the terminal.

``render(picture, width, height)`` builds the whole screen: a title line (game, seats, round and
phase, link status), what the mat waits for, one table row per seat with the public details of
the game, the final standings when the game is over, and as many of the last events as fit, with
refusals and their reasons spelled out. It fits 80 x 24 (twelve Skull seats leave fewer lines
for events) and uses wider columns and more events on a bigger terminal.

Everything shown comes from the game's ``describe(view)`` dict (``host.screen.views``), from the
public view unless the picture is a referee one: the public dicts carry no Skull disc and no
card inside a bag, and the events come from public deltas (hidden fields masked on the board).
A game this module does not know is still drawn, generically, from its dict.
"""
from __future__ import annotations

import importlib
import io
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from host.screen import views
from host.screen import wording
from host.hub.mirror import REFEREE, Event, Mirror, Prompt

ROOT = Path(__file__).resolve().parents[2]
LAYOUT_FILE = ROOT / "hardware" / "mat_layout.json"
TITLES = {"skull": "Skull", "deadmans": "Dead Man's Draw", "sheriff": "Sheriff of Nottingham"}
WIDE = 110  # from this width on, full names instead of abbreviations
# Zone names of hardware/mat_layout.json as players call the pads (others: "<zone> pad").
PADS = {"seat": "pad", "dock": "bag dock", "discard1": "discard pile 1 pad",
        "discard2": "discard pile 2 pad"}

# Reasons worth more than their code name (the rest: underscores become spaces).
PLAIN = {
    "not_now": "not now (that move means nothing at this point of the game)",
    "unknown_tag": "unknown tag (not in this mat's deck registry)",
    "foreign_tag": "a piece of another game",
    "duplicate_tag": "the same tag on two pads",
    "not_your_turn": "not that seat's turn",
    "wrong_phase": "not in this phase of the game",
    "game_over": "the game is over",
    "malformed": "malformed action",
    "bad_seat": "no such seat",
    "not_on_top": "that card lies under the deck: a draw takes the top cards",
    "draw_count": "a Merry Man draw is two cards (keep one, put one back), after regaining their trust one",
}


@dataclass
class Picture:
    """Everything the scoreboard needs, copied out of a session at one moment."""

    port: str = ""
    connected: bool = False
    in_sync: bool = False
    header: dict[str, Any] | None = None
    state: dict[str, Any] | None = None
    referee: bool = False
    prompt: Prompt | None = None
    events: list[Event] = field(default_factory=list)
    final: dict[str, Any] | None = None
    frames: int = 0
    resyncs: int = 0
    bad_frames: int = 0
    rx_bytes: int = 0
    tx_bytes: int = 0
    note: str = ""
    reader_faults: dict[int, tuple[int, float, int]] = field(default_factory=dict)


def picture_of(m: Mirror, **extra: Any) -> Picture:
    """A picture of what a mirror holds now (``extra``: the link's fields, final, note)."""
    return Picture(in_sync=m.in_sync, header=m.header, state=m.state(), referee=m.view_kind == REFEREE,
                   prompt=m.prompt, events=list(m.events), frames=m.frames, resyncs=m.resyncs,
                   bad_frames=m.bad_frames, reader_faults=dict(m.reader_faults), **extra)


# -- the mat: prompts and pad names -------------------------------------------------------------
def firmware_module(name: str) -> Any:
    """A module of the board's firmware (``firmware.mat``, ``firmware.mat_skull`` ...), whose
    names the host reads. The firmware is no host package: the repository is searched last."""
    if str(ROOT) not in sys.path:
        sys.path.append(str(ROOT))
    return importlib.import_module(name)


def gestures(game: str) -> Any:
    """The board's gesture class of a game (its PROMPTS and ZONES), or None."""
    try:
        return firmware_module("firmware.mat_" + game).Gestures
    except (ImportError, AttributeError):
        return None


def pad_names(game: str, seats: int) -> dict[int, str]:
    """Reader -> "seat 2's bank pad", "the command pad" ... for the game's zone layout."""
    try:
        doc = json.loads(LAYOUT_FILE.read_text())
        layout = firmware_module("firmware.mat").pick_layout(doc, game, seats)
    except (OSError, ValueError, ImportError, KeyError):
        return {}
    names: dict[int, str] = {}
    for zone, where in layout["zones"].items():
        what = pad_label(zone)
        if isinstance(where, int):
            names[where] = "the " + what
            continue
        for seat, pad in enumerate(where[:seats]):
            reader = pad if isinstance(pad, int) else pad[0]
            names[reader] = "seat %d's %s" % (seat, what)
    return names


def pad_label(zone: str) -> str:
    return PADS.get(zone, zone.replace("_", " ") + " pad")


def seat_list(mask: int) -> str:
    seats = [s for s in range(16) if mask >> s & 1]
    if not seats:
        return "nobody"
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(str(s) for s in seats)


def prompt_text(game: str, prompt: Prompt | None, seats: int) -> str:
    """``seat 1: bid or pass (command pad)`` from a PROMPT."""
    if prompt is None:
        return ""
    cls = gestures(game)
    names = getattr(cls, "PROMPTS", ())
    what = names[prompt.what] if prompt.what < len(names) else "prompt %d" % prompt.what
    if prompt.what == 0:
        return "game over: %s won" % seat_list(prompt.seats)
    zones = getattr(cls, "ZONES", ())
    if prompt.reader != 255:
        where = pad_names(game, seats).get(prompt.reader, "reader %d" % prompt.reader)
    elif prompt.zone < len(zones):
        where = "own " + pad_label(zones[prompt.zone])
    else:
        where = ""
    text = "%s: %s" % (seat_list(prompt.seats), what.replace("_", " "))
    return text + (" (%s)" % where if where else "")


# -- the seats, per game ------------------------------------------------------------------------
Rows = tuple[list[str], list[list[Any]], list[str]]  # column names, rows, info lines


def _mark(on: bool, text: str) -> str:
    return text if on else ""


def skull_rows(d: dict[str, Any], wide: bool) -> Rows:
    seats = d["seats"]
    rows = []
    for i, s in enumerate(seats):
        notes = [_mark(i == d["turn"] and d["phase"] in ("add", "bidding"), "on turn"),
                 _mark(i == d["challenger"], "challenger"), _mark(s["passed"], "passed"),
                 _mark(i == d["lead"] and d["phase"] == "prep", "starts"),
                 _mark(s["eliminated"], "eliminated"), _mark(i == d["winner"], "WINNER")]
        down = s["stack"] - s["flipped"]
        mat = "▮" * down + "▯" * s["flipped"] if s["stack"] <= 8 else "%d down" % down
        rows.append([i, "★" * s["score"] + "☆" * (2 - s["score"]), mat or "-", s["hand"],
                     ", ".join(n for n in notes if n)])
    info = ["phase: %s" % d["phase"].replace("_", " ")]
    if d["bid"]:
        info.append("bid %d by seat %s" % (d["bid"], d["challenger"]))
    on_mats = sum(s["stack"] - s["flipped"] for s in seats)
    info.append("%d disc%s face down" % (on_mats, "" if on_mats == 1 else "s"))
    if d["skull_owner"] is not None:
        info.append("skull of seat %d found" % d["skull_owner"])
    if d["players"]:
        info.append("two tribes: seat s plays for player s %% %d" % d["players"])
    return ["Seat", "Wins", "Mat (▮ down ▯ up)", "Hand", ""], rows, [" · ".join(info)]


def _suit(code: str) -> tuple[str, int]:
    name = code.rstrip("0123456789")
    return name, int(code[len(name):] or 0)


def deadmans_rows(d: dict[str, Any], wide: bool) -> Rows:
    rows = []
    for i, s in enumerate(d["seats"]):
        tops: dict[str, int] = {}
        for code in s["bank"]:
            suit, value = _suit(code)
            tops[suit] = max(value, tops.get(suit, 0))
        label = (lambda n: n) if wide else (lambda n: n[:3])
        bank = " ".join("%s%d" % (label(k), v) for k, v in sorted(tops.items())) or "-"
        trait = (s["trait"] or "-").replace("_", " ")
        if s["davy_jones"] is not None:
            trait += " → %d" % s["davy_jones"]
        turn = "now" if i == d["turn"] and d["phase"] == "play" else ""
        rows.append([i, s["score"], len(s["bank"]), bank, trait, turn])
    play = " ".join(d["play"]) or "empty"
    turn = "" if d["phase"] == "over" else " · seat %d on turn" % d["turn"]
    info = ["phase: %s%s%s" % (d["phase"], turn, " · must choose: " + d["pending"] if d["pending"] else ""),
            "play area: %s · draw pile %d · discard pile %d%s" % (
                play, d["draw_pile"], d["discard_pile"],
                " · Kraken: %d to draw" % d["kraken"] if d["kraken"] else "")]
    return ["Seat", "Score", "Cards", "Bank (top of each suit)", "Trait", "Turn"], rows, info


GOODS = {"apple": "apl", "cheese": "chs", "bread": "brd", "chicken": "chk"}


def sheriff_rows(d: dict[str, Any], wide: bool) -> Rows:
    rows = []
    for i, s in enumerate(d["seats"]):
        name = (lambda g: g + " ") if wide else (lambda g: GOODS.get(g, g[:3]))
        stand = " ".join("%s%d" % (name(g), n) for g, n in s["stand"].items() if n) or "-"
        if s["sits_out"]:
            bag = "sits out"
        elif s["resolved"]:
            bag = "done"
        elif s["declared"]:
            bag = "declared " + wording.goods(s["declared"][1], s["declared"][0])
        elif s["loaded"]:
            bag = "bag closed"
        else:
            bag = ""
        role = "Sheriff" if i == d["sheriff"] else ("Deputy" if i in d.get("deputies", ()) else (
            "on turn" if i == d["turn"] else "merchant"))
        rows.append([i, role, s["gold"], stand, s["contraband"], s["hand"], bag])
    piles = ", ".join("%d (top %s)" % (len(p), p[-1]) if p else "empty" for p in d["piles"])
    played = "%d rounds played" % d["rounds"] if d["phase"] == "over" else "round %d of %d" % (
        d["round"] + 1, d["rounds"])
    who = "Sheriff: seat %d" % d["sheriff"] if d["sheriff"] is not None else "deputies: %s" % (
        " and ".join("seat %d" % x for x in d.get("deputies", ())) or "to be revealed")
    info = ["%s · phase: %s · %s" % (played, d["phase"], who),
            "draw pile %d · discard piles: %s" % (d["draw"], piles)] + merry_men_lines(d)
    return ["Seat", "Role", "Gold", "Stand (legal goods)", "Contraband", "Hand", "Bag"], rows, info


def merry_men_lines(d: dict[str, Any]) -> list[str]:
    """Sheriff modules: the loot chest (with deputies), the Black Market piles and who holds
    which card. Nothing for a base game."""
    lines = []
    if "loot_chest" in d:
        c = d["loot_chest"]
        goods = " ".join("%s %d" % (g, n) for g, n in c["stand"].items() if n)
        lines.append("loot chest: %d gold%s%s" % (c["gold"], " · " + goods if goods else "",
                                                   " · %d contraband" % c["contraband"] if c["contraband"] else ""))
    if "black_market" in d:
        left = " · ".join("%s %s" % (g, "/".join(map(str, v)) or "gone") for g, v in d["black_market"].items())
        held = ", ".join("seat %d %s" % (i, " ".join("%s %d" % (g, v) for g, v in s["black_market"]))
                         for i, s in enumerate(d["seats"]) if s.get("black_market"))
        lines.append("Black Market left: %s%s" % (left, " · held: " + held if held else ""))
    return lines + card_module_lines(d)


def card_module_lines(d: dict[str, Any]) -> list[str]:
    """Laws in force, special orders face up and filled (by profile number, and by name when the
    state carries the header's ``card_names``), and how many Merry Men each seat holds: a count,
    never which one (the public view does not carry it)."""
    names = d.get("card_names") or {}
    law = names.get("laws") or []
    order = names.get("special_orders") or []

    def law_text(n: int) -> str:
        return "#%d %s" % (n, law[n]) if n < len(law) else "#%d" % n

    def order_text(n: int) -> str:
        return "#%d %s" % (n, order[n]) if n < len(order) else "#%d" % n

    lines = []
    if "laws" in d:
        lines.append("laws in force: %s" % (" · ".join("%d. %s" % (i + 1, law_text(n)) for i, n in enumerate(d["laws"]))
                                           or "none yet"))
    seats = d["seats"]
    if "orders_up" in d:
        filled = ", ".join("seat %d %s" % (i, " ".join(order_text(o) for o in s["orders"]))
                           for i, s in enumerate(seats) if s.get("orders"))
        lines.append("special orders face up: %s%s" % (" · ".join(order_text(o) for o in d["orders_up"]) or "none",
                                                       " · filled: " + filled if filled else ""))
    if seats and "merry_men" in seats[0]:
        lines.append("Merry Men held: " + ", ".join(
            "seat %d %d%s" % (i, s["merry_men"], " (draw %s)" % s["merry_draw"] if s["merry_draw"] else "")
            for i, s in enumerate(seats)))
    return lines


def card_names(header: dict[str, Any] | None) -> dict[str, list[str]]:
    """Public names of the laws and special orders of the header's inline deck profile (a law's
    name; an order's two goods and reward), for the rows above. Merry Men names never: which
    one a player holds is hidden."""
    prof = (header or {}).get("profile")
    if not isinstance(prof, dict):
        return {}
    out = {}
    if isinstance(prof.get("laws"), list):
        out["laws"] = [str(c.get("name", "?")) for c in prof["laws"]]
    if isinstance(prof.get("special_orders"), list):
        out["special_orders"] = ["%s+%s → %s" % (c.get("legal"), c.get("contraband"), c.get("reward"))
                                 for c in prof["special_orders"]]
    return out


def state_of(p: "Picture") -> dict[str, Any] | None:
    """The picture's state, with the card names its header's profile gives (Sheriff's card modules)."""
    d = p.state
    if d is None or not ("laws" in d or "orders_up" in d):
        return d
    names = card_names(p.header)
    return dict(d, card_names=names) if names else d


def generic_rows(d: dict[str, Any], wide: bool) -> Rows:
    seats = d.get("seats") or []
    keys: list[str] = []
    for s in seats:
        keys += [k for k in s if k not in keys]
    rows = [[i] + [_short(s.get(k)) for k in keys] for i, s in enumerate(seats)]
    info = ["%s: %s" % (k, _short(v)) for k, v in d.items() if k not in ("seats", "game")]
    return ["Seat"] + keys, rows, [" · ".join(info)]


def _short(v: Any) -> str:
    if isinstance(v, dict):
        return " ".join("%s %s" % (k, _short(x)) for k, x in v.items())
    if isinstance(v, list):
        return " ".join(_short(x) for x in v)
    return "-" if v is None else str(v)


ROWS: dict[str, Callable[[dict[str, Any], bool], Rows]] = {
    "skull": skull_rows, "deadmans": deadmans_rows, "sheriff": sheriff_rows,
}


def public_keys(game: str) -> set[str]:
    """The keys of a seat in the game's public dict (a referee dict has more)."""
    try:
        from shared_rules import games
        cls = games.game_class(game)
        g = cls.from_header({"game": game, "players": 3})
        view = bytearray(cls.PUBLIC_SIZE)
        g.public(view)
        return set(views.describe(cls, view)["seats"][0])
    except (ValueError, KeyError, IndexError):
        return set()


def referee_lines(d: dict[str, Any]) -> list[str]:
    """What only the referee view holds: per seat the keys the public dict lacks, and the
    top-level ones."""
    keys = public_keys(d["game"])
    lines = []
    for i, s in enumerate(d.get("seats") or []):
        extra = {k: v for k, v in s.items() if k not in keys}
        if extra:
            lines.append("seat %d: %s" % (i, "; ".join("%s %s" % (k, _short(v)) for k, v in extra.items())))
    return lines


# -- events -------------------------------------------------------------------------------------
def action_text(action: dict[str, Any] | None, game: str = "") -> str:
    """``seat 1 traded 4 cards, took 2 from pile 2`` (public fields only, as the delta carried
    them; host/screen/wording.py)."""
    return wording.sentence(game, action)


def event_line(ev: Event, pads: dict[int, str], game: str = "") -> Text:
    stamp = time.strftime("%H:%M:%S ", time.localtime(ev.at))
    return Text.assemble((stamp, "dim"), event_text(ev, pads, game))


def event_text(ev: Event, pads: dict[int, str], game: str = "") -> Text:
    """One event as players say it: ``✓ seat 2 bids 3``, ``✗ ... refused at seat 1's pad: ...``."""
    if ev.kind == "accepted":
        text = Text.assemble(("✓ ", "green"), action_text(ev.action, game))
        if ev.outcome:
            text.append(" — " + ev.outcome, style="bold yellow" if "BUST" in ev.outcome else "bold")
        return text
    if ev.kind == "rejected":
        what = action_text(ev.action, game) if ev.action else "a tag"
        reason = PLAIN.get(ev.reason or "", (ev.reason or "refused").replace("_", " "))
        where = ""
        if ev.reader is not None:
            where = " at " + pads.get(ev.reader, "reader %d" % ev.reader)
        return Text.assemble(("✗ ", "bold red"), what, (" refused%s: " % where, "red"), (reason, "bold red"))
    return Text.assemble(("! ", "yellow"), (ev.text, "yellow"))


# -- standings ----------------------------------------------------------------------------------
EXTRAS = {"eliminated": "out", "bank_cards": "cards", "gold": "gold"}
# How the rules break ties (docs/rules-*.md), shown under the final standings.
TIE_BREAKS = {
    "skull": "Two won challenges win, or being the last with discs; eliminated players rank last.",
    "deadmans": "Ties: most cards in the bank; still tied: a shared win.",
    "sheriff": "Ties: most legal goods on the stand, then most contraband; still tied: a shared "
               "victory.",
}


def standings_rows(final: dict[str, Any]) -> list[dict[str, Any]]:
    """The final standings in the rules' order: winners first, then by score (Dead Man's Draw:
    then bank cards), eliminated Skull seats last whatever their score; equal seats share a
    rank. Each row: rank, seat, score, won, notes."""
    scores = final["scores"]
    winners = set(final["winners"])
    tribes = final.get("game") == "skull" and final["players"] != len(scores)
    out = set(final.get("eliminated") or [])
    cards = final.get("bank_cards") or [0] * len(scores)

    def won(seat: int) -> bool:
        return (seat % final["players"] if tribes else seat) in winners

    def key(seat: int) -> tuple[int, int, int, int]:
        return (seat in out, not won(seat), -scores[seat], -cards[seat])

    rows: list[dict[str, Any]] = []
    for seat in sorted(range(len(scores)), key=lambda s: key(s) + (s,)):
        rank = rows[-1]["rank"] if rows and key(rows[-1]["seat"]) == key(seat) else len(rows) + 1
        notes = []
        for name, label in EXTRAS.items():
            if name == "eliminated":
                if seat in out:
                    notes.append("eliminated")
            elif isinstance(final.get(name), list):
                notes.append("%d %s" % (final[name][seat], label))
        rows.append({"rank": rank, "seat": seat, "score": scores[seat], "won": won(seat), "notes": notes})
    return rows


def tie_break_text(final: dict[str, Any]) -> str:
    return TIE_BREAKS.get(final.get("game", ""), "")


def standings_table(final: dict[str, Any]) -> Table:
    t = Table(title="Final standings", box=box.SIMPLE_HEAD, padding=(0, 1), title_style="bold",
              title_justify="left", show_edge=False)
    for name in ("Rank", "Seat", "Score", ""):
        t.add_column(name)
    for row in standings_rows(final):
        t.add_row(str(row["rank"]), str(row["seat"]), str(row["score"]),
                  Text(("WINNER  " if row["won"] else "") + ", ".join(row["notes"]),
                       style="bold green" if row["won"] else ""))
    return t


# -- one view model for every screen ---------------------------------------------------------------
def model(p: Picture, wide: bool = True) -> dict[str, Any]:
    """What every view shows, as plain JSON-able data: the terminal scoreboard draws it with
    rich (``render``), the web page's table and phone views with HTML (``host/web/server.py``). A new
    row or column of a game (Sheriff's deputies, loot chest, Black Market) goes into that
    game's ``ROWS`` function and so reaches every view at once."""
    d = state_of(p)
    game = (d or {}).get("game") or (p.header or {}).get("game") or ""
    seats = len((d or {}).get("seats") or [])
    out: dict[str, Any] = {"game": game, "title": TITLES.get(game, game or "no game"), "seats": seats,
                           "state": d, "referee": p.referee, "waits": "", "info": [], "columns": [],
                           "rows": [], "final": None, "events": [], "link": link_line(p).plain,
                           "connected": p.connected}
    if d is not None:
        out["columns"], out["rows"], out["info"] = ROWS.get(game, generic_rows)(d, wide)
        out["rows"] = [[str(c) for c in row] for row in out["rows"]]
        out["waits"] = prompt_text(game, p.prompt, seats)
        out["prompt"] = None if p.prompt is None else {"what": p.prompt.what, "seats": p.prompt.seats,
                                                        "zone": p.prompt.zone, "reader": p.prompt.reader}
    if p.final is not None:
        out["final"] = {"rows": standings_rows(p.final), "explained": tie_break_text(p.final)}
    pads = pad_names(game, seats) if game else {}
    out["events"] = [{"kind": ev.kind, "text": event_text(ev, pads, game).plain} for ev in p.events]
    out["faults"] = [line.plain for line in reader_fault_lines(p.reader_faults, pads)]
    return out


# -- the screen ---------------------------------------------------------------------------------
def seats_table(game: str, d: dict[str, Any], wide: bool) -> tuple[Table, list[str]]:
    columns, rows, info = ROWS.get(game, generic_rows)(d, wide)
    t = Table(box=box.SIMPLE_HEAD, expand=True, padding=(0, 1), show_edge=False)
    for name in columns:
        t.add_column(name, overflow="ellipsis", no_wrap=True, min_width=min(len(name), 6))
    for row in rows:
        t.add_row(*[str(c) for c in row])
    return t, info


def link_line(p: Picture) -> Text:
    if not p.connected:
        state, style = "no board: waiting for %s" % p.port, "bold red"
    elif not p.in_sync:
        state, style = "connected, catching up", "yellow"
    else:
        state, style = "connected", "green"
    return Text.assemble(("link ", "dim"), (state, style),
                         (" · %s · %d frames · %d resyncs · %d bad · %d B in %d B out"
                          % (p.port, p.frames, p.resyncs, p.bad_frames, p.rx_bytes, p.tx_bytes), "dim"),
                         overflow="ellipsis", no_wrap=True)


def _lines(console: Console, renderable: RenderableType) -> int:
    return len(console.render_lines(renderable, console.options, pad=False))


def reader_fault_lines(faults: dict[int, tuple[int, float, int]], pads: dict[int, str]) -> list[Text]:
    """One line per reader the board reports down or stuck: which pad, since when."""
    out = []
    for reader, (state, since, _version) in sorted(faults.items()):
        where = pads.get(reader, "pad %d" % reader)
        what = "reader down" if state == 1 else "scans failing (a damaged tag?)"
        out.append(Text("%s: %s since %s" % (where, what, time.strftime("%H:%M:%S", time.localtime(since))),
                        style="bold red"))
    return out


def render(p: Picture, width: int = 80, height: int = 24) -> RenderableType:
    """The whole screen in ``width`` x ``height`` (callers drawing in a terminal pass one line
    less than it has: the line after the last keeps the title from scrolling off)."""
    width = max(width, 40)
    measure = Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False)
    wide = width >= WIDE
    d = state_of(p)
    game = (d or {}).get("game") or (p.header or {}).get("game") or ""
    seats = len((d or {}).get("seats") or [])
    title = Text.assemble(("tapmat ", "bold"), (TITLES.get(game, game or "no game"), "bold cyan"),
                          no_wrap=True, overflow="ellipsis")
    if d is not None:
        title.append(" · %d seats" % seats)
    if p.referee:
        title.append(" · REFEREE VIEW (hidden information shown)", style="bold magenta")
    if p.note:
        title.append(" · " + p.note, style="dim")
    top: list[RenderableType] = [title]
    if d is None:
        top.append(Text("waiting for the board's game…" if p.connected else "", style="dim"))
    else:
        table, info = seats_table(game, d, wide)
        waits = prompt_text(game, p.prompt, seats)
        if waits.startswith("game over"):
            top.append(Text(waits.capitalize(), style="bold green"))
        elif waits:
            top.append(Text.assemble(("mat waits for ", "dim"), (waits, "bold")))
        top += [Text(line, style="cyan") for line in info]
        top.append(table)
        if p.referee:
            top += [Text(line, style="magenta") for line in referee_lines(d)]
        if p.final is not None:
            top.append(standings_table(p.final))
            if tie_break_text(p.final):
                top.append(Text(tie_break_text(p.final), style="dim"))
    pads = pad_names(game, seats) if game else {}
    top += reader_fault_lines(p.reader_faults, pads)
    used = sum(_lines(measure, r) for r in top) + 2  # + the events title and the link line
    if used > height and p.final is not None and d is not None:
        # the final standings say it all: drop the seats' table, so the title stays on screen
        top = [r for r in top if not isinstance(r, Table) or r.title == "Final standings"]
        used = sum(_lines(measure, r) for r in top) + 2
    room = max(height - used, 1)
    lines = [event_line(ev, pads, game) for ev in p.events]
    shown: list[Text] = []
    for line in reversed(lines):  # newest last; a long line may take two rows
        rows = _lines(measure, line)
        if rows > room:
            break
        room -= rows
        shown.insert(0, line)
    events_title = Text("last events" if p.events else "no events yet", style="bold dim")
    return Group(*top, events_title, *shown, link_line(p))
