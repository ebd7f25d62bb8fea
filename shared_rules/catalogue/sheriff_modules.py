"""Sheriff of Nottingham: the Merry Men expansion's module cards (deck registry kind ``module``,
one tag per card). A section of its own, so a board loads these names only when its registry
holds module cards or a host tool asks.

Their printed data is not public: values come from the deck profile (shared_rules/sheriff/modules/profile.py),
whose order they follow. A card's number is its index in ``SHERIFF_MODULE_CARDS``, so the table
only grows at the end. Black Market: per type (pepper, mead, silk) the top card (higher value),
then the lower one. Laws, special orders, Merry Men: numbered as the profile's lists (``law_01``
is ``laws[0]``).
"""
SHERIFF_MODULE_CARDS = ("black_market_pepper_top", "black_market_pepper_lower", "black_market_mead_top",
                        "black_market_mead_lower", "black_market_silk_top", "black_market_silk_lower") + \
    tuple("law_%02d" % (i + 1) for i in range(24)) + tuple("special_order_%02d" % (i + 1) for i in range(15)) + \
    tuple("merry_man_%02d" % (i + 1) for i in range(18))
# module, its first card number, its card count (firmware/mat_sheriff_cards.py mirrors these)
SHERIFF_MODULE_OF = (("black_market", 0, 6), ("laws", 6, 24), ("special_orders", 30, 15), ("merry_men", 45, 18))


def sheriff_module_cards(module):
    """The module card codes of one Merry Men module (none for deputies: seat tokens reveal them)."""
    for name, first, n in SHERIFF_MODULE_OF:
        if name == module:
            return SHERIFF_MODULE_CARDS[first:first + n]
    return ()
