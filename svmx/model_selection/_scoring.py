"""Scorers: functions ``scorer(estimator, X, y) -> float``, greater is better.

A scorer name is resolved by scikit-learn (``sklearn.metrics.get_scorer``) when
scikit-learn is installed, so every one of its names works (``'f1_macro'``,
``'roc_auc'``, ``'neg_log_loss'``, ...); without scikit-learn svmx's built-in
scorers serve the names listed in :data:`SCORERS`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from svmx._estimator import score_truth
from svmx._sklearn_compat import SKLEARN_INSTALLED, sklearn_scorer

__all__ = ["PREDICTION_METRICS", "SCORERS", "Scorer", "accepts_sample_weight",
           "check_scoring", "get_scorer", "prediction_scorer", "reads_only_predictions"]

Scorer = Callable[..., Any]


def _estimator_score(estimator: Any, X: Any, y: Any, **kwargs: Any) -> float:
    if y is None:
        return float(estimator.score(X, **kwargs))
    return float(estimator.score(X, y, **kwargs))


def _weights(kwargs: dict[str, Any]) -> Any:
    return kwargs.get("sample_weight")


def _accuracy(estimator: Any, X: Any, y: Any, **kwargs: Any) -> float:
    predicted = np.asarray(estimator.predict(X))
    hits = predicted == score_truth(y, predicted.shape[0])
    weights = _weights(kwargs)
    if weights is None and hits.size:  # np.average's mean costs 10 us a call
        return np.count_nonzero(hits) / hits.size
    return float(np.average(hits, weights=weights))


def _balanced_accuracy(estimator: Any, X: Any, y: Any, **kwargs: Any) -> float:
    predicted = np.asarray(estimator.predict(X))
    truth = score_truth(y, predicted.shape[0])
    hits = predicted == truth
    classes, codes = np.unique(truth, return_inverse=True)
    weights = np.ones(len(truth)) if _weights(kwargs) is None else np.asarray(_weights(kwargs))
    per_class = np.bincount(codes, weights * hits, len(classes))
    totals = np.bincount(codes, weights, len(classes))
    return float(np.mean(per_class[totals > 0] / totals[totals > 0]))


def _residuals(estimator: Any, X: Any, y: Any) -> np.ndarray:
    predicted = np.asarray(estimator.predict(X), dtype=np.float64)
    return predicted - score_truth(y, predicted.shape[0], np.float64)


def _neg_mean_squared_error(estimator: Any, X: Any, y: Any, **kwargs: Any) -> float:
    return -float(np.average(_residuals(estimator, X, y) ** 2, weights=_weights(kwargs)))


def _neg_root_mean_squared_error(estimator: Any, X: Any, y: Any, **kwargs: Any) -> float:
    return -float(np.sqrt(-_neg_mean_squared_error(estimator, X, y, **kwargs)))


def _neg_mean_absolute_error(estimator: Any, X: Any, y: Any, **kwargs: Any) -> float:
    return -float(np.average(np.abs(_residuals(estimator, X, y)), weights=_weights(kwargs)))


def _r2(estimator: Any, X: Any, y: Any, **kwargs: Any) -> float:
    weights = _weights(kwargs)
    predicted = np.asarray(estimator.predict(X), dtype=np.float64)
    y = score_truth(y, predicted.shape[0], np.float64)
    unexplained = float(np.average((predicted - y) ** 2, weights=weights))
    total = float(np.average((y - np.average(y, weights=weights)) ** 2, weights=weights))
    if total == 0.0:
        # A constant target: perfect predictions score 1, anything else 0 (as scikit-learn).
        return 1.0 if unexplained == 0.0 else 0.0
    return 1.0 - unexplained / total


#: The scorer names svmx serves itself when scikit-learn is not installed.
SCORERS: dict[str, Scorer] = {
    "accuracy": _accuracy,
    "balanced_accuracy": _balanced_accuracy,
    "neg_mean_absolute_error": _neg_mean_absolute_error,
    "neg_mean_squared_error": _neg_mean_squared_error,
    "neg_root_mean_squared_error": _neg_root_mean_squared_error,
    "r2": _r2,
}


#: The scorer names that are metrics of the predictions alone: a search that scores with
#: one of them (or with None, the estimators' accuracy or R^2) needs no fitted model.
PREDICTION_METRICS = ("accuracy", "neg_mean_absolute_error", "neg_mean_squared_error",
                      "neg_root_mean_squared_error", "r2")


def prediction_scorer(scoring: Any, classifier: bool) -> Scorer | None:
    """svmx's own scorer for ``scoring`` when it is a metric of predictions alone (None:
    accuracy for a classifier, R^2 for a regressor, as their ``score``), else None.

    Its values are scikit-learn's scorer's of the same name; it calls only
    ``model.predict``.

    Examples
    --------
    >>> prediction_scorer(None, classifier=True) is SCORERS["accuracy"]
    True
    >>> prediction_scorer("roc_auc", classifier=True) is None
    True
    """
    if scoring is None:
        return SCORERS["accuracy" if classifier else "r2"]
    if isinstance(scoring, str) and scoring in PREDICTION_METRICS:
        return SCORERS[scoring]
    return None


def _named_scorer(name: str) -> Scorer:
    if SKLEARN_INSTALLED:
        try:
            return sklearn_scorer(name)
        except ValueError as error:
            raise ValueError(
                f"scoring={name!r} is not a scikit-learn scorer name; see "
                "sklearn.metrics.get_scorer_names()"
            ) from error
    if name not in SCORERS:
        raise ValueError(
            f"scoring must be one of {sorted(SCORERS)} or a callable, got {name!r} "
            "(install scikit-learn for all of its scorer names)"
        )
    return SCORERS[name]


def get_scorer(scoring: str | Scorer | None, estimator: Any) -> Scorer:
    """Resolve one ``scoring`` value to a scorer function.

    Parameters
    ----------
    scoring : None, str or callable
        None uses ``estimator.score``; a string names a scorer (scikit-learn's
        names when it is installed, else those of :data:`SCORERS`); a callable
        is used as ``scoring(estimator, X, y)``.
    estimator : object
        The estimator to be scored, checked for the methods the scorer needs.

    Returns
    -------
    callable

    Examples
    --------
    >>> callable(get_scorer("r2", estimator=None))
    True
    """
    if scoring is None:
        if estimator is not None and not hasattr(estimator, "score"):
            raise TypeError("scoring=None needs an estimator with a score method")
        return _estimator_score
    if isinstance(scoring, str):
        return _named_scorer(scoring)
    if callable(scoring):
        return scoring
    raise TypeError(
        "scoring must be None, a string, a callable, or a list, tuple or dict of them, "
        f"got {type(scoring).__name__}"
    )


def check_scoring(scoring: Any, estimator: Any) -> Scorer | dict[str, Scorer]:
    """Resolve ``scoring`` to one scorer, or to a dict of named scorers (multi-metric).

    Parameters
    ----------
    scoring : None, str, callable, list/tuple/set of str, or dict of str to str or callable
        As scikit-learn's ``scoring``: a collection of names or a dict makes
        a multi-metric evaluation.
    estimator : object

    Returns
    -------
    callable or dict of str to callable

    Examples
    --------
    >>> sorted(check_scoring(["accuracy", "r2"], estimator=None))
    ['accuracy', 'r2']
    """
    if isinstance(scoring, list | tuple | set | frozenset):
        names = list(scoring)
        if not names or not all(isinstance(name, str) for name in names):
            raise ValueError("scoring as a list, tuple or set must hold one or more names")
        if len(set(names)) != len(names):
            raise ValueError(f"scoring names must be unique, got {names}")
        return {name: get_scorer(name, estimator) for name in names}
    if isinstance(scoring, Mapping):
        if not scoring or not all(isinstance(name, str) for name in scoring):
            raise ValueError("scoring as a dict must map one or more names to scorers")
        return {name: get_scorer(value, estimator) for name, value in scoring.items()}
    return get_scorer(scoring, estimator)


def _is_sklearn_scorer(scoring: Any) -> bool:
    """A scorer scikit-learn made (``make_scorer``, ``get_scorer``): it reads only what the
    estimator's predict / decision_function / predict_proba return."""
    if not SKLEARN_INSTALLED:
        return False
    try:
        from sklearn.metrics._scorer import _BaseScorer
    except ImportError:  # a scikit-learn without that private class: assume nothing
        return False
    return isinstance(scoring, _BaseScorer)


def reads_only_predictions(scoring: Any) -> bool:
    """Whether ``scoring`` uses X only through the estimator's methods (so that a scorer
    may be handed a kernel matrix in place of X, as the grid search by kernel does).

    True for None (``estimator.score``), names, collections or dicts of names, and
    scikit-learn's scorer objects; False for any other callable, which may read the
    features themselves.

    Examples
    --------
    >>> reads_only_predictions("accuracy"), reads_only_predictions({"a": "accuracy"})
    (True, True)
    >>> reads_only_predictions(lambda estimator, X, y: float(X[0, 0]))
    False
    """
    if scoring is None or isinstance(scoring, str) or _is_sklearn_scorer(scoring):
        return True
    if isinstance(scoring, list | tuple | set | frozenset):
        return all(isinstance(name, str) for name in scoring)
    if isinstance(scoring, Mapping):
        return all(reads_only_predictions(value) for value in scoring.values())
    return False


def _has_parameter(function: Any, name: str) -> bool:
    try:
        return name in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def accepts_sample_weight(scorer: Scorer, estimator: Any) -> bool:
    """Whether `scorer` takes a ``sample_weight`` keyword (as scikit-learn asks a scorer).

    Examples
    --------
    >>> accepts_sample_weight(get_scorer("r2", None), None)
    True
    >>> accepts_sample_weight(lambda estimator, X, y: 0.0, None)
    False
    """
    if scorer is _estimator_score:
        return _has_parameter(getattr(estimator, "score", None), "sample_weight")
    if scorer in SCORERS.values():
        return True
    check = getattr(scorer, "_accept_sample_weight", None)
    if callable(check):
        return bool(check())
    return _has_parameter(scorer, "sample_weight")
