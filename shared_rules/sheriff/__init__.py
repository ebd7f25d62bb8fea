"""Sheriff of Nottingham: rules, scoring, views and the generated layout; the Merry Men modules in ``modules``."""
