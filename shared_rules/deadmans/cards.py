"""Dead Man's Draw's cards: 10 suits x 6 values (Mermaid 4-9, the others 2-7), and the 17 traits.

The catalogue's Dead Man's Draw section (``shared_rules.catalogue.deadmans``: ``DMD_CODES``,
``DMD_TRAITS``) is this module. It lives outside the catalogue package so that the rules module,
and with it a replay, loads these tables without the package (its ``__init__`` is 0.6 KB of heap:
the DMD replay measured 16.3 -> 15.7 KB; docs/performance.md). A short module name: its qstrs
are interned in the middle of the replay's import (named ``deadmans_cards``, 16.3 KB again).

A card's code is its index in ``DMD_CODES``: suit by suit (anchor, cannon, chest, hook, key,
kraken, map, mermaid, oracle, sword), lowest value first, so code = suit * 6 + value - 2 (a
Mermaid: - 4). The rules module keeps suits, values and traits as literal ``const()``s, checked
against these names by ``tests/test_rules_literals.py``.

Each table is one string constant behind a small sequence class (``Names``): from ROMFS the text
stays in the image and the heap holds one string header, where a list of names held a pointer
per name and interned each short name (77 of them: they pushed the replay's names past the
140-name qstr pool step, a 1.8 KB block; ``python -m bench.heap_kinds``).
"""


class Names:
    """A read-only sequence of names kept as one string, each name between two spaces: indexed,
    sized, searched (``in``, ``index``) and iterated like a list of those names. Reading a name
    makes a small string; a name is never stored twice."""

    def __init__(self, names):
        self.names = names
        self.n = names.count(" ") - 1  # counted once: the accept path asks for the length

    def __len__(self):
        return self.n

    def __getitem__(self, n):
        t = self.names
        if n < 0:
            n += len(self)
        if not 0 <= n < len(self):
            raise IndexError(n)
        at = 0
        for _ in range(n):
            at = t.find(" ", at + 1)
        return t[at + 1:t.find(" ", at + 1)]

    def __contains__(self, name):
        return isinstance(name, str) and " " not in name and (" " + name + " ") in self.names

    def index(self, name):
        """The position of ``name`` (ValueError if it is none of these names)."""
        if name not in self:
            raise ValueError(name)
        return self.names.count(" ", 0, self.names.find(" " + name + " "))


DMD_CODES = Names(
    " anchor2 anchor3 anchor4 anchor5 anchor6 anchor7"
    " cannon2 cannon3 cannon4 cannon5 cannon6 cannon7"
    " chest2 chest3 chest4 chest5 chest6 chest7"
    " hook2 hook3 hook4 hook5 hook6 hook7"
    " key2 key3 key4 key5 key6 key7"
    " kraken2 kraken3 kraken4 kraken5 kraken6 kraken7"
    " map2 map3 map4 map5 map6 map7"
    " mermaid4 mermaid5 mermaid6 mermaid7 mermaid8 mermaid9"
    " oracle2 oracle3 oracle4 oracle5 oracle6 oracle7"
    " sword2 sword3 sword4 sword5 sword6 sword7 ")
DMD_TRAITS = Names(
    " beastmaster captains_hook casanova davy_jones fisherman golden_scales miser"
    " navigator master_gunner misfire mystic parry plunderer safe_harbor scavenger"
    " swordsman treasure_hunter ")
