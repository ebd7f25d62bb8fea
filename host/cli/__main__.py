"""``python -m host.cli``: the ``tapmat`` command."""
import sys

from host.cli.main import main

sys.exit(main())
