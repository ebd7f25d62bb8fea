"""Events in words, as players would say them: "Bob traded 4 cards, took 2 from pile 2".

``sentence(game, action, voice)`` phrases an accepted action from its public fields (what the
DELTA carried; hidden fields are masked on the board and never named here). ``outcome(game,
action, before, after)`` says what the move did that the action alone does not, read from the
public dicts before and after it (a Dead Man's Draw bust, gold changing hands at a Sheriff
inspection, a Skull disc lost) as a ``Said``: words not yet in a language, so the hub can keep
it with the event and every view says it in its players' language, with the names they have
now. An action or game this module does not know is still shown, as its fields.

A ``Voice`` is a language (``host.i18n``) and the players' names: ``voice.who(2)`` is "Bob", or
"seat 2" / "ghế 2" for a seat nobody named.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from host.i18n import N_, Nn_, say, say_n

Phrase = Callable[["Voice", int, dict[str, Any]], str]


@dataclass(frozen=True)
class Voice:
    """Who speaks to whom: the language and the players' names (seat -> name, "" for none)."""

    lang: str = "en"
    names: tuple[str, ...] = ()

    def tr(self, msgid: str, **values: Any) -> str:
        return say(self.lang, msgid, **values)

    def trn(self, singular: str, plural: str, n: int, **values: Any) -> str:
        return say_n(self.lang, singular, plural, n, **values)

    def who(self, seat: Any) -> str:
        """A seat as the players call it: its name, else "seat N"."""
        if isinstance(seat, int) and 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return self.tr("seat {n}", n=seat)

    def good(self, code: Any, n: int = 1) -> str:
        """``2 green apples``: a Sheriff good (or a Dead Man's Draw suit) counted."""
        forms = GOODS.get(str(code))
        if forms is None:
            return "%d %s" % (n, str(code).replace("_", " "))
        return self.trn(forms[0], forms[1], n)

    def good_name(self, code: Any) -> str:
        """A good, a suit or a trait by itself: "silk", "captain's hook"."""
        text = NAMES.get(str(code))
        return self.tr(text) if text else str(code).replace("_", " ")

    def goods(self, codes: list[str]) -> str:
        counts: dict[str, int] = {}
        for c in codes:
            counts[c] = counts.get(c, 0) + 1
        return ", ".join(self.good(g, n) for g, n in counts.items())


ENGLISH = Voice()

# Sheriff goods counted: singular and plural msgids (host/i18n/*.po).
GOODS: dict[str, tuple[str, str]] = {
    "apple": Nn_("{n} apple", "{n} apples"),
    "cheese": Nn_("{n} cheese", "{n} cheeses"),
    "bread": Nn_("{n} bread", "{n} breads"),
    "chicken": Nn_("{n} chicken", "{n} chickens"),
    "pepper": Nn_("{n} pepper", "{n} peppers"),
    "mead": Nn_("{n} mead", "{n} meads"),
    "silk": Nn_("{n} silk", "{n} silks"),
    "crossbow": Nn_("{n} crossbow", "{n} crossbows"),
    "green_apples": Nn_("{n} green apple", "{n} green apples"),
    "golden_apples": Nn_("{n} golden apple", "{n} golden apples"),
    "gouda": Nn_("{n} gouda cheese", "{n} gouda cheeses"),
    "bleu": Nn_("{n} bleu cheese", "{n} bleu cheeses"),
    "rye": Nn_("{n} rye bread", "{n} rye breads"),
    "pumpernickel": Nn_("{n} pumpernickel bread", "{n} pumpernickel breads"),
    "royal_rooster": Nn_("{n} royal rooster", "{n} royal roosters"),
}
# A good, suit or trait named alone.
NAMES: dict[str, str] = {
    "apple": N_("apples"), "cheese": N_("cheese"), "bread": N_("bread"), "chicken": N_("chicken"), "pepper": N_("pepper"),
    "mead": N_("mead"), "silk": N_("silk"), "crossbow": N_("crossbows"), "green_apples": N_("green apples"),
    "golden_apples": N_("golden apples"), "gouda": N_("gouda cheese"), "bleu": N_("bleu cheese"), "rye": N_("rye bread"),
    "pumpernickel": N_("pumpernickel bread"), "royal_rooster": N_("royal rooster"),
    "anchor": N_("anchor"), "cannon": N_("cannon"), "chest": N_("chest"), "hook": N_("hook"), "key": N_("key"),
    "kraken": N_("kraken"), "map": N_("map"), "mermaid": N_("mermaid"), "oracle": N_("oracle"), "sword": N_("sword"),
    "beastmaster": N_("Beastmaster"), "captains_hook": N_("Captain's Hook"), "casanova": N_("Casanova"),
    "davy_jones": N_("Davy Jones"), "fisherman": N_("Fisherman"), "golden_scales": N_("Golden Scales"), "miser": N_("Miser"),
    "navigator": N_("Navigator"), "master_gunner": N_("Master Gunner"), "misfire": N_("Misfire"), "mystic": N_("Mystic"),
    "parry": N_("Parry"), "plunderer": N_("Plunderer"), "safe_harbor": N_("Safe Harbor"), "scavenger": N_("Scavenger"),
    "swordsman": N_("Swordsman"), "treasure_hunter": N_("Treasure Hunter"),
}


def card(v: Voice, code: Any) -> str:
    """A Dead Man's Draw card: ``kraken 5`` / ``thủy quái 5``."""
    text = str(code)
    suit = text.rstrip("0123456789")
    return ("%s %s" % (v.good_name(suit), text[len(suit):])).strip() if suit in NAMES else text


def _market(v: Voice, p: int, a: dict[str, Any]) -> str:
    discard, take = a.get("discard") or [], a.get("take") or []
    if not discard and not take:
        return v.tr("{who} kept their hand (no trade)", who=v.who(p))
    parts = [v.trn("{who} traded {n} card", "{who} traded {n} cards", len(discard), who=v.who(p))]
    if take:
        piles = sorted(set(take))
        parts.append(v.tr("took {what}", what=v.tr(" and ").join(
            v.tr("{n} from pile {pile}", n=take.count(w), pile=w) for w in piles)))
    drawn = len(discard) - len(take)
    if drawn > 0:
        parts.append(v.tr("drew {n}", n=drawn))
    if discard and a.get("to"):
        parts.append(v.tr("discarded onto pile {pile}", pile=a["to"]))
    return ", ".join(parts)


def _bribe(v: Voice, bribe: dict[str, Any] | None) -> str:
    if not bribe:
        return ""
    parts = []
    if bribe.get("gold"):
        parts.append(v.tr("{n} gold", n=bribe["gold"]))
    if bribe.get("stand"):
        parts.append(v.tr("{goods} from the stand", goods=v.goods(bribe["stand"])))
    if bribe.get("bag"):
        parts.append(v.tr("{goods} from the bag", goods=v.goods(bribe["bag"])))
    return v.tr(" for a bribe of {what}", what=v.tr(" and ").join(parts)) if parts else ""


def _numbers(v: Voice, numbers: list[int]) -> str:
    return v.tr(" and ").join("#%d" % n for n in numbers)


def _pass(v: Voice, p: int, a: dict[str, Any]) -> str:
    target = a.get("target", -1)
    text = v.tr("Sheriff {who} lets {target} pass", who=v.who(p), target=v.who(target)) + _bribe(v, a.get("bribe"))
    if a.get("orders"):
        text += "; " + v.trn("{who} fills special order {orders}", "{who} fills special orders {orders}",
                             len(a["orders"]), who=v.who(target), orders=_numbers(v, a["orders"]))
    give = [(i, g) for i, g in enumerate(a.get("give") or []) if g]
    if give:
        text += "; " + v.tr("the stolen gold shared: {shares}",
                            shares=", ".join("%s %d" % (v.who(i), g) for i, g in give))
    return text


def _law(v: Voice, p: int, a: dict[str, Any]) -> str:
    keep = a.get("keep") or []
    return v.trn("Sheriff {who} puts law {laws} in force, law #{bottom} to the bottom",
                 "Sheriff {who} puts laws {laws} in force, law #{bottom} to the bottom",
                 len(keep), who=v.who(p), laws=_numbers(v, keep), bottom=a.get("bottom", -1))


def _inspect(v: Voice, p: int, a: dict[str, Any]) -> str:
    text = v.tr("Sheriff {who} opens {target}'s bag", who=v.who(p), target=v.who(a.get("target", -1)))
    if a.get("pay_with"):
        text += ", " + v.tr("debt paid with {goods}", goods=v.goods(a["pay_with"]))
    return text


SHERIFF: dict[str, Phrase] = {
    "setup": lambda v, p, a: v.tr("{who} turned up the two discard piles", who=v.who(p)),
    "market": _market,
    "load": lambda v, p, a: v.tr("{who} loaded and closed their bag", who=v.who(p)),
    "declare": lambda v, p, a: v.tr("{who} declares {goods}", who=v.who(p),
                                    goods=v.good(a.get("good"), int(a.get("count", 0)))),
    "pass": _pass,
    "inspect": _inspect,
    # the Merry Men expansion
    "deputy": lambda v, p, a: v.tr("{who} is revealed as a deputy", who=v.who(p)),
    "loot": lambda v, p, a: v.tr("the deputies split the loot chest's remainder") if a.get("split") == "agreed"
    else v.tr("the deputies discard the loot chest's remainder"),
    "claim": lambda v, p, a: v.tr("{who} claims a Black Market {good} card", who=v.who(p),
                                  good=v.good_name(a.get("good"))),
    "law": _law,
    "order_up": lambda v, p, a: v.tr("special order #{n} is turned face up", n=a.get("order", -1)),
    # which Merry Men were drawn, kept and bottomed is hidden: the public record has none of it
    "merry": lambda v, p, a: v.tr("{who} draws two Merry Men and keeps one", who=v.who(p)),
}
SKULL: dict[str, Phrase] = {
    "place": lambda v, p, a: v.tr("{who} places a disc", who=v.who(p)),
    "bid": lambda v, p, a: v.tr("{who} bids {n}", who=v.who(p), n=a.get("n", 0)),
    "pass": lambda v, p, a: v.tr("{who} passes", who=v.who(p)),
    "flip": lambda v, p, a: (v.tr("{who} flips a disc of {target}: {disc}", who=v.who(p), target=v.who(a.get("target", -1)),
                                  disc=v.tr("skull") if a["disc"] == "skull" else v.tr("flower"))
                             if a.get("disc") else
                             v.tr("{who} flips a disc of {target}", who=v.who(p), target=v.who(a.get("target", -1)))),
    "lose": lambda v, p, a: v.tr("{who} loses a disc", who=v.who(p)),
    "first": lambda v, p, a: v.tr("{who} chooses {target} to start", who=v.who(p), target=v.who(a.get("target", -1))),
}
DEADMANS: dict[str, Phrase] = {
    "trait": lambda v, p, a: (v.tr("{who} takes the trait {trait} on {target}", who=v.who(p),
                                   trait=v.good_name(a.get("trait")), target=v.who(a["target"]))
                              if a.get("target") is not None else
                              v.tr("{who} takes the trait {trait}", who=v.who(p), trait=v.good_name(a.get("trait")))),
    "draw": lambda v, p, a: v.tr("{who} draws {card}", who=v.who(p), card=card(v, a.get("card"))),
    "collect": lambda v, p, a: v.tr("{who} stops and banks the play area", who=v.who(p)),
    "hook": lambda v, p, a: v.tr("{who} hooks {card} from their bank", who=v.who(p), card=card(v, a.get("card"))),
    "cannon": lambda v, p, a: v.tr("{who} fires the cannon at {target}'s {card}", who=v.who(p),
                                   target=v.who(a.get("target", -1)), card=card(v, a.get("card"))),
    "sword": lambda v, p, a: v.tr("{who} steals {card} from {target}", who=v.who(p), card=card(v, a.get("card")),
                                  target=v.who(a.get("target", -1))),
    "map": lambda v, p, a: v.tr("{who} picks {card} from the discard pile", who=v.who(p), card=card(v, a.get("pick"))),
    "oracle": lambda v, p, a: v.tr("{who} peeks at the next card", who=v.who(p)),
    "bonus": lambda v, p, a: v.tr("{who} takes bonus cards {cards}", who=v.who(p),
                                  cards=", ".join(card(v, c) for c in a.get("cards") or []) or v.tr("none")),
}
INTO_PLAY = ("draw", "hook", "sword", "map")  # Dead Man's Draw actions that add a card to the play row
GAMES = {"sheriff": SHERIFF, "skull": SKULL, "deadmans": DEADMANS}


def fields_text(action: dict[str, Any], v: Voice = ENGLISH) -> str:
    """``seat 2: bonus cards=map4,anchor2``: an action nobody phrased yet, field by field."""
    def show(x: Any) -> str:
        if isinstance(x, dict):
            return "{%s}" % " ".join("%s=%s" % (k, show(y)) for k, y in x.items())
        if isinstance(x, list):
            return ",".join(show(y) for y in x) or "none"
        return str(x)
    fields = " ".join("%s=%s" % (k, show(x)) for k, x in action.items() if k not in ("a", "p"))
    return ("%s: %s %s" % (v.who(action.get("p")), action.get("a"), fields)).rstrip()


def sentence(game: str, action: dict[str, Any] | None, v: Voice = ENGLISH) -> str:
    if not action:
        return v.tr("an action")
    phrase = GAMES.get(game, {}).get(str(action.get("a")))
    if phrase is None:
        return fields_text(action, v)
    return phrase(v, int(action.get("p", -1)), action)


# -- outcomes -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Said:
    """Words kept for later: a msgid (and its plural), the count, and values; a value under a key
    starting with ``seat`` is a seat, said by its name when shown."""

    msgid: str
    values: dict[str, Any] = field(default_factory=dict)
    plural: str = ""
    n: int = 0
    bust: bool = False   # shown louder (a Dead Man's Draw bust)

    def text(self, v: Voice = ENGLISH) -> str:
        values = {k: v.who(x) if k.startswith("seat") else x for k, x in self.values.items()}
        if self.plural:
            return v.trn(self.msgid, self.plural, self.n, **values)
        return v.tr(self.msgid, **values)


@dataclass(frozen=True)
class Outcome:
    """One or more ``Said`` parts, joined as the players read them."""

    parts: tuple[Said, ...]
    lead: str = ""   # a msgid said before the parts ("gold: ")

    @property
    def bust(self) -> bool:
        return any(p.bust for p in self.parts)

    def text(self, v: Voice = ENGLISH) -> str:
        body = ("; " if not self.lead else ", ").join(p.text(v) for p in self.parts)
        return (v.tr(self.lead) + body) if self.lead else body


def _said(msgid: str, **values: Any) -> Outcome:
    return Outcome((Said(msgid, values),))


def outcome(game: str, action: dict[str, Any] | None, before: dict[str, Any] | None,
            after: dict[str, Any] | None) -> Outcome | None:
    """What an accepted move did beyond itself (None if nothing worth saying)."""
    if not action or before is None or after is None:
        return None
    a, p = action.get("a"), action.get("p", -1)
    seats_b, seats_a = before.get("seats") or [], after.get("seats") or []
    if len(seats_b) != len(seats_a):
        return None
    if game == "deadmans" and a in ("draw", "cannon", "sword", "hook", "map", "bonus"):
        lost = len(before.get("play") or []) + (1 if a in INTO_PLAY else 0)
        if not after.get("play") and lost and after.get("turn") != before.get("turn") and \
                len(seats_a[p]["bank"]) <= len(seats_b[p]["bank"]):
            forms = Nn_("BUST: {seat} loses the {n} card in play", "BUST: {seat} loses the {n} cards in play")
            return Outcome((Said(forms[0], {"seat": p}, forms[1], lost, bust=True),))
    if game == "deadmans" and a == "collect":
        gained = len(seats_a[p]["bank"]) - len(seats_b[p]["bank"])
        forms = Nn_("{seat} banks {n} card", "{seat} banks {n} cards")
        return Outcome((Said(forms[0], {"seat": p}, forms[1], gained),)) if gained > 0 else None
    if game == "sheriff" and a == "pass" and (action.get("give") or seats_a[p].get("merry_men") is not None):
        change = [(i, seats_a[i]["gold"] - seats_b[i]["gold"]) for i in range(len(seats_a))]
        moved = tuple(Said(N_("the Sheriff {change:+d}"), {"change": n}) if i == p else
                      Said(N_("{seat} {change:+d}"), {"seat": i, "change": n}) for i, n in change if n)
        return Outcome(moved, lead=N_("gold: ")) if moved else None
    if game == "sheriff" and a == "inspect":
        paid = [(i, seats_b[i]["gold"] - seats_a[i]["gold"]) for i in range(len(seats_a))]
        payers = tuple(Said(N_("the Sheriff pays {gold} gold"), {"gold": n}) if i == p else
                       Said(N_("{seat} pays {gold} gold"), {"seat": i, "gold": n}) for i, n in paid if n > 0)
        return Outcome(payers) if payers else None
    if game == "skull" and a == "flip":
        out = [i for i in range(len(seats_a)) if seats_a[i]["eliminated"] and not seats_b[i]["eliminated"]]
        if out:
            return _said(N_("{seat} is out of the game"), seat=out[0])
    return None
