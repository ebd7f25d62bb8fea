"""Skull: rules, views and the generated layout."""
