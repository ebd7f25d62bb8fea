"""Events in words, as players would say them: "seat 1 traded 4 cards, took 2 from pile 2".

``sentence(action)`` phrases an accepted action from its public fields (what the DELTA carried;
hidden fields are masked on the board and never named here). ``outcome(action, before, after)``
adds what the move did that the action alone does not say, read from the public dicts before and
after it: a Dead Man's Draw bust, gold changing hands at a Sheriff inspection, a Skull disc
lost. An action or game this module does not know is still shown, as its fields.
"""
from __future__ import annotations

from typing import Any, Callable

Phrase = Callable[[int, dict[str, Any]], str]


def _n(count: int, thing: str) -> str:
    return "%d %s%s" % (count, thing, "" if count == 1 else "s")


# Sheriff goods said without a plural ("3 cheese"); a royal good is counted by its card's name.
_UNCOUNTED = ("cheese", "bread", "mead", "silk")


def goods(count: int, code: str) -> str:
    """Sheriff goods cards as players count them: ``1 apple``, ``3 apples``, ``2 cheese``, and a
    royal good by its card, ``1 Green Apples card``, ``2 Gouda cards`` (never "1 green apples")."""
    name = code.replace("_", " ")
    if _royal(code):
        return "%d %s card%s" % (count, name.title(), "" if count == 1 else "s")
    if count == 1 or code in _UNCOUNTED:
        return "%d %s" % (count, name)
    return "%d %ss" % (count, name)


def _royal(code: str) -> bool:
    from shared_rules.catalogue.sheriff import ROYAL, SHERIFF_CODES, SHERIFF_KIND
    return code in SHERIFF_CODES and SHERIFF_KIND[SHERIFF_CODES.index(code)] == ROYAL


def _goods(codes: list[str]) -> str:
    counts: dict[str, int] = {}
    for c in codes:
        counts[c] = counts.get(c, 0) + 1
    return ", ".join(goods(n, g) for g, n in counts.items())


def _market(p: int, a: dict[str, Any]) -> str:
    discard, take = a.get("discard") or [], a.get("take") or []
    if not discard and not take:
        return "seat %d kept their hand (no trade)" % p
    parts = ["seat %d traded %s" % (p, _n(len(discard), "card"))]
    piles = sorted(set(take))
    if take:
        parts.append("took " + " and ".join("%d from pile %d" % (take.count(w), w) for w in piles))
    drawn = len(discard) - len(take)
    if drawn > 0:
        parts.append("drew %d" % drawn)
    if discard and a.get("to"):
        parts.append("discarded onto pile %d" % a["to"])
    return ", ".join(parts)


def _bribe(bribe: dict[str, Any] | None) -> str:
    if not bribe:
        return ""
    parts = []
    if bribe.get("gold"):
        parts.append("%d gold" % bribe["gold"])
    if bribe.get("stand"):
        parts.append(_goods(bribe["stand"]) + " from the stand")
    if bribe.get("bag"):
        parts.append(_goods(bribe["bag"]) + " from the bag")
    return " for a bribe of " + " and ".join(parts) if parts else ""


def _pass(p: int, a: dict[str, Any]) -> str:
    text = "Sheriff (seat %d) lets seat %d pass%s" % (p, a.get("target", -1), _bribe(a.get("bribe")))
    if a.get("orders"):
        text += "; seat %d fills special order%s %s" % (
            a.get("target", -1), "s" if len(a["orders"]) > 1 else "", " and ".join("#%d" % o for o in a["orders"]))
    give = [(i, g) for i, g in enumerate(a.get("give") or []) if g]
    if give:
        text += "; the stolen gold shared: " + ", ".join("seat %d %d" % (i, g) for i, g in give)
    return text


def _law(p: int, a: dict[str, Any]) -> str:
    keep = a.get("keep") or []
    return "Sheriff (seat %d) puts law%s %s in force, law #%d to the bottom" % (
        p, "s" if len(keep) > 1 else "", " and ".join("#%d" % n for n in keep), a.get("bottom", -1))


SHERIFF: dict[str, Phrase] = {
    "setup": lambda p, a: "seat %d turned up the two discard piles" % p,
    "market": _market,
    "load": lambda p, a: "seat %d loaded and closed their bag" % p,
    "declare": lambda p, a: "seat %d declares %s" % (p, goods(int(a.get("count", 0)), str(a.get("good")))),
    "pass": _pass,
    "inspect": lambda p, a: "Sheriff (seat %d) opens seat %d's bag%s" % (
        p, a.get("target", -1), ", debt paid with " + _goods(a["pay_with"]) if a.get("pay_with") else ""),
    # the Merry Men expansion
    "deputy": lambda p, a: "seat %d is revealed as a deputy" % p,
    "loot": lambda p, a: "the deputies %s the loot chest's remainder" % (
        "split" if a.get("split") == "agreed" else "discard"),
    "claim": lambda p, a: "seat %d claims a Black Market %s card" % (p, str(a.get("good")).replace("_", " ")),
    "law": _law,
    "order_up": lambda p, a: "special order #%d is turned face up" % a.get("order", -1),
    # which Merry Men were drawn, kept and bottomed is hidden: the public record has none of it
    "merry": lambda p, a: "seat %d draws two Merry Men and keeps one" % p,
}
SKULL: dict[str, Phrase] = {
    "place": lambda p, a: "seat %d places a disc" % p,
    "bid": lambda p, a: "seat %d bids %d" % (p, a.get("n", 0)),
    "pass": lambda p, a: "seat %d passes" % p,
    "flip": lambda p, a: "seat %d flips a disc of seat %d%s" % (
        p, a.get("target", -1), ": " + a["disc"] if a.get("disc") else ""),
    "lose": lambda p, a: "seat %d loses a disc" % p,
    "first": lambda p, a: "seat %d chooses seat %d to start" % (p, a.get("target", -1)),
}
DEADMANS: dict[str, Phrase] = {
    "trait": lambda p, a: "seat %d takes the trait %s%s" % (
        p, str(a.get("trait")).replace("_", " "), " on seat %d" % a["target"] if a.get("target") is not None else ""),
    "draw": lambda p, a: "seat %d draws %s" % (p, a.get("card")),
    "collect": lambda p, a: "seat %d stops and banks the play area" % p,
    "hook": lambda p, a: "seat %d hooks %s from their bank" % (p, a.get("card")),
    "cannon": lambda p, a: "seat %d fires the cannon at seat %d's %s" % (p, a.get("target", -1), a.get("card")),
    "sword": lambda p, a: "seat %d steals %s from seat %d" % (p, a.get("card"), a.get("target", -1)),
    "map": lambda p, a: "seat %d picks %s from the discard pile" % (p, a.get("pick")),
    "oracle": lambda p, a: "seat %d peeks at the next card" % p,
    "bonus": lambda p, a: "seat %d takes bonus cards %s" % (p, ", ".join(a.get("cards") or []) or "none"),
}
INTO_PLAY = ("draw", "hook", "sword", "map")  # Dead Man's Draw actions that add a card to the play row
GAMES = {"sheriff": SHERIFF, "skull": SKULL, "deadmans": DEADMANS}


def fields_text(action: dict[str, Any]) -> str:
    """``seat 2: bonus cards=map4,anchor2``: an action nobody phrased yet, field by field."""
    def show(v: Any) -> str:
        if isinstance(v, dict):
            return "{%s}" % " ".join("%s=%s" % (k, show(x)) for k, x in v.items())
        if isinstance(v, list):
            return ",".join(show(x) for x in v) or "none"
        return str(v)
    fields = " ".join("%s=%s" % (k, show(v)) for k, v in action.items() if k not in ("a", "p"))
    return ("seat %s: %s %s" % (action.get("p"), action.get("a"), fields)).rstrip()


def sentence(game: str, action: dict[str, Any] | None) -> str:
    if not action:
        return "an action"
    phrase = GAMES.get(game, {}).get(str(action.get("a")))
    if phrase is None:
        return fields_text(action)
    return phrase(int(action.get("p", -1)), action)


def outcome(game: str, action: dict[str, Any] | None, before: dict[str, Any] | None,
            after: dict[str, Any] | None) -> str:
    """What an accepted move did beyond itself ("" if nothing worth saying)."""
    if not action or before is None or after is None:
        return ""
    a, p = action.get("a"), action.get("p", -1)
    seats_b, seats_a = before.get("seats") or [], after.get("seats") or []
    if len(seats_b) != len(seats_a):
        return ""
    if game == "deadmans" and a in ("draw", "cannon", "sword", "hook", "map", "bonus"):
        lost = len(before.get("play") or []) + (1 if a in INTO_PLAY else 0)
        if not after.get("play") and lost and after.get("turn") != before.get("turn") and \
                len(seats_a[p]["bank"]) <= len(seats_b[p]["bank"]):
            return "BUST: seat %d loses the %s in play" % (p, _n(lost, "card"))
    if game == "deadmans" and a == "collect":
        gained = len(seats_a[p]["bank"]) - len(seats_b[p]["bank"])
        return "seat %d banks %s" % (p, _n(gained, "card")) if gained > 0 else ""
    if game == "sheriff" and a == "pass" and (action.get("give") or seats_a[p].get("merry_men") is not None):
        change = [(i, seats_a[i]["gold"] - seats_b[i]["gold"]) for i in range(len(seats_a))]
        moved = ["%s %+d" % ("the Sheriff" if i == p else "seat %d" % i, n) for i, n in change if n]
        return "gold: " + ", ".join(moved) if moved else ""
    if game == "sheriff" and a == "inspect":
        paid = [(i, seats_b[i]["gold"] - seats_a[i]["gold"]) for i in range(len(seats_a))]
        payers = [(i, n) for i, n in paid if n > 0]
        if not payers:
            return ""
        return "; ".join("%s pays %d gold" % ("the Sheriff" if i == p else "seat %d" % i, n) for i, n in payers)
    if game == "skull" and a == "flip":
        out = [i for i in range(len(seats_a)) if seats_a[i]["eliminated"] and not seats_b[i]["eliminated"]]
        if out:
            return "seat %d is out of the game" % out[0]
    return ""
