"""Lookups on an action vocabulary by name, for tests, tools and the replay's explanations.

``actions.Vocabulary`` serves them as its attributes ``kind``, ``offset`` and ``offsets``
(``Vocabulary.__getattr__``), and loads this module the first time one is asked for: a board
that only accepts records never holds them.
"""
from shared_rules.actions import _offsets, _size


def attribute(vocab, name):
    """``vocab.<name>`` for the names above; ``AttributeError`` for any other."""
    if name == "offsets":
        return tuple(tuple(_offsets(fields, 2)[0]) for fields in vocab.fields)
    if name == "kind":
        return lambda action: kind(vocab, action)
    if name == "offset":
        return lambda action, fname: offset(vocab, action, fname)
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
