"""LIBSVM's svm-scale as an estimator, and the range file format it shares with ``svmx scale``.

svm-scale maps each feature linearly from its ``[min, max]`` over the data to
``[lower, upper]``. The minimum and maximum count the implicit zeros of sparse rows as
values, a constant feature (``min == max``) is dropped (it becomes 0, and a sparse output
does not store it), and zeros of the output are not stored. Its range file (``svm-scale -s``
writes it, ``-r`` reads it) is::

    y                   <- only when the labels are scaled
    y_lower y_upper
    y_min y_max
    x
    lower upper
    index min max       <- one line per non-constant feature, 1-based

This module is the one implementation of that arithmetic and that file format: the
``svmx scale`` command formats what :class:`SvmScaler` computes.
"""

from __future__ import annotations

import math
import numbers
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from svmx._estimator import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from svmx._validation import (
    check_feature_names,
    check_fitted,
    check_matrix,
    check_n_features,
    check_not_empty,
)

__all__ = ["RangeFile", "SvmScaler", "feature_min_max", "read_range_file", "scale_linearly"]


def _check_bound_pair(value: object, name: str) -> tuple[float, float]:
    try:
        low, high = value  # type: ignore[misc]
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a pair of numbers (lower, upper), got {value!r}") from None
    for bound in (low, high):
        if isinstance(bound, bool | np.bool_) or not isinstance(bound, numbers.Real):
            raise TypeError(f"{name} must be a pair of numbers (lower, upper), got {value!r}")
    low, high = float(low), float(high)
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise ValueError(f"{name} must be finite with lower < upper, got ({low:g}, {high:g})")
    return low, high


def feature_min_max(X: np.ndarray | sp.csr_matrix) -> tuple[np.ndarray, np.ndarray]:
    """Each column's minimum and maximum as svm-scale computes them.

    Implicit zeros of a sparse matrix count as values; NaN never becomes the minimum or the
    maximum (as in svm-scale, where every comparison with NaN is false). A column with no
    value other than NaN gets ``min = max = 0``: it is dropped like a constant one.

    Parameters
    ----------
    X : ndarray or CSR matrix of shape (n_samples, n_features), float64

    Returns
    -------
    low, high : ndarray of shape (n_features,)

    Examples
    --------
    >>> X = sp.csr_matrix(np.array([[1.0, 0.0, 5.0], [3.0, 2.0, 5.0]]))
    >>> [part.tolist() for part in feature_min_max(X)]
    [[1.0, 0.0, 5.0], [3.0, 2.0, 5.0]]
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns
        if sp.issparse(X):
            low = np.asarray(X.nanmin(axis=0).todense(), dtype=np.float64).ravel()
            high = np.asarray(X.nanmax(axis=0).todense(), dtype=np.float64).ravel()
        else:
            low, high = np.nanmin(X, axis=0), np.nanmax(X, axis=0)
    empty = np.isnan(low) | np.isnan(high)
    low[empty] = 0.0
    high[empty] = 0.0
    return low, high


def scale_linearly(values: npt.ArrayLike, low: npt.ArrayLike, high: npt.ArrayLike,
                   lower: npt.ArrayLike, upper: npt.ArrayLike) -> np.ndarray:
    """svm-scale's map of ``values`` from ``[low, high]`` to ``[lower, upper]``.

    ``value == low`` gives exactly ``lower``, else ``value == high`` exactly ``upper``, else
    ``lower + (upper - lower) * (value - low) / (high - low)``, in svm-scale's order of
    operations. Arguments broadcast against each other.

    Examples
    --------
    >>> scale_linearly([2.0, 3.0, 4.0], 2.0, 4.0, -1.0, 1.0).tolist()
    [-1.0, 0.0, 1.0]
    >>> scale_linearly([5.0], 5.0, 5.0, 0.0, 1.0).tolist()  # a constant label: y_lower
    [0.0]
    """
    values = np.asarray(values, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        scaled = lower + np.subtract(upper, lower) * (values - low) / np.subtract(high, low)
    scaled = np.where(values == high, upper, scaled)
    return np.where(values == low, lower, scaled)


def _map_sparse(X: sp.csr_matrix, stored: Callable[[np.ndarray, np.ndarray], np.ndarray],
                zero_image: np.ndarray) -> sp.csr_matrix:
    """Map a CSR matrix column-wise: ``stored(values, columns)`` for the stored entries,
    ``zero_image[j]`` for the implicit zeros of column j; output zeros are not stored."""
    n_rows, n_columns = X.shape
    rows = np.repeat(np.arange(n_rows), np.diff(X.indptr))
    columns = X.indices
    data = stored(X.data, columns)
    filled = np.flatnonzero(zero_image != 0)
    if filled.size:
        structure = sp.csr_matrix((np.ones(X.nnz, dtype=bool), X.indices, X.indptr),
                                  shape=X.shape)
        implicit_rows, implicit = np.nonzero(~structure[:, filled].toarray())
        rows = np.concatenate([rows, implicit_rows])
        columns = np.concatenate([columns, filled[implicit]])
        data = np.concatenate([data, zero_image[filled[implicit]]])
    mapped = sp.csr_matrix((data, (rows, columns)), shape=(n_rows, n_columns))
    mapped.eliminate_zeros()
    mapped.sort_indices()
    return mapped


@dataclass
class RangeFile:
    """The contents of an svm-scale range file.

    Attributes
    ----------
    lower, upper : float
        The feature scaling's target interval.
    features : dict of int to (float, float)
        ``(min, max)`` of each listed feature, by 1-based index.
    y_range : (float, float) or None
        The label scaling's target interval, when the file has a ``y`` section.
    y_min, y_max : float
        The labels' range (meaningful only with ``y_range``).
    """

    lower: float
    upper: float
    features: dict[int, tuple[float, float]] = field(default_factory=dict)
    y_range: tuple[float, float] | None = None
    y_min: float = 0.0
    y_max: float = 0.0

    @property
    def width(self) -> int:
        """The largest feature index listed (0 when none is)."""
        return max(self.features, default=0)


def read_range_file(path: str | os.PathLike[str]) -> RangeFile:
    """Parse an svm-scale range file (as ``svm-scale -s`` or :meth:`SvmScaler.save_range`
    write it).

    Raises
    ------
    ValueError
        Naming the file and line of the first malformed line.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "range"
    >>> _ = path.write_text("x\\n-1 1\\n1 0 10\\n3 -2 2\\n")
    >>> read_range_file(path).features
    {1: (0.0, 10.0), 3: (-2.0, 2.0)}
    """
    name = os.fspath(path)
    with open(path, encoding="ascii", errors="replace") as handle:
        lines = [line.split() for line in handle]
    lines = [line for line in lines if line]

    def numbers_at(position: int, count: int) -> list[float]:
        if position >= len(lines) or len(lines[position]) != count:
            raise ValueError(f"{name}, line {position + 1}: expected {count} numbers")
        try:
            return [float(value) for value in lines[position]]
        except ValueError:
            raise ValueError(f"{name}, line {position + 1}: expected {count} numbers") from None

    position = 0
    ranges = RangeFile(0.0, 0.0)
    if lines and lines[0] == ["y"]:
        y_lower, y_upper = numbers_at(1, 2)
        ranges.y_range = (y_lower, y_upper)
        ranges.y_min, ranges.y_max = numbers_at(2, 2)
        position = 3
    if position >= len(lines) or lines[position] != ["x"]:
        raise ValueError(f"{name}, line {position + 1}: expected the line 'x' (not a range file?)")
    ranges.lower, ranges.upper = numbers_at(position + 1, 2)
    for offset in range(position + 2, len(lines)):
        index, low, high = numbers_at(offset, 3)
        if index != int(index) or index < 1:
            raise ValueError(f"{name}, line {offset + 1}: bad feature index {index:g}")
        ranges.features[int(index)] = (low, high)
    return ranges


class SvmScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """LIBSVM's svm-scale: each feature mapped linearly from its data range to ``[lower, upper]``.

    ``SvmScaler(lower, upper).fit_transform(X)`` is what ``svm-scale -l lower -u upper``
    prints for the same data, value for value (svm-scale prints six significant digits).
    Unlike :class:`MinMaxScaler`:

    * the minimum and maximum of a sparse column count its implicit zeros;
    * a constant column is dropped: its output is 0 (not stored in sparse output);
    * CSR input gives CSR output (zeros not stored; implicit zeros are scaled like any
      value, so ``lower=0`` keeps non-negative sparse data sparse);
    * the labels can be scaled too (``y_range``, :meth:`transform_y`);
    * the fitted ranges are saved and loaded in svm-scale's range file format
      (:meth:`save_range`, :meth:`load_range`), readable by ``svm-scale -r``.

    NaN never becomes a column's minimum or maximum and stays NaN in the output; infinite
    values are refused. Output is float64, as in LIBSVM.

    Parameters
    ----------
    lower : float, default=-1.0
        Image of each column's minimum (svm-scale's ``-l``).
    upper : float, default=1.0
        Image of each column's maximum (svm-scale's ``-u``); ``lower < upper``.
    y_range : (float, float) or None, default=None
        ``(y_lower, y_upper)``: also learn the labels' range in ``fit`` and map it to this
        interval in :meth:`transform_y` (svm-scale's ``-y``). None: labels are not scaled.

    Attributes
    ----------
    data_min_, data_max_ : ndarray of shape (n_features,)
        Each column's range (implicit zeros included); equal for a dropped column.
    n_features_in_ : int
        Number of columns.
    y_min_, y_max_ : float
        The labels' range; only with ``y_range``.

    See Also
    --------
    MinMaxScaler : scikit-learn's min-max scaling (dense only, constant columns to ``lower``).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[2.0, 7.0, 0.0], [4.0, 7.0, 10.0], [3.0, 7.0, 5.0]])
    >>> scaler = SvmScaler().fit(X, [1.0, 2.0, 3.0])
    >>> scaler.transform(X).tolist()  # column 1 is constant: dropped
    [[-1.0, 0.0, -1.0], [1.0, 0.0, 1.0], [0.0, 0.0, 0.0]]
    >>> import scipy.sparse as sp
    >>> SvmScaler(lower=0.0).fit_transform(sp.csr_matrix(X)).toarray().tolist()
    [[0.0, 0.0, 0.0], [1.0, 0.0, 1.0], [0.5, 0.0, 0.5]]
    >>> SvmScaler(lower=0.0).fit_transform(sp.csr_matrix(X)).nnz  # zeros are not stored
    4
    >>> SvmScaler(y_range=(0, 1)).fit(X, [1.0, 2.0, 3.0]).transform_y([1.0, 3.0]).tolist()
    [0.0, 1.0]
    """

    def __init__(self, lower: float = -1.0, upper: float = 1.0,
                 y_range: tuple[float, float] | None = None) -> None:
        self.lower = lower
        self.upper = upper
        self.y_range = y_range

    def _bounds(self) -> tuple[float, float]:
        for name in ("lower", "upper"):
            value = getattr(self, name)
            if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
                raise TypeError(f"{name} must be a real number, got {value!r}")
            if not math.isfinite(value):
                raise ValueError(f"{name} must be finite, got {value!r}")
        if not self.lower < self.upper:
            raise ValueError(f"lower must be smaller than upper, got lower={self.lower!r}, "
                             f"upper={self.upper!r}")
        return float(self.lower), float(self.upper)

    def _y_bounds(self) -> tuple[float, float] | None:
        if self.y_range is None:
            return None
        return _check_bound_pair(self.y_range, "y_range")

    def _check_X(self, X: object) -> np.ndarray | sp.csr_matrix:
        if sp.issparse(X):
            if X.dtype.kind not in "biuf":  # type: ignore[union-attr]
                raise TypeError(f"X must hold real numbers, got dtype {X.dtype}")  # type: ignore[union-attr]
            matrix = sp.csr_matrix(X, dtype=np.float64, copy=True)
            matrix.sum_duplicates()
            check_not_empty(matrix.shape)
            values = matrix.data
        else:
            matrix = values = check_matrix(X)
        if np.isinf(values).any():
            raise ValueError("X contains infinity; SvmScaler needs finite values (NaN is kept)")
        return matrix

    def _check_y(self, y: object, n_samples: int | None) -> np.ndarray:
        try:
            labels = np.asarray(y, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError("y must be an array of numbers") from None
        if labels.ndim != 1:
            raise ValueError(f"y must be 1-D, got an array of shape {labels.shape}")
        if n_samples is not None and labels.shape[0] != n_samples:
            raise ValueError(f"y must have shape ({n_samples},), one label per row of X; got "
                             f"shape {labels.shape}")
        if not np.isfinite(labels).all():
            raise ValueError("y must be finite (no NaN or infinity)")
        return labels

    def fit(self, X: npt.ArrayLike | sp.spmatrix, y: npt.ArrayLike | None = None) -> SvmScaler:
        """Learn each column's range (and the labels' range, with ``y_range``).

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), optional
            Labels; required when ``y_range`` is set, ignored otherwise.

        Returns
        -------
        self
        """
        self._bounds()
        y_bounds = self._y_bounds()
        matrix = self._check_X(X)
        if y_bounds is not None:
            if y is None:
                raise ValueError(f"y is required: y_range={self.y_range!r} scales the labels")
            labels = self._check_y(y, matrix.shape[0])
            self.y_min_, self.y_max_ = float(labels.min()), float(labels.max())
        else:
            for name in ("y_min_", "y_max_"):
                self.__dict__.pop(name, None)
        self.data_min_, self.data_max_ = feature_min_max(matrix)
        self.n_features_in_ = matrix.shape[1]
        check_feature_names(self, X, reset=True)
        return self

    def _checked_input(self, X: object, names: bool = True) -> np.ndarray | sp.csr_matrix:
        check_fitted(self, "data_min_")
        matrix = self._check_X(X)
        check_n_features(matrix, self.n_features_in_, owner=type(self).__name__)
        if names:  # transform's input, not inverse_transform's (scikit-learn's scalers)
            check_feature_names(self, X, reset=False)
        return matrix

    def transform(self, X: npt.ArrayLike | sp.spmatrix) -> np.ndarray | sp.csr_matrix:
        """Scale ``X`` with the fitted ranges, as svm-scale does.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray or CSR matrix of shape (n_samples, n_features), float64
            CSR for sparse input. Dropped (constant) columns are 0.
        """
        matrix = self._checked_input(X)
        lower, upper = self._bounds()
        low, high = self.data_min_, self.data_max_
        kept = low != high
        if not sp.issparse(matrix):
            return np.where(kept, scale_linearly(matrix, low, high, lower, upper), 0.0)

        def stored(values: np.ndarray, columns: np.ndarray) -> np.ndarray:
            scaled = scale_linearly(values, low[columns], high[columns], lower, upper)
            return np.where(kept[columns], scaled, 0.0)

        zero_image = np.where(kept, scale_linearly(np.zeros_like(low), low, high, lower, upper),
                              0.0)
        return _sparse_like(X, _map_sparse(matrix, stored, zero_image))

    def inverse_transform(self, X: npt.ArrayLike | sp.spmatrix) -> np.ndarray | sp.csr_matrix:
        """Map scaled data back: ``lower`` to each column's minimum, ``upper`` to its maximum.

        A dropped column comes back as its constant value.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray or CSR matrix of shape (n_samples, n_features), float64
        """
        matrix = self._checked_input(X, names=False)
        lower, upper = self._bounds()
        low, high = self.data_min_, self.data_max_
        kept = low != high
        if not sp.issparse(matrix):
            return np.where(kept, scale_linearly(matrix, lower, upper, low, high), low)

        def stored(values: np.ndarray, columns: np.ndarray) -> np.ndarray:
            back = scale_linearly(values, lower, upper, low[columns], high[columns])
            return np.where(kept[columns], back, low[columns])

        zero_image = np.where(kept, scale_linearly(np.zeros_like(low), lower, upper, low, high),
                              low)
        return _sparse_like(X, _map_sparse(matrix, stored, zero_image))

    def transform_y(self, y: npt.ArrayLike) -> np.ndarray:
        """Scale labels from the fitted ``[y_min_, y_max_]`` to ``y_range``, as svm-scale -y.

        Parameters
        ----------
        y : array-like of shape (n_samples,)

        Returns
        -------
        ndarray of shape (n_samples,), float64
            A label equal to ``y_min_`` maps to ``y_range[0]`` (also when all labels are equal).
        """
        y_bounds = self._y_bounds()
        if y_bounds is None:
            raise ValueError("transform_y needs y_range=(y_lower, y_upper); this SvmScaler "
                             "has y_range=None")
        check_fitted(self, "y_min_")
        labels = self._check_y(y, None)
        return scale_linearly(labels, self.y_min_, self.y_max_, *y_bounds)

    def save_range(self, path: str | os.PathLike[str]) -> None:
        """Write the fitted ranges in svm-scale's range file format (``svm-scale -r`` reads it).

        Numbers are written with 17 significant digits, so :meth:`load_range` restores them
        exactly. Dropped (constant) features are not listed, as svm-scale does.

        Parameters
        ----------
        path : str or path-like
        """
        check_fitted(self, "data_min_")
        lower, upper = self._bounds()
        y_bounds = self._y_bounds()
        lines = []
        if y_bounds is not None:
            check_fitted(self, "y_min_")
            lines += ["y", f"{y_bounds[0]:.17g} {y_bounds[1]:.17g}",
                      f"{self.y_min_:.17g} {self.y_max_:.17g}"]
        lines += ["x", f"{lower:.17g} {upper:.17g}"]
        for index in np.flatnonzero(self.data_min_ != self.data_max_):
            lines.append(f"{index + 1} {self.data_min_[index]:.17g} {self.data_max_[index]:.17g}")
        with open(path, "w", encoding="ascii", newline="\n") as handle:
            handle.write("\n".join(lines) + "\n")

    @classmethod
    def load_range(cls, path: str | os.PathLike[str], n_features: int | None = None
                   ) -> SvmScaler:
        """A fitted SvmScaler from an svm-scale range file (``svm-scale -s`` writes one).

        Parameters
        ----------
        path : str or path-like
        n_features : int, optional
            Number of columns of the data to scale. Features the file does not list are
            dropped (svm-scale does the same). Default: the largest index in the file.

        Returns
        -------
        SvmScaler
            With ``lower``, ``upper`` and ``y_range`` from the file.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "range"
        >>> SvmScaler(lower=0.0).fit([[0.0, 5.0], [2.0, 5.0]]).save_range(path)
        >>> print(path.read_text(), end="")
        x
        0 1
        1 0 2
        >>> scaler = SvmScaler.load_range(path, n_features=2)
        >>> scaler.transform([[1.0, 5.0]]).tolist()
        [[0.5, 0.0]]
        """
        ranges = read_range_file(path)
        if n_features is not None:
            if isinstance(n_features, bool) or not isinstance(n_features, numbers.Integral):
                raise TypeError(f"n_features must be an integer, got {n_features!r}")
            if n_features < max(ranges.width, 1):
                raise ValueError(f"n_features must be at least {max(ranges.width, 1)} (the "
                                 f"largest feature index in {os.fspath(path)}), got {n_features}")
        elif ranges.width == 0:
            raise ValueError(f"{os.fspath(path)} lists no feature: pass n_features")
        return cls.from_range_file(ranges, n_features or 0)

    @classmethod
    def from_range_file(cls, ranges: RangeFile, n_features: int = 0) -> SvmScaler:
        """A fitted SvmScaler from a parsed range file, ``max(n_features, ranges.width)`` wide.

        Parameters
        ----------
        ranges : RangeFile
            As :func:`read_range_file` returns it.
        n_features : int, default=0
            Minimum number of columns; unlisted features are dropped.

        Returns
        -------
        SvmScaler
        """
        scaler = cls(lower=ranges.lower, upper=ranges.upper, y_range=ranges.y_range)
        width = max(int(n_features), ranges.width)
        scaler.data_min_, scaler.data_max_ = np.zeros(width), np.zeros(width)
        for index, (low, high) in ranges.features.items():
            scaler.data_min_[index - 1], scaler.data_max_[index - 1] = low, high
        if ranges.y_range is not None:
            scaler.y_min_, scaler.y_max_ = ranges.y_min, ranges.y_max
        scaler.n_features_in_ = width
        return scaler

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags


def _sparse_like(original: object, result: sp.csr_matrix) -> sp.csr_matrix | sp.csr_array:
    """A sparse array (``csr_array``) for sparse-array input, else a ``csr_matrix``."""
    return sp.csr_array(result) if isinstance(original, sp.sparray) else result
