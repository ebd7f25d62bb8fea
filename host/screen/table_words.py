"""What the views say about the table itself, in the players' words: game titles, the pads of
the mat, what the mat waits for (who does what where), and why a move was refused.

Every text here is an English msgid of the catalogues (``host/i18n/*.po``), said through a
``Voice`` (language and names, ``host/screen/wording.py``).
"""
from __future__ import annotations

from host.i18n import N_
from host.screen.wording import Voice

TITLES = {"skull": N_("Skull"), "deadmans": N_("Dead Man's Draw"), "sheriff": N_("Sheriff of Nottingham")}

# A shared pad, by its zone name in hardware/mat_layout.json.
SHARED_PADS = {
    "box": N_("the box pad"), "command": N_("the command pad"), "draw": N_("the draw pad"), "play": N_("the play pad"),
    "discard": N_("the discard pad"), "discard1": N_("the discard pile 1 pad"), "discard2": N_("the discard pile 2 pad"),
    "loot": N_("the loot chest pad"),
}
# A seat's own pad: said to its seat ("your ...") and to the table ("Bob's ...").
OWN_PADS = {
    "seat": (N_("your seat pad"), N_("{who}'s seat pad")),
    "bank": (N_("your bank pad"), N_("{who}'s bank pad")),
    "stand": (N_("your stand pad"), N_("{who}'s stand pad")),
    "dock": (N_("your bag dock"), N_("{who}'s bag dock")),
}
# Short labels for the mat drawing (two lines at most).
PAD_LABELS = {
    "seat": N_("seat pad"), "bank": N_("bank"), "stand": N_("stand"), "dock": N_("bag dock"), "box": N_("box"),
    "command": N_("command"), "draw": N_("draw pile"), "play": N_("play area"), "discard": N_("discard pile"),
    "discard1": N_("discard pile 1"), "discard2": N_("discard pile 2"), "loot": N_("loot chest"),
}

# What the mat waits for, per game and prompt name (firmware/mat_<game>.py ``PROMPTS``);
# ``{where}`` is the pad it waits at.
PROMPTS: dict[str, dict[str, str]] = {
    "skull": {
        "place": N_("{who}: put a disc face down on {where}"),
        "place_or_bid": N_("{who}: put a disc on {where}, or start the bidding on the command pad"),
        "bid_or_pass": N_("{who}: bid higher or pass on {where}"),
        "flip": N_("{who}: lift the top disc off a seat pad, your own stack first"),
        "lose": N_("{who}: tap the disc you give up on {where}"),
        "first": N_("{who}: tap the seat token of who starts on {where}"),
    },
    "deadmans": {
        "trait": N_("{who}: tap your trait card on {where}"),
        "target": N_("{who}: tap the seat token of your target on {where}"),
        "draw": N_("{who}: draw, tapping the top card of the draw pile on {where}"),
        "draw_or_collect": N_("{who}: draw a card, or stop and bank the play area ({where})"),
        "collect": N_("{who}: bank the play area ({where})"),
        "hook": N_("{who}: tap the card you hook on {where}"),
        "cannon": N_("{who}: tap the card you fire at on {where}"),
        "sword": N_("{who}: tap the card you steal on {where}"),
        "reveal": N_("{who}: tap each revealed card on {where}"),
        "pick": N_("{who}: tap the card you pick on {where}"),
        "oracle": N_("{who}: tap the card you peeked at on {where}"),
        "bonus": N_("{who}: tap each bonus card on {where}"),
    },
    "sheriff": {
        "setup": N_("{who}: turn up five cards per discard pile, tapping each on {where}"),
        "market": N_("{who}: trade at the market, then tap confirm on the command pad"),
        "load": N_("{who}: load your bag and close its clasp on {where}"),
        "declare": N_("{who}: declare your bag on {where}"),
        "decide": N_("{who}: let the bag pass or inspect it, on {where}"),
        "confiscate": N_("{who}: tap each confiscated card on {where}"),
        "reveal": N_("{who}: reveal yourself as a deputy on {where}"),
        "loot": N_("{who}: decide the loot chest on {where}"),
        "laws": N_("{who}: choose the laws on {where}"),
    },
}

# Why a move was refused, as players understand it (every reason code the rules and the mat
# give; a code missing here is shown with its underscores as spaces).
REASONS = {
    "malformed": N_("malformed move"), "unknown_code": N_("unknown card"), "bad_seat": N_("no such seat"),
    "game_over": N_("the game is over"), "wrong_phase": N_("not in this phase of the game"),
    "not_your_turn": N_("not that seat's turn"), "corrupt": N_("the referee's memory is damaged"),
    "unknown_tag": N_("unknown tag (not in this mat's deck registry)"), "foreign_tag": N_("a piece of another game"),
    "duplicate_tag": N_("the same tag on two pads"),
    "not_now": N_("not now (that move means nothing at this point of the game)"), "no_game": N_("no game is running"),
    # an undo the board refused (host/hub/mirror.py UNDO_REASONS)
    "nothing_to_undo": N_("nothing to undo"), "moved_on_mat": N_("a move on the mat came after it"),
    "not_last_entry": N_("another entry came after it"),
    # Skull
    "eliminated_seat": N_("that player is out of the game"), "no_such_disc": N_("that player has no such disc"),
    "already_placed": N_("a disc is already placed"), "bid_out_of_range": N_("more than the discs on the mats"),
    "bid_too_low": N_("the bid must be higher"), "own_stack_first": N_("flip your own stack first"),
    "nothing_to_flip": N_("no disc left to flip there"), "disc_mismatch": N_("not the disc the referee recorded"),
    "bad_target": N_("not a seat you can choose"),
    # Dead Man's Draw
    "choice_pending": N_("a choice must be made first"), "wrong_choice": N_("not the choice asked for"),
    "must_draw": N_("draw first"), "kraken_demands": N_("the Kraken demands another draw"),
    "draw_pile_empty": N_("the draw pile is empty"), "not_in_draw_pile": N_("that card is not in the draw pile"),
    "not_peeked_card": N_("not the card the Oracle showed"), "not_in_bank": N_("that card is not in the bank"),
    "not_top_card": N_("not the top card of its suit"), "misfire_own_bank": N_("Misfire: not at your own bank"),
    "suit_in_own_bank": N_("that suit is already in your bank"), "parry_forces_kraken": N_("Parry: the Kraken must be played"),
    "reveal_missing": N_("reveal the cards first"), "reveal_not_wanted": N_("no reveal here"),
    "wrong_reveal_count": N_("the wrong number of revealed cards"), "not_in_discard": N_("that card is not in the discard pile"),
    "pick_not_revealed": N_("pick one of the revealed cards"), "wrong_peek_count": N_("the wrong number of peeked cards"),
    "wrong_bonus_count": N_("the wrong number of bonus cards"), "trait_chosen": N_("you already have a trait"),
    "trait_taken": N_("another player has that trait"), "target_required": N_("choose a target"),
    "empty_bank": N_("that bank is empty"),
    # Sheriff
    "not_in_deck": N_("that good is not in this game's deck"), "no_such_card": N_("no such card"),
    "not_in_hand": N_("that card is not in the hand"), "bad_setup": N_("not a valid set-up"),
    "not_a_merchant": N_("not a merchant"), "not_the_sheriff": N_("only the Sheriff decides"),
    "too_many_cards": N_("too many cards"), "take_too_many": N_("more cards taken than discarded"),
    "bad_pile": N_("no such pile"), "pile_needed": N_("say which pile"), "empty_pile": N_("that pile is empty"),
    "bag_size": N_("a bag holds 1 to 5 cards"), "already_loaded": N_("the bag is already closed"),
    "not_legal_good": N_("declare a legal good"), "count_mismatch": N_("the count must match the cards in the bag"),
    "already_resolved": N_("that bag was already decided"), "not_enough_gold": N_("not enough gold"),
    "not_on_stand": N_("those goods are not on the stand"), "bad_order": N_("not in that order"),
    "bad_payment": N_("that payment does not settle the debt"),
    # Sheriff, Merry Men modules
    "module_off": N_("that module is not in this game"), "deputy_twice": N_("already revealed as a deputy"),
    "no_discard_piles": N_("no discard piles yet"), "already_decided": N_("already decided"),
    "decide_first": N_("decide first"), "bad_split": N_("not a valid split"),
    "not_black_market": N_("not a Black Market card"), "market_exhausted": N_("market exhausted"),
    "need_three": N_("need three"), "no_such_order": N_("no such special order"),
    "order_not_in_deck": N_("that special order is not in this deck"), "orders_full": N_("two special orders at most"),
    "reveal_orders": N_("turn the special orders face up first"), "order_not_up": N_("that special order is not face up"),
    "goods_missing": N_("goods missing"), "bag_opened": N_("the bag was opened"), "no_merry_man": N_("no Merry Man to smuggle"),
    "no_draw_owed": N_("no Merry Man draw is owed"), "merry_not_in_deck": N_("that Merry Man is not in this deck"),
    "bad_give": N_("the gold shared does not add up"), "no_such_law": N_("no such law"),
    "law_not_in_deck": N_("that law is not in this deck"), "keep_count": N_("the wrong number of laws kept"),
    "bribe_forbidden": N_("a law forbids that bribe"),
    "not_on_top": N_("that card lies under the deck: a draw takes the top cards"),
    "draw_count": N_("a Merry Man draw is two cards (keep one, put one back), after regaining their trust one"),
}


def reason_text(v: Voice, reason: str | None) -> str:
    """A refusal's reason in the players' language."""
    if reason in REASONS:
        return v.tr(REASONS[reason])
    return (reason or v.tr("refused")).replace("_", " ")


def title(v: Voice, game: str) -> str:
    return v.tr(TITLES[game]) if game in TITLES else (game or v.tr("no game"))


def shared_pad(v: Voice, zone: str) -> str:
    return v.tr(SHARED_PADS[zone]) if zone in SHARED_PADS else zone.replace("_", " ")


def own_pad(v: Voice, zone: str, seat: int | None = None) -> str:
    """``your stand pad`` (seat None: said to the seats concerned), ``Bob's stand pad``."""
    you, theirs = OWN_PADS.get(zone, ("your %s pad" % zone, "{who}'s %s pad" % zone))
    if zone not in OWN_PADS:
        return (you if seat is None else theirs.format(who=v.who(seat)))
    return v.tr(you) if seat is None else v.tr(theirs, who=v.who(seat))


def pad_label(v: Voice, zone: str) -> str:
    return v.tr(PAD_LABELS[zone]) if zone in PAD_LABELS else zone.replace("_", " ")


def seats_said(v: Voice, mask: int) -> str:
    """``Ann and Bob`` for a seat mask; ``nobody``."""
    seats = [v.who(s) for s in range(16) if mask >> s & 1]
    if not seats:
        return v.tr("nobody")
    if len(seats) == 1:
        return seats[0]
    return ", ".join(seats[:-1]) + v.tr(" and ") + seats[-1]


def prompt_said(v: Voice, game: str, prompt: str, mask: int, where: str) -> str:
    """Who does what where: ``Bob: load your bag and close its clasp on your bag dock``."""
    who = seats_said(v, mask)
    if prompt == "over":
        return v.tr("Game over: {who} won", who=who)
    msgid = PROMPTS.get(game, {}).get(prompt)
    if msgid is None:
        text = "%s: %s" % (who, prompt.replace("_", " "))
        return text + (" (%s)" % where if where else "")
    return v.tr(msgid, who=who, where=where)
