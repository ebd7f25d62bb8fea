"""The ``tapmat`` command line."""
import sys


def main(argv=None) -> int:
    print("tapmat: nothing here yet", file=sys.stderr)
    return 2
