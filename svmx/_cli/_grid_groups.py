"""``svmx grid --share-kernels``: each gamma's candidates share one kernel matrix.

grid.py runs one svm-train per candidate, and each fold of it computes its own kernel
values. With ``--share-kernels`` one task per gamma computes the Gram matrix over all
the samples once; every fold trains on its block of it (svm-train's folds, its rows in
svm-train's order, its class order) and predicts from the held-out rows' block, with the
C values in increasing order, C-SVC and epsilon-SVR each started from the previous C's
solution scaled into the new box. C-SVC (``-s 0``) and epsilon-SVR (``-s 3``) folds are
solved in the binding (`svmx._libsvm.ClassifierFold`, `RegressorFold`: the classes in
svm-train's order, so that its vote breaks ties as svm-predict does), the others by a
warm-started fit per C (`svmx._warm_start`). Each model is the same optimum
within the tolerance ``-e``, not the same iterations, so a held-out row on the margin
can fall the other way and a rate can differ from grid.py's by a row or so; that is why
the option is not the default.

It applies to the built-in kernels without ``-b 1`` (whose folds draw from one rand()
stream per candidate), when the float64 Gram matrix and a fold's blocks fit in the cache
``-m`` (`svmx.model_selection._kernel_groups.group_bytes`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from svmx._cli._crossval import fit_and_predict_fold
from svmx._cli._data import libsvm_class_order
from svmx._shared_gram import gram_matrix
from svmx._specs import BYTES_PER_MB
from svmx._warm_start import warm_starts_apply
from svmx.model_selection._clone import clone
from svmx.model_selection._fold_paths import FoldAlongC, FoldStarts
from svmx.model_selection._kernel_groups import group_bytes

__all__ = ["gamma_group_predictions", "why_not_shared"]


def why_not_shared(estimator: Any, n_samples: int) -> str | None:
    """Why ``--share-kernels`` does not apply to `estimator`'s search, or None.

    Examples
    --------
    >>> from svmx import SVC
    >>> why_not_shared(SVC(kernel="precomputed"), 10)
    'the kernel is precomputed'
    >>> why_not_shared(SVC(cache_size=1), 1000)
    'the 1000 x 1000 kernel matrix and its fold blocks need 15 MB, more than -m 1'
    >>> why_not_shared(SVC(), 1000) is None
    True
    """
    if estimator.kernel == "precomputed":
        return "the kernel is precomputed"
    if getattr(estimator, "probability", False):
        return "-b 1 draws each candidate's probability folds from rand()"
    needed = group_bytes(n_samples)
    if needed > float(estimator.cache_size) * BYTES_PER_MB:
        return (f"the {n_samples} x {n_samples} kernel matrix and its fold blocks need "
                f"{needed / BYTES_PER_MB:.0f} MB, more than -m {estimator.cache_size:g}")
    return None


def gamma_group_predictions(estimator: Any, X: Any, y: np.ndarray, folds: list[tuple],
                            gamma: float | None,
                            c_values: list[float | None]) -> list[list[np.ndarray]]:
    """Every fold's held-out predictions of every C for one gamma, on one Gram matrix.

    Returns, per entry of ``c_values`` (in their order), per fold, what
    `svmx._cli._crossval.fold_predictions` returns for that candidate and fold.

    Examples
    --------
    >>> from svmx import SVC
    >>> X = np.array([[0.0], [0.2], [0.4], [1.6], [1.8], [2.0]])
    >>> y = np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])
    >>> folds = [(np.array([1, 2, 4, 5]), np.array([0, 3])),
    ...          (np.array([0, 3, 2, 5]), np.array([1, 4]))]
    >>> out = gamma_group_predictions(SVC(solver="smo"), X, y, folds, 1.0, [1.0, -1.0])
    >>> [[fold.tolist() for fold in per_c] for per_c in out]
    [[[1.0, -1.0], [1.0, -1.0]], [[1.0, -1.0], [1.0, -1.0]]]
    """
    with_gamma = clone(estimator).set_params(**({} if gamma is None else {"gamma": 2.0**gamma}))
    kernel = with_gamma._training_kernel(X)
    gram = gram_matrix(X, kernel)
    increasing = sorted(range(len(c_values)),
                        key=lambda k: -np.inf if c_values[k] is None else c_values[k])
    results: list[list[np.ndarray]] = [[] for _ in c_values]
    warm = warm_starts_apply(with_gamma.max_iter, kernel)
    starts = FoldStarts()
    for train, test in folds:
        along_c = _fold_along_c(with_gamma, gram, warm, (train, test), y[train], c_values,
                                increasing, starts)
        if along_c is not None:
            for k, predicted in enumerate(along_c):
                results[k].append(predicted)
            continue
        K_train, K_test = gram[np.ix_(train, train)], gram[np.ix_(test, train)]
        y_train = y[train]
        previous = None
        for k in increasing:
            params = {"kernel": "precomputed"}
            if c_values[k] is not None and "C" in with_gamma.get_params():
                params["C"] = 2.0 ** c_values[k]
            model = clone(with_gamma).set_params(**params)
            results[k].append(fit_and_predict_fold(model, K_train, K_test, y_train,
                                                   previous=previous))
            previous = model if warm and hasattr(model, "support_") else None
    return results


def _fold_along_c(estimator: Any, gram: np.ndarray, seeded: bool, fold_rows: tuple,
                  y_train: np.ndarray, c_values: list[float | None],
                  increasing: list[int], starts: FoldStarts) -> list[np.ndarray] | None:
    """One fold's held-out predictions for every C (in ``c_values``' order), solved in
    the binding in ``increasing`` order, the classes in svm-train's order; None where
    that does not serve (a formulation other than C-SVC and epsilon-SVR, a verbose
    estimator, a fold of one class)."""
    kind = type(estimator).__name__
    if kind not in ("SVC", "SVR") or estimator.verbose:
        return None
    order = libsvm_class_order(y_train) if kind == "SVC" else None
    if order is not None and len(order) < 2:
        return None
    train, test = fold_rows
    fold = FoldAlongC(gram)
    fold.pose(estimator, train, y_train, None, seeded, order)
    predictions: list[np.ndarray] = [np.empty(0)] * len(c_values)
    for k in increasing:
        fold.solve(float(estimator.C) if c_values[k] is None else 2.0 ** c_values[k], starts)
        predictions[k] = np.asarray(fold.predict(test), dtype=np.float64)
    return predictions
