"""svm-train's ``-v n``: n-fold cross-validation, with LIBSVM's pooled figures."""

from __future__ import annotations

from typing import Any

import numpy as np

from svmx.model_selection import KFold, StratifiedKFold, clone

__all__ = ["fold_predictions", "make_folds", "regression_figures", "report_lines"]

FOLD_SEED = 0


def make_folds(y: np.ndarray, n_folds: int, classification: bool) -> list[tuple]:
    """Shuffled folds, stratified for classification; at most one fold per sample."""
    if n_folds < 2:
        raise ValueError("n-fold cross validation: n must be >= 2")
    n_folds = min(n_folds, y.size)
    splitter = (StratifiedKFold if classification else KFold)(
        n_splits=n_folds, shuffle=True, random_state=FOLD_SEED
    )
    return list(splitter.split(np.empty((y.size, 0)), y))


def fold_predictions(estimator: Any, X: Any, y: np.ndarray, train: np.ndarray,
                     test: np.ndarray) -> np.ndarray:
    """Fit a copy of ``estimator`` on the training rows and predict the test rows.

    A classifier trained with probability estimates predicts by the largest probability, as
    LIBSVM's cross-validation does. With a precomputed kernel, X is the Gram matrix of all
    the samples.
    """
    model = clone(estimator)
    if model.kernel == "precomputed":  # X is the Gram matrix of all samples
        model.fit(X[np.ix_(train, train)], y[train])
        X_test = X[np.ix_(test, train)]
    else:
        model.fit(X[train], y[train])
        X_test = X[test]
    if getattr(model, "probability", False):
        return model.classes_[np.argmax(model.predict_proba(X_test), axis=1)]
    return model.predict(X_test)


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
