"""svm-train's ``-v n``: LIBSVM's folds and fold models, with its pooled figures.

LIBSVM's ``svm_cross_validation`` draws its folds from the C library's
``rand()``, which svm-train never seeds; :class:`~svmx.preprocessing.GlibcRand`
draws the same numbers, so ``svmx train -v`` makes svm-train's folds, trains
each fold's model on the same rows in the same order and prints the same
figures. For classification (``nr_fold`` below the number of samples) the folds
are stratified: each class, in svm-train's class order, is shuffled and dealt
out to the folds in contiguous runs; otherwise the folds are contiguous runs of
one shuffle of all the samples.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from svmx._cli._data import libsvm_class_order
from svmx._glibc_rand import GlibcRand
from svmx._layout import ovo_pairs, vote

__all__ = ["fit_and_predict_fold", "fold_predictions", "libsvm_folds", "make_folds",
           "regression_figures", "report_lines"]


def libsvm_folds(y: np.ndarray, n_folds: int, stratified: bool,
                 rand: GlibcRand) -> list[tuple[np.ndarray, np.ndarray]]:
    """LIBSVM's ``(training rows, held-out rows)`` of each fold, the training rows in
    the order svm_cross_validation passes them to svm_train.

    Examples
    --------
    >>> folds = libsvm_folds(np.array([1.0, 1.0, -1.0, -1.0]), 2, True, GlibcRand())
    >>> [test.tolist() for _, test in folds]
    [[1, 3], [0, 2]]
    """
    n = y.size
    if stratified:
        order = libsvm_class_order(y)
        grouped = [np.flatnonzero(y == label).tolist() for label in order]
        counts = [len(rows) for rows in grouped]
        shuffled: list[int] = []
        for rows in grouped:
            rand.shuffle_list(rows)
            shuffled.append(rows)
        perm = [row for fold in range(n_folds) for rows, count in zip(shuffled, counts,
                                                                        strict=True)
                for row in rows[fold * count // n_folds:(fold + 1) * count // n_folds]]
        sizes = [sum((fold + 1) * count // n_folds - fold * count // n_folds
                     for count in counts) for fold in range(n_folds)]
        starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.intp)
    else:
        perm = rand.permutation(n).tolist()
        starts = np.array([fold * n // n_folds for fold in range(n_folds + 1)], dtype=np.intp)
    perm_array = np.asarray(perm, dtype=np.intp)
    return [(np.concatenate([perm_array[:begin], perm_array[end:]]), perm_array[begin:end])
            for begin, end in zip(starts[:-1], starts[1:], strict=True)]


def make_folds(y: np.ndarray, n_folds: int, classification: bool,
               rand: GlibcRand | None = None, warn=None) -> list[tuple]:
    """svm-train's folds for ``-v n_folds`` (from a fresh svm-train's ``rand()`` by default).

    More folds than samples become leave-one-out, with LIBSVM's warning.
    """
    if n_folds < 2:
        raise ValueError("n-fold cross validation: n must be >= 2")
    if n_folds > y.size:
        n_folds = y.size
        (warn or (lambda message: print(message, file=sys.stderr)))(
            "WARNING: # folds > # data. Will use # folds = # data instead "
            "(i.e., leave-one-out cross validation)")
    return libsvm_folds(y, n_folds, classification and n_folds < y.size,
                        GlibcRand() if rand is None else rand)


def _libsvm_vote(model: Any, X: Any, order: list) -> np.ndarray:
    """svm_predict's vote in svm-train's class order ``order`` (the first class of that
    order wins a tie), from the model's one-vs-one values over its sorted ``classes_``."""
    classes = model.classes_.tolist()
    position = [classes.index(label) for label in order]
    values = model._ovo_decision(model._check_predict_input(X))  # LIBSVM's sign
    column = {pair: p for p, pair in enumerate(ovo_pairs(len(classes)))}
    # Each pair of `order`, oriented as svm-train trains it.
    reordered = np.column_stack([
        values[:, column[min(i, j), max(i, j)]] * (1.0 if i < j else -1.0)
        for i, j in ((position[a], position[b]) for a, b in ovo_pairs(len(order)))])
    return np.asarray(order)[vote(reordered, len(order))]


def fold_predictions(estimator: Any, X: Any, y: np.ndarray, train: np.ndarray,
                     test: np.ndarray, rand: GlibcRand | None = None) -> np.ndarray:
    """Fit ``estimator`` on the training rows (in that order) and predict the test rows,
    as svm_cross_validation does.

    Classifiers train in svm-train's class order and predict by its vote, or with
    probability estimates by the most probable class (the first of that order on
    ties); one-class models predict +1 for decision values above 0. ``rand`` is
    the stream of LIBSVM's probability cross-validations inside the fit. With a
    precomputed kernel, X is the Gram matrix of all the samples.
    """
    precomputed = estimator.kernel == "precomputed"
    X_train = X[np.ix_(train, train)] if precomputed else X[train]
    X_test = X[np.ix_(test, train)] if precomputed else X[test]
    return fit_and_predict_fold(estimator, X_train, X_test, y[train], rand)


def fit_and_predict_fold(model: Any, X_train: Any, X_test: Any, y_train: np.ndarray,
                         rand: GlibcRand | None = None, previous: Any = None) -> np.ndarray:
    """`fold_predictions` on one fold's rows: ``model`` trains on ``X_train`` (for a
    precomputed kernel, the training rows' Gram block) and predicts ``X_test``.

    ``previous``, a model of the same rows, kernel and weights with another C,
    starts C-SVC's and epsilon-SVR's solver (`svmx._warm_start`): the optimum is the
    same within the tolerance, not the same iterations.
    """
    kind = type(model).__name__
    if kind in ("SVC", "NuSVC"):
        order = libsvm_class_order(y_train)
        if len(order) == 1:  # LIBSVM's model of one class predicts it
            if model.verbose:
                print("Total nSV = 0", flush=True)
            return np.full(X_test.shape[0], order[0], dtype=np.float64)
        if model.probability and rand is not None:
            model.set_params(random_state=rand)
        model._fit_warm(X_train, y_train, None, previous, order)  # previous None: cold
        if model.probability:
            proba = model.predict_proba(X_test)
            columns = [model.classes_.tolist().index(label) for label in order]
            return np.asarray(order)[np.argmax(proba[:, columns], axis=1)]
        return _libsvm_vote(model, X_test, order)
    targets = None if kind == "OneClassSVM" else y_train
    if rand is not None:
        model._fit_with_libsvm_probability(X_train, targets, rand)
    elif previous is not None:
        model._fit_warm(X_train, targets, None, previous)
    else:
        model.fit(X_train, targets)
    if kind == "OneClassSVM":
        return np.where(model.decision_function(X_test) > 0, 1.0, -1.0)
    return np.asarray(model.predict(X_test), dtype=np.float64)


def regression_figures(y: np.ndarray, predicted: np.ndarray) -> tuple[float, float]:
    """Mean squared error and squared correlation coefficient, as LIBSVM reports them."""
    n = y.size
    mse = float(np.sum((predicted - y) ** 2) / n)
    sv, sy = predicted.sum(), y.sum()
    numerator = (n * np.dot(predicted, y) - sv * sy) ** 2
    denominator = (n * np.dot(predicted, predicted) - sv**2) * (n * np.dot(y, y) - sy**2)
    with np.errstate(divide="ignore", invalid="ignore"):
        r2 = float(numerator / denominator)
    return mse, r2


def report_lines(y: np.ndarray, predicted: np.ndarray, regression: bool) -> list[str]:
    """svm-train's result lines for pooled cross-validation predictions.

    Examples
    --------
    >>> report_lines(np.array([1.0, -1.0, 1.0, 1.0]), np.array([1.0, -1.0, -1.0, 1.0]), False)
    ['Cross Validation Accuracy = 75%']
    """
    if regression:
        mse, r2 = regression_figures(y, predicted)
        return [f"Cross Validation Mean squared error = {mse:g}",
                f"Cross Validation Squared correlation coefficient = {r2:g}"]
    accuracy = 100.0 * np.count_nonzero(predicted == y) / y.size
    return [f"Cross Validation Accuracy = {accuracy:g}%"]
