"""What cross-validation and the grid search share: the folds, one fit and its scores."""

from __future__ import annotations

import numbers
import time
import traceback
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx.exceptions import FitFailedWarning

from ._clone import clone, clone_params, is_classifier
from ._parallel import check_n_jobs
from ._scoring import Scorer, accepts_sample_weight, check_scoring
from ._split import Split, check_cv, fold_indices, n_rows

__all__ = ["FitOptions", "fit_and_score", "prepare_folds", "score_fit"]


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


def is_pairwise(model: Any) -> bool:
    """Whether `model` takes a square kernel (or distance) matrix instead of features.

    svmx's estimators say so with ``kernel='precomputed'``; another estimator
    through scikit-learn's ``pairwise`` input tag.
    """
    own_tags = getattr(model, "_svmx_tags", None)
    if own_tags is not None:
        return bool(own_tags().get("pairwise", False))
    sklearn_tags = getattr(model, "__sklearn_tags__", None)
    if sklearn_tags is not None:
        try:
            return bool(sklearn_tags().input_tags.pairwise)
        except Exception:  # an estimator whose tags need scikit-learn, not installed
            pass
    return getattr(model, "kernel", None) == "precomputed"


def take_fold(X: Any, rows: np.ndarray, columns: np.ndarray | None) -> Any:
    """The fold's rows of `X`, and with ``columns`` (a pairwise model's training rows) only
    those columns: a precomputed kernel's fit sees K[train][:, train] and its predictions
    K[test][:, train], the kernel values against the training rows it learnt from."""
    block = take_rows(X, rows)
    if columns is None:
        return block
    shape = getattr(X, "shape", ())
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(
            f"X must be a square kernel matrix for an estimator with a precomputed "
            f"kernel; got shape {shape or None}")
    return block.iloc[:, columns] if hasattr(block, "iloc") else block[:, columns]


def prepare_folds(
    estimator: Any, X: Any, y: Any, cv: Any, scoring: Any, n_jobs: Any, groups: Any = None
) -> tuple[Any, Any, Scorer | dict[str, Scorer], int | None, list[Split]]:
    """Check what :func:`cross_validate` and the grid search share, and cut the folds.

    Returns
    -------
    X, y, scorer, n_jobs, splits
        The row-indexable data, the scorer (a dict of them for several
        metrics), the checked job count and the list of ``(train, test)`` pairs.
    """
    clone(estimator)  # fail early, in the caller, on an object that cannot be copied
    X, y = check_data(X, y)
    scorer = check_scoring(scoring, estimator)
    n_jobs = check_n_jobs(n_jobs)
    splitter = check_cv(cv, y, classifier=is_classifier(estimator))
    splits = fold_indices(splitter.split(X, y, groups), n_rows(X))
    if not splits:
        raise ValueError("No fits were performed: cv gave no (train, test) splits. Was the CV "
                         "iterator empty?")
    return X, y, scorer, n_jobs, splits


def check_error_score(error_score: Any) -> Any:
    """``error_score`` is ``'raise'`` or a number (NaN by default), as in scikit-learn."""
    if isinstance(error_score, str) and error_score == "raise":
        return error_score
    if isinstance(error_score, numbers.Real) and not isinstance(error_score, bool):
        return float(error_score)
    raise ValueError(f"error_score must be 'raise' or a number, got {error_score!r}")


def fold_params(params: dict[str, Any] | None, n_samples: int, rows: np.ndarray) -> dict[str, Any]:
    """Fit parameters for one fold: per-sample arrays (``sample_weight``, ...) cut to `rows`."""
    if not params:
        return {}
    cut = {}
    for name, value in params.items():
        per_sample = (sp.issparse(value) or hasattr(value, "__array__")
                      or isinstance(value, list | tuple))
        if per_sample and n_rows(value) == n_samples:
            cut[name] = take_rows(value if hasattr(value, "iloc") or sp.issparse(value)
                                  else np.asarray(value), rows)
        else:
            cut[name] = value
    return cut


def _score(scorer: Scorer | dict[str, Scorer], model: Any, X: Any, y: Any,
           score_params: dict[str, Any], error_score: Any = "raise") -> Any:
    """The model's score(s) on X, y; a metric that raises scores `error_score` (with a
    UserWarning, as in scikit-learn) unless that is ``'raise'``."""
    def one(function: Scorer) -> float:
        try:
            if score_params and accepts_sample_weight(function, model):
                return float(function(model, X, y, **score_params))
            return float(function(model, X, y))
        except Exception:
            if isinstance(error_score, str):  # 'raise'
                raise
            warnings.warn(
                "Scoring failed. The score on this train-test partition for these parameters "
                f"will be set to {error_score}. Details: \n{traceback.format_exc()}",
                UserWarning, stacklevel=2)
            return error_score

    if isinstance(scorer, dict):
        return {name: one(function) for name, function in scorer.items()}
    return one(scorer)


def _failed(scorer: Scorer | dict[str, Scorer], error_score: float) -> Any:
    if isinstance(scorer, dict):
        return dict.fromkeys(scorer, error_score)
    return error_score


def fit_and_score(
    estimator: Any,
    X: Any,
    y: Any,
    train: np.ndarray,
    test: np.ndarray,
    scorer: Scorer | dict[str, Scorer],
    params: dict[str, Any],
    options: FitOptions,
) -> dict[str, Any]:
    """Fit a fresh copy of ``estimator`` with ``params`` on ``train``; score it on ``test``.

    Returns
    -------
    dict
        ``test_scores`` (a float, or a dict of them for several metrics),
        ``train_scores`` when ``options.return_train_score``, ``fit_time``,
        ``score_time``, ``estimator`` when ``options.return_estimator`` and
        ``fit_error`` (the traceback's text, or None).
    """
    model = clone(estimator)
    if params:
        model.set_params(**clone_params(params))
    fit_params = fold_params(options.fit_params, n_rows(X), train)
    columns = train if is_pairwise(model) else None
    X_train, y_train = take_fold(X, train, columns), take_rows(y, train)

    def fit() -> None:
        if y is None:
            model.fit(X_train, **fit_params)
        else:
            model.fit(X_train, y_train, **fit_params)

    return score_fit(model, fit, (X_train, y_train, train),
                     (take_fold(X, test, columns), take_rows(y, test), test), n_rows(X),
                     scorer, options)


def score_fit(model: Any, fit: Any, train: tuple, test: tuple, n_samples: int,
              scorer: Scorer | dict[str, Scorer], options: FitOptions) -> dict[str, Any]:
    """Run ``fit()`` (which fits `model`), then score `model` on the test rows.

    ``train`` and ``test`` are ``(X, y, rows)``: the data to score on and the
    rows of the whole data set they are (to cut per-sample score parameters).
    Returns what `fit_and_score` returns; a failing fit is recorded (its
    traceback and `error_score`) unless ``options.error_score == 'raise'``.
    """
    X_train, y_train, train_rows = train
    X_test, y_test, test_rows = test
    start = time.perf_counter()
    result: dict[str, Any] = {"fit_error": None}
    try:
        fit()
    except Exception:
        if options.error_score == "raise":
            raise
        result["fit_error"] = traceback.format_exc()
        result["fit_time"] = time.perf_counter() - start
        result["score_time"] = 0.0
        result["test_scores"] = _failed(scorer, options.error_score)
        if options.return_train_score:
            result["train_scores"] = _failed(scorer, options.error_score)
    else:
        result["fit_time"] = time.perf_counter() - start
        start = time.perf_counter()
        test_params = fold_params(options.score_params, n_samples, test_rows)
        result["test_scores"] = _score(scorer, model, X_test, y_test, test_params,
                                       options.error_score)
        result["score_time"] = time.perf_counter() - start
        if options.return_train_score:
            train_params = fold_params(options.score_params, n_samples, train_rows)
            result["train_scores"] = _score(scorer, model, X_train, y_train, train_params,
                                            options.error_score)
    if options.return_estimator:
        result["estimator"] = model
    return result


@dataclass(frozen=True)
class FitOptions:
    """What every fold's task needs besides the data: fit parameters and what to return."""

    fit_params: dict[str, Any] | None = None
    error_score: Any = np.nan
    return_train_score: bool = False
    return_estimator: bool = False
    score_params: dict[str, Any] | None = None


def warn_failed_fits(outcomes: list[dict[str, Any]], error_score: Any) -> None:
    """One FitFailedWarning summing up the fits that failed, as scikit-learn warns."""
    errors = [outcome["fit_error"] for outcome in outcomes if outcome["fit_error"] is not None]
    if not errors:
        return
    if len(errors) == len(outcomes):
        raise ValueError(
            f"All the {len(outcomes)} fits failed. It is very likely that your model is "
            f"misconfigured. The first error was:\n{errors[0]}"
        )
    warnings.warn(FitFailedWarning(
        f"{len(errors)} fits failed out of a total of {len(outcomes)}. The score on these "
        f"train-test partitions for these parameters will be set to {error_score}. The "
        f"first error was:\n{errors[0]}"), stacklevel=3)


def score_columns(outcomes: list[dict[str, Any]], key: str) -> dict[str, np.ndarray]:
    """The scores under `key` of every task, one array per metric ('score' for one metric)."""
    first = outcomes[0][key]
    if isinstance(first, dict):
        return {name: np.array([outcome[key][name] for outcome in outcomes]) for name in first}
    return {"score": np.array([outcome[key] for outcome in outcomes])}
