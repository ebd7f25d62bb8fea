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
from host.screen.table_words import own_pad, prompt_said, reason_text, shared_pad, title
from host.screen.wording import ENGLISH, Voice
from host.i18n import N_
from host.hub.mirror import REFEREE, Event, Mirror, Prompt

ROOT = Path(__file__).resolve().parents[2]
LAYOUT_FILE = ROOT / "hardware" / "mat_layout.json"
WIDE = 110  # from this width on, full names instead of abbreviations

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
    voice: Voice = ENGLISH   # the players' language and names
    since: float = 0.0       # events before this (an earlier game's) are not this game's


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


def pad_names(game: str, seats: int, v: Voice = ENGLISH) -> dict[int, str]:
    """Reader -> "Bob's stand pad", "the command pad" ... for the game's zone layout."""
    try:
        doc = json.loads(LAYOUT_FILE.read_text())
        layout = firmware_module("firmware.mat").pick_layout(doc, game, seats)
    except (OSError, ValueError, ImportError, KeyError):
        return {}
    names: dict[int, str] = {}
    for zone, where in layout["zones"].items():
        if isinstance(where, int):
            names[where] = shared_pad(v, zone)
            continue
        for seat, pad in enumerate(where[:seats]):
            reader = pad if isinstance(pad, int) else pad[0]
            names[reader] = own_pad(v, zone, seat)
    return names


def prompt_text(game: str, prompt: Prompt | None, seats: int, v: Voice = ENGLISH) -> str:
    """``Bob: bid higher or pass on the command pad`` from a PROMPT: who does what where."""
    if prompt is None:
        return ""
    cls = gestures(game)
    names = getattr(cls, "PROMPTS", ())
    what = names[prompt.what] if prompt.what < len(names) else "prompt %d" % prompt.what
    if prompt.what == 0:
        what = "over"
    zones = getattr(cls, "ZONES", ())
    if prompt.reader != 255:
        where = pad_names(game, seats, v).get(prompt.reader, v.tr("pad {n}", n=prompt.reader))
    elif prompt.zone < len(zones):
        where = own_pad(v, zones[prompt.zone])
    else:
        where = ""
    return prompt_said(v, game, what, prompt.seats, where)


# -- the seats, per game ------------------------------------------------------------------------
Rows = tuple[list[str], list[list[Any]], list[str]]  # column names, rows, info lines


def _mark(on: bool, text: str) -> str:
    return text if on else ""


def skull_rows(d: dict[str, Any], wide: bool, v: Voice = ENGLISH) -> Rows:
    seats = d["seats"]
    rows = []
    for i, s in enumerate(seats):
        notes = [_mark(i == d["turn"] and d["phase"] in ("add", "bidding"), v.tr("on turn")),
                 _mark(i == d["challenger"], v.tr("challenger")), _mark(s["passed"], v.tr("passed")),
                 _mark(i == d["lead"] and d["phase"] == "prep", v.tr("starts")),
                 _mark(s["eliminated"], v.tr("eliminated")), _mark(i == d["winner"], v.tr("WINNER"))]
        down = s["stack"] - s["flipped"]
        mat = "▮" * down + "▯" * s["flipped"] if s["stack"] <= 8 else v.tr("{n} down", n=down)
        rows.append([v.who(i), "★" * s["score"] + "☆" * (2 - s["score"]), mat or "-", s["hand"],
                     ", ".join(n for n in notes if n)])
    info = [v.tr("phase: {phase}", phase=v.tr(PHASES.get(d["phase"], d["phase"])))]
    if d["bid"]:
        info.append(v.tr("bid {n} by {who}", n=d["bid"], who=v.who(d["challenger"])))
    on_mats = sum(s["stack"] - s["flipped"] for s in seats)
    info.append(v.trn("{n} disc face down", "{n} discs face down", on_mats))
    if d["skull_owner"] is not None:
        info.append(v.tr("{who}'s skull found", who=v.who(d["skull_owner"])))
    if d["players"]:
        info.append(v.tr("two tribes: seat s plays for player s % {n}", n=d["players"]))
    return [v.tr("Player"), v.tr("Wins"), v.tr("Mat (▮ down ▯ up)"), v.tr("Hand"), ""], rows, [" · ".join(info)]


# Phase names of the games' public dicts, as players say them.
PHASES = {"prep": N_("preparation"), "add": N_("adding discs"), "bidding": N_("bidding"), "flip": N_("flipping"),
          "lose": N_("losing a disc"), "first": N_("choosing who starts"), "over": N_("over"), "play": N_("playing"),
          "trait": N_("choosing traits"), "setup": N_("set-up"), "market": N_("market"), "load": N_("loading bags"),
          "declare": N_("declaring"), "inspect": N_("inspection"), "laws": N_("laws"), "merry": N_("Merry Men draw"),
          "deputies": N_("deputies")}


def _suit(code: str) -> tuple[str, int]:
    name = code.rstrip("0123456789")
    return name, int(code[len(name):] or 0)


def deadmans_rows(d: dict[str, Any], wide: bool, v: Voice = ENGLISH) -> Rows:
    rows = []
    for i, s in enumerate(d["seats"]):
        tops: dict[str, int] = {}
        for code in s["bank"]:
            suit, value = _suit(code)
            tops[suit] = max(value, tops.get(suit, 0))
        label = (lambda n: v.good_name(n)) if wide else (lambda n: v.good_name(n)[:3])
        bank = " ".join("%s%s%d" % (label(k), " " if wide else "", val) for k, val in sorted(tops.items())) or "-"
        trait = v.good_name(s["trait"]) if s["trait"] else "-"
        if s["davy_jones"] is not None:
            trait += " → %s" % v.who(s["davy_jones"])
        turn = v.tr("now") if i == d["turn"] and d["phase"] == "play" else ""
        rows.append([v.who(i), s["score"], len(s["bank"]), bank, trait, turn])
    play = " ".join(wording.card(v, c) for c in d["play"]) or v.tr("empty")
    info = [v.tr("phase: {phase}", phase=v.tr(PHASES.get(d["phase"], d["phase"])))
            + ("" if d["phase"] == "over" else " · " + v.tr("{who} on turn", who=v.who(d["turn"])))
            + (" · " + v.tr("must choose: {what}", what=d["pending"]) if d["pending"] else ""),
            v.tr("play area: {play} · draw pile {draw} · discard pile {discard}", play=play, draw=d["draw_pile"],
                 discard=d["discard_pile"])
            + (" · " + v.tr("Kraken: {n} to draw", n=d["kraken"]) if d["kraken"] else "")]
    return [v.tr("Player"), v.tr("Score"), v.tr("Cards"), v.tr("Bank (top of each suit)"), v.tr("Trait"),
            v.tr("Turn")], rows, info


GOODS = {"apple": "apl", "cheese": "chs", "bread": "brd", "chicken": "chk"}


def role_of(d: dict[str, Any], seat: int, v: Voice = ENGLISH) -> str:
    if seat == d["sheriff"]:
        return v.tr("Sheriff")
    if seat in d.get("deputies", ()):
        return v.tr("Deputy")
    return v.tr("on turn") if seat == d["turn"] else v.tr("merchant")


def sheriff_rows(d: dict[str, Any], wide: bool, v: Voice = ENGLISH) -> Rows:
    rows = []
    for i, s in enumerate(d["seats"]):
        if wide:
            stand = ", ".join(v.good(g, n) for g, n in s["stand"].items() if n) or "-"
        else:
            stand = " ".join("%s%d" % (GOODS.get(g, g[:3]), n) for g, n in s["stand"].items() if n) or "-"
        if s["sits_out"]:
            bag = v.tr("sits out")
        elif s["resolved"]:
            bag = v.tr("done")
        elif s["declared"]:
            bag = v.tr("declared {goods}", goods=v.good(s["declared"][0], s["declared"][1]))
        elif s["loaded"]:
            bag = v.tr("bag closed")
        else:
            bag = ""
        rows.append([v.who(i), role_of(d, i, v), s["gold"], stand, s["contraband"], s["hand"], bag])
    piles = ", ".join(v.tr("{n} (top {card})", n=len(p), card=v.good_name(p[-1])) if p else v.tr("empty")
                      for p in d["piles"])
    played = v.tr("{n} rounds played", n=d["rounds"]) if d["phase"] == "over" else v.tr(
        "round {n} of {rounds}", n=d["round"] + 1, rounds=d["rounds"])
    who = v.tr("Sheriff: {who}", who=v.who(d["sheriff"])) if d["sheriff"] is not None else v.tr(
        "deputies: {who}", who=v.tr(" and ").join(v.who(x) for x in d.get("deputies", ())) or v.tr("to be revealed"))
    info = [" · ".join((played, v.tr("phase: {phase}", phase=v.tr(PHASES.get(d["phase"], d["phase"]))), who)),
            v.tr("draw pile {n} · discard piles: {piles}", n=d["draw"], piles=piles)] + merry_men_lines(d, v)
    return [v.tr("Player"), v.tr("Role"), v.tr("Gold"), v.tr("Stand (legal goods)"), v.tr("Contraband"),
            v.tr("Hand"), v.tr("Bag")], rows, info


def merry_men_lines(d: dict[str, Any], v: Voice = ENGLISH) -> list[str]:
    """Sheriff modules: the loot chest (with deputies), the Black Market piles and who holds
    which card. Nothing for a base game."""
    lines = []
    if "loot_chest" in d:
        c = d["loot_chest"]
        goods = ", ".join(v.good(g, n) for g, n in c["stand"].items() if n)
        lines.append(v.tr("loot chest: {gold} gold", gold=c["gold"]) + (" · " + goods if goods else "")
                     + (" · " + v.tr("{n} contraband", n=c["contraband"]) if c["contraband"] else ""))
    if "black_market" in d:
        left = " · ".join("%s %s" % (v.good_name(g), "/".join(map(str, vals)) or v.tr("gone"))
                          for g, vals in d["black_market"].items())
        held = ", ".join("%s %s" % (v.who(i), " ".join("%s %d" % (v.good_name(g), val) for g, val in s["black_market"]))
                         for i, s in enumerate(d["seats"]) if s.get("black_market"))
        lines.append(v.tr("Black Market left: {left}", left=left) + (" · " + v.tr("held: {held}", held=held) if held else ""))
    return lines + card_module_lines(d, v)


def card_module_lines(d: dict[str, Any], v: Voice = ENGLISH) -> list[str]:
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
        lines.append(v.tr("laws in force: {laws}", laws=" · ".join(
            "%d. %s" % (i + 1, law_text(n)) for i, n in enumerate(d["laws"])) or v.tr("none yet")))
    seats = d["seats"]
    if "orders_up" in d:
        filled = ", ".join("%s %s" % (v.who(i), " ".join(order_text(o) for o in s["orders"]))
                           for i, s in enumerate(seats) if s.get("orders"))
        lines.append(v.tr("special orders face up: {orders}",
                          orders=" · ".join(order_text(o) for o in d["orders_up"]) or v.tr("none"))
                     + (" · " + v.tr("filled: {filled}", filled=filled) if filled else ""))
    if seats and "merry_men" in seats[0]:
        lines.append(v.tr("Merry Men held: {held}", held=", ".join(
            "%s %d%s" % (v.who(i), s["merry_men"], " (" + v.tr("draw {n}", n=s["merry_draw"]) + ")" if s["merry_draw"] else "")
            for i, s in enumerate(seats))))
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


def generic_rows(d: dict[str, Any], wide: bool, v: Voice = ENGLISH) -> Rows:
    seats = d.get("seats") or []
    keys: list[str] = []
    for s in seats:
        keys += [k for k in s if k not in keys]
    rows = [[v.who(i)] + [_short(s.get(k)) for k in keys] for i, s in enumerate(seats)]
    info = ["%s: %s" % (k, _short(x)) for k, x in d.items() if k not in ("seats", "game")]
    return [v.tr("Player")] + keys, rows, [" · ".join(info)]


def _short(v: Any) -> str:
    if isinstance(v, dict):
        return " ".join("%s %s" % (k, _short(x)) for k, x in v.items())
    if isinstance(v, list):
        return " ".join(_short(x) for x in v)
    return "-" if v is None else str(v)


ROWS: dict[str, Callable[[dict[str, Any], bool, Voice], Rows]] = {
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
def action_text(action: dict[str, Any] | None, game: str = "", v: Voice = ENGLISH) -> str:
    """``Bob traded 4 cards, took 2 from pile 2`` (public fields only, as the delta carried
    them; host/screen/wording.py)."""
    return wording.sentence(game, action, v)


def event_line(ev: Event, pads: dict[int, str], game: str = "", v: Voice = ENGLISH) -> Text:
    stamp = time.strftime("%H:%M:%S ", time.localtime(ev.at))
    return Text.assemble((stamp, "dim"), event_text(ev, pads, game, v))


def event_text(ev: Event, pads: dict[int, str], game: str = "", v: Voice = ENGLISH) -> Text:
    """One event as players say it: ``✓ Bob bids 3``, ``✗ ... refused at Ann's seat pad: ...``."""
    if ev.kind == "accepted":
        text = Text.assemble(("✓ ", "green"), action_text(ev.action, game, v))
        if ev.outcome:
            text.append(" — " + ev.outcome.text(v), style="bold yellow" if ev.outcome.bust else "bold")
        return text
    if ev.kind == "undone":
        return Text.assemble(("↶ ", "yellow"), (v.tr("taken back: {what}", what=action_text(ev.action, game, v)), "yellow"))
    if ev.kind == "rejected":
        what = action_text(ev.action, game, v) if ev.action else v.tr("a tag")
        reason = reason_text(v, ev.reason)
        if ev.reader is None:   # a host entry: nothing lies on the mat to take back
            return Text.assemble(("✗ ", "bold red"), what, (" " + v.tr("refused: "), "red"), (reason, "bold red"))
        where = pads.get(ev.reader, v.tr("pad {n}", n=ev.reader))
        return Text.assemble(("✗ ", "bold red"), what, (" " + v.tr("refused at {where}: ", where=where), "red"),
                             (reason, "bold red"), (" — " + v.tr("take that card back off {where}", where=where), "red"))
    return Text.assemble(("! ", "yellow"), (ev.text, "yellow"))


def is_play(ev: Event) -> bool:
    """A move on the table (accepted or refused), not a note about the link or the board."""
    return ev.kind in ("accepted", "rejected", "undone")


# -- standings ----------------------------------------------------------------------------------
# How the rules break ties (docs/rules-*.md), shown under the final standings.
TIE_BREAKS = {
    "skull": N_("Two won challenges win, or being the last with discs; eliminated players rank last."),
    "deadmans": N_("Ties: most cards in the bank; still tied: a shared win."),
    "sheriff": N_("Ties: most legal goods on the stand, then most contraband; still tied: a shared victory."),
}


def standings_rows(final: dict[str, Any], v: Voice = ENGLISH) -> list[dict[str, Any]]:
    """The final standings in the rules' order: winners first, then by score (Dead Man's Draw:
    then bank cards), eliminated Skull seats last whatever their score; equal seats share a
    rank. Each row: rank, seat, name, score, won, notes (and Sheriff's ``breakdown`` parts)."""
    scores = final["scores"]
    winners = set(final["winners"])
    tribes = final.get("game") == "skull" and final["players"] != len(scores)
    out = set(final.get("eliminated") or [])
    cards = final.get("bank_cards") or [0] * len(scores)
    breakdown = final.get("breakdown") or []

    def won(seat: int) -> bool:
        return (seat % final["players"] if tribes else seat) in winners

    def key(seat: int) -> tuple[int, int, int, int]:
        return (seat in out, not won(seat), -scores[seat], -cards[seat])

    rows: list[dict[str, Any]] = []
    for seat in sorted(range(len(scores)), key=lambda s: key(s) + (s,)):
        rank = rows[-1]["rank"] if rows and key(rows[-1]["seat"]) == key(seat) else len(rows) + 1
        notes = []
        if seat in out:
            notes.append(v.tr("eliminated"))
        if isinstance(final.get("bank_cards"), list):
            notes.append(v.trn("{n} card", "{n} cards", final["bank_cards"][seat]))
        row = {"rank": rank, "seat": seat, "name": v.who(seat), "score": scores[seat], "won": won(seat),
               "notes": notes}
        if seat < len(breakdown):
            row["parts"] = breakdown_parts(breakdown[seat], v)
        elif isinstance(final.get("gold"), list):
            notes.append(v.tr("{n} gold", n=final["gold"][seat]))
        rows.append(row)
    return rows


def breakdown_parts(b: dict[str, Any], v: Voice = ENGLISH) -> list[str]:
    """``3 apples 6``, ``King of cheese 12``, ``gold 30``, ``Black Market 8``, ``orders 5``."""
    parts = ["%s %d" % (v.good(g, n), value) for g, (n, value) in b["goods"].items()]
    parts += [v.tr("King/Queen of {good} {gold}", good=v.good_name(g), gold=gold) for g, gold in b["bonuses"].items()]
    parts.append(v.tr("gold {n}", n=b["gold"]))
    if b["black_market"]:
        parts.append(v.tr("Black Market {n}", n=b["black_market"]))
    if b["orders"]:
        parts.append(v.tr("special orders {n}", n=b["orders"]))
    return parts


def tie_break_text(final: dict[str, Any], v: Voice = ENGLISH) -> str:
    game = final.get("game", "")
    return v.tr(TIE_BREAKS[game]) if game in TIE_BREAKS else ""


def standings_table(final: dict[str, Any], v: Voice = ENGLISH) -> Table:
    t = Table(title=v.tr("Final standings"), box=box.SIMPLE_HEAD, padding=(0, 1), title_style="bold",
              title_justify="left", show_edge=False)
    for name in (v.tr("Rank"), v.tr("Player"), v.tr("Score"), ""):
        t.add_column(name)
    for row in standings_rows(final, v):
        t.add_row(str(row["rank"]), row["name"], str(row["score"]),
                  Text((v.tr("WINNER") + "  " if row["won"] else "") + ", ".join(row["notes"] + row.get("parts", [])),
                       style="bold green" if row["won"] else ""))
    return t


# -- one view model for every screen ---------------------------------------------------------------
def model(p: Picture, wide: bool = True) -> dict[str, Any]:
    """What every view shows, as plain JSON-able data in the picture's language and names: the
    terminal scoreboard draws it with rich (``render``), the web page's table and phone views
    with HTML (``host/web/server.py``). A new row or column of a game (Sheriff's deputies, loot
    chest, Black Market) goes into that game's ``ROWS`` function and so reaches every view at
    once. ``events`` are the moves of this game; notes about the link and the board go to
    ``diagnostics`` (the host's panel)."""
    v = p.voice
    d = state_of(p)
    game = (d or {}).get("game") or (p.header or {}).get("game") or ""
    seats = len((d or {}).get("seats") or [])
    out: dict[str, Any] = {"game": game, "title": title(v, game), "seats": seats, "lang": v.lang,
                           "names": [v.who(i) for i in range(seats)],
                           # the names as the players gave them, "" for none (the hall's standings)
                           "players": [v.names[i] if i < len(v.names) else "" for i in range(seats)],
                           "state": d, "referee": p.referee, "waits": "", "over": False, "info": [], "columns": [],
                           "rows": [], "final": None, "events": [], "link": link_line(p).plain,
                           "connected": p.connected}
    if d is not None:
        out["columns"], out["rows"], out["info"] = ROWS.get(game, generic_rows)(d, wide, v)
        out["rows"] = [[str(c) for c in row] for row in out["rows"]]
        out["waits"] = prompt_text(game, p.prompt, seats, v)
        out["over"] = p.prompt is not None and p.prompt.what == 0
        out["prompt"] = None if p.prompt is None else {"what": p.prompt.what, "seats": p.prompt.seats,
                                                        "zone": p.prompt.zone, "reader": p.prompt.reader}
    if p.final is not None:
        out["final"] = {"rows": standings_rows(p.final, v), "explained": tie_break_text(p.final, v)}
    pads = pad_names(game, seats, v) if game else {}
    out["events"] = [{"kind": ev.kind, "text": event_text(ev, pads, game, v).plain}
                     for ev in p.events if is_play(ev) and ev.at >= p.since]
    out["diagnostics"] = [time.strftime("%H:%M:%S ", time.localtime(ev.at)) + ev.text
                          for ev in p.events if not is_play(ev)][-8:]
    out["faults"] = [line.plain for line in reader_fault_lines(p.reader_faults, pads, v)]
    return out


# -- the screen ---------------------------------------------------------------------------------
def seats_table(game: str, d: dict[str, Any], wide: bool, v: Voice = ENGLISH) -> tuple[Table, list[str]]:
    columns, rows, info = ROWS.get(game, generic_rows)(d, wide, v)
    t = Table(box=box.SIMPLE_HEAD, expand=True, padding=(0, 1), show_edge=False)
    for name in columns:
        t.add_column(name, overflow="ellipsis", no_wrap=True, min_width=min(len(name), 6))
    for row in rows:
        t.add_row(*[str(c) for c in row])
    return t, info


def link_line(p: Picture) -> Text:
    v = p.voice
    if not p.connected:
        state, style = v.tr("no board: waiting for {port}", port=p.port), "bold red"
    elif not p.in_sync:
        state, style = v.tr("connected, catching up"), "yellow"
    else:
        state, style = v.tr("connected"), "green"
    return Text.assemble((v.tr("link") + " ", "dim"), (state, style),
                         (" · %s · " % p.port + v.tr("{frames} frames · {resyncs} resyncs · {bad} bad · {rx} B in {tx} B out",
                                                     frames=p.frames, resyncs=p.resyncs, bad=p.bad_frames,
                                                     rx=p.rx_bytes, tx=p.tx_bytes), "dim"),
                         overflow="ellipsis", no_wrap=True)


def _lines(console: Console, renderable: RenderableType) -> int:
    return len(console.render_lines(renderable, console.options, pad=False))


def reader_fault_lines(faults: dict[int, tuple[int, float, int]], pads: dict[int, str],
                       v: Voice = ENGLISH) -> list[Text]:
    """One line per reader the board reports down or stuck: which pad, since when."""
    out = []
    for reader, (state, since, _version) in sorted(faults.items()):
        where = pads.get(reader, v.tr("pad {n}", n=reader))
        what = v.tr("reader down") if state == 1 else v.tr("scans failing (a damaged tag?)")
        out.append(Text(v.tr("{where}: {what} since {time}", where=where, what=what,
                             time=time.strftime("%H:%M:%S", time.localtime(since))), style="bold red"))
    return out


def render(p: Picture, width: int = 80, height: int = 24) -> RenderableType:
    """The whole screen in ``width`` x ``height`` (callers drawing in a terminal pass one line
    less than it has: the line after the last keeps the title from scrolling off)."""
    v = p.voice
    width = max(width, 40)
    measure = Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False)
    wide = width >= WIDE
    d = state_of(p)
    game = (d or {}).get("game") or (p.header or {}).get("game") or ""
    seats = len((d or {}).get("seats") or [])
    heading = Text.assemble(("tapmat ", "bold"), (title(v, game), "bold cyan"), no_wrap=True, overflow="ellipsis")
    if d is not None:
        heading.append(" · " + v.trn("{n} seat", "{n} seats", seats))
    if p.referee:
        heading.append(" · " + v.tr("REFEREE VIEW (hidden information shown)"), style="bold magenta")
    if p.note:
        heading.append(" · " + p.note, style="dim")
    top: list[RenderableType] = [heading]
    standings: Table | None = None
    if d is None:
        top.append(Text(v.tr("waiting for the board's game…") if p.connected else "", style="dim"))
    else:
        table, info = seats_table(game, d, wide, v)
        waits = prompt_text(game, p.prompt, seats, v)
        if p.prompt is not None and p.prompt.what == 0:
            top.append(Text(waits, style="bold green"))
        elif waits:
            top.append(Text(waits, style="bold"))
        top += [Text(line, style="cyan") for line in info]
        top.append(table)
        if p.referee:
            top += [Text(line, style="magenta") for line in referee_lines(d)]
        if p.final is not None:
            standings = standings_table(p.final, v)
            top.append(standings)
            if tie_break_text(p.final, v):
                top.append(Text(tie_break_text(p.final, v), style="dim"))
    pads = pad_names(game, seats, v) if game else {}
    top += reader_fault_lines(p.reader_faults, pads, v)
    used = sum(_lines(measure, r) for r in top) + 2  # + the events title and the link line
    if used > height and standings is not None:
        # the final standings say it all: drop the seats' table, so the title stays on screen
        top = [r for r in top if not isinstance(r, Table) or r is standings]
        used = sum(_lines(measure, r) for r in top) + 2
    room = max(height - used, 1)
    lines = [event_line(ev, pads, game, v) for ev in p.events]
    shown: list[Text] = []
    for line in reversed(lines):  # newest last; a long line may take two rows
        rows = _lines(measure, line)
        if rows > room:
            break
        room -= rows
        shown.insert(0, line)
    events_title = Text(v.tr("last events") if p.events else v.tr("no events yet"), style="bold dim")
    return Group(*top, events_title, *shown, link_line(p))
