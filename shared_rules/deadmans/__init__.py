"""Dead Man's Draw: rules, cards, views and the generated layout."""
