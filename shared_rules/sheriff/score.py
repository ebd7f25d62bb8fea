"""Sheriff of Nottingham scoring (1st edition): stand values, King/Queen bonuses, winners.

Works on any object with ``seats()``, ``gold(seat)`` and ``stand(seat, good)``, so tests can
score a hand-built position; a game with modules may add ``extra_value(seat)`` (Black Market
cards) and ``extra_contraband(seat)`` (cards counted as contraband for tie-breaks). Only
``summary`` calls it: allocation is fine here.
Rules: ``rules/sheriff.md`` "Game end and scoring"; decisions in ``docs/rules-sheriff.md``.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

# The catalogue's scoring columns (catalogue/sheriff.py), restated as bytes so that scoring a
# replay never loads the catalogue, in one bytes constant (one object, not five):
# ``_COLUMNS[_VALUE + g]``. Value (15 goods), King and Queen bonus (4 legal goods), the legal good
# a royal good counts as (0xff: none) and how many of it (15 goods each).
# tests/test_rules_literals.py checks them.

_KINDS = const(15)
_LEGAL_KINDS = const(4)    # goods 0..3 are the legal goods: King and Queen bonuses are theirs
_VALUE = const(0)
_KING = const(15)
_QUEEN = const(19)
_AS_GOOD = const(23)
_AS_MANY = const(38)
_COLUMNS = const(b"\x02\x03\x03\x04\x06\x07\x08\x09\x04\x06\x06\x09\x06\x09\x08"
                 b"\x14\x0f\x0f\x0a"
                 b"\x0a\x0a\x0a\x05"
                 b"\x00\x01\x02\x03\xff\xff\xff\xff\x00\x00\x01\x01\x02\x02\x03"
                 b"\x01\x01\x01\x01\x00\x00\x00\x00\x02\x03\x02\x03\x02\x03\x02")

def bonuses(game):
    """King and Queen bonuses per seat. Tied Kings share King + Queen (rounded down) and no
    Queen is paid; tied Queens share the Queen bonus. At least one good is needed to qualify.
    One list (the result): a seat's count is counted again to pay it rather than kept, since
    the result is computed at the end of a replay, when the heap is at its fullest."""
    n = game.seats()
    out = [0] * n
    for good in range(_LEGAL_KINDS):
        top = kings = second = queens = 0
        for paying in range(2):   # rank the counts, then pay
            for seat in range(n):
                c = 0
                for g in range(_KINDS):   # royal goods count 2 or 3 for the legal good they stand for
                    if _COLUMNS[_AS_GOOD + g] == good:
                        c += game.stand(seat, g) * _COLUMNS[_AS_MANY + g]
                if not paying:
                    if c > top:
                        second = top
                        queens = kings
                        top = c
                        kings = 1
                    elif c == top:
                        kings += 1
                    elif c > second:
                        second = c
                        queens = 1
                    elif c == second:
                        queens += 1
                elif not top:
                    break
                elif c == top:
                    out[seat] += (_COLUMNS[_KING + good] + _COLUMNS[_QUEEN + good]) // kings if kings > 1 else _COLUMNS[_KING + good]
                elif c == second and second and kings == 1:
                    out[seat] += _COLUMNS[_QUEEN + good] // queens
    return out


def scores(game):
    """Gold + every good on the stand + King/Queen bonuses (the running score while playing)."""
    out = bonuses(game)
    extra = getattr(game, "extra_value", None)   # modules' hooks (Black Market cards, orders)
    for seat in range(game.seats()):
        out[seat] += game.gold(seat) + (extra(seat) if extra else 0)
        for g in range(_KINDS):
            out[seat] += game.stand(seat, g) * _COLUMNS[_VALUE + g]
    return out


def winners(game, values=None):
    """Highest score; ties broken by legal-good cards, then contraband cards (royal goods are
    contraband cards); else shared. Compared seat by seat: no key list per seat. ``values``: the
    seats' ``scores``, if the caller has them already."""
    sc = scores(game) if values is None else values
    extra = getattr(game, "extra_contraband", None)
    out = []  # type: list[int]
    best = legal_best = other_best = 0
    for seat in range(game.seats()):
        legal = 0
        other = extra(seat) if extra else 0
        for g in range(_KINDS):
            if g < _LEGAL_KINDS:
                legal += game.stand(seat, g)
            else:
                other += game.stand(seat, g)
        if (not out or sc[seat] > best or sc[seat] == best and (legal > legal_best or legal == legal_best and other > other_best)):
            out.clear()
            best = sc[seat]
            legal_best = legal
            other_best = other
        if sc[seat] == best and legal == legal_best and other == other_best:
            out.append(seat)
    return out
