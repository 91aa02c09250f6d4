"""``MinMaxScaler`` and ``StandardScaler`` with scikit-learn's signatures, defaults and results.

These two names are scikit-learn's, so they behave as scikit-learn's do (parameters,
fitted attributes, dtypes, NaN and sparse handling), without importing scikit-learn.
svm-scale's scaling, which differs (sparse zeros counted, constant columns dropped, range
files), is :class:`SvmScaler`; svmx's own index-free helpers are :func:`min_max_scale`,
:func:`standardize` and :func:`apply_scaler`.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from svmx._estimator import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from svmx._validation import (
    check_feature_names,
    check_fitted,
    check_n_features,
    check_not_empty,
    validate_sample_weight,
)

__all__ = ["MinMaxScaler", "StandardScaler"]

_FLOAT_DTYPES = (np.float64, np.float32, np.float16)
_CENTER_SPARSE = ("Cannot center sparse matrices: pass `with_mean=False` instead (centering "
                  "would make every implicit zero non-zero)")


def _check_bool(value: object, name: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be a bool, got {value!r}")
    return bool(value)


def _float_dtype(dtype: np.dtype) -> Any:
    return dtype if dtype in _FLOAT_DTYPES else np.float64


def _check_dense(X: Any, copy: bool) -> np.ndarray:
    if isinstance(X, str | bytes):
        raise TypeError("X must be array-like of numbers; got a string")
    array = np.asarray(X)
    if array.dtype.kind == "c":
        raise ValueError("Complex data not supported: X must be real-valued")
    if array.dtype.kind in "USOV":
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError) as error:
            raise TypeError(f"X must contain numbers: {error}") from None
    if array.ndim != 2:
        raise ValueError(
            f"Expected a 2-D array for X, got a {array.ndim}-D array instead. Reshape your data "
            "either using X.reshape(-1, 1) if it has a single feature or X.reshape(1, -1) if it "
            "is a single sample."
        )
    dtype = _float_dtype(array.dtype)
    if copy or array.dtype != dtype or not array.flags.writeable:
        array = np.array(array, dtype=dtype, copy=True)
    return array


def _check_sparse(X: Any, copy: bool) -> sp.csr_matrix:
    if X.dtype.kind == "c":
        raise ValueError("Complex data not supported: X must be real-valued")
    matrix = X.tocsr()
    if matrix.dtype not in (np.float32, np.float64):
        matrix = matrix.astype(np.float64)
    elif matrix is X and (copy or not matrix.has_canonical_format):
        matrix = matrix.copy()
    if not matrix.has_canonical_format:
        matrix.sum_duplicates()
    return matrix


def _check_input(estimator: BaseEstimator, X: Any, *, copy: bool, accept_sparse: bool,
                 reset: bool) -> np.ndarray | sp.csr_matrix:
    """Float32/float64/float16 kept, other types to float64; NaN allowed, infinity refused."""
    owner = type(estimator).__name__
    if sp.issparse(X):
        if not accept_sparse:
            raise TypeError(
                f"{owner} does not support sparse input X (nor does scikit-learn's). Use "
                "svmx.preprocessing.SvmScaler (svm-scale's scaling; CSR stays CSR) or "
                "scikit-learn's MaxAbsScaler instead, or pass X.toarray()."
            )
        matrix = _check_sparse(X, copy)
        values = matrix.data
    else:
        matrix = values = _check_dense(X, copy)
    check_not_empty(matrix.shape)
    if np.isinf(values).any():
        raise ValueError(f"Input X contains infinity or a value too large for "
                         f"{values.dtype!r}; {owner} allows NaN but not infinity.")
    if not reset:
        check_n_features(matrix, estimator.n_features_in_, owner=owner)
    check_feature_names(estimator, X, reset=reset)
    if reset:
        estimator.n_features_in_ = matrix.shape[1]
    return matrix


def _forget(estimator: BaseEstimator) -> None:
    for name in [name for name in vars(estimator) if name.endswith("_")]:
        delattr(estimator, name)


class MinMaxScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Scale each feature linearly so that its range over the data becomes ``feature_range``.

    scikit-learn's ``MinMaxScaler``: same parameters, defaults, attributes and results
    (``X * scale_ + min_``). NaN is ignored in ``fit`` and kept in ``transform``; a
    constant column maps to ``feature_range[0]``; float32 and float16 input keep their
    dtype. Sparse input is refused. For LIBSVM's svm-scale (default ``[-1, 1]``, sparse
    input, implicit zeros counted, constant columns dropped, range files) use
    :class:`SvmScaler`.

    Parameters
    ----------
    feature_range : (float, float), default=(0, 1)
        Target interval ``(min, max)``, ``min < max``.
    copy : bool, default=True
        False scales a float array of a kept dtype in place.
    clip : bool, default=False
        Clip transformed values of new data to ``feature_range``.

    Attributes
    ----------
    min_ : ndarray of shape (n_features,)
        Per-feature offset: ``X * scale_ + min_``.
    scale_ : ndarray of shape (n_features,)
        Per-feature factor, ``(max - min) / data_range_`` (``max - min`` for a constant
        column).
    data_min_, data_max_, data_range_ : ndarray of shape (n_features,)
        Per-feature minimum, maximum and their difference, NaN ignored.
    n_samples_seen_ : int
        Rows seen (by ``fit``, or summed over ``partial_fit`` calls).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str
        Column names, when ``fit`` was given a data frame with string column names.

    Examples
    --------
    >>> scaler = MinMaxScaler().fit([[1.0, -3.0], [3.0, 3.0]])
    >>> scaler.transform([[2.0, 0.0], [5.0, 6.0]]).tolist()
    [[0.5, 0.5], [2.0, 1.5]]
    >>> MinMaxScaler(feature_range=(-1, 1), clip=True).fit([[0.0], [4.0]]).transform([[8.0]])
    array([[1.]])
    >>> scaler.inverse_transform([[0.5, 0.5]]).tolist()
    [[2.0, 0.0]]
    """

    def __init__(self, feature_range: tuple[float, float] = (0, 1), *, copy: bool = True,
                 clip: bool = False) -> None:
        self.feature_range = feature_range
        self.copy = copy
        self.clip = clip

    def _range(self) -> tuple[float, float]:
        feature_range = self.feature_range
        try:
            low, high = feature_range
        except (TypeError, ValueError):
            raise TypeError(f"feature_range must be a tuple (min, max) of two numbers, got "
                            f"{feature_range!r}") from None
        for bound in (low, high):
            if isinstance(bound, bool | np.bool_) or not isinstance(bound, numbers.Real):
                raise TypeError(f"feature_range must be a tuple (min, max) of two numbers, "
                                f"got {feature_range!r}")
        if not low < high:
            raise ValueError(f"feature_range: the minimum of the desired feature range must be "
                             f"smaller than its maximum, got {feature_range!r}")
        return float(low), float(high)

    def fit(self, X: npt.ArrayLike, y: object = None) -> MinMaxScaler:
        """Compute each feature's minimum and maximum (NaN ignored).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        _forget(self)
        return self.partial_fit(X, y)

    def partial_fit(self, X: npt.ArrayLike, y: object = None) -> MinMaxScaler:
        """Update the minimum and maximum with the rows of another batch.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        low, high = self._range()
        _check_bool(self.copy, "copy")
        _check_bool(self.clip, "clip")
        first = not hasattr(self, "n_samples_seen_")
        X = _check_input(self, X, copy=False, accept_sparse=False, reset=first)
        low, high = X.dtype.type(low), X.dtype.type(high)  # the bounds in X's precision
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN column gives NaN
            data_min, data_max = np.nanmin(X, axis=0), np.nanmax(X, axis=0)
        if first:
            self.n_samples_seen_ = X.shape[0]
        else:
            data_min = np.minimum(self.data_min_, data_min)
            data_max = np.maximum(self.data_max_, data_max)
            self.n_samples_seen_ += X.shape[0]
        data_range = data_max - data_min
        # A (numerically) constant feature is divided by 1, so it maps to the lower bound.
        divisor = np.where(data_range < 10 * np.finfo(data_range.dtype).eps, 1, data_range)
        divisor = divisor.astype(data_range.dtype, copy=False)
        self.scale_ = (high - low) / divisor
        self.min_ = low - data_min * self.scale_
        self.data_min_, self.data_max_, self.data_range_ = data_min, data_max, data_range
        return self

    def transform(self, X: npt.ArrayLike) -> np.ndarray:
        """Scale ``X``: ``X * scale_ + min_`` (clipped to ``feature_range`` with ``clip``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_features)
        """
        check_fitted(self, "scale_")
        X = _check_input(self, X, copy=_check_bool(self.copy, "copy"), accept_sparse=False,
                         reset=False)
        X *= self.scale_
        X += self.min_
        if _check_bool(self.clip, "clip"):
            low, high = self._range()
            np.clip(X, X.dtype.type(low), X.dtype.type(high), out=X)
        return X

    def inverse_transform(self, X: npt.ArrayLike) -> np.ndarray:
        """Undo the scaling: ``(X - min_) / scale_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_features)
        """
        check_fitted(self, "scale_")
        X = _check_input(self, X, copy=_check_bool(self.copy, "copy"), accept_sparse=False,
                         reset=False)
        X -= self.min_
        X /= self.scale_
        return X

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.sparse = False
        return tags


def _dense_moments(X: np.ndarray, weights: np.ndarray | None, with_var: bool
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Per-column (count, sum, sum of squared deviations) of the non-NaN values, in float64."""
    missing = np.isnan(X)
    if weights is None:
        count = X.shape[0] - missing.sum(axis=0)
        total = np.nansum(X, axis=0, dtype=np.float64)
    else:
        count = weights @ ~missing
        total = weights @ np.where(missing, 0.0, X).astype(np.float64, copy=False)
    if not with_var:
        return count, total, None
    with np.errstate(divide="ignore", invalid="ignore"):
        deviation = np.where(missing, 0.0, X - total / count)
        if weights is None:
            correction = deviation.sum(axis=0)
            squares = (deviation**2).sum(axis=0)
        else:
            correction = weights @ deviation
            squares = weights @ deviation**2
        # The corrected two-pass algorithm (Chan, Golub and LeVeque).
        return count, total, squares - correction**2 / count


def _sparse_moments(X: sp.csr_matrix, weights: np.ndarray | None, with_var: bool
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """As :func:`_dense_moments`, the implicit zeros counted as values."""
    n_rows, n_columns = X.shape
    rows = np.repeat(np.arange(n_rows), np.diff(X.indptr))
    entry_weight = np.ones(X.nnz) if weights is None else weights[rows]
    missing = np.isnan(X.data)
    present = ~missing
    values = np.where(missing, 0.0, X.data).astype(np.float64, copy=False)

    def column_sums(per_entry: np.ndarray) -> np.ndarray:
        return np.bincount(X.indices, weights=per_entry, minlength=n_columns)

    if weights is None:
        count = n_rows - np.bincount(X.indices[missing], minlength=n_columns)
    else:
        count = weights.sum() - column_sums(entry_weight * missing)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = column_sums(entry_weight * values) / count
        if not with_var:
            return count, mean * count, None
        implicit = count - column_sums(entry_weight * present)
        deviation = np.where(present, values - mean[X.indices], 0.0)
        correction = column_sums(entry_weight * deviation) - implicit * mean
        squares = column_sums(entry_weight * deviation**2) + implicit * mean**2
        # The sum is rebuilt from the mean, as scikit-learn's sparse update does.
        return count, mean * count, squares - correction**2 / count


def _merge_moments(previous: tuple[Any, Any, Any], batch: tuple[Any, Any, Any]
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(count, mean, squares) of two disjoint sets of rows: the previous (count, mean, squares)
    and a batch's (count, sum, squares), by Chan et al.'s pairwise update written with sums
    (the form scikit-learn uses, so that rounding agrees)."""
    count_a, mean_a, squares_a = previous
    count_b, total_b, squares_b = batch
    count = count_a + count_b
    with np.errstate(divide="ignore", invalid="ignore"):
        total_a = count_a * mean_a
        mean = (total_a + total_b) / count
        mean = np.where((count_b == 0) & (count_a > 0), mean_a, mean)
        if squares_b is None:
            return count, mean, None
        ratio = count_a / count_b
        squares = squares_a + squares_b + ratio / count * (total_a / ratio - total_b) ** 2
        squares = np.where(count_a == 0, squares_b, np.where(count_b == 0, squares_a, squares))
    return count, mean, squares


class StandardScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Standardise features: remove the mean and divide by the standard deviation.

    scikit-learn's ``StandardScaler``: same parameters, defaults, attributes and results
    ``(X - mean_) / scale_`` with the population variance. NaN is ignored in ``fit`` and
    kept in ``transform``; a constant feature gets ``scale_ = 1``; float32 input keeps its
    dtype (statistics are float64). Sparse input needs ``with_mean=False`` and stays CSR:
    each column is only divided by its scale, the implicit zeros counted in the statistics.

    Parameters
    ----------
    copy : bool, default=True
        False scales a float array (or CSR matrix) of a kept dtype in place.
    with_mean : bool, default=True
        Centre the data first (impossible for sparse input: pass False).
    with_std : bool, default=True
        Divide by the standard deviation.

    Attributes
    ----------
    mean_ : ndarray of shape (n_features,) or None
        Per-feature mean (NaN ignored); None when neither ``with_mean`` nor ``with_std``,
        and for sparse input without ``with_std``.
    var_ : ndarray of shape (n_features,) or None
        Per-feature population variance; None without ``with_std``.
    scale_ : ndarray of shape (n_features,) or None
        ``sqrt(var_)``, 1 where the variance is (numerically) 0; None without ``with_std``.
    n_samples_seen_ : int or ndarray of shape (n_features,)
        Non-NaN values seen per feature (summed sample weights with ``sample_weight``); an
        int when it is the same for every feature.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str
        Column names, when ``fit`` was given a data frame with string column names.

    Examples
    --------
    >>> scaler = StandardScaler().fit([[0.0, 1.0], [2.0, 1.0], [4.0, 1.0]])
    >>> scaler.mean_.tolist(), scaler.scale_.round(4).tolist()
    ([2.0, 1.0], [1.633, 1.0])
    >>> scaler.transform([[2.0, 3.0]]).tolist()
    [[0.0, 2.0]]
    >>> import scipy.sparse as sp
    >>> StandardScaler(with_mean=False).fit_transform(sp.csr_matrix([[0.0], [2.0]])).toarray()
    array([[0.],
           [2.]])
    """

    def __init__(self, *, copy: bool = True, with_mean: bool = True,
                 with_std: bool = True) -> None:
        self.copy = copy
        self.with_mean = with_mean
        self.with_std = with_std

    def fit(self, X: npt.ArrayLike | sp.spmatrix, y: object = None,
            sample_weight: npt.ArrayLike | None = None) -> StandardScaler:
        """Compute each feature's mean and variance (NaN ignored).

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        y : ignored
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weight of each row.

        Returns
        -------
        self
        """
        _forget(self)
        return self.partial_fit(X, y, sample_weight)

    def partial_fit(self, X: npt.ArrayLike | sp.spmatrix, y: object = None,
                    sample_weight: npt.ArrayLike | None = None) -> StandardScaler:
        """Update the mean and variance with the rows of another batch.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        y : ignored
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weight of each row.

        Returns
        -------
        self
        """
        with_mean = _check_bool(self.with_mean, "with_mean")
        with_std = _check_bool(self.with_std, "with_std")
        _check_bool(self.copy, "copy")
        first = not hasattr(self, "n_samples_seen_")
        X = _check_input(self, X, copy=False, accept_sparse=True, reset=first)
        sparse = sp.issparse(X)
        if sparse and with_mean:
            raise ValueError(_CENTER_SPARSE)
        weights = None
        if sample_weight is not None:
            weights = validate_sample_weight(sample_weight, X.shape[0])
        moments = _sparse_moments if sparse else _dense_moments
        batch = moments(X, weights, with_std)
        if first:
            previous = (np.zeros(X.shape[1], dtype=batch[0].dtype), 0.0, 0.0)
        else:
            seen = np.broadcast_to(self.n_samples_seen_, (X.shape[1],))
            last_var = self._running_var_ if self._running_var_ is not None else 0.0
            previous = (seen, self._running_mean_, last_var * seen)
        count, mean, squares = _merge_moments(previous, batch)
        self._running_mean_ = mean
        with np.errstate(divide="ignore", invalid="ignore"):
            self._running_var_ = None if squares is None else squares / count
        # As scikit-learn: counts are float64 once statistics are computed, else integers.
        keep_mean = with_std or (with_mean and not sparse)
        if keep_mean:
            count = count.astype(np.float64)
        self.mean_ = mean if keep_mean else None
        self.var_ = self._running_var_
        self.n_samples_seen_ = count[0] if np.ptp(count) == 0 else count
        self.scale_ = None
        if with_std:
            # A variance within rounding noise of 0 is a constant feature: scale 1.
            eps = np.finfo(np.float64).eps
            seen, var = self.n_samples_seen_, self._running_var_
            constant = var <= seen * eps * var + (seen * mean * eps) ** 2
            self.scale_ = np.where(constant, 1.0, np.sqrt(var))
        return self

    def transform(self, X: npt.ArrayLike | sp.spmatrix, copy: bool | None = None
                  ) -> np.ndarray | sp.csr_matrix:
        """Standardise ``X``: ``(X - mean_) / scale_``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        copy : bool, optional
            Overrides the ``copy`` parameter.

        Returns
        -------
        ndarray or CSR matrix of shape (n_samples, n_features)
        """
        return self._apply(X, copy, inverse=False)

    def inverse_transform(self, X: npt.ArrayLike | sp.spmatrix, copy: bool | None = None
                          ) -> np.ndarray | sp.csr_matrix:
        """Undo the standardisation: ``X * scale_ + mean_``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        copy : bool, optional
            Overrides the ``copy`` parameter.

        Returns
        -------
        ndarray or CSR matrix of shape (n_samples, n_features)
        """
        return self._apply(X, copy, inverse=True)

    def _apply(self, X: Any, copy: bool | None, inverse: bool) -> np.ndarray | sp.csr_matrix:
        check_fitted(self, "n_samples_seen_")
        copy = _check_bool(self.copy if copy is None else copy, "copy")
        X = _check_input(self, X, copy=copy, accept_sparse=True, reset=False)
        if sp.issparse(X):
            if self.with_mean:
                raise ValueError(_CENTER_SPARSE)
            if self.scale_ is not None:
                factor = self.scale_ if inverse else 1.0 / self.scale_
                X.data *= factor[X.indices]
            return X
        # The float64 statistics are rounded to X's dtype first, as scikit-learn does.
        if inverse:
            if self.with_std:
                X *= self.scale_.astype(X.dtype)
            if self.with_mean:
                X += self.mean_.astype(X.dtype)
        else:
            if self.with_mean:
                X -= self.mean_.astype(X.dtype)
            if self.with_std:
                X /= self.scale_.astype(X.dtype)
        return X

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # NaN is left out of the statistics and kept
        tags.input_tags.sparse = self.with_mean is False  # centring refuses sparse input
        return tags
