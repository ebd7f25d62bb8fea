"""Effect primitives as the deck profile writes them: JSON objects <-> 4 bytes per primitive.

``{"do": "tax", "good": "apple", "gold": 1, "to": "bank"}`` is checked here with messages naming
the field, and encoded as opcode and up to three parameters (names stored as their index); the
rules run the bytes (``effects``, where each primitive is described). Only parsing a
header's or a file's profile needs this module: a board holding a binary profile never loads it.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules.catalogue import SHERIFF_CODES as CODES, SHERIFF_KIND, LEGAL

NAMES = ("", "contraband", "tax", "reward", "penalty", "no_bribe", "bag_max", "gold", "steal")
PARTIES = ("bank", "sheriff", "self", "each_merchant", "each_other")  # gold sources / receivers
SIDES = ("both", "truthful", "lying")
BRIBES = ("any", "gold", "goods")
# Opcodes and parties (effects' private consts, restated: tests/test_rules_literals.py).
_OP_CONTRABAND = const(1)
_OP_TAX = const(2)
_OP_REWARD = const(3)
_OP_PENALTY = const(4)
_OP_NO_BRIBE = const(5)
_OP_BAG_MAX = const(6)
_OP_GOLD = const(7)
_OP_STEAL = const(8)
_SIZE = const(4)
_MAX_EFFECTS = const(4)
_EACH_MERCHANT = const(3)
_GOLD_MAX = const(50)

# Parameters per opcode: (name, coded names or (lo, hi) whole numbers, the names allowed or None
# for all). Names are stored as their index in the coded tuple.
_LEGALS = tuple(CODES[g] for g in range(len(CODES)) if SHERIFF_KIND[g] == LEGAL)
_PARAMS = (
    (),
    (("good", CODES, _LEGALS),),
    (("good", CODES, None), ("gold", (0, 9), None), ("to", PARTIES, PARTIES[:2])),
    (("good", CODES, None), ("gold", (0, 9), None), ("from", PARTIES, PARTIES[:2])),
    (("on", SIDES, None), ("times", (0, 3), None)),
    (("kind", BRIBES, None),),
    (("cards", (1, 5), None),),
    (("from", PARTIES, None), ("to", PARTIES, None), ("amount", (1, _GOLD_MAX), None)),
    (("from", PARTIES, ("sheriff",)), ("gold", (1, _GOLD_MAX), None), ("keep", (0, _GOLD_MAX), None)),
)
# Which primitives each deck may use: laws bind for the round, Merry Men act at once. A law
# moves gold only between the bank, the Sheriff and the merchants (it has no owner).
LAW_OPS = (_OP_CONTRABAND, _OP_TAX, _OP_REWARD, _OP_PENALTY, _OP_NO_BRIBE, _OP_BAG_MAX, _OP_GOLD)
MERRY_OPS = (_OP_GOLD, _OP_STEAL)
_LAW_PARTIES = ("bank", "sheriff", "each_merchant")


def encode(effects, ops, at):
    """A card's list of primitive objects -> bytes (4 per primitive); ``ValueError`` with
    ``"field: why"`` (``at`` names the card) for an unknown primitive or a bad parameter."""
    if not isinstance(effects, list) or not 0 < len(effects) <= _MAX_EFFECTS:
        raise ValueError("%s.effects: a list of 1 to %d primitives" % (at, _MAX_EFFECTS))
    out = bytearray()
    for i in range(len(effects)):
        e = effects[i]
        where = "%s.effects[%d]" % (at, i)
        if not isinstance(e, dict):
            raise ValueError(where + ': a primitive is an object {"do": ..., parameters}')
        op = NAMES.index(e["do"]) if e.get("do") in NAMES[1:] else 0
        if op not in ops:
            raise ValueError("%s.do: %r is not a primitive this deck may use (%s)" % (
                where, e.get("do"), ", ".join(NAMES[o] for o in ops)))
        spec = _PARAMS[op]
        for key in e:
            if key != "do" and key not in [p[0] for p in spec]:
                raise ValueError("%s.%s: not a parameter of %s" % (where, key, NAMES[op]))
        out.append(op)
        for name, coded, allowed in spec:
            v = e.get(name)
            if isinstance(coded[0], str):
                if allowed is None and ops is LAW_OPS and coded is PARTIES:
                    allowed = _LAW_PARTIES
                allowed = allowed or coded
                if v not in allowed:
                    raise ValueError("%s.%s: one of %s" % (where, name, ", ".join(allowed)))
                out.append(coded.index(v))
            elif not isinstance(v, int) or isinstance(v, bool) or not coded[0] <= v <= coded[1]:
                raise ValueError("%s.%s: a whole number from %d to %d" % (where, name, coded[0], coded[1]))
            else:
                out.append(v)
        if op == _OP_GOLD and (out[-3] == out[-2] or out[-3] >= _EACH_MERCHANT and out[-2] >= _EACH_MERCHANT):
            raise ValueError(where + ".to: gold moves between two different parties, at most one of them a group")
        if op == _OP_STEAL and out[-1] > out[-2]:
            raise ValueError(where + ".keep: at most the gold taken")
        while len(out) % _SIZE:
            out.append(0)
    return bytes(out)


def decode(data):
    """4-byte primitives -> the profile's objects (for ``profile.decode``)."""
    out = []
    for i in range(0, len(data), _SIZE):
        op = data[i]
        if not 0 < op < len(NAMES):
            raise ValueError("effects: unknown primitive %d" % op)
        e = {"do": NAMES[op]}
        spec = _PARAMS[op]
        for j in range(len(spec)):
            name, coded, _ = spec[j]
            v = data[i + 1 + j]
            e[name] = coded[v] if isinstance(coded[0], str) else v
        out.append(e)
    return out
