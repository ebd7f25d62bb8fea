"""Why a line or a log was refused, in a few words (the replay's ``detail`` and errors).

Apart from ``replay.py`` because only something wrong needs it: a clean log never loads it (every
string constant of an imported module is a heap object on MicroPython).
"""
import json

from shared_rules.actions import LIST, NAME, OBJ, U8, U16


# By ``replay._W_*`` number, "|" between them: one string constant, where a tuple of strings would
# hold each as a heap object (``tests/test_rules_literals.py`` checks the numbers).
_TEXTS = ("|not UTF-8 text|nested more than %d deep|not valid JSON|line longer than %d bytes"
          "|seat %d out of range 0..%d|%s:%d: header: %s|%s:%d: bad header: %s|%s:%d: no header line"
          "|%s:0: cannot open the file|%s:%d: cannot read the file|usage: micropython -m shared_rules.replay LOG\n")


def text(code):
    """The text numbered ``code``, its ``%`` places unfilled."""
    i = 0
    for _ in range(code):
        i = _TEXTS.index("|", i) + 1
    j = _TEXTS.find("|", i)
    return _TEXTS[i:j if j >= 0 else len(_TEXTS)]


def say(args):
    """The text for ``(number, *arguments)``, filled with as many arguments as it has ``%`` places;
    a refused line's number comes with (the longest line allowed, the nesting limit, the
    stripped line)."""
    code = args[0]
    if code == 2:
        args = (None, args[2])
    elif code == 3 and args[3][0] in b"[{" and args[3][-1] not in b"]}":
        return "truncated line (not valid JSON)"
    t = text(code)
    n = t.count("%")
    return t % tuple(args[1:1 + n]) if n else t


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _field_problem(f, obj):
    """Why field ``f`` of an action object is malformed, or None."""
    name, kind, table, optional, cap = f[0], f[1], f[2], f[3], f[4]
    if name not in obj:
        return None if optional else "missing field '%s'" % name
    v = obj[name]
    if kind == U8 or kind == U16:
        top = 254 if kind == U8 else 65535
        if not _is_int(v):
            return "field '%s' is not a whole number" % name
        if v < 0 or v > top:
            return "field '%s' out of range 0..%d" % (name, top)
    elif kind == NAME or kind == LIST:
        if kind == LIST:
            if not isinstance(v, list):
                return "field '%s' is not a list" % name
            if len(v) > cap:
                return "field '%s' has more than %d items" % (name, cap)
        for item in (v if kind == LIST else [v]):
            if table is None:
                if not _is_int(item) or item < 0 or item > 254:
                    return "field '%s' holds a value out of range 0..254" % name
            elif not isinstance(item, str):
                return "field '%s' is not a code" % name
            elif item not in table:
                return "field '%s': unknown code '%s'" % (name, item)
    elif kind == OBJ:
        if not isinstance(v, dict):
            return "field '%s' is not an object" % name
        for key in v:
            if key not in [sub[0] for sub in table]:
                return "unknown field '%s.%s'" % (name, key)
        for sub in table:
            why = _field_problem(sub, v)
            if why:
                return name + "." + why
    return None


def explain(game, obj):
    """What is wrong with an action object the vocabulary refused, in a few words."""
    if not isinstance(obj, dict):
        return "not a JSON object"
    vocab = game.VOCAB
    if "a" not in obj:
        return "no action name ('a')"
    k = vocab.kind(obj["a"])
    if k < 0:
        return "unknown action %s" % json.dumps(obj["a"])
    p = obj.get("p")
    if not isinstance(p, int) or isinstance(p, bool):
        return "seat ('p') missing or not a whole number"
    if p < 0 or p >= game.seats():
        return "seat %d out of range 0..%d" % (p, game.seats() - 1)
    fields = vocab.fields[k]
    names = [f[0] for f in fields]
    for key in obj:
        if key != "a" and key != "p" and key not in names:
            return "unknown field '%s' for %s" % (key, obj["a"])
    for f in fields:
        why = _field_problem(f, obj)
        if why:
            return why
    return None
