"""svmx's own scaling functions: standardisation and min-max scaling of dense arrays.

Both scalings are the affine map ``(x - center) / scale`` per column, stored
in a :class:`Scaler` so the exact transformation fitted on training rows can
be replayed on new rows. Statistics use finite values only; NaN and infinity
pass through untouched, and a constant column gets ``scale = 1``.

The estimators are elsewhere: :class:`MinMaxScaler` and :class:`StandardScaler`
behave as scikit-learn's classes of the same names, and :class:`SvmScaler` is
LIBSVM's svm-scale.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from svmx._validation import check_matrix, check_n_features

__all__ = [
    "Scaler",
    "apply_scaler",
    "min_max_scale",
    "standardize",
]


class Scaler(NamedTuple):
    """A per-column affine map ``x -> (x - center) / scale``.

    Parameters
    ----------
    center : ndarray of shape (n_features,)
        Value subtracted from each column.
    scale : ndarray of shape (n_features,)
        Positive divisor of each column.

    Examples
    --------
    >>> import numpy as np
    >>> scaler = Scaler(center=np.array([1.0]), scale=np.array([2.0]))
    >>> apply_scaler([[5.0], [1.0]], scaler).ravel().tolist()
    [2.0, 0.0]
    """

    center: np.ndarray
    scale: np.ndarray


def _finite_columns(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    finite = np.isfinite(X)
    return finite, finite.sum(axis=0)


def _finite_min_max(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    finite, count = _finite_columns(X)
    low = np.where(finite, X, np.inf).min(axis=0)
    high = np.where(finite, X, -np.inf).max(axis=0)
    # A column without any finite value maps as the identity.
    low[count == 0] = 0.0
    high[count == 0] = 0.0
    return low, high


def _standard_scaler(X: np.ndarray) -> Scaler:
    finite, count = _finite_columns(X)
    values = np.where(finite, X, 0.0)
    safe_count = np.maximum(count, 1)
    mean = values.sum(axis=0) / safe_count
    deviation = np.where(finite, X - mean, 0.0)
    with np.errstate(over="ignore"):
        std = np.sqrt((deviation**2).sum(axis=0) / safe_count)
    low, high = _finite_min_max(X)
    # Testing max == min, not std == 0, keeps rounding noise of the mean
    # from turning a constant column into a huge scale-up.
    std[(low == high) | (std == 0.0) | ~np.isfinite(std)] = 1.0
    return Scaler(center=mean, scale=std)


def _check_range(feature_range: object) -> tuple[float, float]:
    try:
        lower, upper = (float(bound) for bound in feature_range)  # type: ignore[union-attr]
    except (TypeError, ValueError) as error:
        raise TypeError("feature_range must be a pair of numbers (lower, upper)") from error
    if not (np.isfinite(lower) and np.isfinite(upper) and lower < upper):
        raise ValueError(f"feature_range must be finite with lower < upper, got ({lower}, {upper})")
    return lower, upper


def _min_max_scaler(X: np.ndarray, feature_range: tuple[float, float]) -> Scaler:
    lower, upper = feature_range
    low, high = _finite_min_max(X)
    with np.errstate(over="ignore", under="ignore"):
        scale = (high - low) / (upper - lower)
    # A constant column, or a span that under- or overflows, keeps scale 1.
    scale = np.where((scale > 0) & np.isfinite(scale), scale, 1.0)
    # Solve lower = (low - center) / scale for center; a constant column maps to lower.
    center = low - lower * scale
    return Scaler(center=center, scale=scale)


def _replay(
    X: np.ndarray, scaler: Scaler, inverse: bool = False, owner: str = "the scaler"
) -> np.ndarray:
    center = np.asarray(scaler.center, dtype=np.float64)
    scale = np.asarray(scaler.scale, dtype=np.float64)
    check_n_features(X, center.shape[0], owner=owner)
    mapped = X * scale + center if inverse else (X - center) / scale
    return np.where(np.isfinite(X), mapped, X)


def apply_scaler(X: npt.ArrayLike, scaler: Scaler) -> np.ndarray:
    """Apply a fitted :class:`Scaler` to new rows.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Rows to scale; NaN and infinite entries are returned unchanged.
    scaler : Scaler
        The map returned by :func:`standardize` or :func:`min_max_scale`.

    Returns
    -------
    ndarray of shape (n_samples, n_features)

    Examples
    --------
    >>> train = [[0.0, 10.0], [2.0, 30.0]]
    >>> _, scaler = min_max_scale(train, feature_range=(0, 1))
    >>> apply_scaler([[1.0, 50.0]], scaler).tolist()
    [[0.5, 2.0]]
    """
    if not isinstance(scaler, Scaler):
        raise TypeError(f"scaler must be a Scaler, got {type(scaler).__name__}")
    return _replay(check_matrix(X), scaler)


def standardize(X: npt.ArrayLike) -> tuple[np.ndarray, Scaler]:
    """Centre each column on its mean and divide by its population standard deviation.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Data; NaN and infinite entries are ignored by the statistics and
        returned unchanged.

    Returns
    -------
    scaled : ndarray of shape (n_samples, n_features)
    scaler : Scaler
        ``center`` is the mean, ``scale`` the standard deviation (``ddof=0``),
        or 1 for a constant column.

    Examples
    --------
    >>> import numpy as np
    >>> scaled, scaler = standardize([[1.0, 5.0], [3.0, 5.0], [np.nan, 5.0]])
    >>> scaled.tolist()
    [[-1.0, 0.0], [1.0, 0.0], [nan, 0.0]]
    >>> scaler.center.tolist(), scaler.scale.tolist()
    ([2.0, 5.0], [1.0, 1.0])
    """
    X = check_matrix(X)
    scaler = _standard_scaler(X)
    return _replay(X, scaler), scaler


def min_max_scale(
    X: npt.ArrayLike, feature_range: tuple[float, float] = (-1.0, 1.0)
) -> tuple[np.ndarray, Scaler]:
    """Map each column linearly so that its finite values span ``feature_range``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Data; NaN and infinite entries are ignored by the statistics and
        returned unchanged.
    feature_range : (float, float), default=(-1.0, 1.0)
        Target interval, ``lower < upper``; the default is svm-scale's interval (but
        :class:`MinMaxScaler`'s default, as scikit-learn's, is ``(0, 1)``).

    Returns
    -------
    scaled : ndarray of shape (n_samples, n_features)
    scaler : Scaler
        A constant column gets ``scale = 1`` and maps to ``lower``.

    See Also
    --------
    SvmScaler : svm-scale's scaling exactly: constant columns dropped (to 0), sparse input
        with implicit zeros counted, range files.

    Examples
    --------
    >>> scaled, _ = min_max_scale([[0.0], [5.0], [10.0]])
    >>> scaled.ravel().tolist()
    [-1.0, 0.0, 1.0]
    """
    X = check_matrix(X)
    scaler = _min_max_scaler(X, _check_range(feature_range))
    return _replay(X, scaler), scaler
