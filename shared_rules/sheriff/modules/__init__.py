"""The Merry Men expansion's modules: deputies and the Black Market, laws, special orders, Merry Men, their effects and the deck profile."""
