"""Exhaustive grid search over estimator parameters, scored by cross-validation."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from svmx._estimator import BaseEstimator
from svmx._progress import ProgressBar
from svmx._validation import check_fitted

from ._clone import clone, is_classifier
from ._parallel import parallel_map
from ._scoring import Scorer, get_scorer
from ._validation import check_data, fit_and_score, prepare_folds

__all__ = ["GridSearch", "expand_grid", "libsvm_grid"]

ParamGrid = Mapping[str, Sequence[Any]] | Sequence[Mapping[str, Sequence[Any]]]


def expand_grid(param_grid: ParamGrid) -> list[dict[str, Any]]:
    """List every parameter combination of a grid.

    Parameters
    ----------
    param_grid : dict or list of dict
        Maps parameter names to the values to try; a list of such dicts
        is a union of grids. Keys are taken in sorted order, the last one
        varying fastest.

    Returns
    -------
    list of dict

    Examples
    --------
    >>> for params in expand_grid({"gamma": [0.1, 1.0], "C": [1, 10]}):
    ...     print(params)
    {'C': 1, 'gamma': 0.1}
    {'C': 1, 'gamma': 1.0}
    {'C': 10, 'gamma': 0.1}
    {'C': 10, 'gamma': 1.0}
    """
    grids = [param_grid] if isinstance(param_grid, Mapping) else param_grid
    if isinstance(grids, str) or not isinstance(grids, Sequence) or len(grids) == 0:
        raise TypeError("param_grid must be a dict or a non-empty list of dicts")
    candidates = []
    for grid in grids:
        if not isinstance(grid, Mapping):
            raise TypeError(f"param_grid entries must be dicts, got {type(grid).__name__}")
        names = sorted(grid)
        for name in names:
            values = grid[name]
            if isinstance(values, str | bytes) or not hasattr(values, "__len__"):
                raise TypeError(f"param_grid[{name!r}] must be a list of values, got {values!r}")
            if len(values) == 0:
                raise ValueError(f"param_grid[{name!r}] must not be empty")
        for combination in itertools.product(*(list(grid[name]) for name in names)):
            candidates.append(dict(zip(names, combination, strict=True)))
    return candidates


def _inclusive_range(bounds: Sequence[float], name: str) -> np.ndarray:
    try:
        begin, end, step = (float(value) for value in bounds)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be a (begin, end, step) triple of numbers") from error
    if step == 0 or (end - begin) * step < 0:
        raise ValueError(f"{name}: step {step} does not lead from {begin} to {end}")
    count = int(np.floor((end - begin) / step + 1e-9)) + 1
    return begin + step * np.arange(count)


def libsvm_grid(
    log2c: Sequence[float] = (-5, 15, 2), log2g: Sequence[float] = (3, -15, -2)
) -> dict[str, list[float]]:
    """LIBSVM ``grid.py``'s default search ranges for ``C`` and ``gamma``.

    Parameters
    ----------
    log2c : (begin, end, step), default=(-5, 15, 2)
        Exponents of 2 for ``C``, ``end`` included.
    log2g : (begin, end, step), default=(3, -15, -2)
        Exponents of 2 for ``gamma``, ``end`` included.

    Returns
    -------
    dict
        ``{"C": [...], "gamma": [...]}``, ready for :class:`GridSearch`.

    Examples
    --------
    >>> grid = libsvm_grid()
    >>> len(grid["C"]), grid["C"][0], grid["C"][-1]
    (11, 0.03125, 32768.0)
    >>> len(grid["gamma"]), grid["gamma"][0], grid["gamma"][-1]
    (10, 8.0, 3.0517578125e-05)
    """
    exponents_c = _inclusive_range(log2c, "log2c")
    exponents_g = _inclusive_range(log2g, "log2g")
    return {"C": (2.0**exponents_c).tolist(), "gamma": (2.0**exponents_g).tolist()}


class GridSearch(BaseEstimator):
    """Cross-validate every parameter combination of a grid and keep the best.

    Every (candidate, fold) fit is an independent task run through joblib,
    so ``n_jobs`` and any ``joblib.parallel_backend`` (processes, threads, a
    dask cluster) apply. Ties go to the first candidate in grid order.

    Parameters
    ----------
    estimator : object
        Any svmx or scikit-learn-protocol estimator.
    param_grid : dict or list of dict
        Parameter values to try, see :func:`expand_grid`.
    cv : int, splitter or iterable of (train, test), default=5
        As in :func:`cross_validate`; the same folds serve every candidate.
    scoring : None, str or callable, default=None
        As in :func:`cross_validate`; greater is better.
    n_jobs : int, optional
        Parallel jobs; None defers to the active joblib backend.
    refit : bool, default=True
        Fit ``best_estimator_`` on all of ``X`` with the best parameters.
    verbose : bool, default=False
        Draw a progress bar on standard error.

    Attributes
    ----------
    best_params_ : dict
        Parameters of the candidate with the highest mean score.
    best_score_ : float
        Its mean cross-validation score.
    best_index_ : int
        Its position in ``results_["params"]``.
    best_estimator_ : object
        A copy of ``estimator`` with ``best_params_``, fitted on all of
        ``X`` (only when ``refit=True``).
    results_ : dict
        One entry per candidate, ready for ``pandas.DataFrame``:
        ``params``, ``param_<name>`` (None where a grid lacks the name),
        ``split<k>_test_score``, ``mean_test_score``, ``std_test_score``,
        ``rank_test_score`` (1 is best; ties share a rank),
        ``mean_fit_time``, ``std_fit_time`` and ``mean_score_time``.

    Examples
    --------
    A nearest-centroid classifier whose ``shrink`` pulls centroids to 0:

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
    >>> X = np.array([[2.0], [2.2], [3.0], [3.2], [2.1], [3.1]])
    >>> y = np.array([0, 0, 1, 1, 0, 1])
    >>> search = GridSearch(NearestCentroid(), {"shrink": [0.0, 0.5, 0.9]}, cv=3).fit(X, y)
    >>> search.best_params_, search.best_score_
    ({'shrink': 0.0}, 1.0)
    >>> search.results_["rank_test_score"].tolist()  # tied candidates share a rank
    [1, 2, 2]
    >>> search.predict(np.array([[2.05], [3.05]])).tolist()
    [0, 1]
    """

    def __init__(
        self,
        estimator: Any,
        param_grid: ParamGrid,
        *,
        cv: Any = 5,
        scoring: str | Scorer | None = None,
        n_jobs: int | None = None,
        refit: bool = True,
        verbose: bool = False,
    ) -> None:
        self.estimator = estimator
        self.param_grid = param_grid
        self.cv = cv
        self.scoring = scoring
        self.n_jobs = n_jobs
        self.refit = refit
        self.verbose = verbose

    @property
    def _estimator_type(self) -> str | None:
        # A search over a classifier is a classifier, so nested
        # cross-validation stratifies its outer folds too.
        return "classifier" if is_classifier(self.estimator) else None

    def fit(self, X: npt.ArrayLike | sp.spmatrix, y: npt.ArrayLike | None = None) -> GridSearch:
        """Run the search.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Data; rows are taken with ``X[indices]``.
        y : array-like of shape (n_samples,), optional
            Targets.

        Returns
        -------
        self
        """
        clone(self.estimator)  # fail early on an object that cannot be copied
        candidates = expand_grid(self.param_grid)
        X, y, scorer, n_jobs, splits = prepare_folds(
            self.estimator, X, y, self.cv, self.scoring, self.n_jobs
        )
        tasks = [
            (self.estimator, X, y, train, test, scorer, params)
            for params in candidates
            for train, test in splits
        ]
        with ProgressBar(len(tasks), "GridSearch", enabled=self.verbose) as progress:
            outcomes = parallel_map(fit_and_score, tasks, n_jobs, progress)
        table = np.array(outcomes, dtype=np.float64).reshape(len(candidates), len(splits), 3)
        self.results_ = self._tabulate(candidates, table)
        self.best_index_ = int(np.argmax(self.results_["mean_test_score"]))
        self.best_params_ = dict(candidates[self.best_index_])
        self.best_score_ = float(self.results_["mean_test_score"][self.best_index_])
        if self.refit:
            model = clone(self.estimator).set_params(**self.best_params_)
            self.best_estimator_ = model.fit(X) if y is None else model.fit(X, y)
        return self

    @staticmethod
    def _tabulate(candidates: list[dict[str, Any]], table: np.ndarray) -> dict[str, Any]:
        scores, fit_times, score_times = table[..., 0], table[..., 1], table[..., 2]
        results: dict[str, Any] = {"params": candidates}
        for name in sorted({name for params in candidates for name in params}):
            results[f"param_{name}"] = [params.get(name) for params in candidates]
        for fold in range(scores.shape[1]):
            results[f"split{fold}_test_score"] = scores[:, fold]
        mean = scores.mean(axis=1)
        results["mean_test_score"] = mean
        results["std_test_score"] = scores.std(axis=1)
        results["rank_test_score"] = 1 + (mean[None, :] > mean[:, None]).sum(axis=1)
        results["mean_fit_time"] = fit_times.mean(axis=1)
        results["std_fit_time"] = fit_times.std(axis=1)
        results["mean_score_time"] = score_times.mean(axis=1)
        return results

    def _fitted_model(self) -> Any:
        check_fitted(self, "results_")
        if not hasattr(self, "best_estimator_"):
            raise AttributeError("best_estimator_ exists only when GridSearch(refit=True)")
        return self.best_estimator_

    def predict(self, X: npt.ArrayLike | sp.spmatrix) -> np.ndarray:
        """Predict with ``best_estimator_``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._fitted_model().predict(X)

    def score(self, X: npt.ArrayLike | sp.spmatrix, y: npt.ArrayLike) -> float:
        """Score ``best_estimator_`` on ``X`` and ``y`` with the search's scoring.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        float
        """
        model = self._fitted_model()
        X, y = check_data(X, y)
        return float(get_scorer(self.scoring, model)(model, X, y))
