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


# -- Skull ---------------------------------------------------------------------------------
def _shared_with_skull_layout(path: str) -> dict[str, object]:
    """A module's literal ``const()``s whose names ``skull_layout`` also has, by name."""
    from host import layout
    from shared_rules import skull_layout as K
    return {n: v for n, v in layout.constants(layout.ROOT / path).items() if hasattr(K, n)}


def test_skull_literals_are_the_vocabulary_engine_catalogue_and_reason_values() -> None:
    from shared_rules import engine, skull_layout as K, skull_view
    from shared_rules.catalogue import SKULL_CODES
    from shared_rules.skull import Skull
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
    reasons = {n: getattr(K, n.upper()) for n in Skull.REASONS}
    assert reasons == {n: engine.FIRST_GAME_REASON + i for i, n in enumerate(Skull.REASONS)}
    phases = {"prep": K.PREP, "add": K.ADD, "bidding": K.BIDDING, "flip": K.FLIP, "lose": K.LOSE,
              "choose_first": K.CHOOSE, "over": K.OVER}
    assert [phases[p] for p in skull_view.PHASES] == list(range(len(skull_view.PHASES)))
    assert Skull.STATE_SIZE == K.SEAT_BASE + K.SEAT_BYTES * K.MAX_SEATS and K.SEAT_BASE > K.R_WINNER
    assert Skull.PUBLIC_SIZE == K.PUB_REGS + K.PUB_SEAT * K.MAX_SEATS


def test_skull_view_literals_are_the_rules_values() -> None:
    shared = _shared_with_skull_layout("shared_rules/skull_view.py")
    from shared_rules import skull_layout as K
    assert set(shared) >= {"PUB_REGS", "PUB_SEAT", "ELIMINATED", "PASSED", "SEAT_BASE", "SEAT_BYTES",
                           "H_FLOWERS", "H_SKULL", "SKULL_AT", "NO_SEAT"}
    assert shared == {n: getattr(K, n) for n in shared}


def test_skull_gestures_literals_are_the_rules_mat_deck_and_token_values() -> None:
    from firmware import mat, mat_skull as m
    from shared_rules import deck, engine, skull_layout as K, tokens
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
