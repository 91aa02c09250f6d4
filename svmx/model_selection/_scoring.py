"""Scorers: functions ``scorer(estimator, X, y) -> float``, greater is better."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

Scorer = Callable[[Any, Any, Any], float]


def _estimator_score(estimator: Any, X: Any, y: Any) -> float:
    return float(estimator.score(X, y))


def _accuracy(estimator: Any, X: Any, y: Any) -> float:
    return float(np.mean(np.asarray(estimator.predict(X)) == np.asarray(y)))


def _neg_mean_squared_error(estimator: Any, X: Any, y: Any) -> float:
    residual = np.asarray(estimator.predict(X), dtype=np.float64) - np.asarray(y, np.float64)
    return -float(np.mean(residual**2))


def _r2(estimator: Any, X: Any, y: Any) -> float:
    y = np.asarray(y, dtype=np.float64)
    residual = y - np.asarray(estimator.predict(X), dtype=np.float64)
    total = float(np.sum((y - y.mean()) ** 2))
    unexplained = float(np.sum(residual**2))
    if total == 0.0:
        # A constant target: perfect predictions score 1, anything else 0.
        return 1.0 if unexplained == 0.0 else 0.0
    return 1.0 - unexplained / total


SCORERS: dict[str, Scorer] = {
    "accuracy": _accuracy,
    "neg_mean_squared_error": _neg_mean_squared_error,
    "r2": _r2,
}


def get_scorer(scoring: str | Scorer | None, estimator: Any) -> Scorer:
    """Resolve ``scoring`` to a scorer function.

    Parameters
    ----------
    scoring : None, str or callable
        None uses ``estimator.score``; a string names a built-in scorer
        (``'accuracy'``, ``'neg_mean_squared_error'``, ``'r2'``); a callable
        is used as ``scoring(estimator, X, y)``.
    estimator : object
        The estimator to be scored, checked for the methods the scorer needs.

    Returns
    -------
    callable

    Examples
    --------
    >>> get_scorer("r2", estimator=None).__name__
    '_r2'
    """
    if scoring is None:
        if estimator is not None and not hasattr(estimator, "score"):
            raise TypeError("scoring=None needs an estimator with a score method")
        return _estimator_score
    if isinstance(scoring, str):
        if scoring not in SCORERS:
            raise ValueError(
                f"scoring must be one of {sorted(SCORERS)} or a callable, got {scoring!r}"
            )
        return SCORERS[scoring]
    if callable(scoring):
        return scoring
    raise TypeError(f"scoring must be None, a string or a callable, got {type(scoring).__name__}")
