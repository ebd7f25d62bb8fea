"""Dead Man's Draw: the cards and traits (``DMD_CODES``, ``DMD_TRAITS``), kept in
``shared_rules/deadmans/cards.py`` (outside this package: the rules module loads them without it)."""
from shared_rules.deadmans.cards import DMD_CODES, DMD_TRAITS, Names  # noqa: F401
