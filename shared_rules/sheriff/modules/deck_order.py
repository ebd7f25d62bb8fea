"""The order of the Merry Men expansion's decks (laws, Merry Men), as far as the referee knows it.

The referee never sees a shuffle, but it knows every card *it* put under a deck (a law or a Merry
Man put back) and in which order, and how many unknown cards lie above them. A drawn card must be
one that can be on top: any unknown card while unknown cards remain, then the cards put under the
deck in the order they went there. So a law put back cannot be kept by the next Sheriff, nor a
Merry Man put back be drawn again, until the deck above it is used up.

Each deck is a region of one place byte per card in the game state (``laws``,
``merry_men``): ``unknown`` marks a card somewhere in the shuffled part, ``under + k`` the card
put under the deck k-th from the top of that known part (0 comes up first); other values are the
owning module's (held, in force, out). No state of its own, no allocation.
"""


def in_deck(s, at, card, unknown, under):
    place = s[at + card]
    return place == unknown or place >= under


def size(s, at, cards, unknown, under):
    """How many cards the deck holds."""
    n = 0
    for i in range(cards):
        if s[at + i] == unknown or s[at + i] >= under:
            n += 1
    return n


def can_draw(s, at, cards, unknown, under, card, drawn):
    """Whether ``card`` (in the deck) can be among the top ``drawn`` cards: an unknown card, or
    one of the cards put under the deck that the unknown ones no longer cover."""
    place = s[at + card]
    if place == unknown:
        return True
    above = 0
    for i in range(cards):
        if s[at + i] == unknown:
            above += 1
    return place - under < drawn - above


def take(s, at, cards, under, card, place):
    """``card`` leaves the deck for ``place``; the cards put under the deck after it move up."""
    old = s[at + card]
    s[at + card] = place
    if old >= under:
        for i in range(cards):
            if s[at + i] > old:
                s[at + i] -= 1


def put_under(s, at, cards, under, card):
    """``card`` goes under the deck, below every card put there before."""
    n = 0
    for i in range(cards):
        if s[at + i] >= under:
            n += 1
    s[at + card] = under + n


def valid(state, at, cards, under):
    """The cards put under the deck are ranked 0, 1, ... without a gap or a repeat."""
    n = 0
    for i in range(cards):
        if state[at + i] >= under:
            n += 1
    seen = 0
    for i in range(cards):
        rank = state[at + i] - under
        if state[at + i] >= under:
            if rank >= n or seen >> rank & 1:
                return False
            seen |= 1 << rank
    return True
