"""The ``svmx`` console script and ``python -m svmx``: `svmx.cli.main` in a process of its own.

The command's estimators never meet scikit-learn's machinery, so it leaves scikit-learn
out (``SVMX_SKLEARN=0``, see `svmx._sklearn_compat`) unless the environment says
otherwise: importing scikit-learn took 0.9 s of the 2 s that ``svmx predict`` needed for a
270-row file (``svm-predict``: 5 ms). The setting is made here, before svmx's estimators
are imported, and is inherited by the command's worker processes (``svmx grid -j``).
"""

from __future__ import annotations

import os

__all__ = ["run"]


def run() -> int:
    """Run the command line on ``sys.argv``; returns its exit status."""
    os.environ.setdefault("SVMX_SKLEARN", "0")
    from svmx.cli import main

    return main()
