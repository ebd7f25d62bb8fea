"""A complete tagged set for the virtual board: every piece of every game with a made-up UID.

Real decks are registered with ``tapmat tags``; the virtual board, the simulator, the tests and
``make demo`` use this one instead. A UID encodes what the piece is, so it is stable from run to
run: ``04 | game | kind | code | seat or deck | copy | 5A`` (NXP's manufacturer byte first, as
on NTAG21x).
"""
from __future__ import annotations

from typing import Iterator

from shared_rules import catalogue
from shared_rules.core import deck
from shared_rules.core import tokens

TOKEN_COPIES = 2  # two of each token: "11" is two taps of different tags


def _uid(game: int, kind: int, code: int, owner: int, copy: int) -> str:
    return bytes((0x04, game, kind, code, owner, copy, 0x5A)).hex()


def records() -> list[dict]:
    """Registry records (``shared_rules.core.deck`` format) for every piece tapmat knows."""
    return list(_all())


def _all() -> Iterator[dict]:
    skull = deck.game_id("skull")
    for seat in range(deck.OWNER_SEATS):
        for code, disc in enumerate(catalogue.SKULL_CODES):
            for copy in range(catalogue.SKULL_PER_SEAT[code]):
                yield {"uid": _uid(skull, deck.DISC, code, seat, copy), "game": "skull", "kind": "disc",
                       "code": disc, "seat": seat}
    dmd = deck.game_id("deadmans")
    for number in range(2):
        for code, card in enumerate(catalogue.DMD_CODES):
            yield {"uid": _uid(dmd, deck.CARD, code, number, 0), "game": "deadmans", "kind": "card",
                   "code": card, "deck": number}
        for code, trait in enumerate(catalogue.DMD_TRAITS):
            yield {"uid": _uid(dmd, deck.TRAIT, code, number, 0), "game": "deadmans", "kind": "trait",
                   "code": trait, "deck": number}
    sheriff = deck.game_id("sheriff")
    for code, good in enumerate(catalogue.SHERIFF_CODES):
        for copy in range(catalogue.SHERIFF_GOODS[code][2]):
            yield {"uid": _uid(sheriff, deck.CARD, code, 0, copy), "game": "sheriff", "kind": "card", "code": good}
    for code, card in enumerate(catalogue.SHERIFF_MODULE_CARDS):
        yield {"uid": _uid(sheriff, deck.MODULE, code, 0, 0), "game": "sheriff", "kind": "module", "code": card}
    for code, name in enumerate(tokens.CODES):
        for copy in range(TOKEN_COPIES):
            yield {"uid": _uid(0, deck.TOKEN, code, 0, copy), "kind": "token", "code": name}


class VirtualDeck:
    """Find the UID of a piece, and the piece of a UID."""

    def __init__(self) -> None:
        self.rows = records()
        self.by_uid = {r["uid"]: r for r in self.rows}

    def disc(self, seat: int, disc: str, copy: int = 0) -> str:
        code = catalogue.SKULL_CODES.index(disc)
        return _uid(deck.game_id("skull"), deck.DISC, code, seat, copy)

    def card(self, game: str, code: str, copy: int = 0) -> str:
        """A card's UID (Dead Man's Draw: ``copy`` is the deck number; Sheriff: the copy)."""
        idx = catalogue.codes(game).index(code)
        if game == "deadmans":
            return _uid(deck.game_id(game), deck.CARD, idx, copy, 0)
        return _uid(deck.game_id(game), deck.CARD, idx, 0, copy)

    def trait(self, name: str, number: int = 0) -> str:
        """A trait card's UID (``number``: its deck, in two-deck games)."""
        return _uid(deck.game_id("deadmans"), deck.TRAIT, catalogue.DMD_TRAITS.index(name), number, 0)

    def module_card(self, name: str) -> str:
        """A Sheriff module card's UID (Merry Men expansion: ``black_market_pepper_top`` ...)."""
        return _uid(deck.game_id("sheriff"), deck.MODULE, catalogue.SHERIFF_MODULE_CARDS.index(name), 0, 0)

    def token(self, name: str, copy: int = 0) -> str:
        return _uid(0, deck.TOKEN, tokens.CODES.index(name), 0, copy)

    def pack(self) -> bytes:
        return deck.pack(self.rows)
