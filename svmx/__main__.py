"""``python -m svmx``: the svmx command line (see :mod:`svmx.cli` and `svmx._command`)."""

import sys

from svmx._command import run

if __name__ == "__main__":
    sys.exit(run())
