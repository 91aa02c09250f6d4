"""scikit-learn's estimator machinery for svmx, when scikit-learn is installed.

This is the one module that decides whether svmx's estimators take part in
scikit-learn's machinery, the way LightGBM and XGBoost do: when scikit-learn
can be imported, :class:`svmx._estimator.BaseEstimator` derives from
``sklearn.base.BaseEstimator`` (HTML repr, ``set_fit_request`` and the rest of
metadata routing, nested ``get_params``/``set_params``, pickling with
scikit-learn's version check) and :class:`svmx._estimator.TransformerMixin`
from ``sklearn.base.TransformerMixin`` (``set_output``). Without scikit-learn
the names below are plain ``object`` and svmx's built-in base supplies the
protocol; nothing else in svmx imports scikit-learn at import time.

``SVMX_SKLEARN=0`` in the environment (read once, when svmx's estimators are first
imported) leaves scikit-learn out although it is installed: importing it takes most of
a second, which the ``svmx`` command (whose estimators never meet scikit-learn's
machinery) sets this to save on every call. Any other value, or none, uses it.

Examples
--------
>>> from svmx._sklearn_compat import SKLEARN_INSTALLED, SklearnBaseEstimator
>>> SKLEARN_INSTALLED == (SklearnBaseEstimator is not object)
True
"""

from __future__ import annotations

import os
from typing import Any

__all__ = [
    "SKLEARN_INSTALLED",
    "SklearnBaseEstimator",
    "SklearnTransformerMixin",
    "sklearn_scorer",
]

try:
    if os.environ.get("SVMX_SKLEARN", "").strip() == "0":
        raise ImportError("scikit-learn left out: SVMX_SKLEARN=0")
    from sklearn.base import BaseEstimator as SklearnBaseEstimator
    from sklearn.base import TransformerMixin as SklearnTransformerMixin
except ImportError:  # scikit-learn is optional
    SKLEARN_INSTALLED = False
    SklearnBaseEstimator = object  # type: ignore[assignment,misc]
    SklearnTransformerMixin = object  # type: ignore[assignment,misc]
else:
    SKLEARN_INSTALLED = True


def sklearn_scorer(name: str) -> Any:
    """scikit-learn's scorer for `name` (``sklearn.metrics.get_scorer``), or None.

    None when scikit-learn is not installed; a ValueError from scikit-learn
    (an unknown name) propagates.

    Parameters
    ----------
    name : str
        A scorer name such as ``'f1_macro'`` or ``'neg_log_loss'``.

    Returns
    -------
    callable or None
        ``scorer(estimator, X, y)``.

    Examples
    --------
    >>> scorer = sklearn_scorer("accuracy")
    >>> scorer is None or callable(scorer)
    True
    """
    if not SKLEARN_INSTALLED:
        return None
    from sklearn.metrics import get_scorer

    return get_scorer(name)
