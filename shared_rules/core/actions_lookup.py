"""Lookups on an action vocabulary by name and records decoded back to JSON: for the host, tests,
tools and the replay's explanations.

``actions.Vocabulary`` serves them as its attributes ``kind``, ``offset``, ``offsets`` and
``decode`` (``Vocabulary.__getattr__``), and loads this module the first time one is asked for:
a board that only accepts records never holds them, nor does a replay.
"""
from shared_rules.core.fields import LIST, NAME, OBJ, U16, U8, _size


def attribute(vocab, name):
    """``vocab.<name>`` for the names above; ``AttributeError`` for any other."""
    if name == "offsets":
        return tuple(tuple(field_offsets(fields, 2)[0]) for fields in vocab.fields)
    if name == "kind":
        return lambda action: kind(vocab, action)
    if name == "offset":
        return lambda action, fname: offset(vocab, action, fname)
    if name == "decode":
        return lambda rec, public=False: decode(vocab, rec, public)
    raise AttributeError(name)


def kind(vocab, name):
    """Index of an action name, or -1."""
    for i in range(len(vocab.names)):
        if vocab.names[i] == name:
            return i
    return -1


def offset(vocab, action, fname):
    """Offset of a field's value (after its presence byte, if optional)."""
    at = 2
    for f in vocab.fields[kind(vocab, action)]:
        if f[0] == fname:
            return at + (1 if f[3] else 0)
        at += _size(f)
    raise KeyError(fname)


def field_offsets(fields, start):
    """Each field's offset when the first is at ``start``, and the offset after the last."""
    offs = []
    at = start
    for f in fields:
        offs.append(at)
        at += _size(f)
    return offs, at


def decode(vocab, rec, public=False):
    """``vocab.decode(rec, public=False)``: the JSON action object of a record (hidden fields left out when ``public``, absent
    optional ones always). A nested object's fields are decoded after its parent's, from a
    list of pending (fields, offset, dict, public) entries, without a recursive helper."""
    obj = {"a": vocab.names[rec[0]], "p": rec[1]}
    todo = [(vocab.fields[rec[0]], 2, obj, public)]
    while todo:
        fields, at, out, pub = todo.pop()
        for f in fields:
            name, kind, table, optional, _, hidden = f
            end = at + _size(f)
            if optional:
                present = rec[at]
                at += 1
            else:
                present = True
            if present and not (pub and hidden):
                if kind == U8:
                    out[name] = rec[at]
                elif kind == U16:
                    out[name] = rec[at] | (rec[at + 1] << 8)
                elif kind == NAME:
                    out[name] = table[rec[at]]
                elif kind == LIST:
                    items = []
                    for i in range(at + 1, at + 1 + rec[at]):
                        items.append(rec[i] if table is None else table[rec[i]])
                    out[name] = items[0] if hidden == 2 and len(items) == 1 else items  # one name alone
                else:
                    out[name] = {}
                    todo.append((table, at, out[name], False))
            at = end
    return obj
