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

from host.screen.scoreboard import LAYOUT_FILE, firmware_module, gestures, pad_label

W, H = 780, 440
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


def pads(game: str, seats: int) -> list[dict[str, Any]]:
    """Every pad of the game's layout: reader, zone, seat (None for a shared pad), label."""
    lay = layout(game, seats)
    if lay is None:
        return []
    out = []
    for zone, where in lay["zones"].items():
        if isinstance(where, int):
            out.append({"reader": where, "zone": zone, "seat": None, "label": pad_label(zone)})
            continue
        for seat, pad in enumerate(where[:seats]):
            reader = pad if isinstance(pad, int) else pad[0]
            out.append({"reader": reader, "zone": zone, "seat": seat,
                        "label": "seat %d %s" % (seat, pad_label(zone))})
    return sorted(out, key=lambda p: p["reader"])


def stations(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The pads of a view model (``host.scoreboard.model``) with their state: ``waits`` (the
    mat waits for a move there), ``turn`` (the seat on turn), ``out`` (eliminated, sitting
    out) or ``idle``."""
    game, d, prompt = view.get("game") or "", view.get("state") or {}, view.get("prompt")
    seats = d.get("seats") or []
    zones = getattr(gestures(game), "ZONES", ())
    out = []
    for pad in pads(game, len(seats)):
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
    ring = [p for p in pads_ if p["seat"] is not None]
    middle = [p for p in pads_ if p["seat"] is None]
    placed = []
    for i, p in enumerate(ring):
        angle = math.pi / 2 + 2 * math.pi * i / max(len(ring), 1)
        placed.append((p, W / 2 + 330 * math.cos(angle), H / 2 + 165 * math.sin(angle)))
    for i, p in enumerate(middle):
        placed.append((p, W / 2 + (i - (len(middle) - 1) / 2) * 100, H / 2))
    return placed


def svg(game: str, seats: int, stations_: list[dict[str, Any]] | None = None) -> str:
    """The mat of ``game`` for ``seats`` as an SVG document; ``stations_`` (from ``stations``)
    colours the pads, else all are drawn idle."""
    shown = stations_ if stations_ is not None else [dict(p, state="idle") for p in pads(game, seats)]
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" '
             'font-family="sans-serif" font-size="12">' % (W, H, W, H),
             '<rect x="4" y="4" width="%d" height="%d" rx="40" fill="#2f5d3a"/>' % (W - 8, H - 8)]
    if not shown:
        parts.append('<text x="%d" y="%d" fill="white" text-anchor="middle">no mat layout for %s, '
                     '%d seats</text>' % (W / 2, H / 2, html.escape(game or "no game"), seats))
    for pad, x, y in _place(shown):
        colour = COLOURS.get(pad.get("state", "idle"), COLOURS["idle"])
        words = pad["label"].split(" ")
        top, bottom = (" ".join(words[:2]), " ".join(words[2:])) if pad["seat"] is not None else (pad["label"], "")
        parts.append('<g class="pad %s" data-reader="%d"><rect x="%.0f" y="%.0f" width="92" height="56" '
                     'rx="8" fill="%s" stroke="#222"/>' % (pad.get("state", "idle"), pad["reader"],
                                                             x - 46, y - 28, colour))
        for k, line in enumerate(l for l in (top, bottom, "reader %d" % pad["reader"]) if l):
            parts.append('<text x="%.0f" y="%.0f" text-anchor="middle">%s</text>'
                         % (x, y - 10 + 15 * k, html.escape(line)))
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
