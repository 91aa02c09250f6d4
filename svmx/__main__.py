"""``python -m svmx``: the svmx command line (see :mod:`svmx.cli`)."""

import sys

from svmx.cli import main

if __name__ == "__main__":
    sys.exit(main())
