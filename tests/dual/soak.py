"""How many random games the long tests play: a sample in ``make test``, the full count in
``make soak`` (``TAPMAT_SOAK=1``). Runs on both interpreters (MicroPython's unix port has getenv)."""
import os

SOAK = os.getenv("TAPMAT_SOAK") == "1"


def count(quick, soak):
    """``soak`` under ``make soak``, else ``quick``."""
    return soak if SOAK else quick
