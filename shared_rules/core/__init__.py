"""The machinery every game shares: engine, action records, tokens, the deck registry."""
