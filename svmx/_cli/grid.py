"""``svmx grid``: LIBSVM's grid.py, a cross-validated search over C and gamma.

Each (C, gamma, fold) fit is a joblib task, so ``-j`` runs them in parallel (with
``--share-kernels``, each gamma's fits are one task: `svmx._cli._grid_groups`). Every candidate
is scored on the same shuffled folds by LIBSVM's pooled figure: the cross-validation accuracy
(%) for classification, the mean squared error for regression.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from svmx._cli._crossval import fold_predictions, make_folds, regression_figures
from svmx._cli._data import build_estimator, is_classifier, read_data, read_training_gram
from svmx._cli._grid_groups import gamma_group_predictions, why_not_shared
from svmx._cli._options import CommandParser, add_model_options, class_weights
from svmx._glibc_rand import GlibcRand
from svmx._progress import ProgressBar

__all__ = ["candidate_order", "coarse_to_fine", "exponent_text", "make_parser", "parse_range",
           "run"]

DESCRIPTION = """\
Search C and gamma by cross-validation (LIBSVM's grid.py) with LIBSVM's exponential grid:
C = 2^log2c and gamma = 2^log2g. Prints one line per candidate, coarse to fine, with the best
so far, then the best 'C gamma rate'. The svm-train options below fix the other
parameters."""


def parse_range(text: str) -> np.ndarray | None:
    """Exponents from ``begin,end,step`` (end included), or None for ``null``.

    Examples
    --------
    >>> parse_range("3,-15,-2").tolist()[:3], parse_range("null")
    ([3.0, 1.0, -1.0], None)
    """
    if text == "null":
        return None
    try:
        begin, end, step = (float(value) for value in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected begin,end,step or null, got {text!r}"
        ) from None
    if step == 0 or (end - begin) * step < 0:
        raise argparse.ArgumentTypeError(f"the step {step:g} does not lead from {begin:g} to "
                                         f"{end:g}")
    count = int(np.floor((end - begin) / step + 1e-9)) + 1
    return begin + step * np.arange(count)


def coarse_to_fine(values: np.ndarray) -> list[float]:
    """The values in grid.py's coarse-to-fine order: the middle one (index n // 2), then
    the two halves' own orders taken alternately, left first.

    So the first candidates already span the whole range.

    Examples
    --------
    >>> coarse_to_fine(np.arange(7.0))
    [3.0, 1.0, 5.0, 0.0, 4.0, 2.0, 6.0]
    >>> coarse_to_fine(np.arange(4.0))
    [2.0, 1.0, 3.0, 0.0]
    """
    values = [float(value) for value in values]
    if len(values) <= 1:
        return values
    middle = len(values) // 2
    left, right = coarse_to_fine(values[:middle]), coarse_to_fine(values[middle + 1:])
    order = [values[middle]]
    for position in range(max(len(left), len(right))):
        order += left[position:position + 1] + right[position:position + 1]
    return order


def candidate_order(c_values: list, g_values: list) -> list[tuple]:
    """The (C, gamma) candidates in grid.py's order: the grid refined one row or column
    at a time, whichever of C and gamma has been covered less, each new line of
    candidates pairing the new value with the other parameter's values so far.

    Examples
    --------
    >>> candidate_order([1, 2], [10, 20, 30])
    [(1, 10), (1, 20), (2, 10), (2, 20), (1, 30), (2, 30)]
    >>> candidate_order([1, 2, 3], [None])
    [(1, None), (2, None), (3, None)]
    """
    order: list[tuple] = []
    n_c, n_g = len(c_values), len(g_values)
    i = j = 0
    while i < n_c or j < n_g:
        if i * n_g < j * n_c:  # i / n_c < j / n_g: a new C against the gammas so far
            order += [(c_values[i], g) for g in g_values[:j]]
            i += 1
        else:  # a new gamma against the C values so far
            order += [(c, g_values[j]) for c in c_values[:i]]
            j += 1
    return order


# grid.py's options that have no meaning here: svmx draws no contour, runs no svm-train
# binary and always computes every candidate. Accepted, and ignored with a note.
IGNORED_OPTIONS = {
    "gnuplot": "svmx grid draws no contour plot",
    "png": "svmx grid draws no contour plot",
    "svmtrain": "svmx grid trains with svmx itself",
    "resume": "svmx grid computes every candidate again",
}


class _GivenRange(argparse.Action):
    """Store a range and note that it was given: grid.py prints a given range's exponents
    as floats (``3.0``), its default ranges' as integers (``3``)."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)
        setattr(namespace, f"{self.dest}_given", True)


def exponent_text(exponent: float, given: bool) -> str:
    """An exponent as grid.py prints it: ``str(float)`` for a given range, else an integer.

    Examples
    --------
    >>> exponent_text(3.0, True), exponent_text(3.0, False), exponent_text(-0.5, True)
    ('3.0', '3', '-0.5')
    """
    return str(float(exponent)) if given else f"{exponent:g}"


class GridParser(CommandParser):
    """grid.py's options; its ``-resume`` takes an optional pathname."""

    def parse_known_args(self, args: Sequence[str] | None = None, namespace=None):
        tokens = list(sys.argv[1:] if args is None else args)
        for position, token in enumerate(tokens):
            # "-resume dataset": the last argument is the dataset, not resume's pathname.
            if token == "-resume" and (position + 2 >= len(tokens)
                                       or tokens[position + 1].startswith("-")):
                tokens[position] = "-resume="
        return super().parse_known_args(tokens, namespace)


def make_parser(prog: str) -> argparse.ArgumentParser:
    parser = GridParser(prog=prog, description=DESCRIPTION, add_help=False,
                           allow_abbrev=False,
                           usage="%(prog)s [grid_options] [svm_options] dataset")
    group = parser.add_argument_group("grid options (as LIBSVM's grid.py)")
    group.add_argument("-log2c", dest="log2c", type=parse_range, default="-5,15,2",
                       action=_GivenRange,
                       metavar="{begin,end,step | null}",
                       help="exponents of C (default -5,15,2); null: use -c")
    group.add_argument("-log2g", dest="log2g", type=parse_range, default="3,-15,-2",
                       action=_GivenRange,
                       metavar="{begin,end,step | null}",
                       help="exponents of gamma (default 3,-15,-2); null: use -g")
    group.add_argument("-v", dest="n_folds", type=int, default=5, metavar="fold",
                       help="n-fold cross validation (default 5)")
    group.add_argument("-j", dest="n_jobs", type=int, default=1, metavar="n_jobs",
                       help="parallel joblib workers (default 1; -1: all cores)")
    group.add_argument("-out", dest="out", default=None, metavar="{pathname | null}",
                       help="where to write every result (default dataset.out in the current "
                            "directory); null: nowhere")
    group.add_argument("-q", dest="quiet", action="store_true",
                       help="no progress bar on standard error")
    group.add_argument("--share-kernels", dest="share_kernels", action="store_true",
                       help="svmx only: one kernel matrix per gamma for all folds and C "
                            "values, C in increasing order warm-started; each model is "
                            "the same optimum within -e, so a rate may differ from "
                            "grid.py's by a row")
    group.add_argument("-gnuplot", dest="gnuplot", default=None,
                       metavar="{pathname | null}", help="accepted and ignored (no plot)")
    group.add_argument("-png", dest="png", default=None, metavar="pathname",
                       help="accepted and ignored (no plot)")
    group.add_argument("-svmtrain", dest="svmtrain", default=None, metavar="pathname",
                       help="accepted and ignored (svmx trains itself)")
    group.add_argument("-resume", dest="resume", nargs="?", const="", default=None,
                       metavar="pathname", help="accepted and ignored (every candidate is "
                                                "computed again)")
    add_model_options(parser)
    parser.add_argument("--help", action="help", help="show this help message and exit")
    parser.add_argument("dataset", help="LIBSVM data file")
    return parser


def _clone_with(estimator: Any, params: dict) -> Any:
    from svmx.model_selection import clone

    return clone(estimator).set_params(**params)


def _run_tasks(tasks: list[tuple], n_jobs: int, progress: ProgressBar) -> Iterator[np.ndarray]:
    try:
        import joblib
    except ImportError:  # optional: run the fits one after the other
        for task in tasks:
            yield fold_predictions(*task)
            progress.update()
        return
    parallel = joblib.Parallel(n_jobs=n_jobs, return_as="generator")
    for predictions in parallel(joblib.delayed(fold_predictions)(*task) for task in tasks):
        progress.update()
        yield predictions


def _shared_kernel_results(estimator: Any, X: Any, y: np.ndarray, folds: list,
                           c_values: list, g_values: list, n_jobs: int,
                           progress: ProgressBar) -> Iterator[np.ndarray]:
    """The fold predictions of every (C, gamma) candidate, in `_run_tasks`' order
    (candidate by candidate, fold by fold), from one task per gamma
    (`svmx._cli._grid_groups`)."""
    tasks = [(estimator, X, y, folds, g, c_values) for g in g_values]
    try:
        import joblib
    except ImportError:  # optional: run the groups one after the other
        joblib = None
    if joblib is None or n_jobs == 1 or len(tasks) == 1:
        groups = (gamma_group_predictions(*task) for task in tasks)
    else:
        groups = joblib.Parallel(n_jobs=n_jobs, return_as="generator")(
            joblib.delayed(gamma_group_predictions)(*task) for task in tasks)
    per_gamma = []
    for group in groups:
        per_gamma.append(group)
        progress.update(len(c_values) * len(folds))
    by_value = [dict(zip(c_values, group, strict=True)) for group in per_gamma]
    by_gamma = dict(zip(g_values, by_value, strict=True))
    for c, g in candidate_order(c_values, g_values):
        yield from by_gamma[g][c]


def _rate(y: np.ndarray, predicted: np.ndarray, regression: bool) -> float:
    """svm-train -v's figure, rounded to its 6 printed digits as grid.py reads it."""
    if regression:
        return float(f"{regression_figures(y, predicted)[0]:g}")
    return float(f"{100.0 * np.count_nonzero(predicted == y) / y.size:g}")


def run(args: argparse.Namespace) -> int:
    if args.log2c is None and args.log2g is None:
        raise ValueError("-log2c and -log2g cannot both be null")
    for name, reason in IGNORED_OPTIONS.items():
        if getattr(args, name) is not None:
            print(f"svmx grid: note: -{name} is ignored ({reason})", file=sys.stderr)
    precomputed = args.kernel_type == 4
    if args.log2g is not None and args.kernel_type in (0, 4):
        args.log2g = None  # linear and precomputed kernels have no gamma
    X, y = read_training_gram(args.dataset)[:2] if precomputed else read_data(args.dataset)
    classification = is_classifier(args.svm_type)
    regression = args.svm_type in (3, 4)
    classes = np.unique(y).tolist() if classification else []
    # Each candidate's folds are svm-train's (grid.py runs a fresh svm-train per candidate);
    # every task's copy of the estimator starts its probability folds from rand()'s start.
    estimator = build_estimator(args, X.shape[1], class_weights(
        args.weights if classification else [], classes,
        lambda message: print(message, file=sys.stderr)),
        random_state=GlibcRand())
    if args.n_jobs != 1:  # the tasks run side by side: one thread each, no oversubscription
        estimator.set_params(n_jobs=1)
    # X stays CSR: every fit trains on sparse rows.
    c_given = getattr(args, "log2c_given", False)
    g_given = getattr(args, "log2g_given", False)
    c_values = coarse_to_fine(args.log2c) if args.log2c is not None else [None]
    g_values = coarse_to_fine(args.log2g) if args.log2g is not None else [None]
    candidates = candidate_order(c_values, g_values)
    folds = make_folds(y, args.n_folds, classification)
    # nu-SVC and one-class SVM have no C: grid.py passes -c on, and svm-train ignores it.
    takes_c = "C" in estimator.get_params()
    params = [
        {**({"C": 2.0**c} if c is not None and takes_c else {}),
         **({"gamma": 2.0**g} if g is not None else {})}
        for c, g in candidates
    ]
    shared = args.share_kernels
    if shared:
        reason = why_not_shared(estimator, X.shape[0])
        if reason is not None:
            print(f"svmx grid: note: --share-kernels does not apply ({reason}); every fit "
                  "computes its own kernel values", file=sys.stderr)
            shared = False
    out_path = args.out or os.path.basename(args.dataset) + ".out"
    out = None if out_path == "null" else open(out_path, "w", encoding="ascii")
    best: tuple | None = None
    predicted = np.empty_like(y)
    n_fits = len(candidates) * len(folds)
    try:
        with ProgressBar(n_fits, "grid", enabled=not args.quiet) as progress:
            results = (_shared_kernel_results(estimator, X, y, folds, c_values, g_values,
                                              args.n_jobs, progress) if shared else
                       _run_tasks([(_clone_with(estimator, p), X, y, train, test)
                                   for p in params for train, test in folds],
                                  args.n_jobs, progress))
            for index, fold_result in enumerate(results):
                candidate, fold = divmod(index, len(folds))
                predicted[folds[fold][1]] = fold_result
                if fold < len(folds) - 1:
                    continue
                c, g = candidates[candidate]
                rate = _rate(y, predicted, regression)
                if best is None or _better(rate, c, g, best, regression):
                    best = (rate, c, g)
                texts = {"c": None if c is None else exponent_text(c, c_given),
                         "g": None if g is None else exponent_text(g, g_given)}
                shown = " ".join(text for text in texts.values() if text is not None)
                best_text = ", ".join(
                    [f"{name}={2.0**e}" for name, e in (("c", best[1]), ("g", best[2]))
                     if e is not None] + [f"rate={best[0]}"]
                )
                progress_line = f"[local] {shown} {rate} (best {best_text})"
                print(progress_line, flush=True)
                if out is not None:
                    parts = [f"log2{n}={text}" for n, text in texts.items() if text is not None]
                    out.write(" ".join(parts) + f" rate={rate}\n")
    finally:
        if out is not None:
            out.close()
    print(" ".join(str(2.0**e) for e in best[1:] if e is not None) + f" {best[0]}")
    return 0


def _better(rate: float, c: float | None, g: float | None, best: tuple,
            regression: bool) -> bool:
    """grid.py's rule: a higher accuracy (lower MSE) wins; on a tie, a smaller C with the
    same gamma; otherwise the candidate found first stays."""
    if rate != best[0]:
        return rate < best[0] if regression else rate > best[0]
    return g == best[2] and c is not None and best[1] is not None and c < best[1]
