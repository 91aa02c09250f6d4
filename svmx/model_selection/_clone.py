"""Estimator protocol helpers: unfitted copies and the classifier test.

Only the scikit-learn protocol is assumed (``get_params`` / ``set_params``
and an ``__init__`` taking the parameters as keywords), so any svmx or
scikit-learn-compatible estimator can be tuned without importing sklearn.
"""

from __future__ import annotations

import copy
from typing import Any


def _clone_value(value: Any) -> Any:
    if hasattr(value, "get_params") and not isinstance(value, type):
        return clone(value)
    if isinstance(value, list | tuple):
        # e.g. a pipeline's (name, estimator) steps: clone the estimators inside
        return type(value)(_clone_value(item) for item in value)
    return copy.deepcopy(value)


def clone_params(params: dict[str, Any]) -> dict[str, Any]:
    """Copies of parameter values to set on a fresh estimator: estimators (also inside lists
    and tuples) cloned, everything else deep copied, as scikit-learn's searches do, so a
    fit never changes the caller's objects and parallel fits share none.

    Examples
    --------
    >>> from svmx import SVC
    >>> given = SVC(C=2.0)
    >>> copied = clone_params({"step": given, "C": 1.0})
    >>> copied["step"] is given, copied["step"].C
    (False, 2.0)
    """
    return {name: _clone_value(value) for name, value in params.items()}


def clone(estimator: Any) -> Any:
    """Return an unfitted copy of ``estimator`` with the same parameters.

    Builds ``type(estimator)(**params)`` from ``get_params(deep=False)``;
    parameters that are themselves estimators (also inside lists and tuples)
    are cloned, all others deep copied, so the copy shares no mutable state with the original.

    Parameters
    ----------
    estimator : object
        Anything with ``get_params``.

    Returns
    -------
    object
        A new, unfitted estimator.

    Examples
    --------
    >>> class Model:
    ...     def __init__(self, C=1.0):
    ...         self.C = C
    ...     def get_params(self, deep=True):
    ...         return {"C": self.C}
    >>> fitted = Model(C=3.0)
    >>> fitted.coef_ = [1.0]
    >>> copy = clone(fitted)
    >>> copy.C, hasattr(copy, "coef_")
    (3.0, False)
    """
    if not hasattr(estimator, "get_params") or isinstance(estimator, type):
        raise TypeError(
            f"estimator must be an estimator instance with get_params(), "
            f"got {type(estimator).__name__}"
        )
    params = estimator.get_params(deep=False)
    return type(estimator)(**{name: _clone_value(value) for name, value in params.items()})


def is_classifier(estimator: Any) -> bool:
    """Tell whether ``estimator`` declares itself a classifier.

    Reads the ``_estimator_type`` attribute when present, else scikit-learn's
    tags (``__sklearn_tags__().estimator_type``).

    Parameters
    ----------
    estimator : object

    Returns
    -------
    bool

    Examples
    --------
    >>> class Classifier:
    ...     _estimator_type = "classifier"
    >>> is_classifier(Classifier()), is_classifier(object())
    (True, False)
    """
    # The plain attribute first: svmx's own estimators carry it, and reading it
    # avoids the scikit-learn import that building tags would cost.
    declared = getattr(estimator, "_estimator_type", None)
    if declared is not None:
        return declared == "classifier"
    tags = getattr(estimator, "__sklearn_tags__", None)
    if callable(tags):
        try:
            return tags().estimator_type == "classifier"
        except Exception:  # a partial implementation of the tags protocol
            pass
    return getattr(estimator, "_estimator_type", None) == "classifier"
