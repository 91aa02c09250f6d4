"""Argument checks shared by the preprocessing helpers.

Each check names the offending argument in its message, so a caller can tell
at a glance which input was wrong.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import numpy.typing as npt

from ._splitmix import SplitMix64


def check_int(value: object, name: str, minimum: int | None = None) -> int:
    """Return ``value`` as an int, rejecting bools, floats and other types."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return value


def check_ratio(value: object, name: str) -> float:
    """Return ``value`` as a float in [0, 1]."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be a finite number in [0, 1], got {value!r}")
    return value


def as_generator(seed: object, name: str = "seed") -> SplitMix64:
    """Turn an integer seed into a fresh generator; pass a generator through."""
    if isinstance(seed, SplitMix64):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(
            f"{name} must be an integer or a SplitMix64 generator, got {type(seed).__name__}"
        )
    return SplitMix64(int(seed))


def check_labels(labels: npt.ArrayLike, name: str = "labels") -> np.ndarray:
    """Return ``labels`` as a non-empty 1-D array without NaN."""
    array = np.asarray(labels)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got an array of shape {array.shape}")
    if array.shape[0] == 0:
        raise ValueError(f"{name} must not be empty")
    if array.dtype.kind == "f" and np.isnan(array).any():
        raise ValueError(f"{name} must not contain NaN")
    return array


def check_matrix(
    X: npt.ArrayLike, name: str = "X", dtype: npt.DTypeLike | None = np.float64
) -> np.ndarray:
    """Return ``X`` as a 2-D array with at least one row and one column."""
    if hasattr(X, "tocsr") and hasattr(X, "nnz"):
        raise TypeError(f"{name} must be a dense array; sparse matrices are not supported")
    try:
        array = np.asarray(X, dtype=dtype)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be an array of numbers: {error}") from error
    if array.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D (n_samples, n_features), got an array of shape {array.shape}; "
            "reshape a single feature with X.reshape(-1, 1)"
        )
    if array.shape[0] == 0 or array.shape[1] == 0:
        raise ValueError(f"{name} must not be empty, got shape {array.shape}")
    return array


def check_n_features(array: np.ndarray, expected: int, name: str = "X") -> None:
    """Raise if ``array`` does not have ``expected`` columns."""
    if array.shape[1] != expected:
        raise ValueError(
            f"{name} has {array.shape[1]} features, but the fitted object expects {expected}"
        )
