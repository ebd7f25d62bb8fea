"""``python -m bench.heap_report``: the heap tables of docs/performance.md, from bench/results.json.

Prints Markdown; paste it between the markers in docs/performance.md after ``make bench``.
"""
from __future__ import annotations

import json
import sys

from bench.__main__ import RESULTS

NAMES = {"skull-6": "Skull, 6", "skull-12": "Skull, 12", "deadmans-4": "Dead Man's Draw, 4",
         "deadmans-8": "Dead Man's Draw, 8 (2 decks)", "sheriff-5": "Sheriff, 5"}
SWITCH = "Skull 6, then Sheriff 5, then Dead Man's Draw 4 (one board)"
# Sheriff with Merry Men modules (sample profile values).
MODULE_NAMES = {"sheriff-6-deputies": "Sheriff, 6: deputies", "sheriff-5-black_market": "Sheriff, 5: black_market",
                "sheriff-6-mm": "Sheriff, 6: deputies + black_market", "sheriff-4-laws": "Sheriff, 4: laws",
                "sheriff-4-special_orders": "Sheriff, 4: special_orders", "sheriff-4-merry_men": "Sheriff, 4: merry_men",
                "sheriff-6-all-five": "Sheriff, 6: all five modules"}


def kb(n: int | str) -> str:
    return "%.1f KB" % (n / 1024) if isinstance(n, int) else "—"


def tables(r: dict) -> str:
    out = ["| case | replay, ROMFS | replay, .mpy | firmware loop, ROMFS | firmware loop, .mpy "
           "| on a mat, ROMFS | on a mat, .mpy | restored at boot on a mat, .mpy |",
           "|---|---|---|---|---|---|---|---|"]
    for label, name in {**NAMES, **MODULE_NAMES}.items():
        g, f = r["games"].get(label, {}), r["firmware"].get(label, {})
        out.append("| %s | %s |" % (name, " | ".join(kb(d.get(key, "")) for d, key in (
            (g, "min_heap_replay_romfs"), (g, "min_heap_replay_mpy"), (f, "min_heap_firmware_romfs"),
            (f, "min_heap_firmware_mpy"), (f, "min_heap_firmware_mat_romfs"), (f, "min_heap_firmware_mat_mpy"),
            (f, "min_heap_restore_mat_mpy")))))
    f = r["firmware"].get("switch", {})
    out.append("| %s | — | — | %s | — |" % (SWITCH, " | ".join(kb(f.get(key, "")) for key in (
        "min_heap_firmware_romfs", "min_heap_firmware_mpy", "min_heap_firmware_mat_romfs", "min_heap_firmware_mat_mpy"))))
    out += ["", "The firmware loop's wire and journal bytes (same runs):", "",
            "| case | DELTA frame B/action | SNAPSHOT frame B | journal B/action | snapshot file B |",
            "|---|---|---|---|---|"]
    for label, name in NAMES.items():
        f = r["firmware"][label]
        out.append("| %s | %s | %s | %s | %s |" % (name, f["delta_frame_bytes_per_action"], f["snapshot_frame_bytes"],
                                                   f["journal_bytes_per_action"], f["snapshot_file_bytes"]))
    out += ["", "Import cost per module from ROMFS (heap bytes; *alone*: in a fresh interpreter, with what it "
            "imports; *own*: what it adds once the modules cheaper alone are in; a new qstr pool, allocated "
            "when the last one fills, is charged to the module that fills it, so *own* is noisy by a few KB):", "",
            "| module | alone | own |", "|---|---|---|"]
    imports = r["imports"]
    for name in sorted(imports, key=lambda n: -imports[n]["own"] if isinstance(imports[n]["own"], int) else 0):
        out.append("| `%s` | %s | %s |" % (name, imports[name]["alone"], imports[name]["own"]))
    return "\n".join(out)


if __name__ == "__main__":
    print(tables(json.loads(RESULTS.read_text())))
    sys.exit(0)
