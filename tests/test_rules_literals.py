"""Values the board's modules take as literal ``const()``s, so that a board neither computes them
at import nor keeps (or imports) a name for them, agree with where they come from.

CPython only: a private ``const()`` name leaves no trace in a MicroPython module, so there is
nothing to read there; the CPython stand-in keeps it as a plain global.
"""
from __future__ import annotations

from shared_rules import sheriff
from shared_rules.catalogue import LEGAL, SHERIFF_CODES, SHERIFF_KIND, SHERIFF_VALUE


def test_sheriff_pay_order_is_legal_goods_then_contraband_by_value_then_code() -> None:
    order = sorted(range(len(SHERIFF_CODES)),
                   key=lambda g: (SHERIFF_KIND[g] != LEGAL, SHERIFF_VALUE[g], SHERIFF_CODES[g]))
    assert sheriff._PAY_ORDER == bytes(order)


def test_the_firmware_loop_reads_the_mats_poll_results_as_its_own_constants() -> None:
    from firmware import app, mat
    assert (app._NOTHING, app._READY) == (mat.NOTHING, mat.READY)


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


def test_dead_mans_views_take_the_rules_values() -> None:
    from pathlib import Path

    from host.layout import ROOT, constants
    mine = constants(Path(ROOT, "shared_rules", "deadmans_view.py"))
    rules = constants(Path(ROOT, "shared_rules", "deadmans.py"))
    assert mine and all(value == rules[name] for name, value in mine.items())
