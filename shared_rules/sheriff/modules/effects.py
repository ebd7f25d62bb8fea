"""Effect primitives: the small, closed set of things a Law or a Merry Man can do, as data.

The printed texts of the 24 laws and 18 Merry Men are not public, so the referee does not know
the cards: it knows *primitives*, and the deck profile (``shared_rules.sheriff.modules.profile``) describes each
card as a short list of them with parameters. Why this set covers a law deck, and what is left
out on purpose: ``docs/rules-merry-men.md`` ("Effect primitives"). A card the set cannot express
is marked ``"unsupported"`` in the profile, and the referee refuses that module rather than guess.

Two forms: 4 bytes per primitive (opcode and up to three parameters) in the binary profile and
in the game's tables, read by the rules (this module runs them); and the profile's JSON objects
(``{"do": "tax", "good": "apple", "gold": 1, "to": "bank"}``), converted by ``profile_effects``
only when a header or a profile file is parsed, so a board with a binary profile never loads it.
The opcodes and parties are private ``const()``s: the modules that read them restate them, and
``tests/test_rules_literals.py`` checks every copy.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

# Opcodes (1-based: 0 never names a primitive; names: ``profile_effects.NAMES``). Laws bind for
# a round; Merry Men act once.
_OP_CONTRABAND = const(1)   # a legal good counts as contraband this round (cannot be declared, confiscated)
_OP_TAX = const(2)          # the merchant pays `gold` per declared card of `good`, to `to`, when declaring
_OP_REWARD = const(3)       # the merchant receives `gold` per card of `good` that reaches their stand from
                         # their bag this round, from `from`
_OP_PENALTY = const(4)      # penalties of bags opened (`on` truthful / lying / both) are multiplied by
                         # `times` (0 waives them)
_OP_NO_BRIBE = const(5)     # bribes of a `kind` (gold, goods, any) are forbidden this round
_OP_BAG_MAX = const(6)      # bags hold at most `cards` cards this round (1-5)
_OP_GOLD = const(7)         # `amount` gold moves from `from` to `to` (a law: when the round starts)
_OP_STEAL = const(8)        # the player takes `gold` from the Sheriff, keeps `keep`, gives the rest to
                         # other players as they choose (a Merry Man's ``give`` list)
_SIZE = const(4)         # bytes per primitive: opcode, three parameters
_MAX_EFFECTS = const(4)  # per card

# Gold sources / receivers (names: ``profile_effects.PARTIES``).
_BANK = const(0)
_SHERIFF = const(1)
_SELF = const(2)             # the Merry Man's owner
_EACH_MERCHANT = const(3)    # every merchant of the round, one `amount` each
_EACH_OTHER = const(4)       # every player but the owner

# -- running primitives (the accept path: no allocation) -------------------------------------
_NOBODY = 255


def _single(g, party, owner, sheriff):
    """The seat a single party names (``_NOBODY`` for the bank)."""
    if party == _SHERIFF:
        return sheriff
    return owner if party == _SELF else _NOBODY


def _in(g, party, seat, owner):
    return g._is_merchant(seat) if party == _EACH_MERCHANT else seat != owner


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
    if frm >= _EACH_MERCHANT or to >= _EACH_MERCHANT:
        group = frm if frm >= _EACH_MERCHANT else to
        other = _single(g, to if group == frm else frm, owner, sheriff)
        for seat in range(g.seats()):
            if seat != other and _in(g, group, seat, owner):
                if group == frm:
                    transfer(g, seat, other, amount)
                else:
                    transfer(g, other, seat, amount)
    else:
        transfer(g, _single(g, frm, owner, sheriff), _single(g, to, owner, sheriff), amount)
