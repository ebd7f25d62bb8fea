"""The Sheriff's actions in the shapes the log writes them (``spec/action-log.md``): ``setup``
piles as a list of two lists, a bribe's goods as lists of names of any length. Records hold two
plain lists, and the bribe's goods as counts per good (any length fits the record: no valid bribe
is refused for its size).

``rules.Vocabulary`` (every Sheriff game's, the modules' too) hands ``encode`` and ``decode`` to
this module, loaded the first time one is called: the host, tests and the replay use them; a
board accepting records never does.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules.core import actions

# The engine's codes, the rules' kinds and record layout (restated: tests/test_rules_literals.py).
_MALFORMED = const(1)
_UNKNOWN_CODE = const(2)
_KINDS = const(15)
_TALLY_MAX = const(254)  # a bribe's copies of one good, as counted in the record
_A_SETUP = const(0)
_A_DECLARE = const(3)
_A_PASS = const(4)
_F_BRIBE_STAND = const(7)
_F_BRIBE_BAG = const(24)


def _codes(vocab):
    """The goods' codes in card order (the rules' ``CODES``): the table of ``declare``'s ``good``,
    read from the vocabulary (the rules load this module; it does not import them)."""
    return vocab.fields[_A_DECLARE][0][2]


def encode(vocab, obj, rec):
    """``vocab.encode(obj, rec)``: the bribe's goods checked and counted into the record once the
    rest is encoded, the setup piles flattened; the rest is the base's encoding."""
    codes = _codes(vocab)
    bribe = None
    if isinstance(obj, dict) and obj.get("a") == "pass" and isinstance(obj.get("bribe"), dict):
        # The bribe's goods are checked here and counted straight into the record once the
        # rest is encoded: no per-bribe list of counts.
        bribe = obj["bribe"]
        rest = {}
        for key in bribe:
            if key != "stand" and key != "bag":
                rest[key] = bribe[key]
        for key in ("stand", "bag"):
            if key in bribe:
                names = bribe[key]
                if not isinstance(names, list):
                    return _MALFORMED
                for v in names:
                    if not isinstance(v, str):
                        return _MALFORMED
                    if v not in codes:
                        return _UNKNOWN_CODE
        obj = dict(obj)
        obj["bribe"] = rest
    if isinstance(obj, dict) and obj.get("a") == "setup":
        piles = obj.get("piles")
        if "pile1" in obj or "pile2" in obj or not isinstance(piles, list) or len(piles) != 2:
            return _MALFORMED
        flat = {}
        for key in obj:
            if key != "piles":
                flat[key] = obj[key]
        flat["pile1"] = piles[0]
        flat["pile2"] = piles[1]
        obj = flat
    err = actions.Vocabulary.encode(vocab, obj, rec)
    if bribe is not None and not err:
        for key in ("stand", "bag"):
            if key in bribe:
                at = _F_BRIBE_STAND if key == "stand" else _F_BRIBE_BAG
                rec[at] = 1   # present, one count per good
                rec[at + 1] = _KINDS
                for v in bribe[key]:
                    g = codes.index(v)
                    if rec[at + 2 + g] < _TALLY_MAX:   # more copies than any deck holds: the same to the rules
                        rec[at + 2 + g] += 1
    return err


def decode(vocab, rec, public=False):
    """``vocab.decode(rec, public=False)``: the base's decoding, then the log's shapes."""
    from shared_rules.core import actions_lookup   # the host's and tests': a replay only encodes
    obj = actions_lookup.decode(vocab, rec, public)
    if rec[0] == _A_SETUP:
        obj["piles"] = [obj.pop("pile1"), obj.pop("pile2")]
    bribe = obj.get("bribe") if rec[0] == _A_PASS else None
    if bribe:
        for key in ("stand", "bag"):
            if key in bribe:
                counts = bribe[key]
                bribe[key] = [_codes(vocab)[g] for g in range(_KINDS) for _ in range(counts[g])]
    return obj
