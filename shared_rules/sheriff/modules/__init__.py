"""The Merry Men expansion's modules: deputies and the Black Market, laws, special orders, Merry Men, their effects and the deck profile."""

# The header names of the modules; module bit i (register ``_R_MODULES``) is ``MODULES[i]``. Here,
# not in a module's code, so a header can be read before any rules are loaded (``setup``).
MODULES = ("deputies", "black_market", "laws", "special_orders", "merry_men")
