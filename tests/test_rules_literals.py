"""Values the board's modules take as literal ``const()``s, so that a board neither computes them
at import nor keeps (or imports) a name for them, agree with where they come from.

CPython only: a private ``const()`` name leaves no trace in a MicroPython module, so there is
nothing to read there; the CPython stand-in keeps it as a plain global.
"""
from __future__ import annotations

import pytest

from shared_rules import sheriff
from shared_rules.catalogue import LEGAL, SHERIFF_CODES, SHERIFF_KIND, SHERIFF_VALUE


def test_sheriff_pay_order_is_legal_goods_then_contraband_by_value_then_code() -> None:
    order = sorted(range(len(SHERIFF_CODES)),
                   key=lambda g: (SHERIFF_KIND[g] != LEGAL, SHERIFF_VALUE[g], SHERIFF_CODES[g]))
    assert sheriff._PAY_ORDER == bytes(order)


def test_the_firmware_loop_reads_the_mats_poll_results_as_its_own_constants() -> None:
    from firmware import app, mat
    assert (app._NOTHING, app._READY) == (mat.NOTHING, mat.READY)


def test_the_deck_registry_check_counts_each_kinds_codes_as_the_catalogue() -> None:
    from shared_rules import deck
    assert deck._CODE_COUNTS == bytes(len(deck.codes(g, k) or ()) for g in range(len(deck.GAMES))
                                      for k in range(len(deck.KINDS)))


def test_the_codecs_largest_frame_is_the_worst_case_stuffing_of_the_largest_raw_frame() -> None:
    from shared_rules import cobs, codec
    assert codec.MAX_RAW == codec.MAX_BODY + codec.FRAME_OVERHEAD
    assert codec.MAX_FRAME == cobs.max_stuffed_len(codec.MAX_RAW)


def _named(module: object, name: str) -> object:
    """A module's constant, public or (once its owner made it private) private."""
    return getattr(module, name) if hasattr(module, name) else getattr(module, "_" + name)


def test_dead_mans_draw_literals_are_the_vocabulary_catalogue_and_engine_values() -> None:
    from shared_rules import actions, deadmans as d, engine
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
    for i, reason in enumerate(d.GAME.REASONS):
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
    from pathlib import Path

    from firmware import mat, mat_deadmans as g
    from host.layout import ROOT, constants
    from shared_rules import deck, engine, tokens
    mine = constants(Path(ROOT, "firmware", "mat_deadmans.py"))
    rules = constants(Path(ROOT, "shared_rules", "deadmans.py"))
    foreign = {"NOTHING": (mat, "NOTHING"), "READY": (mat, "READY"), "NO_ZONE": (mat, "NO_ZONE"),
               "NO_SEAT": (engine, "NO_SEAT"), "NOT_NOW": (engine, "NOT_NOW"), "KIND_CARD": (deck, "CARD"),
               "KIND_TRAIT": (deck, "TRAIT"), "COLLECT_TOKEN": (tokens, "COLLECT"), "SEAT0": (tokens, "SEAT0"),
               "SEAT_TOKENS": (tokens, "SEATS")}
    assert mine["PILE"] == rules["NCODES"] - rules["SUITS"] and mine["LIST_CAP"] == rules["MAX_BONUS"]
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
            assert name in ("NO_TAG", "AMBIGUOUS", "PILE", "LIST_CAP"), name


def test_sheriff_restates_the_engine_actions_and_catalogue_values_it_uses() -> None:
    from shared_rules import actions, engine
    from shared_rules.catalogue import CONTRABAND, ROYAL, SHERIFF_GOODS, SHERIFF_PENALTY
    assert (sheriff._OK, sheriff._MALFORMED, sheriff._UNKNOWN_CODE, sheriff._WRONG_PHASE, sheriff._NOT_YOUR_TURN,
            sheriff._NO_SEAT) == (engine.OK, engine.MALFORMED, engine.UNKNOWN_CODE, engine.WRONG_PHASE,
                                  engine.NOT_YOUR_TURN, engine.NO_SEAT)
    assert (actions.OK, actions.MALFORMED, actions.UNKNOWN_CODE) == (engine.OK, engine.MALFORMED, engine.UNKNOWN_CODE)
    assert (sheriff._U8, sheriff._U16, sheriff._NAME, sheriff._LIST, sheriff._OBJ) == (
        actions.U8, actions.U16, actions.NAME, actions.LIST, actions.OBJ)
    assert sheriff.CODES == SHERIFF_CODES and sheriff._KINDS == len(SHERIFF_CODES)
    kinds = [g[1] for g in SHERIFF_GOODS]
    assert kinds == [LEGAL] * sheriff._LEGAL_KINDS + [CONTRABAND] * (sheriff._ROYAL_FIRST - sheriff._LEGAL_KINDS) \
        + [ROYAL] * (sheriff._KINDS - sheriff._ROYAL_FIRST)
    assert sheriff._COUNT == bytes(g[2] for g in SHERIFF_GOODS) and sheriff._MARKED == bytes(g[3] for g in SHERIFF_GOODS)
    assert sheriff._VALUE == SHERIFF_VALUE and sheriff._PENALTY == SHERIFF_PENALTY
    assert sheriff._PILE_CAP == sum(g[2] for g in SHERIFF_GOODS)


def test_sheriff_field_offsets_reasons_and_layout_follow_their_derivation() -> None:
    from shared_rules import engine
    from shared_rules.actions import _offsets
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
    assert _offsets(vocab.fields[s._A_PASS][1][2], s._F_BRIBE)[0] == [s._F_BRIBE_GOLD, s._F_BRIBE_STAND,
                                                                      s._F_BRIBE_BAG]
    reasons = s.Sheriff.REASONS
    named = {name[1:]: value for name, value in vars(s).items()
             if name.startswith("_") and name[1:].lower() in reasons and isinstance(value, int)}
    assert len(named) == len(reasons) == 21
    assert all(reasons[code - engine.FIRST_GAME_REASON] == name.lower() for name, code in named.items())
    assert s._SEAT_BASE == s._POOL + s._KINDS and s._STAND == s._KNOWN + s._KINDS
    assert s._SEAT_BYTES == s._STAND + s._KINDS and s._DECL_GOOD == s._BAG + s._BAG_MAX
    assert s._PILES == s._SEAT_BASE + s._SEAT_BYTES * s._MAX_SEATS and s._PILES_END == s._PILES + s._PILE_CAP
    assert s._PUB_PILES == s._PUB_REGS + s._PUB_SEAT * s._MAX_SEATS
    from shared_rules import sheriff_view
    assert sheriff_view.PHASES[:s._OVER + 1] == ("setup", "market", "load", "declare", "inspect", "over")
    assert [s._SETUP, s._MARKET, s._LOAD, s._DECLARE, s._INSPECT, s._OVER] == list(range(6))


@pytest.mark.parametrize("module", ["shared_rules/sheriff_mm.py", "shared_rules/sheriff_cards.py",
                                    "shared_rules/sheriff_view.py", "firmware/mat_sheriff.py",
                                    "firmware/mat_sheriff_cards.py"])
def test_modules_restating_the_sheriff_referees_constants_agree_with_it(module: str) -> None:
    """A board module beside the referee restates the registers, flags and offsets it reads as its
    own private consts (no import of the layout on a board): same name, same value."""
    from host.layout import ROOT, constants
    base = constants(ROOT / "shared_rules/sheriff.py")
    mine = constants(ROOT / module)
    shared = set(mine) & set(base)
    assert shared and {n: mine[n] for n in shared} == {n: base[n] for n in shared}


def test_sheriff_scoring_restates_the_catalogues_scoring_columns() -> None:
    from shared_rules import sheriff_score as sc
    from shared_rules.catalogue import (SHERIFF_AS_GOOD, SHERIFF_AS_MANY, SHERIFF_KING, SHERIFF_QUEEN,
                                        SHERIFF_LEGAL_KINDS)
    assert sc._KINDS == len(SHERIFF_CODES) and sc._LEGAL_KINDS == SHERIFF_LEGAL_KINDS
    assert [g for g in range(sc._KINDS) if SHERIFF_KIND[g] == LEGAL] == list(range(sc._LEGAL_KINDS))
    assert sc._VALUE == SHERIFF_VALUE and sc._AS_GOOD == SHERIFF_AS_GOOD and sc._AS_MANY == SHERIFF_AS_MANY
    assert sc._KING == SHERIFF_KING[:sc._LEGAL_KINDS] and sc._QUEEN == SHERIFF_QUEEN[:sc._LEGAL_KINDS]
    assert not any(SHERIFF_KING[sc._LEGAL_KINDS:] + SHERIFF_QUEEN[sc._LEGAL_KINDS:])


def test_the_replay_reads_reason_codes_and_the_record_size_as_its_own_constants() -> None:
    from shared_rules import actions, engine, replay
    assert (replay._MALFORMED, replay._BAD_SEAT) == (engine.MALFORMED, engine.BAD_SEAT)
    assert replay._ACTION_SIZE == actions.ACTION_SIZE
