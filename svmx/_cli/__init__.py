"""The subcommands of the ``svmx`` command line; :mod:`svmx.cli` is the entry point."""
