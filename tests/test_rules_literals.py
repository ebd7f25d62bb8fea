"""Values the board's modules take as literal ``const()``s, so that a board neither computes them
at import nor keeps (or imports) a name for them, agree with where they come from.

CPython only: a private ``const()`` name leaves no trace in a MicroPython module, so there is
nothing to read there; the CPython stand-in keeps it as a plain global.
"""
from __future__ import annotations

import struct
import sys
from pathlib import Path

import pytest

from shared_rules.sheriff import rules as sheriff
from shared_rules.catalogue import LEGAL, SHERIFF_CODES, SHERIFF_KIND, SHERIFF_VALUE


def test_sheriff_pay_order_is_legal_goods_then_contraband_by_value_then_code() -> None:
    order = sorted(range(len(SHERIFF_CODES)),
                   key=lambda g: (SHERIFF_KIND[g] != LEGAL, SHERIFF_VALUE[g], SHERIFF_CODES[g]))
    assert sheriff._GOODS[sheriff._G_PAY_ORDER:sheriff._G_PAY_ORDER + sheriff._KINDS] == bytes(order)


def test_the_firmware_loop_reads_the_mats_poll_results_as_its_own_constants() -> None:
    from firmware import app, mat
    assert (app._NOTHING, app._READY) == (mat.NOTHING, mat.READY)


def test_special_orders_restate_the_goods_values_of_the_catalogue() -> None:
    from shared_rules.sheriff.modules import special_orders
    assert special_orders._VALUE == SHERIFF_VALUE


def test_the_deck_registry_check_counts_each_kinds_codes_as_the_catalogue() -> None:
    from shared_rules.core import deck, deck_check
    assert deck_check._CODE_COUNTS == bytes(len(deck.codes(g, k) or ()) for g in range(len(deck.GAMES))
                                            for k in range(len(deck.KINDS)))


def test_the_codecs_largest_frame_is_the_worst_case_stuffing_of_the_largest_raw_frame() -> None:
    from shared_rules.wire import cobs
    from shared_rules.wire import codec
    assert codec.MAX_RAW == codec.MAX_BODY + codec.FRAME_OVERHEAD
    assert codec.MAX_FRAME == cobs.max_stuffed_len(codec.MAX_RAW)


def _named(module: object, name: str) -> object:
    """A module's constant, public or (once its owner made it private) private."""
    return getattr(module, name) if hasattr(module, name) else getattr(module, "_" + name)


def test_dead_mans_draw_literals_are_the_vocabulary_catalogue_and_engine_values() -> None:
    from shared_rules.core import actions
    from shared_rules.deadmans import rules as d
    from shared_rules.core import engine
    from shared_rules.catalogue import DMD_CODES, DMD_TRAITS
    vocab = d.GAME.VOCAB
    kinds = {name: i for i, name in enumerate(vocab.names)}
    assert [d._A_TRAIT, d._A_DRAW, d._A_COLLECT, d._A_HOOK, d._A_CANNON, d._A_SWORD, d._A_MAP,
            d._A_ORACLE, d._A_BONUS] == [kinds[k] for k in ("trait", "draw", "collect", "hook", "cannon",
                                                             "sword", "map", "oracle", "bonus")]
    assert (d._F_TRAIT, d._F_TRAIT_TARGET) == (vocab.offset("trait", "trait"), vocab.offset("trait", "target"))
    assert d._F_CARD == vocab.offset("draw", "card") == vocab.offset("hook", "card")
    for kind in ("cannon", "sword"):
        assert (d._F_TARGET, d._F_TARGET_CARD) == (vocab.offset(kind, "target"), vocab.offset(kind, "card"))
    assert (d._F_REVEAL, d._F_PICK) == (vocab.offset("map", "reveal"), vocab.offset("map", "pick"))
    assert d._F_PEEK == vocab.offset("oracle", "peek")
    assert (d._F_CARDS, d._F_BONUS_TARGET) == (vocab.offset("bonus", "cards"), vocab.offset("bonus", "target"))
    assert (d._FIELD_U8, d._FIELD_NAME, d._FIELD_LIST) == tuple(_named(actions, n) for n in ("U8", "NAME", "LIST"))
    for name in ("OK", "WRONG_PHASE", "NOT_YOUR_TURN"):
        assert getattr(d, "_" + name) == _named(engine, name)
    first = _named(engine, "FIRST_GAME_REASON")
    for i, reason in enumerate(d.GAME.REASONS.split()):
        assert getattr(d, "_" + reason.upper()) == first + i
    assert (d._NCODES, d._SUITS, d._VALUES, d._NTRAITS) == (len(DMD_CODES), len(DMD_CODES) // 6, 6, len(DMD_TRAITS))
    suits = ("anchor", "cannon", "chest", "hook", "key", "kraken", "map", "mermaid", "oracle", "sword")
    assert [getattr(d, "_" + suit.upper()) for suit in suits] == list(range(d._SUITS))
    for code, name in enumerate(DMD_CODES):
        assert name.startswith(suits[code // d._VALUES])
        assert int(name[-1]) == code % d._VALUES + (4 if code // d._VALUES == d._MERMAID else 2)
    assert [getattr(d, "_" + trait.upper()) for trait in DMD_TRAITS] == list(range(d._NTRAITS))
    assert d._STATE_SIZE == d._LOC + 2 * d._NCODES and d._R_DJ + d._MAX_SEATS == d._LOC
    assert d._MAX_BONUS == 3 * d._SUITS  # ten cards collected, tripled by Treasure Hunter


def test_dead_mans_gestures_take_the_rules_mat_deck_and_tokens_values() -> None:
    from array import array
    from pathlib import Path

    from firmware import mat, mat_deadmans as g
    from host.layout import ROOT, constants
    from shared_rules.core import deck
    from shared_rules.core import engine
    from shared_rules.core import tokens
    mine = constants(Path(ROOT, "firmware", "mat_deadmans.py"))
    rules = constants(Path(ROOT, "shared_rules", "deadmans", "rules.py"))
    foreign = {"NOTHING": (mat, "NOTHING"), "READY": (mat, "READY"), "NO_ZONE": (mat, "NO_ZONE"),
               "NO_SEAT": (engine, "NO_SEAT"), "NOT_NOW": (engine, "NOT_NOW"), "KIND_CARD": (deck, "CARD"),
               "KIND_TRAIT": (deck, "TRAIT"), "COLLECT_TOKEN": (tokens, "COLLECT"), "SEAT0": (tokens, "SEAT0"),
               "SEAT_TOKENS": (tokens, "SEATS")}
    assert mine["PILE"] == rules["NCODES"] - rules["SUITS"] and mine["LIST_CAP"] == rules["MAX_BONUS"]
    assert mine["NO_TAGS"] == array("H", [mine["NO_TAG"]]).tobytes()  # the tag arrays' filler
    for name, value in mine.items():
        if name in rules:
            assert value == rules[name], name
        elif name in foreign:
            assert value == _named(*foreign[name]), name
        elif name.startswith("Z_"):
            assert g.Gestures.ZONES[value] == name[2:].lower()
        elif name.startswith("P_"):
            assert g.Gestures.PROMPTS[value] == name[2:].lower()
        else:
            assert name in ("NO_TAG", "NO_TAGS", "AMBIGUOUS", "PILE", "LIST_CAP"), name


def test_dead_mans_views_take_the_rules_values() -> None:
    from pathlib import Path

    from host.layout import ROOT, constants
    mine = constants(Path(ROOT, "shared_rules", "deadmans", "view.py"))
    rules = constants(Path(ROOT, "shared_rules", "deadmans", "rules.py"))
    assert mine and all(value == rules[name] for name, value in mine.items())


def test_sheriff_restates_the_engine_actions_and_catalogue_values_it_uses() -> None:
    from shared_rules.core import actions
    from shared_rules.core import engine
    from shared_rules.catalogue import CONTRABAND, ROYAL, SHERIFF_GOODS, SHERIFF_PENALTY
    assert (sheriff._OK, sheriff._MALFORMED, sheriff._WRONG_PHASE, sheriff._NOT_YOUR_TURN, sheriff._NO_SEAT) == (
        engine.OK, engine.MALFORMED, engine.WRONG_PHASE, engine.NOT_YOUR_TURN, engine.NO_SEAT)
    assert (actions.OK, actions.MALFORMED, actions.UNKNOWN_CODE) == (engine.OK, engine.MALFORMED, engine.UNKNOWN_CODE)
    assert (sheriff._U8, sheriff._U16, sheriff._NAME, sheriff._LIST, sheriff._OBJ) == (
        actions.U8, actions.U16, actions.NAME, actions.LIST, actions.OBJ)
    assert sheriff.CODES == SHERIFF_CODES and sheriff._KINDS == len(SHERIFF_CODES)
    kinds = [g[1] for g in SHERIFF_GOODS]
    assert kinds == [LEGAL] * sheriff._LEGAL_KINDS + [CONTRABAND] * (sheriff._ROYAL_FIRST - sheriff._LEGAL_KINDS) \
        + [ROYAL] * (sheriff._KINDS - sheriff._ROYAL_FIRST)
    def column(at):
        return sheriff._GOODS[at:at + sheriff._KINDS]
    assert len(sheriff._GOODS) == 5 * sheriff._KINDS
    assert column(sheriff._G_COUNT) == bytes(g[2] for g in SHERIFF_GOODS) and column(sheriff._G_MARKED) == bytes(g[3] for g in SHERIFF_GOODS)
    assert column(sheriff._G_VALUE) == SHERIFF_VALUE and column(sheriff._G_PENALTY) == SHERIFF_PENALTY
    from shared_rules.sheriff.modules import laws   # restates the penalty column for itself
    assert laws._PENALTY == SHERIFF_PENALTY
    assert sheriff._PILE_CAP == sum(g[2] for g in SHERIFF_GOODS)


def test_sheriff_field_offsets_reasons_and_layout_follow_their_derivation() -> None:
    from shared_rules.core import engine
    from shared_rules.core.actions_lookup import field_offsets
    s = sheriff
    vocab = s.Sheriff.VOCAB
    assert vocab.names[s._A_SETUP:s._A_PASS + 1] == ("setup", "market", "load", "declare", "pass")
    assert [s._F_PILE1, s._F_PILE2, s._F_DISCARD, s._F_TAKE, s._F_TO, s._F_CARDS, s._F_GOOD, s._F_COUNT,
            s._F_TARGET, s._F_BRIBE, s._F_ITO, s._F_ORDER, s._F_PAY] == [
        vocab.offset("setup", "pile1"), vocab.offset("setup", "pile2"), vocab.offset("market", "discard"),
        vocab.offset("market", "take"), vocab.offset("market", "to"), vocab.offset("load", "cards"),
        vocab.offset("declare", "good"), vocab.offset("declare", "count"), vocab.offset("pass", "target"),
        vocab.offset("pass", "bribe"), vocab.offset("inspect", "to"), vocab.offset("inspect", "order"),
        vocab.offset("inspect", "pay_with")]
    assert field_offsets(vocab.fields[s._A_PASS][1][2], s._F_BRIBE)[0] == [s._F_BRIBE_GOLD, s._F_BRIBE_STAND,
                                                                      s._F_BRIBE_BAG]
    reasons = s.Sheriff.REASONS.split()
    named = {name[1:]: value for name, value in vars(s).items()
             if name.startswith("_") and name[1:].lower() in reasons and isinstance(value, int)}
    assert len(named) == len(reasons) == 21
    assert all(reasons[code - engine.FIRST_GAME_REASON] == name.lower() for name, code in named.items())
    assert s._SEAT_BASE == s._POOL + s._KINDS and s._STAND == s._KNOWN + s._KINDS
    assert s._SEAT_BYTES == s._STAND + s._KINDS and s._DECL_GOOD == s._BAG + s._BAG_MAX
    assert s._PILES == s._SEAT_BASE + s._SEAT_BYTES * s._MAX_SEATS and s._PILES_END == s._PILES + s._PILE_CAP
    assert s._PUB_PILES == s._PUB_REGS + s._PUB_SEAT * s._MAX_SEATS
    from shared_rules.sheriff import view as sheriff_view
    assert sheriff_view.PHASES[:s._OVER + 1] == ("setup", "market", "load", "declare", "inspect", "over")
    assert [s._SETUP, s._MARKET, s._LOAD, s._DECLARE, s._INSPECT, s._OVER] == list(range(6))


def _consts(module: str) -> dict:
    from host.layout import ROOT, constants
    return constants(ROOT / module)


_MM = "shared_rules/sheriff/modules/expansion.py"
_DEP = "shared_rules/sheriff/modules/deputies.py"
_CARDS = "shared_rules/sheriff/modules/cards.py"
_BLACK_MARKET = "shared_rules/sheriff/modules/black_market.py"
_ORDERS = "shared_rules/sheriff/modules/special_orders.py"
_MAT = "firmware/mat_sheriff.py"
_MAT_CARDS = "firmware/mat_sheriff_cards.py"


@pytest.mark.parametrize("module, sources", [
    (_MM, ["shared_rules/sheriff/rules.py"]),
    (_DEP, ["shared_rules/sheriff/rules.py", _MM, "shared_rules/core/engine.py"]),
    (_CARDS, ["shared_rules/sheriff/rules.py", _MM, _DEP]),
    (_BLACK_MARKET, ["shared_rules/sheriff/rules.py", _MM, "shared_rules/core/engine.py"]),
    (_ORDERS, ["shared_rules/sheriff/rules.py", _CARDS, "shared_rules/core/engine.py"]),
    ("shared_rules/sheriff/view.py", ["shared_rules/sheriff/rules.py", _MM, _CARDS]),
    ("shared_rules/sheriff/actions_json.py", ["shared_rules/sheriff/rules.py", "shared_rules/core/engine.py"]),
    (_MAT, ["shared_rules/sheriff/rules.py", _MM, _DEP, "shared_rules/core/engine.py", "firmware/mat.py"]),
    (_MAT_CARDS, ["shared_rules/sheriff/rules.py", _MM, _DEP, "shared_rules/sheriff/modules/laws.py", "shared_rules/sheriff/modules/merry_men.py", _MAT,
                  "shared_rules/core/engine.py",
                  "firmware/mat.py"]),
    ("shared_rules/sheriff/modules/laws.py", ["shared_rules/sheriff/modules/effects.py", "shared_rules/sheriff/rules.py", "shared_rules/core/engine.py"]),
    ("shared_rules/sheriff/modules/merry_men.py", ["shared_rules/sheriff/modules/effects.py", "shared_rules/sheriff/rules.py", _CARDS]),
    ("shared_rules/sheriff/modules/profile_effects.py", ["shared_rules/sheriff/modules/effects.py"]),
])
def test_modules_restating_the_sheriff_referees_constants_agree_with_it(module: str, sources: list) -> None:
    """A board module beside the referee restates the registers, flags, offsets and codes it reads
    as its own private consts (no import of the layout on a board): same name, same value."""
    from shared_rules.core import engine
    mine = _consts(module)
    for source in sources:
        theirs = _consts(source)
        if source == "shared_rules/core/engine.py":   # its reason codes are the positions of their names
            theirs.update((name.upper(), code) for code, name in enumerate(engine.COMMON_REASONS))
        if module == _CARDS and source == _MM:   # the cards' own state and view go further
            theirs = {n: v for n, v in theirs.items() if n not in ("STATE_END", "PUB_SIZE")}
        shared = set(mine) & set(theirs)
        assert shared and {n: mine[n] for n in shared} == {n: theirs[n] for n in shared}, source


def test_the_sheriff_gestures_zones_prompts_and_phases_are_their_indexes() -> None:
    from firmware.mat_sheriff import Gestures
    from shared_rules.sheriff.modules import cards
    from shared_rules.sheriff.modules import expansion
    for module in (_MAT, _MAT_CARDS):
        c = _consts(module)
        assert all(Gestures.ZONES[v] == n[2:].lower() for n, v in c.items() if n.startswith("Z_")), module
        assert all(Gestures.PROMPTS[v] == n[2:].lower() for n, v in c.items() if n.startswith("P_")), module
        assert c["LAWS_PHASE"] == cards._LAWS_PHASE and c["SEATS"] == expansion._SEATS6
    c = _consts(_MAT)
    assert (c["REVEAL"], c["LOOT_PHASE"]) == (expansion._REVEAL, expansion._LOOT)
    assert len([n for n in c if n.startswith("P_")]) == len(Gestures.PROMPTS)
    cards_consts = _consts(_CARDS)
    orders = _consts(_ORDERS)
    mat_cards = _consts(_MAT_CARDS)
    assert (mat_cards["ORDER_NOT_UP"], mat_cards["BAG_OPENED"]) == (orders["ORDER_NOT_UP"], cards_consts["BAG_OPENED"])


def test_sheriff_scoring_restates_the_catalogues_scoring_columns() -> None:
    from shared_rules.sheriff import score as sc
    from shared_rules.catalogue import (SHERIFF_AS_GOOD, SHERIFF_AS_MANY, SHERIFF_KING, SHERIFF_QUEEN,
                                        SHERIFF_LEGAL_KINDS)
    assert sc._KINDS == len(SHERIFF_CODES) and sc._LEGAL_KINDS == SHERIFF_LEGAL_KINDS
    assert [g for g in range(sc._KINDS) if SHERIFF_KIND[g] == LEGAL] == list(range(sc._LEGAL_KINDS))
    def column(at, n=sc._KINDS):
        return sc._COLUMNS[at:at + n]
    assert len(sc._COLUMNS) == sc._AS_MANY + sc._KINDS
    assert column(sc._VALUE) == SHERIFF_VALUE and column(sc._AS_GOOD) == SHERIFF_AS_GOOD and column(sc._AS_MANY) == SHERIFF_AS_MANY
    assert column(sc._KING, sc._LEGAL_KINDS) == SHERIFF_KING[:sc._LEGAL_KINDS] and column(sc._QUEEN, sc._LEGAL_KINDS) == SHERIFF_QUEEN[:sc._LEGAL_KINDS]
    assert not any(SHERIFF_KING[sc._LEGAL_KINDS:] + SHERIFF_QUEEN[sc._LEGAL_KINDS:])


def test_boot_recovery_reads_the_files_with_the_constants_persist_writes_them_with() -> None:
    from firmware import journal_format, persist, recover
    names = ("_JRN_HEADER", "_REC_OVERHEAD", "_END_MARK", "_END_SIZE")
    assert [getattr(recover, n) for n in names] == [getattr(persist, n) for n in names]
    names = ("_FORMAT", "_SNAP_MAGIC", "_PREFIX", "_SNAP_FIXED", "_END_MARK")
    assert [getattr(recover, n) for n in names] == [getattr(journal_format, n) for n in names]
    assert struct.calcsize(journal_format._PREFIX) == journal_format._SNAP_FIXED
    # The journal and record layouts the power-cut tests (tests/dual/dual_persist.py) walk files by.
    sys.path.insert(0, str(Path(__file__).parent / "dual"))
    import dual_persist
    assert (dual_persist.JRN_HEADER, dual_persist.REC_OVERHEAD, dual_persist.END_SIZE) == (
        persist._JRN_HEADER, persist._REC_OVERHEAD, persist._END_SIZE)


def test_the_console_tests_use_the_firmwares_hand_over_time_and_steady_steps() -> None:
    from firmware import app
    sys.path.insert(0, str(Path(__file__).parent / "dual"))
    import dual_console
    assert (dual_console.CONSOLE_MS, dual_console.STEADY_STEPS) == (app._CONSOLE_MS, app._STEADY_STEPS)


def test_the_replay_reads_reason_codes_and_the_record_size_as_its_own_constants() -> None:
    from shared_rules import replay
    from shared_rules.core import actions
    from shared_rules.core import engine
    assert (replay._MALFORMED, replay._BAD_SEAT) == (engine.MALFORMED, engine.BAD_SEAT)
    assert replay._ACTION_SIZE == actions.ACTION_SIZE


def test_the_sheriffs_json_shapes_read_the_goods_codes_from_the_vocabulary() -> None:
    from shared_rules.sheriff import actions_json
    from shared_rules.sheriff.modules import cards, expansion
    for vocab in (sheriff.Sheriff.VOCAB, expansion.SheriffMM.VOCAB, cards.VOCAB):
        assert actions_json._codes(vocab) == sheriff.CODES


# -- Skull ---------------------------------------------------------------------------------
def _shared_with_skull_layout(path: str) -> dict[str, object]:
    """A module's literal ``const()``s whose names ``skull_layout`` also has, by name."""
    from host import layout
    from shared_rules.skull import layout as K
    return {n: v for n, v in layout.constants(layout.ROOT / path).items() if hasattr(K, n)}


def test_skull_literals_are_the_vocabulary_engine_catalogue_and_reason_values() -> None:
    from shared_rules.core import engine
    from shared_rules.skull import layout as K
    from shared_rules.skull import view as skull_view
    from shared_rules.catalogue import SKULL_CODES
    from shared_rules.skull.rules import Skull
    v = Skull.VOCAB
    assert [K.A_PLACE, K.A_BID, K.A_PASS, K.A_FLIP, K.A_LOSE, K.A_FIRST] == [
        v.kind(a) for a in ("place", "bid", "pass", "flip", "lose", "first")]
    assert K.F_DISC == v.offset("place", "disc") == v.offset("lose", "disc")
    assert K.F_N == v.offset("bid", "n")
    assert K.F_TARGET == v.offset("flip", "target") == v.offset("first", "target")
    assert K.F_FLIP_DISC == v.offset("flip", "disc")
    assert K.F_FLIP_HAS_DISC == v.offsets[K.A_FLIP][1] == K.F_FLIP_DISC - 1  # the presence byte
    assert (K.FLOWER, K.SKULL) == (SKULL_CODES.index("flower"), SKULL_CODES.index("skull"))
    assert (K.OK, K.WRONG_PHASE, K.NOT_YOUR_TURN, K.NO_SEAT) == (
        engine.OK, engine.WRONG_PHASE, engine.NOT_YOUR_TURN, engine.NO_SEAT)
    reasons = {n: getattr(K, n.upper()) for n in Skull.REASONS.split()}
    assert reasons == {n: engine.FIRST_GAME_REASON + i for i, n in enumerate(Skull.REASONS.split())}
    phases = {"prep": K.PREP, "add": K.ADD, "bidding": K.BIDDING, "flip": K.FLIP, "lose": K.LOSE,
              "choose_first": K.CHOOSE, "over": K.OVER}
    assert [phases[p] for p in skull_view.PHASES] == list(range(len(skull_view.PHASES)))
    assert Skull.STATE_SIZE == K.SEAT_BASE + K.SEAT_BYTES * K.MAX_SEATS and K.SEAT_BASE > K.R_WINNER
    assert Skull.PUBLIC_SIZE == K.PUB_REGS + K.PUB_SEAT * K.MAX_SEATS


def test_skull_view_literals_are_the_rules_values() -> None:
    shared = _shared_with_skull_layout("shared_rules/skull/view.py")
    from shared_rules.skull import layout as K
    assert set(shared) >= {"PUB_REGS", "PUB_SEAT", "ELIMINATED", "PASSED", "SEAT_BASE", "SEAT_BYTES",
                           "H_FLOWERS", "H_SKULL", "SKULL_AT", "NO_SEAT"}
    assert shared == {n: getattr(K, n) for n in shared}


def test_skull_gestures_literals_are_the_rules_mat_deck_and_token_values() -> None:
    from array import array
    from firmware import mat, mat_skull as m
    from shared_rules.core import deck
    from shared_rules.core import engine
    from shared_rules.skull import layout as K
    from shared_rules.core import tokens
    from shared_rules.catalogue import SKULL_PER_SEAT
    shared = _shared_with_skull_layout("firmware/mat_skull.py")
    assert set(shared) >= {"A_PLACE", "A_BID", "A_PASS", "A_FLIP", "A_LOSE", "A_FIRST", "F_DISC", "F_N",
                           "F_TARGET", "F_FLIP_HAS_DISC", "F_FLIP_DISC", "PREP", "ADD", "BIDDING", "FLIP",
                           "LOSE", "OVER", "R_PLAYERS", "R_PHASE", "R_TURN", "R_CHALLENGER", "R_WINNER",
                           "SEAT_BASE", "SEAT_BYTES", "MAX_SEATS", "H_FLOWERS", "H_SKULL", "STACK",
                           "FLIPPED", "FLAGS", "ELIMINATED", "NO_SEAT"}
    assert shared == {n: getattr(K, n) for n in shared}
    assert (m._NOTHING, m._READY, m._NO_ZONE, m._P_OVER) == (mat.NOTHING, mat.READY, mat.NO_ZONE, mat.PROMPT_OVER)
    assert m._NOT_NOW == engine.NOT_NOW and m._KIND_DISC == deck.DISC
    assert (m._T_PASS, m._T_SEAT0, m._T_SEATS) == (tokens.PASS, tokens.SEAT0, tokens.SEATS)
    zones = m.Gestures.ZONES
    assert (m._SEAT, m._BOX, m._COMMAND) == (zones.index("seat"), zones.index("box"), zones.index("command"))
    prompts = m.Gestures.PROMPTS
    assert [m._P_OVER, m._P_PLACE, m._P_PLACE_OR_BID, m._P_BID_OR_PASS, m._P_FLIP, m._P_LOSE, m._P_FIRST] == [
        prompts.index(p) for p in ("over", "place", "place_or_bid", "bid_or_pass", "flip", "lose", "first")]
    assert m._DISCS == sum(SKULL_PER_SEAT)
    assert m._NO_TAGS == array("H", [m._NO_TAG]).tobytes()  # the tag array's filler


def test_sheriff_mm_layout_follows_the_base_and_its_vocabulary() -> None:
    from shared_rules.sheriff.modules import profile
    from shared_rules.sheriff.modules import expansion as mm
    from shared_rules.sheriff.modules import deputies as dep
    from shared_rules.sheriff.modules import black_market as bm
    from shared_rules.catalogue import sheriff_deck_size
    vocab = mm.SheriffMM.VOCAB
    reasons = mm.SheriffMM.REASONS.split()
    assert mm._SEAT6 == sheriff.Sheriff.STATE_SIZE and bm._BM_VALUES == mm._SEAT6 + 2 * mm._SEAT_BYTES
    assert mm._STATE_END == bm._BM_HELD + bm._SEATS6 == mm.SheriffMM.STATE_SIZE
    assert vocab.names[mm._A_DEPUTY:] == ("deputy", "loot", "claim") and vocab.names[mm._A_INSPECT] == "inspect"
    assert [dep._F_DISCARD, dep._F_TAKE, dep._F_TO, dep._F_TARGET, dep._F_BRIBE, dep._F_ITO, dep._F_ORDER, dep._F_PAY,
            dep._F_LOOT_GOLD, dep._F_LOOT_GOODS, dep._F_LOOT_SPLIT, bm._F_CLAIM_GOOD] == [
        vocab.offset("market", "discard"), vocab.offset("market", "take"), vocab.offset("market", "to"),
        vocab.offset("pass", "target"), vocab.offset("pass", "bribe"), vocab.offset("inspect", "to"),
        vocab.offset("inspect", "order"), vocab.offset("inspect", "pay_with"), vocab.offset("loot", "gold"),
        vocab.offset("loot", "goods"), vocab.offset("loot", "split"), vocab.offset("claim", "good")]
    assert (dep._A_MARKET, dep._A_PASS, dep._A_DEPUTY, dep._A_LOOT) == (
        vocab.names.index("market"), vocab.names.index("pass"), mm._A_DEPUTY, mm._A_LOOT)
    named = {n[1:]: v for module in (mm, dep, bm) for n, v in vars(module).items()
             if n.startswith("_") and n[1:].lower() in reasons}
    assert len(named) == 15 and all(reasons[v - 16] == n.lower() for n, v in named.items())
    assert mm._PUB_SEAT6 == sheriff.Sheriff.PUBLIC_SIZE and mm._PUB_CHEST == mm._PUB_SEAT6 + mm._PUB_SEAT
    assert mm._PUB_MM == mm._PUB_CHEST + mm._PUB_SEAT and mm._PUB_SIZE == bm._PUB_BM + 15 == mm.SheriffMM.PUBLIC_SIZE
    assert bm._BM_GOODS == bytes(SHERIFF_CODES.index(c) for c in profile.BLACK_MARKET_GOODS)
    assert sheriff_deck_size(mm._SEATS6, True) == mm._PILE_CAP
    from shared_rules.sheriff.modules import MODULES
    assert [MODULES[i] for i in range(2)] == ["deputies", "black_market"]
    assert (mm._DEPUTIES, mm._BLACK_MARKET) == (1, 2)
    from shared_rules.sheriff.modules import setup
    assert [setup._DEPUTIES, setup._BLACK_MARKET, setup._LAWS, setup._CARD_MODULES, setup._MERRY_MEN] == [
        1 << MODULES.index(m) for m in ("deputies", "black_market", "laws")] + [4 + 8 + 16, 16]
    assert (setup._SEATS6, setup._MAX_SEATS) == (mm._SEATS6, sheriff._MAX_SEATS)
    from shared_rules.sheriff.modules import cards
    from shared_rules.sheriff import view as sheriff_view
    assert (cards._MM_STATE_END, cards._MM_PUB_SIZE, sheriff_view._MM_PUB_SIZE) == (
        mm._STATE_END, mm._PUB_SIZE, mm._PUB_SIZE)


def test_effect_opcodes_and_parties_are_the_profiles_names_and_rows_fit_them() -> None:
    from shared_rules.sheriff.modules import profile_cards
    from shared_rules.sheriff.modules import profile_effects as pe
    fx = _consts("shared_rules/sheriff/modules/effects.py")
    ops = {n[3:].lower(): v for n, v in fx.items() if n.startswith("OP_")}
    assert ops == {pe.NAMES[i]: i for i in range(1, len(pe.NAMES))}
    parties = {n.lower(): fx[n] for n in ("BANK", "SHERIFF", "SELF", "EACH_MERCHANT", "EACH_OTHER")}
    assert parties == {pe.PARTIES[i]: i for i in range(len(pe.PARTIES))}
    assert profile_cards.LAW_ROW == 1 + fx["SIZE"] * fx["MAX_EFFECTS"]
    assert profile_cards.MERRY_ROW == 2 + fx["SIZE"] * fx["MAX_EFFECTS"]


def test_sheriff_cards_layout_follows_the_merry_men_one_and_its_vocabulary() -> None:
    from shared_rules.sheriff.modules import cards as sc
    from shared_rules.sheriff.modules import MODULES
    from shared_rules.sheriff.modules import laws
    from shared_rules.sheriff.modules import merry_men
    from shared_rules.sheriff.modules import special_orders
    vocab = sc.VOCAB
    assert sc._ORD == sc._MM_STATE_END and sc._MEN == sc._ORD + sc._ORDER_CARDS == merry_men._MEN
    assert sc._LAW == sc._MEN + 18 + sc._SEATS6 and sc._STATE_END == sc._LAW + 25 == sc.SheriffCards.STATE_SIZE
    assert vocab.names[sc._A_ORDER_UP:] == ("order_up", "merry", "law") and vocab.names[sc._A_INSPECT] == "inspect"
    assert [vocab.offset("law", "keep"), vocab.offset("law", "bottom")] == [laws._F_KEEP, laws._F_BOTTOM]
    assert [sc._F_PASS_ORDERS, sc._F_INSPECT_ORDERS, special_orders._F_ORDER_UP, sc._F_LOAD_MERRY, sc._F_GIVE,
            merry_men._F_ORDER_LIST, merry_men._F_PAY] == [
        vocab.offset("pass", "orders"), vocab.offset("inspect", "orders"), vocab.offset("order_up", "order"),
        vocab.offset("load", "merry"), vocab.offset("pass", "give"), vocab.offset("inspect", "order"),
        vocab.offset("inspect", "pay_with")]
    reasons = sc.REASONS.split()
    named = {n[1:]: v for module in (sc, special_orders, merry_men) for n, v in vars(module).items()
             if n.startswith("_") and n[1:].lower() in reasons and isinstance(v, int)}
    assert named and all(reasons[v - 16] == n.lower() for n, v in named.items())
    assert sc._PUB_ORD == sc._MM_PUB_SIZE and sc._PUB_MEN == sc._PUB_ORD + sc._ORDER_CARDS
    assert sc._PUB_LAWS == sc._PUB_MEN + sc._SEATS6 and sc._PUB_SIZE == sc._PUB_LAWS + 2 == sc.SheriffCards.PUBLIC_SIZE
    from shared_rules.sheriff.modules import profile_cards as pc
    assert [pc._LAWS_BIT, pc._ORDERS_BIT, pc._MERRY_BIT] == [1 << MODULES.index(m) for m in pc.SECTIONS]
    assert [sc._LAWS, sc._ORDERS, sc._MERRY_MEN] == [1 << MODULES.index(m) for m in ("laws", "special_orders",
                                                                                         "merry_men")]


def test_the_module_cards_gestures_write_the_card_modules_record_layout() -> None:
    from shared_rules.sheriff.modules import cards as sc
    c = _consts(_MAT_CARDS)
    vocab = sc.VOCAB
    assert [c["A_CLAIM"], c["A_ORDER_UP"], c["A_MERRY"], c["A_LAW"]] == [
        vocab.kind("claim"), vocab.kind("order_up"), vocab.kind("merry"), vocab.kind("law")]
    assert [c["F_CLAIM_GOOD"], c["F_LAW_KEEP"], c["F_LAW_BOTTOM"], c["F_ORDER_UP"], c["F_MERRY_KEEP"],
            c["F_MERRY_BOTTOM"], c["F_LOAD_MERRY"], c["F_PASS_ORDERS"]] == [
        vocab.offset("claim", "good"), vocab.offset("law", "keep"), vocab.offset("law", "bottom"),
        vocab.offset("order_up", "order"), vocab.offset("merry", "keep"), vocab.offset("merry", "bottom"),
        vocab.offset("load", "merry"), vocab.offset("pass", "orders")]


# -- the mat's firmware (round 5): names a board no longer keeps ------------------------------------
_DECK_NAMES = ("MAGIC", "VERSION", "HEADER_SIZE", "RECORD_SIZE", "CRC_SIZE", "R_GAME", "R_KIND", "R_CODE",
               "R_SEAT", "R_DECK", "GAMES", "KINDS", "DISC", "OWNER_SEATS", "NO_SEAT")


def test_the_deck_files_private_literals_are_the_host_sides_public_names() -> None:
    from shared_rules.core import deck, deck_check
    from shared_rules.core import deck_records as r
    for name in _DECK_NAMES:
        assert getattr(deck_check, "_" + name) == getattr(r, name), name
        assert getattr(deck, name) == getattr(r, name), name   # deck.NAME still reads on the host
    assert tuple(deck_check._DECKS) == r.DECKS and deck._GAMES == r.GAMES and deck_check._UID_LEN == r.UID_LEN
    assert (r.CARD, r.DISC, r.TOKEN, r.TRAIT, r.MODULE) == tuple(r.KINDS.index(k) for k in
                                                                  ("card", "disc", "token", "trait", "module"))
    assert r.HEADER_SIZE == len(r.MAGIC) + 4 and r.RECORD_SIZE == r.R_DECK + 1 == r.UID_LEN + 5
    assert (r.R_GAME, r.R_KIND, r.R_CODE, r.R_SEAT) == (r.UID_LEN, r.UID_LEN + 1, r.UID_LEN + 2, r.UID_LEN + 3)


def test_the_board_registry_and_the_mat_restate_the_deck_and_token_values() -> None:
    from firmware import mat, registry
    from shared_rules.core import deck_records as r
    from shared_rules.core import tokens
    for name in ("HEADER_SIZE", "RECORD_SIZE", "UID_LEN", "R_GAME", "R_KIND", "R_CODE", "R_SEAT",
                 "R_DECK", "NO_SEAT"):
        assert getattr(registry, "_" + name) == getattr(r, name), name
    from shared_rules.core import deck_check
    assert registry._CL1 == deck_check._CL1
    assert (mat._ANY_GAME, mat._TOKEN) == (r.ANY_GAME, r.TOKEN)
    assert (mat._T_DIGIT0, mat._T_CONFIRM, mat._T_CANCEL) == (tokens.DIGIT0, tokens.CONFIRM, tokens.CANCEL)
    assert [tokens.digit(t) for t in range(40)] == [t - mat._T_DIGIT0 if 0 <= t - mat._T_DIGIT0 < 10 else -1
                                                     for t in range(40)]
    from firmware import presence
    assert (mat._ARRIVE, mat._LEAVE) == (presence._ARRIVE, presence._LEAVE)


def test_the_feedback_and_the_loop_restate_the_buzzers_ids() -> None:
    from firmware import app, feedback, sounds
    assert (feedback._PATTERN_OK, feedback._PATTERN_REJECT, feedback._PATTERN_TURN, feedback._PATTERN_END) == (
        sounds.OK, sounds.REJECT, sounds.TURN, sounds.END)
    assert app._REJECT == sounds.REJECT


@pytest.mark.parametrize("header", [{"game": "skull", "players": 6}, {"game": "deadmans", "players": 4},
                                    {"game": "sheriff", "players": 5}])
def test_a_checkpoint_writes_the_engines_snapshot_from_the_game_state(header: dict, tmp_path: Path) -> None:
    from firmware import persist
    from shared_rules import games
    from shared_rules.core import engine
    assert persist._STATE_TAG == bytes((engine._T, engine._M, engine._SNAPSHOT_VERSION))
    game = games.from_header(header)
    p = persist.Persist(str(tmp_path))
    p.new_game(header, game)
    data = (tmp_path / "snap.bin").read_bytes()
    assert data == persist.snapshot_file(p.gen, 0, p.header, game)
    assert (tmp_path / "jrn.bin").read_bytes()[3:11] == persist.snapshot_name(data)
    assert p.stats()["snapshot_bytes"] == len(data)
    p.close()


def test_the_referee_the_loop_and_the_mat_restate_the_engines_reasons() -> None:
    from firmware import app, mat, referee
    from shared_rules.core import engine
    assert (referee._OK, referee._UNKNOWN_TAG) == (engine.OK, engine.UNKNOWN_TAG)
    assert (app._OK, app._NO_GAME, app._FROM_HOST) == (engine.OK, engine.NO_GAME, referee._FROM_HOST)
    assert (mat._UNKNOWN_TAG, mat._FOREIGN_TAG, mat._DUPLICATE_TAG, mat._NOT_NOW) == (
        engine.UNKNOWN_TAG, engine.FOREIGN_TAG, engine.DUPLICATE_TAG, engine.NOT_NOW)
    from host.hub.mirror import PUBLIC, REFEREE
    assert (referee._PUBLIC, referee._REFEREE) == (PUBLIC, REFEREE)
    assert (referee._FROM_HOST, referee._PUBLIC) == (255, 0)   # as tests/dual/dual_hidden.py names them


def test_the_sheriff_referees_first_four_action_kinds_are_their_phases() -> None:
    """``Sheriff.check`` finds the phase an action needs as its kind (setup..declare), or the
    inspection for pass and inspect."""
    s = sheriff
    vocab = s.Sheriff.VOCAB
    assert [s._A_SETUP, s._A_MARKET, s._A_LOAD, s._A_DECLARE, s._A_PASS] == [
        vocab.kind(n) for n in ("setup", "market", "load", "declare", "pass")]
    assert [s._SETUP, s._MARKET, s._LOAD, s._DECLARE] == [s._A_SETUP, s._A_MARKET, s._A_LOAD, s._A_DECLARE]
    assert s._INSPECT == s._A_PASS == vocab.kind("inspect") - 1


def test_the_sheriff_games_name_their_reasons_from_one_string() -> None:
    """``REASONS`` is one string of names (one object on a board, not a tuple of strings):
    ``reason`` splits it, the engine names the common codes; each module adds its own after."""
    from shared_rules.core import engine
    from shared_rules.sheriff.modules import cards as sc
    from shared_rules.sheriff.modules import expansion as mm
    base = sheriff.Sheriff.REASONS.split()
    more = mm.SheriffMM.REASONS.split()
    cards = sc.SheriffCards.REASONS.split()
    assert len(base) == 21 and more[:21] == base and len(more) == 30 and cards[:30] == more and len(cards) == 47
    assert all(" ".join(n.split()) == n for n in (sheriff.Sheriff.REASONS, mm.SheriffMM.REASONS, sc.REASONS))
    for g, names in ((sheriff.Sheriff(), base), (mm.SheriffMM(), more), (sc.SheriffCards(), cards)):
        assert [g.reason(c) for c in range(16, 16 + len(names))] == names
        assert g.reason(engine.WRONG_PHASE) == "wrong_phase" and g.reason(engine.OK) == "ok"


def test_the_replay_numbers_its_texts_as_replay_why_lists_them() -> None:
    """``replay.py`` names what is wrong by number, ``replay_why.text`` gives the texts."""
    from shared_rules import replay, replay_why
    texts = {"UTF8": "not UTF-8 text", "DEEP": "nested more than %d deep", "JSON": "not valid JSON",
             "LONG": "line longer than %d bytes", "SEAT": "seat %d out of range 0..%d",
             "HEADER": "%s:%d: header: %s", "BAD_HEADER": "%s:%d: bad header: %s",
             "NO_HEADER": "%s:%d: no header line", "OPEN": "%s:0: cannot open the file",
             "READ": "%s:%d: cannot read the file", "USAGE": "usage: micropython -m shared_rules.replay LOG\n"}
    numbers = {n[3:]: v for n, v in vars(replay).items() if n.startswith("_W_")}
    assert numbers.keys() == texts.keys()
    assert all(replay_why.text(v) == texts[n] for n, v in numbers.items())


def test_every_game_names_every_reason_code_from_its_one_string() -> None:
    """Every game keeps its reason names as one string; ``engine.Game.reason`` walks it (and the
    engine's own string below ``FIRST_GAME_REASON``). The names are the ones the logs, the replay's
    JSON and the mirror have always printed: Skull's and Dead Man's Draw's are listed here as they
    were when they were tuples."""
    from shared_rules.core import engine
    from shared_rules.sheriff.modules import cards as sc
    from shared_rules.sheriff.modules import expansion as mm
    from shared_rules.deadmans.rules import DeadMans
    from shared_rules.skull.rules import Skull
    skull = ("eliminated_seat no_such_disc already_placed bid_out_of_range bid_too_low own_stack_first "
             "nothing_to_flip disc_mismatch bad_target").split()
    dmd = ("choice_pending wrong_choice must_draw kraken_demands draw_pile_empty not_in_draw_pile "
           "not_peeked_card not_in_bank not_top_card bad_target misfire_own_bank suit_in_own_bank "
           "parry_forces_kraken reveal_missing reveal_not_wanted wrong_reveal_count not_in_discard "
           "pick_not_revealed wrong_peek_count wrong_bonus_count trait_chosen trait_taken "
           "target_required empty_bank").split()
    common = list(engine.COMMON_REASONS)
    assert common[:engine.NO_GAME + 1] == ("ok malformed unknown_code bad_seat game_over wrong_phase "
                                           "not_your_turn corrupt unknown_tag foreign_tag duplicate_tag "
                                           "not_now no_game").split()
    for cls, names in ((Skull, skull), (DeadMans, dmd), (sheriff.Sheriff, None), (mm.SheriffMM, None),
                       (sc.SheriffCards, None)):
        assert isinstance(cls.REASONS, str) and " ".join(cls.REASONS.split()) == cls.REASONS
        if names is not None:
            assert cls.REASONS.split() == names
        g = cls()
        assert [g.reason(c) for c in range(len(common))] == common
        first = engine.FIRST_GAME_REASON
        assert [g.reason(first + i) for i in range(len(cls.REASONS.split()))] == cls.REASONS.split()


def test_the_sheriff_gestures_fill_their_tag_and_pad_tables_from_restated_bytes() -> None:
    """``mat_sheriff`` makes its tag arrays from ``_NO_TAGS`` and its seat -> pad tables from
    ``_NO_ZONES`` (bytes, not lists): one ``_NO_TAG`` as array("H") bytes, ``_SEATS`` times ``_NO_ZONE``."""
    from array import array

    from firmware import mat_sheriff as m
    assert m._NO_TAGS == array("H", [m._NO_TAG]).tobytes()
    assert m._NO_ZONES == bytes([m._NO_ZONE] * m._SEATS)


def test_the_reader_stack_restates_the_drivers_status_codes() -> None:
    from firmware import sensors
    from firmware import mfrc522
    for name in ("OK", "COLLISION", "CHIP_ERR", "OVERFLOW", "PARTIAL"):
        assert getattr(sensors, "_" + name) == getattr(mfrc522, "_" + name), name
    assert len(mfrc522._STATUS_NAMES) == mfrc522._PARTIAL + 1
    from firmware import presence
    from shared_rules.core import deck
    assert (sensors._NO_EVENT, sensors._ARRIVE) == (presence._NONE, presence._ARRIVE)
    assert presence._UID_LEN == deck.UID_LEN and presence._EV == 2 + deck.UID_LEN
    from firmware import tag_writer
    for name in ("OK", "NO_TAG", "TIMEOUT", "PROTOCOL_ERR", "NAK", "CHIP_ERR", "DENIED", "UID_LEN", "PAGE_BYTES",
                 "FIRST_USER_PAGE", "MAX_ERRORS"):
        assert getattr(tag_writer, "_" + name) == getattr(mfrc522, "_" + name), name


def test_every_sheriff_action_record_fits_and_the_base_vocabulary_is_made_with_the_first_game() -> None:
    """The base vocabulary is made on first use (not at import), so its size check runs here:
    every action of every Sheriff vocabulary fits ``ACTION_SIZE``."""
    from shared_rules.core import actions
    from shared_rules.sheriff import rules as sheriff
    from shared_rules.sheriff.modules import cards
    from shared_rules.sheriff.modules import expansion
    from shared_rules.core.actions_lookup import field_offsets
    sheriff.Sheriff(5)
    assert vars(sheriff.Sheriff.VOCAB)["names"] == ("setup", "market", "load", "declare", "pass", "inspect")
    for cls in (sheriff.Sheriff, expansion.SheriffMM, cards.SheriffCards):
        for fields in cls.VOCAB.fields:
            assert field_offsets(fields, 2)[1] <= actions.ACTION_SIZE


def test_every_vocabulary_record_fits_the_action_size() -> None:
    """Every action of every game, all its fields present, fits one ``ACTION_SIZE`` record (what
    ``Vocabulary.__init__`` asserted at import, checked here instead: the board never runs it)."""
    from shared_rules.sheriff.modules import cards as sc
    from shared_rules.sheriff.modules import expansion as mm
    from shared_rules.core.actions import ACTION_SIZE
    from shared_rules.core.actions_lookup import field_offsets
    from shared_rules.deadmans.rules import DeadMans
    from shared_rules.skull.rules import Skull
    ends = []
    for cls in (Skull, DeadMans, sheriff.Sheriff, mm.SheriffMM, sc.SheriffCards):
        assert cls.VOCAB.names
        ends += [field_offsets(fields, 2)[1] for fields in cls.VOCAB.fields]
    assert 2 < max(ends) <= ACTION_SIZE


def test_the_dual_kit_reads_the_replays_game_and_refusals() -> None:
    """``tests/dual/kit.py`` reads the game, the refusals and the action record of the replay."""
    sys.path.insert(0, str(Path(__file__).parent / "dual"))
    try:
        import kit
    finally:
        sys.path.pop(0)
    p = kit.play({"game": "skull", "players": 3}, [{"a": "bid", "p": 0, "n": 1}])
    assert p.game.NAME == "skull" and p.rejected == [{"line": 2, "error": "wrong_phase"}]
    assert p.rec[:3] == bytes([1, 0, 1])   # bid, seat 0, n


def test_the_sheriff_gestures_restate_the_tokens() -> None:
    """``mat_sheriff`` loads no ``tokens``: its ``_T_*`` are the token numbers."""
    from shared_rules.core import tokens
    c = _consts(_MAT)
    assert (c["T_SEAT0"], c["T_SEATS"], c["T_CONFIRM"], c["T_PASS"], c["T_INSPECT"], c["T_DECLARE0"],
            c["T_DECLARABLE"]) == (tokens.SEAT0, tokens.SEATS, tokens.CONFIRM, tokens.PASS, tokens.INSPECT,
                                   tokens.DECLARE0, tokens.DECLARABLE)


def test_skulls_disc_names_are_the_catalogues() -> None:
    """Skull keeps its two disc names as a literal (its replay never loads the catalogue package):
    they are the catalogue's, in its order (a disc's code is its index)."""
    from shared_rules.skull import rules as skull
    from shared_rules.catalogue import SKULL_CODES
    assert skull._CODES == SKULL_CODES
    discs = [f[2] for fields in skull.Skull.VOCAB.fields for f in fields if f[0] == "disc"]
    assert discs and all(d == SKULL_CODES for d in discs)


def test_the_loop_and_the_start_code_name_the_same_game_file_and_the_hub_the_boards_refusal() -> None:
    from firmware import app, game_start
    from host.hub.hub import IN_PROGRESS
    assert app._GAME_FILE == game_start._GAME_FILE == "game.json"
    assert game_start._IN_PROGRESS == IN_PROGRESS
