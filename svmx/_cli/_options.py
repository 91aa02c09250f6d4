"""LIBSVM-style command-line options on top of argparse.

LIBSVM's tools take single-dash options of several letters (``-log2c``) and option names that
embed a value (``-w1 5``, ``-w-1 0.5``), and their values may look like options (``-r -1``,
``-log2g 3,-15,-2``). Before argparse sees the arguments, :func:`normalise_argv` glues every
value to its option (``-r=-1``) and rewrites ``-wLABEL WEIGHT`` as ``--weight=LABEL:WEIGHT``.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Sequence

__all__ = [
    "CommandError",
    "CommandParser",
    "add_model_options",
    "int_choice",
    "class_weights",
    "model_option_problem",
    "normalise_argv",
]

_WEIGHT_OPTION = re.compile(r"^-w(?P<label>[-+]?\d+(\.\d*)?([eE][-+]?\d+)?)$")


class CommandError(Exception):
    """A user error: printed as one line ``svmx <command>: error: <message>``."""


class CommandParser(argparse.ArgumentParser):
    """An ArgumentParser that raises :class:`CommandError` instead of printing usage."""

    def error(self, message: str):  # type: ignore[override]
        raise CommandError(message)


def normalise_argv(argv: Sequence[str], value_options: set[str]) -> list[str]:
    """Rewrite LIBSVM-style arguments so that argparse parses them unambiguously.

    Parameters
    ----------
    argv : sequence of str
        The arguments after the subcommand.
    value_options : set of str
        The options that take one value, e.g. ``{"-c", "-log2c"}``.

    Returns
    -------
    list of str

    Examples
    --------
    >>> normalise_argv(["-c", "4", "-r", "-1", "-w-1", "0.5", "-q", "data"], {"-c", "-r"})
    ['-c=4', '-r=-1', '--weight=-1:0.5', '-q', 'data']
    """
    result: list[str] = []
    arguments = list(argv)
    position = 0
    while position < len(arguments):
        token = arguments[position]
        weight = _WEIGHT_OPTION.match(token)
        takes_value = token in value_options or weight is not None
        if takes_value and position + 1 >= len(arguments):
            raise CommandError(f"option {token} needs a value")
        if weight is not None:
            result.append(f"--weight={weight.group('label')}:{arguments[position + 1]}")
            position += 2
        elif takes_value:
            result.append(f"{token}={arguments[position + 1]}")
            position += 2
        else:
            result.append(token)
            position += 1
    return result


def value_options(parser: argparse.ArgumentParser) -> set[str]:
    """The option strings of ``parser`` that take exactly one value."""
    return {
        option
        for action in parser._actions  # argparse offers no public listing
        for option in action.option_strings
        if action.nargs is None and not isinstance(action, argparse._StoreConstAction)
        and option.startswith("-") and not option.startswith("--")
    }


def int_choice(values: Sequence[int]):
    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if number not in values:
            raise argparse.ArgumentTypeError(f"expected one of {list(values)}, got {number}")
        return number

    return parse


def _finite_float(text: str) -> float:
    """A number that a model file can hold (svm-train would write inf or nan, which
    neither it nor svmx reads back)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text}")
    return value


def _positive_float(text: str) -> float:
    value = _finite_float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text}")
    return value


def _non_negative_float(text: str) -> float:
    value = _finite_float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative number, got {text}")
    return value


def model_option_problem(args: argparse.Namespace) -> str | None:
    """What LIBSVM's svm_check_parameter refuses in options that parse, or None.

    As in LIBSVM, the degree is checked for the polynomial kernel only, nu for the
    formulations that have one, and epsilon for epsilon-SVR.

    Examples
    --------
    >>> model_option_problem(argparse.Namespace(svm_type=0, kernel_type=1, degree=-2,
    ...                                         nu=0.5, epsilon=0.1))
    'argument -d: the degree of the polynomial kernel must be >= 0, got -2'
    >>> model_option_problem(argparse.Namespace(svm_type=0, kernel_type=2, degree=-2,
    ...                                         nu=2.0, epsilon=-1.0)) is None
    True
    """
    if args.kernel_type == 1 and args.degree < 0:
        return f"argument -d: the degree of the polynomial kernel must be >= 0, got {args.degree}"
    if args.svm_type in (1, 2, 4) and not 0 < args.nu <= 1:
        return f"argument -n: nu must be in (0, 1], got {args.nu:g}"
    if args.svm_type == 3 and args.epsilon < 0:
        return f"argument -p: epsilon must be >= 0, got {args.epsilon:g}"
    return None


def _weight(text: str) -> tuple[float, float]:
    label, _, weight = text.partition(":")
    try:
        return float(label), float(weight)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"-w{label} needs a numeric weight, got {weight!r}"
        ) from None


def add_model_options(parser: argparse.ArgumentParser) -> None:
    """The options of LIBSVM's ``svm-train`` that describe the model and the solver."""
    group = parser.add_argument_group("model options (as LIBSVM's svm-train)")
    group.add_argument("-s", dest="svm_type", type=int_choice(range(5)), default=0,
                       metavar="svm_type",
                       help="0 C-SVC (multi-class), 1 nu-SVC (multi-class), 2 one-class SVM, "
                            "3 epsilon-SVR (regression), 4 nu-SVR (regression); default 0")
    group.add_argument("-t", dest="kernel_type", type=int_choice(range(5)), default=2,
                       metavar="kernel_type",
                       help="0 linear u'v, 1 polynomial (gamma u'v + coef0)^degree, "
                            "2 radial basis exp(-gamma |u-v|^2), 3 sigmoid "
                            "tanh(gamma u'v + coef0), 4 precomputed kernel (kernel values in "
                            "the data file); default 2")
    group.add_argument("-d", dest="degree", type=int, default=3, metavar="degree",
                       help="degree of the polynomial kernel (default 3)")
    group.add_argument("-g", dest="gamma", type=_non_negative_float, default=None,
                       metavar="gamma",
                       help="gamma of the kernel (default, or 0: 1/num_features, the largest "
                            "feature index of the training file)")
    group.add_argument("-r", dest="coef0", type=_finite_float, default=0.0, metavar="coef0",
                       help="coef0 of the kernel (default 0)")
    group.add_argument("-c", dest="cost", type=_positive_float, default=1.0, metavar="cost",
                       help="the parameter C of C-SVC, epsilon-SVR and nu-SVR (default 1)")
    group.add_argument("-n", dest="nu", type=_positive_float, default=0.5, metavar="nu",
                       help="the parameter nu of nu-SVC, one-class SVM and nu-SVR "
                            "(default 0.5)")
    group.add_argument("-p", dest="epsilon", type=_finite_float, default=0.1, metavar="epsilon",
                       help="the epsilon of the loss of epsilon-SVR (default 0.1)")
    group.add_argument("-m", dest="cache_size", type=_positive_float, default=100.0,
                       metavar="cachesize", help="kernel cache size in MB (default 100)")
    group.add_argument("-e", dest="tolerance", type=_positive_float, default=0.001,
                       metavar="epsilon", help="tolerance of the stopping criterion "
                                               "(default 0.001)")
    group.add_argument("-h", dest="shrinking", type=int_choice((0, 1)), default=1,
                       metavar="shrinking", help="whether to use the shrinking heuristics, "
                                                 "0 or 1 (default 1)")
    group.add_argument("-b", dest="probability", type=int_choice((0, 1)), default=0,
                       metavar="probability_estimates",
                       help="whether to train a SVC or SVR model for probability "
                            "estimates, 0 or 1 (default 0); with -s 2, LIBSVM 3.37's "
                            "one-class density marks")
    group.add_argument("--weight", dest="weights", type=_weight, action="append", default=[],
                       metavar="LABEL:WEIGHT",
                       help="written -wi weight as in LIBSVM (e.g. -w1 5 -w-1 0.5): set the "
                            "parameter C of class i to weight*C, for C-SVC (default 1)")


def class_weights(weights: list[tuple[float, float]], classes: Sequence[float],
                  warn) -> dict[float, float] | None:
    """The ``class_weight`` dict of ``-wi`` options; labels absent from the data are ignored
    with a warning, and a label given twice gets the product of its weights, as LIBSVM
    does (``svm_train`` multiplies each class's C by every weight naming it).

    Examples
    --------
    >>> class_weights([(1.0, 3.0), (-1.0, 2.0), (1.0, 0.5)], [-1.0, 1.0], print)
    {1.0: 1.5, -1.0: 2.0}
    """
    if not weights:
        return None
    present = set(classes)
    result = {}
    for label, weight in weights:
        if label not in present:
            warn(f"WARNING: class label {label:g} specified in weight is not found")
            continue
        result[label] = result.get(label, 1.0) * weight
    return result or None
