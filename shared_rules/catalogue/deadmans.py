"""Dead Man's Draw: 10 suits x 6 values (Mermaid 4-9, the others 2-7), and the 17 traits.

A card's code is its index in ``DMD_CODES``: suit by suit (anchor, cannon, chest, hook, key,
kraken, map, mermaid, oracle, sword), lowest value first, so code = suit * 6 + value - 2 (a
Mermaid: - 4). The rules module keeps suits, values and traits as literal ``const()``s, checked
against these names by ``tests/test_rules_literals.py``.

They are lists on purpose, never to be changed: a constant tuple's strings load as string
objects (32 B each on a 64-bit port), a list display's short strings (up to 10 characters) as
interned names, which from ROMFS cost a qstr pool entry (~11 B) and keep their text in the image;
and ``tuple([...])`` would hold the list and its copy at once (a mat's peak, measured).
The 77 names fit under the replay's 300-name pool doubling (``python -m bench.heap_kinds``).
"""

DMD_CODES = [
    "anchor2", "anchor3", "anchor4", "anchor5", "anchor6", "anchor7",
    "cannon2", "cannon3", "cannon4", "cannon5", "cannon6", "cannon7",
    "chest2", "chest3", "chest4", "chest5", "chest6", "chest7",
    "hook2", "hook3", "hook4", "hook5", "hook6", "hook7",
    "key2", "key3", "key4", "key5", "key6", "key7",
    "kraken2", "kraken3", "kraken4", "kraken5", "kraken6", "kraken7",
    "map2", "map3", "map4", "map5", "map6", "map7",
    "mermaid4", "mermaid5", "mermaid6", "mermaid7", "mermaid8", "mermaid9",
    "oracle2", "oracle3", "oracle4", "oracle5", "oracle6", "oracle7",
    "sword2", "sword3", "sword4", "sword5", "sword6", "sword7",
]
DMD_TRAITS = [
    "beastmaster", "captains_hook", "casanova", "davy_jones", "fisherman", "golden_scales", "miser",
    "navigator", "master_gunner", "misfire", "mystic", "parry", "plunderer", "safe_harbor", "scavenger",
    "swordsman", "treasure_hunter",
]
