"""Input and parameter validation shared by the estimators.

Every error names the offending parameter and says what was expected, and
is raised before any training work starts.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx.exceptions import NotFittedError

__all__ = [
    "Interval",
    "OneOf",
    "check_fitted",
    "validate_X",
    "validate_params",
    "validate_sample_weight",
    "validate_targets",
]


class Interval:
    """A numeric parameter constraint: a type and an (open or closed) range.

    Parameters
    ----------
    kind : {"real", "integral"}
        Whether floats are accepted or only integers.
    low, high : float or None
        Bounds; None means unbounded.
    closed : {"both", "left", "right", "neither"}
        Which bounds belong to the range.

    Examples
    --------
    >>> Interval("real", 0, None, closed="neither").describe()
    'a float in the range (0, inf)'
    """

    def __init__(self, kind: str, low: float | None, high: float | None, *, closed: str):
        self.kind = kind
        self.low = low
        self.high = high
        self.closed = closed

    def accepts(self, value: Any) -> bool:
        if isinstance(value, bool | np.bool_):
            return False
        wanted = numbers.Integral if self.kind == "integral" else numbers.Real
        if not isinstance(value, wanted):
            return False
        if np.isnan(value):
            return False
        left_closed = self.closed in ("both", "left")
        right_closed = self.closed in ("both", "right")
        if self.low is not None and (value < self.low or (value == self.low and not left_closed)):
            return False
        if self.high is not None and (
            value > self.high or (value == self.high and not right_closed)
        ):
            return False
        return True

    def describe(self) -> str:
        left = "[" if self.closed in ("both", "left") else "("
        right = "]" if self.closed in ("both", "right") else ")"
        low = "-inf" if self.low is None else f"{self.low:g}"
        high = "inf" if self.high is None else f"{self.high:g}"
        noun = "an int" if self.kind == "integral" else "a float"
        return f"{noun} in the range {left}{low}, {high}{right}"


class OneOf:
    """A parameter constraint: one of a fixed set of values.

    Examples
    --------
    >>> OneOf("ovr", "ovo").describe()
    "one of 'ovr', 'ovo'"
    """

    def __init__(self, *options: Any):
        self.options = options

    def accepts(self, value: Any) -> bool:
        return any(
            value is option or (type(value) is type(option) and value == option)
            for option in self.options
        )

    def describe(self) -> str:
        return "one of " + ", ".join(repr(option) for option in self.options)


class Kind:
    """A parameter constraint satisfied by instances of some types or by a predicate.

    Examples
    --------
    >>> Kind("a callable", predicate=callable).accepts(len)
    True
    """

    def __init__(self, description: str, *, types: tuple = (), predicate: Callable | None = None):
        self.description = description
        self.types = types
        self.predicate = predicate

    def accepts(self, value: Any) -> bool:
        if self.types and isinstance(value, self.types):
            return True
        return self.predicate is not None and bool(self.predicate(value))

    def describe(self) -> str:
        return self.description


def validate_params(estimator: Any, constraints: dict[str, list]) -> None:
    """Check each parameter of `estimator` against its list of accepted constraints.

    Raises
    ------
    ValueError
        Naming the parameter, what it accepts, and the value it got.

    Examples
    --------
    >>> class Model:
    ...     C = -1.0
    >>> validate_params(Model(), {"C": [Interval("real", 0, None, closed="neither")]})
    Traceback (most recent call last):
    ...
    ValueError: C must be a float in the range (0, inf); got -1.0
    """
    for name, accepted in constraints.items():
        value = getattr(estimator, name)
        if not any(constraint.accepts(value) for constraint in accepted):
            expected = " or ".join(constraint.describe() for constraint in accepted)
            raise ValueError(f"{name} must be {expected}; got {value!r}")


def validate_X(
    X: Any,
    *,
    name: str = "X",
    n_features: int | None = None,
    accept_sparse: bool = False,
) -> np.ndarray:
    """Return X as a 2-D float64 C-contiguous array, or raise a clear error.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    name : str
        The argument's name, used in messages.
    n_features : int, optional
        The number of features X must have (at predict time).
    accept_sparse : bool
        Whether scipy.sparse input is densified (True) or refused (False).

    Examples
    --------
    >>> validate_X([[1, 2], [3, 4]]).dtype
    dtype('float64')
    >>> validate_X([1.0, 2.0])
    Traceback (most recent call last):
    ...
    ValueError: X must be a 2-D array of shape (n_samples, n_features); got a 1-D array. \
Reshape a single feature with X.reshape(-1, 1) or a single sample with X.reshape(1, -1).
    """
    if sp.issparse(X):
        if not accept_sparse:
            raise TypeError(f"{name}: sparse input is not supported here; pass a dense array")
        X = X.toarray()
    if isinstance(X, str | bytes):
        raise TypeError(f"{name} must be array-like of numbers; got a string")
    array = np.asarray(X)
    if array.dtype.kind == "c":
        raise ValueError(f"{name} must be real-valued; complex data is not supported")
    if array.dtype.kind in "USO" or array.dtype.kind == "V":
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError):
            raise ValueError(
                f"{name} must contain numbers; got an array of dtype {array.dtype}"
            ) from None
    if array.ndim != 2:
        hint = ""
        if array.ndim == 1:
            hint = (
                ". Reshape a single feature with X.reshape(-1, 1) or a single sample "
                "with X.reshape(1, -1)."
            )
        raise ValueError(
            f"{name} must be a 2-D array of shape (n_samples, n_features); "
            f"got a {array.ndim}-D array{hint}"
        )
    if array.shape[0] == 0:
        raise ValueError(f"{name} is empty: found 0 samples (shape {array.shape})")
    if array.shape[1] == 0:
        raise ValueError(f"{name} has 0 features (shape {array.shape}); at least 1 is required")
    array = np.ascontiguousarray(array, dtype=np.float64)
    if not np.isfinite(array).all():
        raise ValueError(f"{name} contains NaN or infinity")
    if n_features is not None and array.shape[1] != n_features:
        raise ValueError(
            f"{name} has {array.shape[1]} features, but the model was fitted with "
            f"{n_features} features"
        )
    return array


def validate_targets(y: Any, n_samples: int, *, classification: bool) -> np.ndarray:
    """Return y as a 1-D array of length n_samples, or raise a clear error.

    For classification, labels may be of any sortable type, but continuous
    floats (non-integral values) are refused, as scikit-learn does.

    Examples
    --------
    >>> validate_targets(["a", "b"], 2, classification=True).tolist()
    ['a', 'b']
    >>> validate_targets([0.5, 1.5], 2, classification=True)
    Traceback (most recent call last):
    ...
    ValueError: y has continuous values (unknown label type 'continuous'); a classifier \
needs discrete labels
    """
    if y is None:
        raise ValueError("y is required: pass the training targets")
    values = np.asarray(y)
    if values.ndim == 2 and values.shape[1] == 1:
        values = values.ravel()
    if values.ndim != 1:
        raise ValueError(f"y must be a 1-D array; got shape {values.shape}")
    if values.shape[0] != n_samples:
        raise ValueError(
            f"X and y have inconsistent lengths: X has {n_samples} samples, y has "
            f"{values.shape[0]}"
        )
    if values.dtype.kind == "c":
        raise ValueError("y must be real-valued; complex targets are not supported")
    if classification:
        if values.dtype.kind == "O":
            if any(isinstance(v, float) and np.isnan(v) for v in values):
                raise ValueError("y contains NaN")
        elif values.dtype.kind == "f":
            if not np.isfinite(values).all():
                raise ValueError("y contains NaN or infinity")
            if np.any(values != np.round(values)):
                raise ValueError(
                    "y has continuous values (unknown label type 'continuous'); "
                    "a classifier needs discrete labels"
                )
        return values
    try:
        values = values.astype(np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"y must contain numbers; got dtype {values.dtype}") from None
    if not np.isfinite(values).all():
        raise ValueError("y contains NaN or infinity")
    return np.ascontiguousarray(values)


def validate_sample_weight(sample_weight: Any, n_samples: int) -> np.ndarray:
    """Return sample weights as float64 of length n_samples (ones when None).

    Examples
    --------
    >>> validate_sample_weight(None, 3).tolist()
    [1.0, 1.0, 1.0]
    >>> validate_sample_weight([1, -1], 2)
    Traceback (most recent call last):
    ...
    ValueError: sample_weight must be non-negative; got a minimum of -1.0
    """
    if sample_weight is None:
        return np.ones(n_samples, dtype=np.float64)
    if np.isscalar(sample_weight):
        weights = np.full(n_samples, sample_weight, dtype=np.float64)
    else:
        try:
            weights = np.asarray(sample_weight, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError("sample_weight must be an array of numbers") from None
    if weights.ndim != 1 or weights.shape[0] != n_samples:
        raise ValueError(
            f"sample_weight must have shape ({n_samples},), one weight per sample; "
            f"got shape {weights.shape}"
        )
    if not np.isfinite(weights).all():
        raise ValueError("sample_weight contains NaN or infinity")
    if weights.min() < 0:
        raise ValueError(f"sample_weight must be non-negative; got a minimum of {weights.min()}")
    if not np.any(weights > 0):
        raise ValueError("sample_weight is zero for every sample; at least one must be positive")
    return weights


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


def check_fitted(estimator: Any, attribute: str) -> None:
    """Raise NotFittedError unless `estimator` has `attribute`.

    Examples
    --------
    >>> class Model:
    ...     pass
    >>> check_fitted(Model(), "support_")
    Traceback (most recent call last):
    ...
    svmx.exceptions.NotFittedError: This Model instance is not fitted yet; call 'fit' first.
    """
    if not hasattr(estimator, attribute):
        raise NotFittedError(
            f"This {type(estimator).__name__} instance is not fitted yet; call 'fit' first."
        )
