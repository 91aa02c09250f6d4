"""Exhaustive grid search over estimator parameters, scored by cross-validation (GridSearchCV)."""

from __future__ import annotations

import itertools
import numbers
import time
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from svmx._estimator import BaseEstimator, available_if
from svmx._progress import ProgressBar
from svmx._validation import check_fitted

from ._clone import clone, clone_params, is_classifier
from ._kernel_groups import fit_kernel_group, plan_kernel_groups
from ._parallel import parallel_map
from ._results import tabulate
from ._scoring import prediction_scorer, reads_only_predictions
from ._validation import (
    FitOptions,
    check_data,
    check_error_score,
    fit_and_score,
    prepare_folds,
    warn_failed_fits,
)

__all__ = ["GridSearch", "GridSearchCV", "expand_grid", "libsvm_grid"]

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
        keys = [key for key in grid if not isinstance(key, str)]
        if keys:
            raise TypeError(f"param_grid's keys must be parameter names (str), got {keys[0]!r}")
        names = sorted(grid)
        for name in names:
            values = grid[name]
            # A set or a dict has no order: the candidates' order (and the first of
            # tied candidates, which the search picks) would depend on hashing.
            if (isinstance(values, str | bytes | AbstractSet | Mapping)
                    or not hasattr(values, "__len__")):
                raise TypeError(f"param_grid[{name!r}] must be a list or 1-D array of values, "
                                f"got {values!r}")
            if isinstance(values, np.ndarray) and values.ndim != 1:
                raise ValueError(f"param_grid[{name!r}] must be one-dimensional, got an array "
                                 f"of shape {values.shape}")
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


def _refit_metric(refit: Any, scorer: Any) -> str:
    """The metric that picks the best candidate: 'score', or refit's name for several."""
    if not isinstance(scorer, dict):
        return "score"
    if callable(refit):
        return ""
    if isinstance(refit, str) and refit in scorer:
        return refit
    if refit is False:
        return ""
    raise ValueError(
        "For multi-metric scoring, the parameter refit must be set to a scorer key or a "
        f"callable to refit an estimator with the best parameter setting on the whole data "
        f"and make the best_* attributes available for that metric. Got refit={refit!r}, "
        f"scorer keys {list(scorer)}."
    )


def _best_index(refit: Any, metric: str, results: dict[str, Any]) -> int:
    if callable(refit):
        index = refit(results)
        if not isinstance(index, numbers.Integral):
            raise TypeError("best_index_ returned is not an integer")
        if not 0 <= index < len(results["params"]):
            raise IndexError("best_index_ index out of range")
        return int(index)
    return int(results[f"rank_test_{metric}"].argmin())


def _delegates(name: str, attribute: str | None = None) -> Callable[[GridSearch], bool]:
    """The availability check of a method `name` that ``best_estimator_`` answers, with
    ``best_estimator_``'s `attribute` (by default `name`)."""

    def check(self: GridSearch) -> bool:
        if not self.refit:
            raise AttributeError(
                f"This {type(self).__name__} instance was initialized with `refit=False`. "
                f"{name} is available only after refitting on the best parameters. You can "
                "refit an estimator manually using the `best_params_` attribute"
            )
        model = getattr(self, "best_estimator_", self.estimator)
        getattr(model, attribute or name)  # raises AttributeError when the estimator lacks it
        return True

    return check


class GridSearch(BaseEstimator):
    """Cross-validate every parameter combination of a grid, as scikit-learn's GridSearchCV.

    Same parameters, defaults and fitted attributes as
    ``sklearn.model_selection.GridSearchCV`` (``cv_results_`` in its layout),
    and ``GridSearchCV`` is an alias. Every (candidate, fold) fit is an
    independent task run through joblib, so ``n_jobs`` and any
    ``joblib.parallel_backend`` (processes, threads, a dask cluster) apply.
    Ties go to the first candidate in grid order.

    Parameters
    ----------
    estimator : object
        Any svmx or scikit-learn-protocol estimator.
    param_grid : dict or list of dict
        Parameter values to try, see :func:`expand_grid`.
    scoring : None, str, callable, list, tuple or dict, default=None
        As in :func:`cross_validate`; greater is better.
    n_jobs : int, optional
        Parallel jobs; None means 1 unless a joblib backend says otherwise.
    refit : bool, str or callable, default=True
        Fit ``best_estimator_`` on all of ``X`` with the best parameters. With
        several metrics, the name of the one that picks the best; a callable
        takes ``cv_results_`` and returns the best index.
    cv : None, int, splitter or iterable of (train, test), default=None
        As in :func:`cross_validate` (None: 5 folds); the same folds serve every candidate.
    verbose : int or bool, default=0
        Draw a progress bar on standard error when true.
    pre_dispatch : int or str, default="2*n_jobs"
        How many tasks joblib dispatches ahead.
    error_score : 'raise' or float, default=np.nan
        The score of a fit that raised, or ``'raise'`` to let the error through.
    return_train_score : bool, default=False
        Also score every fit on its training fold.
    share_kernels : bool, default=True
        For svmx's estimators with a built-in kernel, group the candidates by
        kernel: each group's task computes the Gram matrix once for all its
        folds and C values (with a fold's blocks of it, twice its float64 size
        must fit in the estimator's ``cache_size``, else the search fits each
        candidate from scratch) and solves each fold's C
        values in increasing order, C-SVC and epsilon-SVR warm-started from the
        previous C (alpha seeding) where the kernel is positive semi-definite; the
        optimum is the same within ``tol``, and so the choice (up to a near tie).
        With a ``max_iter`` limit (a stopped solve's end turns on its kernel values'
        last bits) the search fits each candidate from scratch.
        The scorers then see the test rows' kernel values in place of X, so a
        ``scoring`` callable other than scikit-learn's scorer objects (which may
        read the features itself) keeps one task per candidate and fold. Where the
        score is a metric of the predictions alone (None, or a name in
        `svmx.model_selection._scoring.PREDICTION_METRICS`) and the estimator is
        `svmx.SVC` (without ``probability`` or ``break_ties``) or `svmx.SVR`, a
        fold's C values are solved and predicted in the compiled binding without an
        estimator per fit. An svmx extension (False: scikit-learn's one task per
        candidate and fold).

    Attributes
    ----------
    cv_results_ : dict of arrays
        One entry per candidate, in scikit-learn's layout, ready for ``pandas.DataFrame``:
        ``mean_fit_time``, ``std_fit_time``, ``mean_score_time``, ``std_score_time``,
        ``param_<name>`` (masked arrays, masked where a grid lacks the name),
        ``params``, ``split<k>_test_score``, ``mean_test_score``, ``std_test_score``,
        ``rank_test_score`` (1 is best; ties share a rank), and the ``train``
        columns with ``return_train_score``; ``<metric>`` replaces ``score``
        for several metrics.
    best_params_ : dict
        Parameters of the best candidate.
    best_score_ : float
        Its mean cross-validation score (not with a callable ``refit``).
    best_index_ : int
        Its position in ``cv_results_["params"]``.
    best_estimator_ : object
        A copy of ``estimator`` with ``best_params_``, fitted on all of
        ``X`` (only when ``refit`` is not False).
    refit_time_ : float
        Seconds spent fitting ``best_estimator_``.
    scorer_ : callable or dict
        The scorer(s) used.
    n_splits_ : int
        Number of folds.
    multimetric_ : bool
        Whether several metrics were scored.

    Examples
    --------
    >>> import numpy as np
    >>> from svmx import SVC
    >>> rng = np.random.RandomState(0)
    >>> X = np.vstack([rng.randn(20, 2) - 1, rng.randn(20, 2) + 1])
    >>> y = np.repeat([0, 1], 20)
    >>> search = GridSearch(SVC(), {"C": [0.01, 1.0, 100.0]}, cv=4).fit(X, y)
    >>> search.best_params_, round(search.best_score_, 3)
    ({'C': 0.01}, 0.825)
    >>> search.cv_results_["rank_test_score"].tolist()  # ties share a rank; the first wins
    [1, 1, 3]
    >>> search.predict(np.array([[-1.5, -1.0], [1.2, 1.0]])).tolist()
    [0, 1]
    """

    def __init__(
        self,
        estimator: Any,
        param_grid: ParamGrid,
        *,
        scoring: Any = None,
        n_jobs: int | None = None,
        refit: bool | str | Callable[[dict[str, Any]], int] = True,
        cv: Any = None,
        verbose: int | bool = 0,
        pre_dispatch: int | str = "2*n_jobs",
        error_score: Any = np.nan,
        return_train_score: bool = False,
        share_kernels: bool = True,
    ) -> None:
        self.estimator = estimator
        self.param_grid = param_grid
        self.scoring = scoring
        self.n_jobs = n_jobs
        self.refit = refit
        self.cv = cv
        self.verbose = verbose
        self.pre_dispatch = pre_dispatch
        self.error_score = error_score
        self.return_train_score = return_train_score
        self.share_kernels = share_kernels

    @property
    def _estimator_type(self) -> str | None:
        # A search over a classifier is a classifier, so nested
        # cross-validation stratifies its outer folds too.
        return "classifier" if is_classifier(self.estimator) else None

    def __sklearn_tags__(self):
        from sklearn.utils import get_tags

        tags = super().__sklearn_tags__()
        inner = get_tags(self.estimator)
        tags.estimator_type = inner.estimator_type
        tags.classifier_tags = inner.classifier_tags
        tags.regressor_tags = inner.regressor_tags
        tags.target_tags.required = inner.target_tags.required
        tags.input_tags.pairwise = inner.input_tags.pairwise
        tags.input_tags.sparse = inner.input_tags.sparse
        return tags

    def fit(self, X: npt.ArrayLike | sp.spmatrix, y: npt.ArrayLike | None = None,
            **params: Any) -> GridSearch:
        """Run the search.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Data; rows are taken with ``X[indices]``.
        y : array-like of shape (n_samples,), optional
            Targets.
        **params
            ``groups`` goes to the splitter; the rest to ``estimator.fit``
            (per-sample values such as ``sample_weight`` cut to each fold).

        Returns
        -------
        self
        """
        clone(self.estimator)  # fail early on an object that cannot be copied
        error_score = check_error_score(self.error_score)
        candidates = expand_grid(self.param_grid)
        groups = params.pop("groups", None)
        X, y, scorer, n_jobs, splits = prepare_folds(
            self.estimator, X, y, self.cv, self.scoring, self.n_jobs, groups
        )
        metric = _refit_metric(self.refit, scorer)
        # As scikit-learn's search, sample_weight also weights the folds' scores.
        weights = params.get("sample_weight")
        options = FitOptions(params, error_score, bool(self.return_train_score),
                             score_params=None if weights is None else {"sample_weight": weights})
        outcomes = self._run(X, y, candidates, splits, scorer, options, n_jobs, params)
        warn_failed_fits(outcomes, self.error_score)
        self.cv_results_ = tabulate(candidates, outcomes, len(splits), self.return_train_score)
        self.scorer_ = scorer
        self.multimetric_ = isinstance(scorer, dict)
        self.n_splits_ = len(splits)
        if self.refit or not self.multimetric_:
            self.best_index_ = _best_index(self.refit, metric, self.cv_results_)
            if not callable(self.refit):
                self.best_score_ = float(self.cv_results_[f"mean_test_{metric}"][self.best_index_])
            self.best_params_ = dict(candidates[self.best_index_])
        if self.refit:
            self._refit(X, y, params)
        return self

    def _run(self, X: Any, y: Any, candidates: list[dict[str, Any]], splits: list,
             scorer: Any, options: FitOptions, n_jobs: int | None,
             params: dict[str, Any]) -> list[dict[str, Any]]:
        """Every (candidate, fold) outcome, candidate-major: one task per kernel group
        when the candidates can share kernels, else one per candidate and fold. A
        group's scorer sees kernel matrices, so a scorer that may read X itself (a
        callable other than scikit-learn's scorers) keeps one task per fit."""
        groups = (plan_kernel_groups(self.estimator, candidates, X, params)
                  if self.share_kernels and reads_only_predictions(self.scoring) else None)
        if groups is None:
            tasks = [(self.estimator, X, y, train, test, scorer, candidate, options)
                     for candidate in candidates for train, test in splits]
            with ProgressBar(len(tasks), type(self).__name__,
                             enabled=bool(self.verbose)) as progress:
                return parallel_map(fit_and_score, tasks, n_jobs, progress, self.pre_dispatch)
        by_predictions = prediction_scorer(self.scoring, is_classifier(self.estimator))
        tasks = [(self.estimator, X, y, splits, [candidates[i] for i in group.members],
                  scorer, options, by_predictions) for group in groups]
        fits = [len(group.members) * len(splits) for group in groups]
        with ProgressBar(sum(fits), type(self).__name__,
                         enabled=bool(self.verbose)) as progress:
            per_group = parallel_map(fit_kernel_group, tasks, n_jobs, progress,
                                     self.pre_dispatch, steps=fits)
        outcomes: list[dict[str, Any]] = [{} for _ in range(len(candidates) * len(splits))]
        for group, results in zip(groups, per_group, strict=True):
            for member, folds in zip(group.members, results, strict=True):
                outcomes[member * len(splits):(member + 1) * len(splits)] = folds
        return outcomes

    def _refit(self, X: Any, y: Any, params: dict[str, Any]) -> None:
        model = clone(self.estimator).set_params(**clone_params(self.best_params_))
        start = time.perf_counter()
        self.best_estimator_ = model.fit(X, **params) if y is None else model.fit(X, y, **params)
        self.refit_time_ = time.perf_counter() - start
        if hasattr(self.best_estimator_, "n_features_in_"):
            self.n_features_in_ = self.best_estimator_.n_features_in_
        if hasattr(self.best_estimator_, "feature_names_in_"):
            self.feature_names_in_ = self.best_estimator_.feature_names_in_

    def _fitted_model(self) -> Any:
        check_fitted(self, "cv_results_")
        return self.best_estimator_

    @property
    def classes_(self) -> np.ndarray:
        """The class labels of ``best_estimator_``."""
        _delegates("classes_")(self)
        return self._fitted_model().classes_

    @available_if("_check_predict")
    def predict(self, X: npt.ArrayLike | sp.spmatrix) -> np.ndarray:
        """``best_estimator_.predict(X)``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._fitted_model().predict(X)

    @available_if("_check_decision_function")
    def decision_function(self, X: npt.ArrayLike | sp.spmatrix) -> np.ndarray:
        """``best_estimator_.decision_function(X)``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray
        """
        return self._fitted_model().decision_function(X)

    @available_if("_check_predict_proba")
    def predict_proba(self, X: npt.ArrayLike | sp.spmatrix) -> np.ndarray:
        """``best_estimator_.predict_proba(X)``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return self._fitted_model().predict_proba(X)

    @available_if("_check_predict_log_proba")
    def predict_log_proba(self, X: npt.ArrayLike | sp.spmatrix) -> np.ndarray:
        """``best_estimator_.predict_log_proba(X)``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return self._fitted_model().predict_log_proba(X)

    @available_if("_check_score_samples")
    def score_samples(self, X: npt.ArrayLike | sp.spmatrix) -> np.ndarray:
        """``best_estimator_.score_samples(X)``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._fitted_model().score_samples(X)

    @available_if("_check_transform")
    def transform(self, X: npt.ArrayLike | sp.spmatrix) -> Any:
        """``best_estimator_.transform(X)``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        The transformed X.
        """
        return self._fitted_model().transform(X)

    @available_if("_check_inverse_transform")
    def inverse_transform(self, X: Any) -> Any:
        """``best_estimator_.inverse_transform(X)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features_out)

        Returns
        -------
        X in the original space.
        """
        return self._fitted_model().inverse_transform(X)

    def score(self, X: npt.ArrayLike | sp.spmatrix, y: npt.ArrayLike | None = None,
              **params: Any) -> float:
        """Score ``best_estimator_`` on ``X`` and ``y`` with the refit metric's scorer.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), optional
        **params
            Passed to the scorer (``sample_weight``, say).

        Returns
        -------
        float
        """
        _delegates("score", "score" if self.scoring is None else "fit")(self)
        model = self._fitted_model()
        X, y = check_data(X, y)
        scorer = self.scorer_
        if isinstance(scorer, dict):
            scorer = scorer[_refit_metric(self.refit, scorer)] if not callable(self.refit) else None
            if scorer is None:
                raise AttributeError("score needs refit to name a metric with several metrics")
        return float(scorer(model, X, y, **params))


for _method in ("predict", "decision_function", "predict_proba", "predict_log_proba",
                "score_samples", "transform", "inverse_transform"):
    setattr(GridSearch, f"_check_{_method}", _delegates(_method))

#: scikit-learn's name for :class:`GridSearch`.
GridSearchCV = GridSearch
