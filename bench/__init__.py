"""``make bench``: measured budgets of tapmat, written to ``bench/results.json``."""
