"""The ``svmx`` command: LIBSVM's command-line tools on top of svmx.

``svmx train``, ``svmx predict`` and ``svmx scale`` take the options of LIBSVM's
``svm-train``, ``svm-predict`` and ``svm-scale`` and read and write the same files;
``svmx grid`` is LIBSVM's ``grid.py``; ``svmx demo`` runs the whole recipe on generated data.

Examples
--------
>>> main(["demo", "--help"])  # doctest: +ELLIPSIS
usage: svmx demo [--output PATH] [-j n_jobs]
...
0
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

from svmx._cli._options import CommandError, normalise_argv, value_options
from svmx._version import __version__

__all__ = ["main"]

# Each command's module, imported when it runs: a call pays only for what it uses
# (`svmx predict` does not import the grid search's machinery).
COMMANDS: dict[str, str] = {
    "train": "svmx._cli.train",
    "predict": "svmx._cli.predict",
    "scale": "svmx._cli.scale",
    "grid": "svmx._cli.grid",
    "demo": "svmx._cli.demo",
}

SUMMARIES = {
    "train": "train a model on a LIBSVM data file (svm-train)",
    "predict": "predict a data file with a model file (svm-predict)",
    "scale": "scale a data file to a range, save or restore the scaling (svm-scale)",
    "grid": "search C and gamma by cross-validation (grid.py)",
    "demo": "run the whole recipe on a generated checkerboard",
}


def usage() -> str:
    """The top-level help text."""
    commands = "\n".join(f"  {name:<8} {text}" for name, text in SUMMARIES.items())
    return (
        "usage: svmx <command> [options] ...\n\n"
        "Support vector machines in the style of LIBSVM: its command-line tools, with the same\n"
        "options and file formats.\n\n"
        f"commands:\n{commands}\n\n"
        "options:\n  --help, -h    show this help message and exit\n"
        "  --version     print the version and exit\n\n"
        "Run 'svmx <command> --help' for the options of a command.\n"
    )


def _describe(error: BaseException) -> str:
    if isinstance(error, OSError) and error.filename is not None:
        return f"cannot open {error.filename}: {error.strerror or error}"
    return str(error) or type(error).__name__


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``svmx`` command line with ``argv`` (default: ``sys.argv[1:]``).

    Errors print one line, ``svmx <command>: error: <message>``, on standard
    error and give a non-zero exit status (2 for bad usage, 1 otherwise).

    Parameters
    ----------
    argv : sequence of str, optional

    Returns
    -------
    int
        The exit status.
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments:
        sys.stderr.write(usage())
        return 2
    if arguments[0] in ("-h", "--help"):
        sys.stdout.write(usage())
        return 0
    if arguments[0] == "--version":
        print(f"svmx {__version__}")
        return 0
    name = arguments[0]
    if name not in COMMANDS:
        print(f"svmx: error: unknown command {name!r} (choose from {', '.join(COMMANDS)})",
              file=sys.stderr)
        return 2
    prog = f"svmx {name}"
    command = importlib.import_module(COMMANDS[name])
    parser = command.make_parser(prog)
    try:
        args = parser.parse_args(normalise_argv(arguments[1:], value_options(parser)))
    except CommandError as error:
        print(f"{prog}: error: {error} (see '{prog} --help')", file=sys.stderr)
        return 2
    except SystemExit as done:  # --help
        return int(done.code or 0)
    try:
        return command.run(args)
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except Exception as error:  # noqa: BLE001 - the command line never shows a traceback
        print(f"{prog}: error: {_describe(error)}", file=sys.stderr)
        return 1
