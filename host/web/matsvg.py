"""Drawings of the mat, generated from the zone data in ``hardware/mat_layout.json``.

The seats' pads (zones with one reader per seat: Skull mats, Dead Man's Draw banks, Sheriff
stands and bag docks) stand around the table in seat order; the shared pads (command pad, draw
and discard piles, play area) lie in a row in the middle. Each pad is labelled with its zone as
players say it and its reader number. The same code draws the players' guide's pictures
(``python -m host.web.matsvg docs``; a test checks they are current) and the web page's live mat,
where each station's state colours its pad.
"""
from __future__ import annotations

import html
import json
import math
import sys
from pathlib import Path
from typing import Any

from host.screen.scoreboard import LAYOUT_FILE, firmware_module, gestures
from host.screen.table_words import pad_label
from host.screen.wording import ENGLISH, Voice

# Drawn big enough to be read from 3 m on a TV: the page shows it at about 1000 px wide, where
# a label's 34 units are 27 px or more (tests/test_web_layout.py measures it).
W, H = 1240, 720
PAD_W, PAD_H = 240, 100
FONT = 34
# Fill colours of a pad by state (the web page's legend uses the same words).
COLOURS = {"idle": "#e8e4d8", "turn": "#9fd5ff", "waits": "#ffd54a", "out": "#bbbbbb"}
GUIDE_GAMES = (("skull", 4), ("deadmans", 4), ("sheriff", 4))


def layout(game: str, seats: int) -> dict[str, Any] | None:
    try:
        doc = json.loads(LAYOUT_FILE.read_text())
        found: dict[str, Any] = firmware_module("firmware.mat").pick_layout(doc, game, seats)
        return found
    except (OSError, ValueError, KeyError, ImportError):
        return None


def pads(game: str, seats: int, v: Voice = ENGLISH) -> list[dict[str, Any]]:
    """Every pad of the game's layout: reader, zone, seat (None for a shared pad), label (its
    player's name and what the pad is, never a reader number)."""
    lay = layout(game, seats)
    if lay is None:
        return []
    out = []
    for zone, where in lay["zones"].items():
        if isinstance(where, int):
            out.append({"reader": where, "zone": zone, "seat": None, "label": pad_label(v, zone), "who": ""})
            continue
        for seat, pad in enumerate(where[:seats]):
            reader = pad if isinstance(pad, int) else pad[0]
            out.append({"reader": reader, "zone": zone, "seat": seat, "label": pad_label(v, zone),
                        "who": v.who(seat)})
    return sorted(out, key=lambda p: p["reader"])


def stations(view: dict[str, Any], v: Voice = ENGLISH) -> list[dict[str, Any]]:
    """The pads of a view model (``host.scoreboard.model``) with their state: ``waits`` (the
    mat waits for a move there), ``turn`` (the seat on turn), ``out`` (eliminated, sitting
    out) or ``idle``."""
    game, d, prompt = view.get("game") or "", view.get("state") or {}, view.get("prompt")
    seats = d.get("seats") or []
    zones = getattr(gestures(game), "ZONES", ())
    out = []
    for pad in pads(game, len(seats), v):
        seat = pad["seat"]
        state = "idle"
        if seat is not None and seat < len(seats):
            s = seats[seat]
            if s.get("eliminated") or s.get("sits_out"):
                state = "out"
            elif seat == d.get("turn") and d.get("phase") != "over":
                state = "turn"
        if prompt and prompt["what"] != 0:
            if prompt["reader"] == pad["reader"]:
                state = "waits"
            elif (prompt["reader"] == 255 and seat is not None and prompt["seats"] >> seat & 1
                  and prompt["zone"] < len(zones) and zones[prompt["zone"]] == pad["zone"]):
                state = "waits"
        out.append(dict(pad, state=state))
    return out


def _place(pads_: list[dict[str, Any]]) -> list[tuple[dict[str, Any], float, float]]:
    """Each seat's pads stacked at its place round an ellipse (seat 0 at the bottom, clockwise),
    the shared pads in rows of three in the middle."""
    seats = sorted({p["seat"] for p in pads_ if p["seat"] is not None})
    middle = [p for p in pads_ if p["seat"] is None]
    placed = []
    for i, seat in enumerate(seats):
        angle = math.pi / 2 + 2 * math.pi * i / len(seats)
        x, y = W / 2 + (W / 2 - PAD_W / 2 - 12) * math.cos(angle), H / 2 + (H / 2 - 120) * math.sin(angle)
        own = [p for p in pads_ if p["seat"] == seat]
        for k, p in enumerate(own):
            placed.append((p, x, y + (k - (len(own) - 1) / 2) * (PAD_H + 6)))
    rows = [middle[i:i + 3] for i in range(0, len(middle), 3)]
    for r, row in enumerate(rows):
        for i, p in enumerate(row):
            placed.append((p, W / 2 + (i - (len(row) - 1) / 2) * (PAD_W + 4),
                           H / 2 + (r - (len(rows) - 1) / 2) * (PAD_H + 10)))
    return placed


def svg(game: str, seats: int, stations_: list[dict[str, Any]] | None = None, v: Voice = ENGLISH) -> str:
    """The mat of ``game`` for ``seats`` as an SVG document; ``stations_`` (from ``stations``)
    colours the pads, else all are drawn idle. It scales to its box (the web page sizes it)."""
    shown = stations_ if stations_ is not None else [dict(p, state="idle") for p in pads(game, seats, v)]
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" '
             'font-family="sans-serif" font-size="%d">' % (W, H, W, H, FONT),
             '<rect x="4" y="4" width="%d" height="%d" rx="40" fill="#2f5d3a"/>' % (W - 8, H - 8)]
    if not shown:
        parts.append('<text x="%d" y="%d" fill="white" text-anchor="middle">%s</text>' % (
            W / 2, H / 2, html.escape(v.tr("no mat layout for {game}, {n} seats", game=game or "-", n=seats))))
    for pad, x, y in _place(shown):
        colour = COLOURS.get(pad.get("state", "idle"), COLOURS["idle"])
        lines = [line for line in (pad.get("who", ""), pad["label"]) if line]
        parts.append('<g class="pad %s" data-reader="%d"><rect x="%.0f" y="%.0f" width="%d" height="%d" '
                     'rx="10" fill="%s" stroke="#222" stroke-width="2"/>' % (
                         pad.get("state", "idle"), pad["reader"], x - PAD_W / 2, y - PAD_H / 2, PAD_W, PAD_H, colour))
        for k, line in enumerate(lines):
            size = FONT if k == len(lines) - 1 or len(line) <= 12 else max(31, int(FONT * 12 / len(line)))  # long names shrink
            parts.append('<text x="%.0f" y="%.0f" text-anchor="middle" font-size="%d"%s>%s</text>'
                         % (x, y + 12 + (k - (len(lines) - 1) / 2) * 40, size,
                            ' font-weight="bold"' if k == 0 and len(lines) > 1 else "", html.escape(line)))
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def guide_files() -> dict[str, str]:
    """docs/mat-layout-<game>.svg for the players' guide."""
    return {"mat-layout-%s.svg" % game: svg(game, seats) for game, seats in GUIDE_GAMES}


def main(argv: list[str]) -> int:
    folder = Path(argv[0] if argv else "docs")
    for name, text in guide_files().items():
        (folder / name).write_text(text)
        print("wrote", folder / name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
