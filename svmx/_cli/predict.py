"""``svmx predict``: LIBSVM's svm-predict, with the same output file and the same report.

The output file has one line per test sample: the prediction as ``%.17g``; with ``-b 1``,
a header (``labels`` and the model's labels, or ``label normal outlier`` for a one-class
model with LIBSVM 3.37's density marks) and then the predicted label and each probability
as ``%g``, separated by single spaces. The report lines and their figures are computed as
svm-predict computes them (running sums in file order), so they print the same.
"""

from __future__ import annotations

import argparse

import numpy as np
import scipy.sparse as sp

from svmx._cli._data import fit_width, read_data, widen_model
from svmx._cli._options import CommandParser, int_choice
from svmx._layout import vote
from svmx._libsvm import squared_norms
from svmx._probability import coupled_probabilities
from svmx._specs import resolve_threads
from svmx.io import load_model

__all__ = ["make_parser", "run"]

DESCRIPTION = """\
Predict the samples of a LIBSVM data file with a LIBSVM model file (from svmx train or
LIBSVM's svm-train), write one prediction per line to output_file, and report the accuracy
(classification) or the mean squared error and squared correlation (regression) against the
file's labels, as svm-predict does."""

# LIBSVM 3.37 gives a one-class model with -b 1 this many density marks.
N_DENSITY_MARKS = 10


def make_parser(prog: str) -> argparse.ArgumentParser:
    parser = CommandParser(prog=prog, description=DESCRIPTION, add_help=False,
                           allow_abbrev=False,
                           usage="%(prog)s [options] test_file model_file output_file")
    parser.add_argument("-b", dest="probability", type=int_choice((0, 1)), default=0,
                        metavar="probability_estimates",
                        help="whether to predict probability estimates, 0 or 1 (default 0); "
                             "for one-class SVM only with a model that has density marks "
                             "(LIBSVM 3.37's svm-train -s 2 -b 1)")
    parser.add_argument("-q", dest="quiet", action="store_true", help="quiet mode (no outputs)")
    parser.add_argument("--help", action="help", help="show this help message and exit")
    parser.add_argument("test_file", help="LIBSVM data file")
    parser.add_argument("model_file", help="LIBSVM model file")
    parser.add_argument("output_file", help="where to write the predictions")
    return parser


def probability_kind(model) -> str | None:
    """Which probability information the model carries, as LIBSVM's
    ``svm_check_probability_model`` sees it: 'classifier' (Platt's sigmoids),
    'one_class' (density marks), 'regression' (a Laplace scale) or None.

    Examples
    --------
    >>> from svmx import SVR
    >>> probability_kind(SVR().fit([[0.0], [1.0]], [0.0, 1.0])) is None
    True
    """
    if hasattr(model, "classes_"):
        return "classifier" if np.asarray(model.probA_).size else None
    if type(model).__name__ == "OneClassSVM":
        marks = getattr(model, "prob_density_marks_", None)
        return "one_class" if marks is not None and np.size(marks) else None
    return "regression" if np.asarray(getattr(model, "probA_", ())).size else None


def one_class_probabilities(decision: np.ndarray, marks: np.ndarray) -> np.ndarray:
    """LIBSVM 3.37's one-class probabilities, (P(normal), P(outlier)) per row.

    The density marks cut the decision values into bands: below the first
    mark P(normal) is 0.001, above the last 0.999, and in between ``i / 10``
    with ``i`` the number of marks at or below the decision value; a value
    equal to the last mark finds no band and gets 0, as in LIBSVM.

    Examples
    --------
    >>> one_class_probabilities(np.array([-9.0, 0.0, 9.0]), np.arange(10.0) - 4.5).round(6).tolist()
    [[0.001, 0.999], [0.5, 0.5], [0.999, 0.001]]
    >>> one_class_probabilities(np.array([4.5]), np.arange(10.0) - 4.5).tolist()
    [[0.0, 1.0]]
    """
    marks = np.asarray(marks, dtype=np.float64)
    below = np.searchsorted(marks, decision, side="right")
    normal = np.where(below == marks.size, 0.0, below / float(marks.size))
    normal[decision < marks[0]] = 0.001
    normal[decision > marks[-1]] = 0.999
    return np.column_stack([normal, 1.0 - normal])


def _header(model, probability: bool, kind: str | None) -> list[str]:
    """The output file's first line with -b 1 (none for regression or without -b 1)."""
    if probability and kind == "classifier":
        return ["labels" + "".join(f" {int(label)}" for label in model.classes_)]
    if probability and kind == "one_class":
        return ["label normal outlier"]
    return []


def _predictions(model, X, probability: bool, kind: str | None) -> tuple[np.ndarray, list[str]]:
    """Predicted values and the output file's lines after the header, as svm-predict
    writes them."""
    if probability and kind == "classifier":
        proba = coupled_probabilities(model._libsvm_ovo_values(X, _THREADS), model.probA_,
                                      model.probB_, model.classes_.size)
        # svm-predict -b 1 picks the most probable class (the first one on ties).
        predicted = model.classes_[np.argmax(proba, axis=1)].astype(np.float64)
    elif probability and kind == "one_class":
        decision = model._libsvm_decision(X, _THREADS)
        proba = one_class_probabilities(decision, model.prob_density_marks_)
        predicted = np.where(decision > 0, 1.0, -1.0)
    else:
        predicted = _plain_predictions(model, X)
        return predicted, [f"{value:.17g}" for value in predicted.tolist()]
    lines = [
        f"{label:g}" + "".join(f" {p:g}" for p in row)
        for label, row in zip(predicted.tolist(), proba.tolist(), strict=True)
    ]
    return predicted, lines


# Every core: rows are independent, and each row's value does not depend on the threads.
_THREADS = resolve_threads(-1)


def _plain_predictions(model, X) -> np.ndarray:
    """svm_predict's values: for regressions LIBSVM's own arithmetic (their values are
    written with 17 digits); labels from the fast decision values, with the rows whose
    values are too close to 0 for their rounding to be sure recomputed LIBSVM's way."""
    name = type(model).__name__
    if name in ("SVR", "NuSVR"):
        return model._libsvm_decision(X, _THREADS)
    if name == "OneClassSVM":
        values = _sure_signs(model, X, model._raw_decision(X)[:, np.newaxis],
                             lambda rows: model._libsvm_decision(rows, _THREADS)[:, np.newaxis])
        return np.where(values[:, 0] > 0, 1.0, -1.0)
    values = _sure_signs(model, X, model._ovo_decision(model._check_predict_input(X)),
                         lambda rows: model._libsvm_ovo_values(rows, _THREADS))
    return np.asarray(model.classes_, dtype=np.float64)[
        vote(values, model.classes_.size)]  # the model's order: the file's


def _sure_signs(model, X, values: np.ndarray, exact) -> np.ndarray:
    """``values`` with every row that has a value within `rounding_bound` of 0 replaced by
    ``exact(X[rows])``: the signs are then LIBSVM's."""
    close = np.flatnonzero((np.abs(values) <= rounding_bound(model, X)[:, np.newaxis])
                           .any(axis=1))
    if close.size:
        values[close] = exact(X[close])
    return values


def rounding_bound(model, X) -> np.ndarray:
    """Per row, a bound a million times above the rounding error of the fast decision
    values: 1e-9 (sum |coef| max |K(x, sv)| + max |rho|).

    Examples
    --------
    >>> from svmx import SVC
    >>> model = SVC(kernel="rbf").fit([[0.0], [1.0]], [0, 1])
    >>> bool(rounding_bound(model, np.array([[0.5]]))[0] < 1e-8)
    True
    """
    coef = float(np.abs(model._dual_coef_).sum())
    n_rows = X.shape[0]
    if model.kernel in ("rbf", "sigmoid"):
        largest = np.ones(n_rows)
    elif model.kernel == "precomputed":
        largest = np.asarray(abs(X).max(axis=1).todense() if sp.issparse(X)
                             else np.abs(X).max(axis=1), dtype=np.float64).ravel()
    else:
        vectors = model.support_vectors_
        longest = np.sqrt(squared_norms(vectors).max()) if vectors.shape[0] else 0.0
        dots = np.sqrt(squared_norms(X)) * longest
        largest = dots if model.kernel == "linear" else (
            model._gamma * dots + abs(model.coef0)) ** model.degree
    return 1e-9 * (coef * largest + float(np.abs(model._intercept_).max()))


def report(y: np.ndarray, predicted: np.ndarray, regression: bool) -> list[str]:
    """svm-predict's result lines, from running sums over the samples in file order.

    Examples
    --------
    >>> report(np.array([1.0, -1.0, 1.0]), np.array([1.0, 1.0, 1.0]), False)
    ['Accuracy = 66.6667% (2/3) (classification)']
    >>> report(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 2.0]), True)
    ['Mean squared error = 0.333333 (regression)', 'Squared correlation coefficient = 0.75 (regression)']
    """  # noqa: E501
    correct = total = 0
    error = sum_p = sum_t = sum_pp = sum_tt = sum_pt = 0.0
    for p, t in zip(predicted.tolist(), y.tolist(), strict=True):
        correct += p == t
        error += (p - t) * (p - t)
        sum_p += p
        sum_t += t
        sum_pp += p * p
        sum_tt += t * t
        sum_pt += p * t
        total += 1
    if not regression:
        accuracy = correct / total * 100  # in svm-predict's order of operations
        return [f"Accuracy = {accuracy:g}% ({correct}/{total}) (classification)"]
    numerator = (total * sum_pt - sum_p * sum_t) * (total * sum_pt - sum_p * sum_t)
    denominator = (total * sum_pp - sum_p * sum_p) * (total * sum_tt - sum_t * sum_t)
    with np.errstate(divide="ignore", invalid="ignore"):  # C's 0/0 is nan, x/0 inf
        correlation = float(np.float64(numerator) / np.float64(denominator))
    return [f"Mean squared error = {error / total:g} (regression)",
            f"Squared correlation coefficient = {correlation:g} (regression)"]


def run(args: argparse.Namespace) -> int:
    def info(message: str) -> None:
        if not args.quiet:
            print(message)

    # Sparse support vectors: a dense copy of a text model's would take n_SV x n_features
    # doubles (svm-predict keeps only the listed features, as this does).
    model = load_model(args.model_file, sparse=True)
    kind = probability_kind(model)
    probability = bool(args.probability)
    if probability and kind is None:
        if type(model).__name__ == "OneClassSVM":
            raise ValueError("the model does not support probability estimates (one-class "
                             "models need LIBSVM 3.37's density marks: svm-train -s 2 -b 1)")
        raise ValueError("the model does not support probability estimates (train with -b 1)")
    if not probability and kind is not None:
        info("Model supports probability estimates, but disabled in prediction.")
    if probability and kind == "regression":
        info("Prob. model for test data: target value = predicted value + z,\n"
             f"z: Laplace distribution e^(-|z|/sigma)/(2sigma),sigma={float(model.probA_[0]):g}")
    precomputed = model.kernel == "precomputed"
    X, y = read_data(args.test_file, precomputed=precomputed)
    if precomputed:  # columns beyond the training samples carry nothing
        X = fit_width(X[:, : model.n_features_in_].tocsr(), model.n_features_in_)
    else:
        widen_model(model, X.shape[1])
        X = fit_width(X, model.n_features_in_)
    # X stays sparse (CSR): the estimators predict from it directly.
    lines = _header(model, probability, kind)
    if X.shape[0] == 0:
        predicted = np.empty(0)
    else:
        predicted, body = _predictions(model, X, probability, kind)
        lines += body
    with open(args.output_file, "w", encoding="ascii", newline="\n") as handle:
        handle.write("".join(line + "\n" for line in lines))
    if y.size == 0:
        return 0
    for line in report(y, predicted, type(model).__name__ in ("SVR", "NuSVR")):
        info(line)
    return 0
