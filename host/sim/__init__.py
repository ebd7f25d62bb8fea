"""Simulated players and tables: seeded random games, played physically on a board or through the rules alone (MicroPython-compatible where the dual tests run them: ``playout``, ``tables``)."""
