"""The estimator protocol (get_params, set_params, clone, pickle, tags) for every svmx class.

Every svmx estimator, transformer and search derives from :class:`BaseEstimator`
(with a mixin saying what it is). When scikit-learn is installed,
:class:`BaseEstimator` derives from ``sklearn.base.BaseEstimator`` and
:class:`TransformerMixin` from ``sklearn.base.TransformerMixin`` (see
:mod:`svmx._sklearn_compat`), so svmx's classes take part in scikit-learn's
machinery: HTML repr, metadata routing (``SVC().set_fit_request(sample_weight=True)``),
``set_output`` on the transformers, tags. Without scikit-learn, the built-in
:class:`_BuiltinBase` gives the same ``get_params`` / ``set_params`` (nested
``estimator__C`` names included), ``repr`` and pickle format.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from svmx._sklearn_compat import (
    SKLEARN_INSTALLED,
    SklearnBaseEstimator,
    SklearnTransformerMixin,
)
from svmx._version import __version__

__all__ = [
    "BaseEstimator",
    "ClassifierMixin",
    "OutlierMixin",
    "RegressorMixin",
    "TransformerMixin",
    "OneToOneFeatureMixin",
    "available_if",
    "column_as_vector",
    "one_to_one_feature_names",
    "score_truth",
]


def _is_estimator(value: Any) -> bool:
    return hasattr(value, "get_params") and not isinstance(value, type)


class _BuiltinBase:
    """The estimator protocol when scikit-learn is not installed.

    Parameters are the keyword arguments of ``__init__``, stored unchanged.
    """

    @classmethod
    def _get_param_names(cls) -> list[str]:
        signature = inspect.signature(cls.__init__)
        return sorted(
            name
            for name, parameter in signature.parameters.items()
            if name != "self" and parameter.kind != parameter.VAR_KEYWORD
        )

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The estimator's parameters by name.

        Parameters
        ----------
        deep : bool, default=True
            Also list the parameters of parameters that are estimators, as
            ``<name>__<parameter>``.

        Returns
        -------
        dict
        """
        params = {}
        for name in self._get_param_names():
            value = getattr(self, name)
            if deep and _is_estimator(value):
                params.update((f"{name}__{key}", item) for key, item in value.get_params().items())
            params[name] = value
        return params

    def set_params(self, **params: Any) -> Any:
        """Set parameters by name (``<name>__<parameter>`` for nested ones) and return self."""
        valid = self._get_param_names()
        nested: dict[str, dict[str, Any]] = {}
        for key, value in params.items():
            name, separator, rest = key.partition("__")
            if name not in valid:
                raise ValueError(
                    f"Invalid parameter {name!r} for estimator {self!r}. "
                    f"Valid parameters are: {valid}."
                )
            if separator:
                nested.setdefault(name, {})[rest] = value
            else:
                setattr(self, name, value)
        for name, sub_params in nested.items():
            getattr(self, name).set_params(**sub_params)
        return self

    def __repr__(self) -> str:
        defaults = {
            name: parameter.default
            for name, parameter in inspect.signature(type(self).__init__).parameters.items()
        }
        changed = []
        for name in self._get_param_names():
            value = getattr(self, name)
            default = defaults.get(name, inspect.Parameter.empty)
            same = value is default
            if not same:
                try:
                    same = type(value) is type(default) and bool(value == default)
                except (TypeError, ValueError):
                    same = False
            if not same:
                changed.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(changed)})"

    def __getstate__(self) -> dict[str, Any]:
        return self.__dict__.copy()

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


_Base: type = SklearnBaseEstimator if SKLEARN_INSTALLED else _BuiltinBase


def _param_names(cls: type) -> tuple[str, ...]:
    """``_Base._get_param_names`` of `cls`, kept on the class with the ``__init__`` it was
    read from (a class whose ``__init__`` is replaced later reads it again)."""
    init = cls.__init__
    held = cls.__dict__.get("_svmx_param_names")
    if held is None or held[0] is not init:
        held = (init, tuple(super(BaseEstimator, cls)._get_param_names()))
        type.__setattr__(cls, "_svmx_param_names", held)
    return held[1]


class BaseEstimator(_Base):
    """Parameters are the keyword arguments of ``__init__``, stored unchanged.

    With scikit-learn installed this is a ``sklearn.base.BaseEstimator``.

    Examples
    --------
    >>> from svmx import SVC
    >>> SVC(C=2.0).get_params()["C"]
    2.0
    >>> SVC().set_params(kernel="linear")
    SVC(kernel='linear')
    """

    @classmethod
    def _get_param_names(cls) -> list[str]:
        """The names of ``__init__``'s parameters, sorted; read from its signature once
        per class (``inspect.signature`` took 0.15 ms of every ``get_params``, so of
        every clone in a search)."""
        return list(_param_names(cls))

    def __getstate__(self) -> dict[str, Any]:
        state = dict(super().__getstate__())
        state["_svmx_version"] = __version__
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        state.pop("_svmx_version", None)
        super().__setstate__(state)

    def _svmx_tags(self) -> dict[str, Any]:
        """Facts about the estimator that scikit-learn's tags are built from."""
        return {}

    def __sklearn_tags__(self):
        # Only scikit-learn calls this, so the import costs svmx users nothing.
        from sklearn.utils import InputTags, Tags, TargetTags

        extra = self._svmx_tags()
        return Tags(
            estimator_type=None,
            target_tags=TargetTags(required=extra.get("requires_y", False)),
            # Sparse input is accepted (and densified); NaN and infinity are refused.
            input_tags=InputTags(
                pairwise=extra.get("pairwise", False), sparse=True, allow_nan=False
            ),
        )


def one_to_one_feature_names(estimator: Any, input_features: Any = None) -> np.ndarray:
    """Output feature names of a transformer whose column j comes from input column j.

    Parameters
    ----------
    estimator : fitted transformer
        With ``n_features_in_``, and ``feature_names_in_`` when fitted on a
        data frame.
    input_features : array-like of str, optional
        The input names; must equal ``feature_names_in_`` when that exists.
        None gives ``feature_names_in_`` or ``x0, x1, ...``.

    Returns
    -------
    ndarray of str objects

    Examples
    --------
    >>> from svmx.preprocessing import StandardScaler
    >>> one_to_one_feature_names(StandardScaler().fit([[0.0, 1.0]])).tolist()
    ['x0', 'x1']
    """
    from svmx._validation import check_fitted

    check_fitted(estimator, "n_features_in_")
    known = getattr(estimator, "feature_names_in_", None)
    if input_features is None:
        if known is not None:
            return np.asarray(known, dtype=object)
        return np.asarray([f"x{i}" for i in range(estimator.n_features_in_)], dtype=object)
    names = np.asarray(input_features, dtype=object)
    if names.ndim != 1 or len(names) != estimator.n_features_in_:
        raise ValueError(
            f"input_features should have length equal to the number of features "
            f"({estimator.n_features_in_}), got {len(names)}"
        )
    if known is not None and not np.array_equal(names, np.asarray(known, dtype=object)):
        raise ValueError("input_features is not equal to feature_names_in_")
    return names


class OneToOneFeatureMixin:
    """``get_feature_names_out`` for transformers whose column j comes from input column j.

    With scikit-learn installed, this is what makes ``set_output`` available.

    Examples
    --------
    >>> from svmx.preprocessing import MinMaxScaler
    >>> MinMaxScaler().fit([[0.0, 1.0], [1.0, 2.0]]).get_feature_names_out().tolist()
    ['x0', 'x1']
    """

    def get_feature_names_out(self, input_features: Any = None) -> np.ndarray:
        """Output feature names: the input's names, or ``x0, x1, ...``.

        Parameters
        ----------
        input_features : array-like of str, optional
            Must equal ``feature_names_in_`` when the transformer was fitted
            on a data frame.

        Returns
        -------
        ndarray of str objects
        """
        return one_to_one_feature_names(self, input_features)


def column_as_vector(values: Any, dtype: Any = None) -> np.ndarray:
    """`values` as an array, a column vector (n, 1) as its one column (n,).

    Examples
    --------
    >>> column_as_vector([[1], [2]]).shape
    (2,)
    """
    array = np.asarray(values, dtype=dtype)
    return array.ravel() if array.ndim == 2 and array.shape[1] == 1 else array


def score_truth(y: Any, n_predicted: int, dtype: Any = None) -> np.ndarray:
    """The true values a score compares `n_predicted` predictions with, as a 1-D array.

    A column vector (n, 1) is read as its one column, as scikit-learn's metrics
    read it; anything else that is not n values raises ValueError (numpy would
    broadcast (n, 1) against (n,) into n x n comparisons: a silently wrong score).

    Examples
    --------
    >>> score_truth([[1], [2]], 2).tolist()
    [1, 2]
    >>> score_truth([1, 2, 3], 2)
    Traceback (most recent call last):
    ...
    ValueError: y has 3 values but there are 2 predictions (one per row of X)
    """
    truth = column_as_vector(y, dtype)
    if truth.ndim != 1:
        raise ValueError(f"y must be 1-D (or a column vector); got an array of shape "
                         f"{truth.shape}")
    if truth.shape[0] != n_predicted:
        raise ValueError(f"y has {truth.shape[0]} values but there are {n_predicted} "
                         f"predictions (one per row of X)")
    return truth


class ClassifierMixin:
    """Accuracy as the score; scikit-learn sees a classifier."""

    _estimator_type = "classifier"

    def score(self, X: Any, y: Any, sample_weight: Any = None) -> float:
        """Mean accuracy of ``predict(X)`` against `y` (weighted by `sample_weight`)."""
        predicted = self.predict(X)
        truth = score_truth(y, predicted.shape[0])
        return float(np.average(predicted == truth, weights=sample_weight))

    def __sklearn_tags__(self):
        from sklearn.utils import ClassifierTags

        tags = super().__sklearn_tags__()
        tags.estimator_type = "classifier"
        tags.classifier_tags = ClassifierTags()
        tags.target_tags.required = True
        return tags


class RegressorMixin:
    """The coefficient of determination R^2 as the score; scikit-learn sees a regressor."""

    _estimator_type = "regressor"

    def score(self, X: Any, y: Any, sample_weight: Any = None) -> float:
        """R^2 of ``predict(X)`` against `y` (weighted by `sample_weight`)."""
        predicted = self.predict(X)
        truth = score_truth(y, predicted.shape[0], np.float64)
        residual = np.average((truth - predicted) ** 2, weights=sample_weight)
        spread = np.average((truth - np.average(truth, weights=sample_weight)) ** 2,
                            weights=sample_weight)
        if spread == 0:
            return 1.0 if residual == 0 else 0.0
        return float(1.0 - residual / spread)

    def __sklearn_tags__(self):
        from sklearn.utils import RegressorTags

        tags = super().__sklearn_tags__()
        tags.estimator_type = "regressor"
        tags.regressor_tags = RegressorTags()
        tags.target_tags.required = True
        return tags


class OutlierMixin:
    """``fit_predict`` for novelty detectors; scikit-learn sees an outlier detector."""

    _estimator_type = "outlier_detector"

    def fit_predict(self, X: Any, y: Any = None, **fit_params: Any) -> np.ndarray:
        """Fit on X and return +1 for inliers, -1 for outliers."""
        return self.fit(X, **fit_params).predict(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.estimator_type = "outlier_detector"
        return tags


class TransformerMixin(SklearnTransformerMixin):
    """``fit_transform`` for transformers; scikit-learn sees a transformer.

    With scikit-learn installed this is a ``sklearn.base.TransformerMixin``, so
    transformers with ``get_feature_names_out`` have ``set_output``.

    Examples
    --------
    >>> from svmx.preprocessing import StandardScaler
    >>> StandardScaler().fit_transform([[0.0], [2.0]]).ravel().tolist()
    [-1.0, 1.0]
    """

    def fit_transform(self, X: Any, y: Any = None, **fit_params: Any) -> Any:
        """Fit to X (and y, when given), then transform X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), optional
            Passed to ``fit`` only when given, so a transformer whose ``fit``
            needs labels says so itself.
        **fit_params
            Passed to ``fit``.

        Returns
        -------
        The transformed X.
        """
        if y is None:
            return self.fit(X, **fit_params).transform(X)
        return self.fit(X, y, **fit_params).transform(X)

    def __sklearn_tags__(self):
        from sklearn.utils import TransformerTags

        tags = super().__sklearn_tags__()
        tags.transformer_tags = TransformerTags()
        return tags


class available_if:  # noqa: N801 - used as a decorator, like a function
    """Expose a method only when ``getattr(instance, check)()`` passes.

    The check raises AttributeError otherwise, so ``hasattr`` is False, as for
    scikit-learn's conditional methods.

    Examples
    --------
    >>> class Model:
    ...     enabled = False
    ...     def _check(self):
    ...         if not self.enabled:
    ...             raise AttributeError("not enabled")
    ...         return True
    ...     @available_if("_check")
    ...     def run(self):
    ...         return "ran"
    >>> hasattr(Model(), "run")
    False
    """

    def __init__(self, check: str):
        self.check = check

    def __call__(self, method: Callable) -> Any:
        return _ConditionalMethod(method, self.check)


class _ConditionalMethod:
    def __init__(self, method: Callable, check: str):
        self.method = method
        self.check = check
        self.__doc__ = method.__doc__
        self.__name__ = method.__name__

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self.method
        getattr(instance, self.check)()
        return self.method.__get__(instance, owner)
