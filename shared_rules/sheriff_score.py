"""Sheriff of Nottingham scoring (1st edition): stand values, King/Queen bonuses, winners.

Works on any object with ``seats()``, ``gold(seat)`` and ``stand(seat, good)``, so tests can
score a hand-built position; a game with modules may add ``extra_value(seat)`` (Black Market
cards) and ``extra_contraband(seat)`` (cards counted as contraband for tie-breaks). Only ``summary`` calls it: allocation is fine here.
Rules: ``rules/sheriff.md`` "Game end and scoring"; decisions in ``docs/rules-sheriff.md``.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

# The catalogue's scoring columns (catalogue/sheriff.py), restated as bytes so that scoring a
# replay never loads the catalogue; tests/test_rules_literals.py checks them.
_KINDS = const(15)
_LEGAL_KINDS = const(4)    # goods 0..3 are the legal goods: King and Queen bonuses are theirs
_VALUE = const(b"\x02\x03\x03\x04\x06\x07\x08\x09\x04\x06\x06\x09\x06\x09\x08")
_KING = const(b"\x14\x0f\x0f\x0a")
_QUEEN = const(b"\x0a\x0a\x0a\x05")
_AS_GOOD = const(b"\x00\x01\x02\x03\xff\xff\xff\xff\x00\x00\x01\x01\x02\x02\x03")   # royal: counts as
_AS_MANY = const(b"\x01\x01\x01\x01\x00\x00\x00\x00\x02\x03\x02\x03\x02\x03\x02")


def bonuses(game):
    """King and Queen bonuses per seat. Tied Kings share King + Queen (rounded down) and no
    Queen is paid; tied Queens share the Queen bonus. At least one good is needed to qualify."""
    n = game.seats()
    out = [0] * n
    for good in range(_LEGAL_KINDS):
        # royal goods count 2 or 3 for the legal good they stand for
        counts = [0] * n
        for seat in range(n):
            for g in range(_KINDS):
                if _AS_GOOD[g] == good:
                    counts[seat] += game.stand(seat, g) * _AS_MANY[g]
        top = max(counts)
        if not top:
            continue
        kings = []   # loops, not comprehensions: each would be code held from import
        for seat in range(n):
            if counts[seat] == top:
                kings.append(seat)
        if len(kings) > 1:
            for seat in kings:
                out[seat] += (_KING[good] + _QUEEN[good]) // len(kings)
            continue
        out[kings[0]] += _KING[good]
        second = 0
        for seat in range(n):
            if seat != kings[0] and counts[seat] > second:
                second = counts[seat]
        if not second:
            continue
        queens = 0
        for seat in range(n):
            if counts[seat] == second:
                queens += 1
        for seat in range(n):
            if counts[seat] == second:
                out[seat] += _QUEEN[good] // queens
    return out


def scores(game):
    """Gold + every good on the stand + King/Queen bonuses (the running score while playing)."""
    out = bonuses(game)
    extra = getattr(game, "extra_value", None)
    for seat in range(game.seats()):
        out[seat] += game.gold(seat) + (extra(seat) if extra else 0)
        for g in range(_KINDS):
            out[seat] += game.stand(seat, g) * _VALUE[g]
    return out


def winners(game):
    """Highest score; ties broken by legal-good cards, then contraband cards; else shared."""
    sc = scores(game)
    extra = getattr(game, "extra_contraband", None)
    keys = []
    for seat in range(game.seats()):
        key = [sc[seat], 0, extra(seat) if extra else 0]   # score, legal cards, contraband cards
        for g in range(_KINDS):   # royal goods are contraband cards
            key[1 if g < _LEGAL_KINDS else 2] += game.stand(seat, g)
        keys.append(key)
    best = max(keys)
    out = []
    for seat in range(game.seats()):
        if keys[seat] == best:
            out.append(seat)
    return out
