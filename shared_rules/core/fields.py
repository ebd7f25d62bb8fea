"""Action fields: their kinds and sizes in a record (``actions`` builds vocabularies of them,
``actions_lookup`` reads records by them; kept apart so neither imports the other for them).

Field kinds:

* ``U8``/``U16``: an integer (U16 little-endian); optional fields get a presence byte first.
* ``NAME``: a string looked up in a tuple of names; stored as its index.
* ``LIST``: a list of names (or of small ints when the table is ``None``): count byte + capacity.
* ``OBJ``: a nested object with its own fields (Sheriff's bribe), stored inline.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

U8 = const(0)
U16 = const(1)
NAME = const(2)
LIST = const(3)
OBJ = const(4)


def field(name, kind, table=None, optional=False, cap=1, hidden=False):
    """Describe one action field (``table``: names for NAME/LIST, sub-fields for OBJ; ``hidden``
    true: masked from the public, 2: masked, and a LIST may be written as its one name alone, as
    the contract writes Dead Man's Draw's one-card Oracle peek)."""
    return (name, kind, table, optional, cap, hidden)


def _size(f):
    """Bytes a field takes in a record, its presence byte included."""
    kind = f[1]
    if kind == U8 or kind == NAME:
        n = 1
    elif kind == U16:
        n = 2
    elif kind == LIST:
        n = 1 + f[4]
    else:
        n = 0
        for sub in f[2]:
            n += _size(sub)
    return n + (1 if f[3] else 0)
