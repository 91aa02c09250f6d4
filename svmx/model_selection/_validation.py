"""Cross-validation: fit on each training fold, score on its validation fold."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from svmx._progress import ProgressBar

from ._clone import clone, is_classifier
from ._parallel import check_n_jobs, parallel_map
from ._scoring import Scorer, get_scorer
from ._split import check_cv, n_rows

__all__ = ["CrossValidationResult", "cross_validate"]


def check_data(X: Any, y: Any) -> tuple[Any, Any]:
    """Make ``X`` and ``y`` row-indexable with an index array, and check their lengths."""
    if sp.issparse(X):
        if X.format not in ("csr", "csc"):
            X = X.tocsr()
    elif not hasattr(X, "iloc"):
        X = np.asarray(X)
        if X.ndim == 0:
            raise ValueError("X must have at least one dimension (one row per sample)")
    if n_rows(X) == 0:
        raise ValueError("X must not be empty")
    if y is not None:
        if not hasattr(y, "iloc"):
            y = np.asarray(y)
        if n_rows(y) != n_rows(X):
            raise ValueError(f"y has {n_rows(y)} rows but X has {n_rows(X)}")
    return X, y


def take_rows(data: Any, rows: np.ndarray) -> Any:
    """Select rows of an array, sparse matrix or pandas object."""
    if data is None:
        return None
    if hasattr(data, "iloc"):
        return data.iloc[rows]
    return data[rows]


def prepare_folds(
    estimator: Any, X: Any, y: Any, cv: Any, scoring: Any, n_jobs: Any
) -> tuple[Any, Any, Scorer, int | None, list[tuple[np.ndarray, np.ndarray]]]:
    """Check what :func:`cross_validate` and the grid search share, and cut the folds.

    Returns
    -------
    X, y, scorer, n_jobs, splits
        The row-indexable data, the scorer, the checked job count and the
        list of ``(train, test)`` index pairs.
    """
    clone(estimator)  # fail early, in the caller, on an object that cannot be copied
    X, y = check_data(X, y)
    scorer = get_scorer(scoring, estimator)
    n_jobs = check_n_jobs(n_jobs)
    splitter = check_cv(cv, y, classifier=is_classifier(estimator))
    return X, y, scorer, n_jobs, list(splitter.split(X, y))


def fit_and_score(
    estimator: Any,
    X: Any,
    y: Any,
    train: np.ndarray,
    test: np.ndarray,
    scorer: Scorer,
    params: dict[str, Any],
) -> tuple[float, float, float]:
    """Fit a fresh copy of ``estimator`` with ``params`` on ``train``; score it on ``test``.

    Returns
    -------
    score, fit_time, score_time : float
    """
    model = clone(estimator)
    if params:
        model.set_params(**params)
    start = time.perf_counter()
    if y is None:
        model.fit(take_rows(X, train))
    else:
        model.fit(take_rows(X, train), take_rows(y, train))
    fit_time = time.perf_counter() - start
    start = time.perf_counter()
    score = float(scorer(model, take_rows(X, test), take_rows(y, test)))
    return score, fit_time, time.perf_counter() - start


@dataclass(frozen=True)
class CrossValidationResult:
    """Per-fold scores and timings of :func:`cross_validate`.

    Attributes
    ----------
    test_scores : ndarray of shape (n_splits,)
        Score on each validation fold (greater is better).
    fit_times : ndarray of shape (n_splits,)
        Seconds spent fitting on each training fold.
    score_times : ndarray of shape (n_splits,)
        Seconds spent scoring each validation fold.

    Examples
    --------
    >>> import numpy as np
    >>> result = CrossValidationResult(np.array([0.5, 1.0]), np.zeros(2), np.zeros(2))
    >>> result.mean(), result.min(), result.max()
    (0.75, 0.5, 1.0)
    """

    test_scores: np.ndarray
    fit_times: np.ndarray
    score_times: np.ndarray

    def mean(self) -> float:
        """Mean of the fold scores."""
        return float(np.mean(self.test_scores))

    def std(self) -> float:
        """Population standard deviation of the fold scores."""
        return float(np.std(self.test_scores))

    def min(self) -> float:
        """Lowest fold score."""
        return float(np.min(self.test_scores))

    def max(self) -> float:
        """Highest fold score."""
        return float(np.max(self.test_scores))

    def __len__(self) -> int:
        return int(self.test_scores.shape[0])

    def __str__(self) -> str:
        return f"{self.mean():.4f} +/- {self.std():.4f} over {len(self)} folds"


def cross_validate(
    estimator: Any,
    X: npt.ArrayLike | sp.spmatrix,
    y: npt.ArrayLike | None = None,
    *,
    cv: Any = 5,
    scoring: str | Scorer | None = None,
    n_jobs: int | None = None,
    verbose: bool = False,
) -> CrossValidationResult:
    """Score an estimator on each fold of a cross-validation.

    For each ``(train, test)`` split, a fresh copy of ``estimator`` (see
    :func:`~svmx.model_selection.clone`) is fitted on ``X[train]`` and scored
    on ``X[test]``. Fits run through joblib, so ``n_jobs`` and any
    ``joblib.parallel_backend`` (threads, processes, dask) apply.

    Parameters
    ----------
    estimator : object
        Any svmx or scikit-learn-protocol estimator (``get_params``,
        ``set_params``, ``fit``).
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Data; rows are taken with ``X[indices]``.
    y : array-like of shape (n_samples,), optional
        Targets.
    cv : int, splitter or iterable of (train, test), default=5
        An int gives stratified folds for classifiers, plain folds otherwise.
    scoring : None, str or callable, default=None
        None uses ``estimator.score``; ``'accuracy'``,
        ``'neg_mean_squared_error'`` and ``'r2'`` are built in; a callable is
        called as ``scoring(estimator, X_test, y_test)``.
    n_jobs : int, optional
        Parallel jobs; None defers to the active joblib backend (one job
        by default), -1 uses all cores.
    verbose : bool, default=False
        Draw a progress bar on standard error.

    Returns
    -------
    CrossValidationResult

    Examples
    --------
    A nearest-centroid classifier written for the example:

    >>> import numpy as np
    >>> class NearestCentroid:
    ...     def __init__(self, shrink=0.0):
    ...         self.shrink = shrink
    ...     def get_params(self, deep=True):
    ...         return {"shrink": self.shrink}
    ...     def set_params(self, **params):
    ...         self.__dict__.update(params)
    ...         return self
    ...     def fit(self, X, y):
    ...         self.classes_ = np.unique(y)
    ...         centres = [X[y == c].mean(axis=0) for c in self.classes_]
    ...         self.centroids_ = (1 - self.shrink) * np.array(centres)
    ...         return self
    ...     def predict(self, X):
    ...         distances = ((X[:, None, :] - self.centroids_) ** 2).sum(axis=2)
    ...         return self.classes_[distances.argmin(axis=1)]
    ...     def score(self, X, y):
    ...         return float(np.mean(self.predict(X) == y))
    >>> X = np.array([[0.0], [0.2], [1.0], [1.2], [0.1], [1.1]])
    >>> y = np.array([0, 0, 1, 1, 0, 1])
    >>> result = cross_validate(NearestCentroid(), X, y, cv=3)
    >>> result.test_scores.tolist(), result.mean()
    ([1.0, 1.0, 1.0], 1.0)
    """
    X, y, scorer, n_jobs, splits = prepare_folds(estimator, X, y, cv, scoring, n_jobs)
    tasks = [(estimator, X, y, train, test, scorer, {}) for train, test in splits]
    with ProgressBar(len(tasks), "cross_validate", enabled=verbose) as progress:
        outcomes = parallel_map(fit_and_score, tasks, n_jobs, progress)
    scores, fit_times, score_times = (np.array(column) for column in zip(*outcomes, strict=True))
    return CrossValidationResult(scores, fit_times, score_times)
