"""tapmat host tool (CPython): replay, sim, monitor, board, flash, tags."""
