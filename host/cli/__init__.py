"""The ``tapmat`` command line: ``main`` builds the parser, one module per sub-command."""
