"""The deck profile's card sections: ``laws`` (24), ``special_orders`` (15), ``merry_men`` (18).

``profile`` calls in here for these sections (check, binary sections, decoding) and the modules
read their tables from here. A law or a Merry Man is a name, its data and a list of effect
primitives (``effects``), or ``"unsupported": "why"`` when the primitives cannot express
the printed card: the module is then refused (``refusal``) instead of played wrongly. Schema and
examples: ``docs/rules-merry-men.md`` ("Deck profile"). Header parsing only, never the accept path.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules.sheriff.modules import profile_effects as pe
from shared_rules.catalogue import SHERIFF_CODES as CODES, SHERIFF_KIND, LEGAL

SECTIONS = ("laws", "special_orders", "merry_men")
COUNTS = (24, 15, 18)
MARKS = ("", "4+", "5")      # a law's player-count mark (removed at 3 players / at 5 players)
_NAME_MAX = const(24)
_WHY_MAX = const(120)
_S_LAW = const(2)                   # binary section tags (profile's tag 1 is the Black Market)
_S_ORDERS = const(3)
_S_MERRY = const(4)
_UNSUPPORTED = const(128)           # flag in a card's first binary byte
_LAWS_BIT = const(4)                # module bits of SECTIONS' modules (in its order)
_ORDERS_BIT = const(8)
_MERRY_BIT = const(16)
# Game tables: one fixed-width row per card.
LAW_ROW = 17                 # mark, then 4 primitives of 4 bytes (zero padded)
MERRY_ROW = 18               # value, penalty, then 4 primitives of 4 bytes
ORDER_ROW = 3                 # legal good, contraband good, reward


def _bad(where, field, why):
    raise ValueError("%s: %s: %s" % (where, field, why))


def _whole(v, lo, hi):
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _card_name(card, where, at):
    name = card.get("name")
    if not isinstance(name, str) or not 0 < len(name) <= _NAME_MAX:
        _bad(where, at + ".name", "a text of 1 to %d characters" % _NAME_MAX)
    return "%s (%s)" % (at, name)


def _effects_or_why(card, keys, ops, where, at):
    """A card's ``effects`` (checked), or its ``unsupported`` reason; exactly one of them."""
    for key in card:
        if key not in keys + ("name", "effects", "unsupported"):
            _bad(where, "%s.%s" % (at, key), "unknown field")
    if ("effects" in card) == ("unsupported" in card):
        _bad(where, at, 'either "effects" (primitives) or "unsupported" (why the primitives cannot express it)')
    why = card.get("unsupported")
    if why is not None:
        if not isinstance(why, str) or not 0 < len(why) <= _WHY_MAX:
            _bad(where, at + ".unsupported", "a text of 1 to %d characters" % _WHY_MAX)
        return None
    try:
        return pe.encode(card["effects"], ops, at)
    except ValueError as e:
        raise ValueError("%s: %s" % (where, e))


def _list(obj, i, where):
    cards = obj[SECTIONS[i]]
    if not isinstance(cards, list) or len(cards) != COUNTS[i]:
        _bad(where, SECTIONS[i], "a list of exactly %d cards" % COUNTS[i])
    for j in range(len(cards)):
        if not isinstance(cards[j], dict):
            _bad(where, "%s[%d]" % (SECTIONS[i], j), "a card is an object")
    return cards


def check(obj, where):
    """Check whichever card sections ``obj`` holds (``ValueError`` "where: card: field: why")."""
    if "laws" in obj:
        fives = 0
        cards = _list(obj, 0, where)
        for j in range(len(cards)):
            at = _card_name(cards[j], where, "laws[%d]" % j)
            mark = cards[j].get("mark", "")
            if mark not in MARKS:
                _bad(where, at + ".mark", 'absent, "4+" (removed at 3 players) or "5" (removed at 5 players)')
            fives += mark == "5"
            _effects_or_why(cards[j], ("mark",), pe.LAW_OPS, where, at)
        if fives != 1:
            _bad(where, "laws", 'exactly one card is marked "5" (the Sheriff\'s own law)')
    if "special_orders" in obj:
        cards = _list(obj, 1, where)
        for j in range(len(cards)):
            c = cards[j]
            at = "special_orders[%d]" % j
            for key in c:
                if key not in ("legal", "contraband", "reward"):
                    _bad(where, "%s.%s" % (at, key), "unknown field")
            if c.get("legal") not in CODES or SHERIFF_KIND[CODES.index(c["legal"])] != LEGAL:
                _bad(where, at + ".legal", "a legal good (apple, cheese, bread, chicken)")
            if c.get("contraband") not in CODES or SHERIFF_KIND[CODES.index(c["contraband"])] == LEGAL:
                _bad(where, at + ".contraband", "a contraband good (pepper, mead, silk, crossbow or a royal good)")
            if not _whole(c.get("reward"), 0, 255):
                _bad(where, at + ".reward", "a whole number from 0 to 255")
    if "merry_men" in obj:
        cards = _list(obj, 2, where)
        for j in range(len(cards)):
            at = _card_name(cards[j], where, "merry_men[%d]" % j)
            for key in ("value", "penalty"):
                if not _whole(cards[j].get(key), 0, 50):
                    _bad(where, "%s.%s" % (at, key), "a whole number from 0 to 50")
            _effects_or_why(cards[j], ("value", "penalty"), pe.MERRY_OPS, where, at)


_TAGS = (_S_LAW, _S_ORDERS, _S_MERRY)   # per SECTIONS


def refusal(stored, section):
    """Why a module cannot be played with this profile (``profile.Stored`` or None; None if it
    can): the section is missing or incomplete, or a card says the primitives cannot express it."""
    i = SECTIONS.index(section)
    data = stored.sections(_TAGS[i]) if stored is not None else []
    if not data:
        return "%s needs its cards in the deck profile: a header 'profile' with '%s'" % (section, section)
    count = len(data[0]) // ORDER_ROW if section == "special_orders" else len(data)
    if count != COUNTS[i] or section == "special_orders" and len(data) != 1:
        return "%s: %s holds %d cards, the deck has %d" % (stored.where, section, count, COUNTS[i])
    if section == "special_orders":
        rows = data[0]
        for j in range(0, len(rows), ORDER_ROW):
            if rows[j] >= len(CODES) or SHERIFF_KIND[rows[j]] != LEGAL or rows[j + 1] >= len(CODES) or SHERIFF_KIND[rows[j + 1]] == LEGAL:
                return "%s: special_orders[%d]: damaged (goods)" % (stored.where, j // ORDER_ROW)
        return None
    for j in range(count):
        if data[j][0] & _UNSUPPORTED:
            c = _card(_TAGS[i], data[j])
            return "%s: card %d (%s) cannot be expressed with the effect primitives (%s): the referee will not guess its rules" % (
                section, j, c["name"], c["unsupported"])
    return None


def tables(stored, mods):
    """The three card tables of a game with module bits ``mods`` (laws 4, special orders 8, Merry
    Men 16; empty for a module that is off): special orders, Merry Men, laws. ``ValueError`` saying
    why a module cannot be played (its cards missing from the profile, or a card the primitives
    cannot express)."""
    for i in range(len(SECTIONS)):
        if mods & (_LAWS_BIT << i):
            why = refusal(stored, SECTIONS[i])
            if why:
                raise ValueError(why)
    return (table(stored, "special_orders") if mods & _ORDERS_BIT else b"",
            table(stored, "merry_men") if mods & _MERRY_BIT else b"",
            table(stored, "laws") if mods & _LAWS_BIT else b"")


def table(stored, section):
    """The game table of a section ``refusal`` accepted, read card by card from the binary form:
    laws 24 rows (mark 0, 1 = "4+", 2 = "5"; primitives zero padded), Merry Men 18 rows (value,
    penalty, primitives), special orders 15 rows (legal good code, contraband good code, reward).
    The primitives are checked again (``ValueError`` naming the file and card)."""
    i = SECTIONS.index(section)
    data = stored.sections(_TAGS[i])
    if section == "special_orders":
        return bytes(data[0])
    out = bytearray()
    for j in range(len(data)):
        at = "%s: %s[%d]" % (stored.where, section, j)
        try:
            c = _card(_TAGS[i], data[j])
            at += " (%s)" % c["name"]
            if section == "laws":
                out.append(MARKS.index(c.get("mark", "")))
                _pad(out, pe.encode(c["effects"], pe.LAW_OPS, at), LAW_ROW)
            else:
                out.append(c["value"])
                out.append(c["penalty"])
                _pad(out, pe.encode(c["effects"], pe.MERRY_OPS, at), MERRY_ROW)
        except (IndexError, KeyError, UnicodeError):
            raise ValueError(at + ": damaged")
    return bytes(out)


def order_table(obj):
    """15 rows from the JSON form: legal good code, contraband good code, reward."""
    return bytes([v for c in obj["special_orders"]
                  for v in (CODES.index(c["legal"]), CODES.index(c["contraband"]), c["reward"])])


def _pad(out, data, row):
    out.extend(data)
    while len(out) % row:
        out.append(0)


# -- binary form -----------------------------------------------------------------------------
def sections(obj, out):
    """Append the card sections' binary form to ``out``: one section per law or Merry Man (tag,
    length, flags|mark, name, then the primitives or the reason), one for all orders."""
    for tag, key in ((_S_LAW, "laws"), (_S_MERRY, "merry_men")):
        for c in obj.get(key, ()):
            data = bytearray()
            first = MARKS.index(c.get("mark", "")) if key == "laws" else 0
            if "unsupported" in c:
                first |= _UNSUPPORTED
            data.append(first)
            if key == "merry_men":
                data.extend(bytes((c["value"], c["penalty"])))
            name = c["name"].encode()
            data.append(len(name))
            data.extend(name)
            if "unsupported" in c:
                data.extend(c["unsupported"].encode())
            else:
                data.extend(pe.encode(c["effects"], pe.LAW_OPS if key == "laws" else pe.MERRY_OPS, key))
            out.extend(bytes((tag, len(data))))
            out.extend(data)
    if "special_orders" in obj:
        data = order_table(obj)
        out.extend(bytes((_S_ORDERS, len(data))))
        out.extend(data)


def decode_section(tag, data, obj):
    """Add one binary section to ``obj``; False if the tag is not a card section."""
    if tag == _S_ORDERS:
        obj["special_orders"] = [{"legal": CODES[data[i]], "contraband": CODES[data[i + 1]], "reward": data[i + 2]}
                                 for i in range(0, len(data), ORDER_ROW)]
        return True
    if tag != _S_LAW and tag != _S_MERRY:
        return False
    key = "laws" if tag == _S_LAW else "merry_men"
    if key not in obj:
        obj[key] = []
    obj[key].append(_card(tag, data))
    return True


def _card(tag, data):
    """One law or Merry Man section as the profile's JSON object."""
    first = data[0]
    at = 1
    card = {}
    if tag == _S_MERRY:
        card["value"] = data[1]
        card["penalty"] = data[2]
        at = 3
    elif first & 3:
        card["mark"] = MARKS[first & 3]
    n = data[at]
    card["name"] = bytes(data[at + 1:at + 1 + n]).decode()
    rest = data[at + 1 + n:]
    if first & _UNSUPPORTED:
        card["unsupported"] = bytes(rest).decode()
    else:
        card["effects"] = pe.decode(rest)
    return card
