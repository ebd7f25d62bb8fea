"""Effect primitives: the small, closed set of things a Law or a Merry Man can do, as data.

The printed texts of the 24 laws and 18 Merry Men are not public, so the referee does not know
the cards: it knows *primitives*, and the deck profile (``shared_rules.profile``) describes each
card as a short list of them with parameters. Why this set covers a law deck, and what is left
out on purpose: ``docs/rules-merry-men.md`` ("Effect primitives"). A card the set cannot express
is marked ``"unsupported"`` in the profile, and the referee refuses that module rather than guess.

Three forms: the JSON objects of the profile (``{"do": "tax", "good": "apple", "gold": 1, "to":
"bank"}``), checked here with messages naming the field; 4 bytes per primitive (opcode and up to
three parameters) in the binary profile and in the game's tables; and the decoded JSON again.
Only header parsing uses this module's functions; the rules read the 4-byte form.
"""
from shared_rules.catalogue import SHERIFF_CODES as CODES, SHERIFF_KIND, LEGAL

# Opcodes (1-based: 0 never names a primitive). Laws bind for a round; Merry Men act once.
CONTRABAND = 1   # a legal good counts as contraband this round (cannot be declared, confiscated)
TAX = 2          # the merchant pays `gold` per declared card of `good`, to `to`, when declaring
REWARD = 3       # the merchant receives `gold` per card of `good` that reaches their stand from
                 # their bag this round, from `from`
PENALTY = 4      # penalties of bags opened (`on` truthful / lying / both) are multiplied by
                 # `times` (0 waives them)
NO_BRIBE = 5     # bribes of a `kind` (gold, goods, any) are forbidden this round
BAG_MAX = 6      # bags hold at most `cards` cards this round (1-5)
GOLD = 7         # `amount` gold moves from `from` to `to` (a law: when the round starts)
STEAL = 8        # the player takes `gold` from the Sheriff, keeps `keep`, gives the rest to
                 # other players as they choose (a Merry Man's ``give`` list)
NAMES = ("", "contraband", "tax", "reward", "penalty", "no_bribe", "bag_max", "gold", "steal")
SIZE = 4         # bytes per primitive: opcode, three parameters
MAX_EFFECTS = 4  # per card

PARTIES = ("bank", "sheriff", "self", "each_merchant", "each_other")  # gold sources / receivers
BANK = 0
SHERIFF = 1
SELF = 2             # the Merry Man's owner
EACH_MERCHANT = 3    # every merchant of the round, one `amount` each
EACH_OTHER = 4       # every player but the owner
SIDES = ("both", "truthful", "lying")
BRIBES = ("any", "gold", "goods")
_GOLD_MAX = 50

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
LAW_OPS = (CONTRABAND, TAX, REWARD, PENALTY, NO_BRIBE, BAG_MAX, GOLD)
MERRY_OPS = (GOLD, STEAL)
_LAW_PARTIES = ("bank", "sheriff", "each_merchant")


def encode(effects, ops, at):
    """A card's list of primitive objects -> bytes (4 per primitive); ``ValueError`` with
    ``"field: why"`` (``at`` names the card) for an unknown primitive or a bad parameter."""
    if not isinstance(effects, list) or not 0 < len(effects) <= MAX_EFFECTS:
        raise ValueError("%s.effects: a list of 1 to %d primitives" % (at, MAX_EFFECTS))
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
        if op == GOLD and (out[-3] == out[-2] or out[-3] >= EACH_MERCHANT and out[-2] >= EACH_MERCHANT):
            raise ValueError(where + ".to: gold moves between two different parties, at most one of them a group")
        if op == STEAL and out[-1] > out[-2]:
            raise ValueError(where + ".keep: at most the gold taken")
        while len(out) % SIZE:
            out.append(0)
    return bytes(out)


def decode(data):
    """4-byte primitives -> the profile's objects (for ``profile.decode``)."""
    out = []
    for i in range(0, len(data), SIZE):
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


# -- running primitives (the accept path: no allocation) -------------------------------------
_NOBODY = 255


def _single(g, party, owner, sheriff):
    """The seat a single party names (``_NOBODY`` for the bank)."""
    if party == SHERIFF:
        return sheriff
    return owner if party == SELF else _NOBODY


def _in(g, party, seat, owner):
    return g._is_merchant(seat) if party == EACH_MERCHANT else seat != owner


def transfer(g, src, dst, amount):
    """``amount`` gold from ``src`` to ``dst`` (``_NOBODY`` = the bank, which never runs out);
    a seat short of gold pays what it has. Returns the gold moved."""
    if src != _NOBODY:
        have = g.gold(src)
        if amount > have:
            amount = have
        g._set_gold(src, have - amount)
    if dst != _NOBODY:
        g._set_gold(dst, g.gold(dst) + amount)
    return amount


def move_gold(g, frm, to, amount, owner, sheriff):
    """A ``gold`` primitive: a group party (each merchant, each other player) pays or receives
    ``amount`` per seat; the other side is a single party."""
    if frm >= EACH_MERCHANT or to >= EACH_MERCHANT:
        group = frm if frm >= EACH_MERCHANT else to
        other = _single(g, to if group == frm else frm, owner, sheriff)
        for seat in range(g.seats()):
            if seat != other and _in(g, group, seat, owner):
                if group == frm:
                    transfer(g, seat, other, amount)
                else:
                    transfer(g, other, seat, amount)
    else:
        transfer(g, _single(g, frm, owner, sheriff), _single(g, to, owner, sheriff), amount)
