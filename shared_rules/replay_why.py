"""Why a line or a log was refused, in a few words (the replay's ``detail`` and errors).

Apart from ``replay.py`` because only something wrong needs it: a clean log never loads it (every
string constant of an imported module is a heap object on MicroPython).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
import json

from shared_rules.core import actions  # one global, not five: the module's names stay in one table size


# The texts, "|" between them: one string constant, where separate ones would each be a heap object
# once this module loads. Numbers 1-11 are ``replay._W_*`` (``tests/test_rules_literals.py`` checks
# them), the rest this module's own.
_TEXTS = const("|not UTF-8 text|nested more than %d deep|not valid JSON|line longer than %d bytes"
          "|seat %d out of range 0..%d|%s:%d: header: %s|%s:%d: bad header: %s|%s:%d: no header line"
          "|%s:0: cannot open the file|%s:%d: cannot read the file|usage: micropython -m shared_rules.replay LOG\n"
          "|truncated line (not valid JSON)|not a JSON object|no action name ('a')|unknown action %s"
          "|seat ('p') missing or not a whole number|unknown field '%s' for %s|missing field '%s'"
          "|field '%s' is not a whole number|field '%s' out of range 0..%d|field '%s' is not a list"
          "|field '%s' has more than %d items|field '%s' holds a value out of range 0..254"
          "|field '%s' is not a code|field '%s': unknown code '%s'|field '%s' is not an object"
          "|unknown field '%s.%s'")
_SEAT = const(5)
_TRUNCATED = const(12)
_NOT_OBJECT = const(13)
_NO_NAME = const(14)
_UNKNOWN_ACTION = const(15)
_NO_SEAT = const(16)
_UNKNOWN_FIELD = const(17)
_MISSING = const(18)
_NOT_INT = const(19)
_OUT_OF_RANGE = const(20)
_NOT_LIST = const(21)
_TOO_MANY = const(22)
_ITEM_RANGE = const(23)
_NOT_CODE = const(24)
_UNKNOWN_CODE = const(25)
_NOT_DICT = const(26)
_UNKNOWN_SUBFIELD = const(27)


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
        code = _TRUNCATED
    t = text(code)
    n = t.count("%")
    return t % tuple(args[1:1 + n]) if n else t


def _field_problem(f, obj):
    """Why field ``f`` of an action object is malformed, or None."""
    name, kind, table, optional, cap = f[0], f[1], f[2], f[3], f[4]
    if name not in obj:
        return None if optional else say((_MISSING, name))
    v = obj[name]
    if kind == actions.U8 or kind == actions.U16:
        top = 254 if kind == actions.U8 else 65535
        if not isinstance(v, int) or isinstance(v, bool):
            return say((_NOT_INT, name))
        if v < 0 or v > top:
            return say((_OUT_OF_RANGE, name, top))
    elif kind == actions.NAME or kind == actions.LIST:
        if kind == actions.LIST:
            if not isinstance(v, list):
                return say((_NOT_LIST, name))
            if len(v) > cap:
                return say((_TOO_MANY, name, cap))
        for item in (v if kind == actions.LIST else [v]):
            if table is None:
                if not isinstance(item, int) or isinstance(item, bool) or item < 0 or item > 254:
                    return say((_ITEM_RANGE, name))
            elif not isinstance(item, str):
                return say((_NOT_CODE, name))
            elif item not in table:
                return say((_UNKNOWN_CODE, name, item))
    elif kind == actions.OBJ:
        if not isinstance(v, dict):
            return say((_NOT_DICT, name))
        for key in v:
            for sub in table:
                if sub[0] == key:
                    break
            else:
                return say((_UNKNOWN_SUBFIELD, name, key))
        for sub in table:
            why = _field_problem(sub, v)
            if why:
                return name + "." + why
    return None


def explain(game, obj):
    """What is wrong with an action object the vocabulary refused, in a few words."""
    if not isinstance(obj, dict):
        return text(_NOT_OBJECT)
    vocab = game.VOCAB
    if "a" not in obj:
        return text(_NO_NAME)
    k = len(vocab.names) - 1
    while k >= 0 and vocab.names[k] != obj["a"]:
        k -= 1
    if k < 0:
        return say((_UNKNOWN_ACTION, json.dumps(obj["a"])))
    p = obj.get("p")
    if not isinstance(p, int) or isinstance(p, bool):
        return text(_NO_SEAT)
    if p < 0 or p >= game.seats():
        return say((_SEAT, p, game.seats() - 1))
    fields = vocab.fields[k]
    for key in obj:
        if key != "a" and key != "p":
            for f in fields:
                if f[0] == key:
                    break
            else:
                return say((_UNKNOWN_FIELD, key, obj["a"]))
    for f in fields:
        why = _field_problem(f, obj)
        if why:
            return why
    return None
