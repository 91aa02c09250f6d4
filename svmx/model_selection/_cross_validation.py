"""Cross-validation: fit on each training fold, score on its validation fold (scikit-learn's).

For svmx's estimators the folds share kernel values where that pays
(`svmx.model_selection._kernel_groups.plan_shared_folds`): one Gram matrix over
the samples serves every fold of a run, as in the grid search by kernel.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from svmx._progress import ProgressBar

from ._clone import is_classifier
from ._kernel_groups import fit_kernel_group, plan_shared_folds
from ._parallel import parallel_map
from ._scoring import prediction_scorer
from ._split import Split
from ._validation import (
    FitOptions,
    check_error_score,
    fit_and_score,
    prepare_folds,
    score_columns,
    warn_failed_fits,
)

__all__ = ["cross_validate"]


def cross_validate(
    estimator: Any,
    X: npt.ArrayLike | sp.spmatrix,
    y: npt.ArrayLike | None = None,
    *,
    groups: npt.ArrayLike | None = None,
    scoring: Any = None,
    cv: Any = None,
    n_jobs: int | None = None,
    verbose: int | bool = 0,
    params: dict[str, Any] | None = None,
    pre_dispatch: int | str = "2*n_jobs",
    return_train_score: bool = False,
    return_estimator: bool = False,
    return_indices: bool = False,
    error_score: Any = np.nan,
    share_kernels: bool = True,
) -> dict[str, Any]:
    """Score an estimator on each fold of a cross-validation, as scikit-learn's function.

    Same signature (plus ``share_kernels``), defaults and return value as scikit-learn's:
    a fresh copy of ``estimator`` is fitted on each ``X[train]`` and scored on ``X[test]``,
    as joblib tasks (``n_jobs`` and any ``joblib.parallel_backend`` apply).

    Parameters
    ----------
    estimator : object
        Any svmx or scikit-learn-protocol estimator (``get_params``, ``set_params``, ``fit``).
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), optional
    groups : array-like of shape (n_samples,), optional, passed to the splitter's ``split``
    scoring : None, str, callable, list, tuple or dict, default=None
        None uses ``estimator.score``; a string names a scorer (scikit-learn's when it is
        installed, else ``svmx.model_selection._scoring.SCORERS``); a callable is called
        as ``scoring(estimator, X_test, y_test)``; a list or dict scores several metrics.
    cv : None, int, splitter or iterable of (train, test), default=None
        None: 5 folds; an int: :class:`StratifiedKFold` for classifiers, else :class:`KFold`.
    n_jobs : int, optional
        Parallel jobs; None means 1 unless a joblib backend says otherwise, -1 all cores.
    verbose : int or bool, default=0
        Draw a progress bar on standard error when true.
    params : dict, optional
        Passed to ``estimator.fit``, per-sample values (``sample_weight``) cut to the fold.
    pre_dispatch : int or str, default="2*n_jobs"
    return_train_score, return_estimator, return_indices : bool, default=False
        Also score each copy on its training fold; return the fitted copies; the folds.
    error_score : 'raise' or float, default=np.nan
        The score of a fold whose fit raised (with a FitFailedWarning), or 'raise'.
    share_kernels : bool, default=True
        svmx only: where it pays, one Gram matrix per worker serves the folds (see the
        model selection guide), with the per-fold fits' scores; False: per-fold fits.

    Returns
    -------
    dict of arrays
        ``fit_time``, ``score_time``, ``test_score`` (``test_<name>`` for several metrics),
        ``train_score`` / ``train_<name>`` with ``return_train_score``, ``estimator`` (a
        list) with ``return_estimator``, ``indices`` (``train`` and ``test`` lists).

    Examples
    --------
    >>> import numpy as np
    >>> from svmx import SVC
    >>> X = np.array([[0.0], [0.2], [1.0], [1.2], [0.1], [1.1]])
    >>> y = np.array([0, 0, 1, 1, 0, 1])
    >>> result = cross_validate(SVC(kernel="linear"), X, y, cv=3)
    >>> sorted(result), result["test_score"].tolist()
    (['fit_time', 'score_time', 'test_score'], [1.0, 1.0, 1.0])
    """
    error_score = check_error_score(error_score)
    X, y, scorer, n_jobs, splits = prepare_folds(estimator, X, y, cv, scoring, n_jobs, groups)
    options = FitOptions(params, error_score, bool(return_train_score), bool(return_estimator))
    runs = (plan_shared_folds(estimator, X, splits, scoring, params or {}, options, n_jobs)
            if share_kernels else None)
    with ProgressBar(len(splits), "cross_validate", enabled=bool(verbose)) as progress:
        outcomes = _run_folds(estimator, X, y, splits, runs, (scoring, scorer), options,
                              (n_jobs, pre_dispatch), progress)
    warn_failed_fits(outcomes, error_score)
    return _assemble(outcomes, splits, bool(return_train_score), bool(return_estimator),
                     bool(return_indices))


def _run_folds(estimator: Any, X: Any, y: Any, splits: list[Split],
               runs: list[list[Split]] | None, scoring: tuple[Any, Any], options: FitOptions,
               jobs: tuple[int | None, int | str],
               progress: ProgressBar) -> list[dict[str, Any]]:
    """The folds' outcomes, in order: one `fit_and_score` task per fold, or with ``runs``
    (`plan_shared_folds`) one `fit_kernel_group` task per run of folds. ``scoring`` is
    the user's ``scoring`` and its scorer, ``jobs`` ``(n_jobs, pre_dispatch)``."""
    n_jobs, pre_dispatch = jobs
    if runs is None:
        tasks = [(estimator, X, y, train, test, scoring[1], {}, options)
                 for train, test in splits]
        return parallel_map(fit_and_score, tasks, n_jobs, progress, pre_dispatch)
    by_predictions = prediction_scorer(scoring[0], is_classifier(estimator))
    tasks = [(estimator, X, y, run, [{}], scoring[1], options, by_predictions)
             for run in runs]
    per_run = parallel_map(fit_kernel_group, tasks, n_jobs, progress, pre_dispatch,
                           steps=[len(run) for run in runs])
    return [outcome for (folds,) in per_run for outcome in folds]


def _assemble(outcomes: list[dict[str, Any]], splits: list[Split], return_train_score: bool,
              return_estimator: bool, return_indices: bool) -> dict[str, Any]:
    """scikit-learn's ``cross_validate`` dict, keys in its order."""
    result: dict[str, Any] = {
        "fit_time": np.array([outcome["fit_time"] for outcome in outcomes]),
        "score_time": np.array([outcome["score_time"] for outcome in outcomes]),
    }
    if return_estimator:
        result["estimator"] = [outcome["estimator"] for outcome in outcomes]
    if return_indices:
        result["indices"] = {"train": [train for train, _ in splits],
                             "test": [test for _, test in splits]}
    train_scores = score_columns(outcomes, "train_scores") if return_train_score else {}
    for name, scores in score_columns(outcomes, "test_scores").items():
        result[f"test_{name}"] = scores
        if return_train_score:
            result[f"train_{name}"] = train_scores[name]
    return result
