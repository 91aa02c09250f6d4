"""One-hot encoding of categorical columns into 0/1 indicator columns.

Column ``j`` with ``L_j`` levels owns the output columns
``offsets[j] .. offsets[j] + L_j - 1``, where ``offsets`` is the running sum
of the level counts starting at 0. Fitting computes the levels and offsets
once; transforming only looks up each value's level index, adds its column's
offset and sets a one there.

The levels are scikit-learn's: found in ``fit``, sorted, with the missing values
``None`` and NaN as levels of their own after the others; given, in the order given
(numeric ones must be sorted, as scikit-learn requires).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from svmx._estimator import BaseEstimator, TransformerMixin, one_to_one_feature_names
from svmx._validation import check_feature_names, check_fitted, check_matrix, check_n_features

__all__ = ["OneHotEncoder", "one_hot_encode"]

_HANDLE_UNKNOWN = ("error", "ignore")


def _check_categorical(X: npt.ArrayLike, name: str = "X") -> np.ndarray:
    # Categories may be of any type: the shape checks only, without a conversion. A float
    # column may hold NaN (a level of its own) but not infinity, as in scikit-learn.
    array = check_matrix(X, name, dtype=None)
    if array.dtype.kind == "f" and np.isinf(array).any():
        raise ValueError(f"Input {name} contains infinity or a value too large for "
                         f"{array.dtype!r}.")
    return array


def _missing(values: np.ndarray) -> np.ndarray:
    """Which values are missing: NaN (in a float or object column) or None."""
    if values.dtype.kind == "f":
        return np.isnan(values)
    if values.dtype.kind != "O":
        return np.zeros(values.shape[0], dtype=bool)
    return np.fromiter((value is None or isinstance(value, (float, np.floating))
                        and value != value for value in values),
                       dtype=bool, count=values.shape[0])


def _sorted_levels(values: np.ndarray, name: str) -> np.ndarray:
    """The distinct values, sorted, then None and NaN where they occur (scikit-learn's
    order of a column's levels)."""
    values = np.asarray(values)
    missing = _missing(values)
    try:
        levels = np.unique(values[~missing])
    except TypeError as error:
        raise TypeError(f"{name} mixes values that cannot be sorted: {error}") from error
    if not missing.any():
        return levels
    absent = values[missing]
    extra = [None] * any(value is None for value in absent)
    extra += [np.nan] * any(value is not None for value in absent)
    if levels.dtype.kind == "f" and extra == [np.nan]:
        return np.append(levels, np.nan)
    return np.concatenate([levels.astype(object), np.array(extra, dtype=object)])


def _level_indices(levels: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return each value's index in ``levels`` (in any order) and whether it was found."""
    values = np.asarray(values)
    index = np.zeros(values.shape[0], dtype=np.intp)
    found = np.zeros(values.shape[0], dtype=bool)
    level_missing, value_missing = _missing(levels), _missing(values)
    present = np.flatnonzero(~level_missing)
    rows = np.flatnonzero(~value_missing)
    if present.size and rows.size:
        try:
            order = present[np.argsort(levels[present], kind="stable")]
            at = np.searchsorted(levels[order], values[rows])
        except TypeError:
            # Values not comparable with the levels are all unknown.
            at = None
        if at is not None:
            at = np.minimum(at, order.size - 1)
            hit = np.asarray(levels[order[at]] == values[rows], dtype=bool)
            index[rows[hit]], found[rows[hit]] = order[at[hit]], True
    rows = np.flatnonzero(value_missing)
    if rows.size:
        is_none = np.array([values[r] is None for r in rows], dtype=bool)
        for k in np.flatnonzero(level_missing):
            hit = is_none == (levels[k] is None)
            index[rows[hit]], found[rows[hit]] = k, True
    return index, found


class OneHotEncoder(TransformerMixin, BaseEstimator):
    """Encode categorical columns as one-hot indicator columns.

    Parameters
    ----------
    categories : 'auto' or list of array-like, default='auto'
        ``'auto'`` takes each column's sorted distinct values in ``fit`` (None and
        NaN last, as levels of their own); a list gives the levels of each column
        explicitly, in their order (numeric levels must be sorted).
    handle_unknown : {'error', 'ignore'}, default='error'
        What ``transform`` does with a level not seen in ``fit``: raise a
        ``ValueError``, or leave that column's block of the row all zero.
    sparse_output : bool, default=True
        Return a ``scipy.sparse.csr_matrix`` (scikit-learn's default), or with
        False a dense array.
    dtype : numpy dtype, default=numpy.float64
        Type of the output values.

    Attributes
    ----------
    categories_ : list of ndarray
        The levels of each input column, in the order of their output columns.
    level_counts_ : ndarray of shape (``n_features_in_``,)
        Number of levels of each column.
    offsets_ : ndarray of shape (``n_features_in_``,)
        First output column of each input column: ``cumsum`` of the level
        counts, starting at 0.
    n_features_in_ : int
        Number of input columns.
    feature_names_in_ : ndarray of str
        The input's column names, when ``fit`` was given a data frame with string
        column names.
    n_features_out_ : int
        Number of output columns, the sum of the level counts.

    Examples
    --------
    Level counts (2, 4, 2, 3, 2, 3) give offsets (0, 2, 6, 8, 11, 13):

    >>> encoder = OneHotEncoder(categories=[range(n) for n in (2, 4, 2, 3, 2, 3)],
    ...                         sparse_output=False)
    >>> encoder = encoder.fit([[0, 0, 0, 0, 0, 0]])
    >>> encoder.offsets_.tolist()
    [0, 2, 6, 8, 11, 13]
    >>> row = encoder.transform([[0, 3, 0, 2, 1, 0]])
    >>> " ".join(str(int(v)) for v in row[0])
    '1 0 0 0 0 1 1 0 0 0 1 0 1 1 0 0'
    >>> encoder.inverse_transform(row).tolist()
    [[0, 3, 0, 2, 1, 0]]

    scikit-learn's parameters ``drop``, ``min_frequency``, ``max_categories`` and
    ``feature_name_combiner`` are not provided (docs/differences.md).
    """

    def __init__(
        self,
        *,
        categories: str | Sequence[npt.ArrayLike] = "auto",
        sparse_output: bool = True,
        dtype: npt.DTypeLike = np.float64,
        handle_unknown: str = "error",
    ) -> None:
        self.categories = categories
        self.handle_unknown = handle_unknown
        self.sparse_output = sparse_output
        self.dtype = dtype

    def _check_parameters(self) -> None:
        if self.handle_unknown not in _HANDLE_UNKNOWN:
            raise ValueError(
                f"handle_unknown must be one of {_HANDLE_UNKNOWN}, got {self.handle_unknown!r}"
            )
        if not isinstance(self.sparse_output, bool | np.bool_):
            raise TypeError(
                f"sparse_output must be True or False, got {type(self.sparse_output).__name__}"
            )

    def _explicit_levels(self, n_columns: int) -> list[np.ndarray]:
        if isinstance(self.categories, str) or len(self.categories) != n_columns:
            raise ValueError(
                f"categories must be 'auto' or a list with one entry per column ({n_columns})"
            )
        levels = []
        for column, values in enumerate(self.categories):
            values = np.asarray(list(values) if isinstance(values, range) else values)
            if values.ndim != 1 or values.shape[0] == 0:
                raise ValueError(f"categories[{column}] must be a non-empty 1-D list of levels")
            sorted_values = _sorted_levels(values, f"categories[{column}]")
            if sorted_values.shape[0] != values.shape[0]:
                raise ValueError(f"categories[{column}] contains duplicate levels")
            if values.dtype.kind in "iuf" and not np.array_equal(
                    values, sorted_values, equal_nan=values.dtype.kind == "f"):
                raise ValueError(f"categories[{column}] must be sorted: numeric levels "
                                 "are taken in increasing order, as scikit-learn takes them")
            levels.append(values)
        return levels

    def fit(self, X: npt.ArrayLike, y: object = None) -> OneHotEncoder:
        """Find the levels of each column and the offset of its output block.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Categorical data of any sortable type.
        y : ignored

        Returns
        -------
        self
        """
        self._check_parameters()
        check_feature_names(self, X, reset=True)
        X = _check_categorical(X)
        explicit = not (isinstance(self.categories, str) and self.categories == "auto")
        if explicit:
            levels = self._explicit_levels(X.shape[1])
        else:
            levels = [_sorted_levels(X[:, j], "X") for j in range(X.shape[1])]
        self.categories_ = levels
        self.level_counts_ = np.array([len(values) for values in levels], dtype=np.int64)
        self.offsets_ = np.concatenate(([0], np.cumsum(self.level_counts_)[:-1]))
        self.n_features_in_ = X.shape[1]
        self.n_features_out_ = int(self.level_counts_.sum())
        if explicit and self.handle_unknown == "error":
            self._positions(X, fitting=True)  # the categories must cover the data
        return self

    def _positions(self, X: np.ndarray, fitting: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Return the (row, output column) of every one in the encoding of ``X``."""
        rows, columns = [], []
        for j, levels in enumerate(self.categories_):
            index, found = _level_indices(levels, X[:, j])
            if not found.all() and self.handle_unknown == "error":
                unknown = X[np.flatnonzero(~found)[:3], j].tolist()
                where = f"categories[{j}]" if fitting else "fit"
                raise ValueError(
                    f"X contains levels not {'in' if fitting else 'seen in'} {where} in "
                    f"column {j}: {unknown}; use handle_unknown='ignore' to encode them as "
                    "all zeros"
                )
            rows.append(np.flatnonzero(found))
            columns.append(self.offsets_[j] + index[found])
        return np.concatenate(rows), np.concatenate(columns)

    def transform(self, X: npt.ArrayLike) -> np.ndarray | sp.csr_matrix:
        """Encode ``X`` as indicator columns.

        Parameters
        ----------
        X : array-like of shape (n_samples, ``n_features_in_``)
            Categorical data.

        Returns
        -------
        ndarray or csr_matrix of shape (n_samples, ``n_features_out_``)
        """
        check_fitted(self, "categories_")
        self._check_parameters()
        check_feature_names(self, X, reset=False)
        X = _check_categorical(X)
        check_n_features(X, self.n_features_in_, owner=type(self).__name__)
        rows, columns = self._positions(X)
        shape = (X.shape[0], self.n_features_out_)
        if self.sparse_output:
            ones = np.ones(rows.shape[0], dtype=self.dtype)
            matrix = sp.csr_matrix((ones, (rows, columns)), shape=shape)
            matrix.sort_indices()
            return matrix
        dense = np.zeros(shape, dtype=self.dtype)
        dense[rows, columns] = 1
        return dense

    def inverse_transform(self, X: npt.ArrayLike | sp.spmatrix) -> np.ndarray:
        """Decode indicator columns back to levels.

        A block with no one (an unknown level under ``handle_unknown='ignore'``)
        decodes to ``None``; under ``handle_unknown='error'`` no encoding has one, and
        it raises a ``ValueError``, as scikit-learn's does. A block with several ones
        decodes to its first.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, ``n_features_out_``)

        Returns
        -------
        ndarray of shape (n_samples, ``n_features_in_``)
            Of the levels' common dtype, or ``object`` if they differ or a
            ``None`` occurs.
        """
        check_fitted(self, "categories_")
        dense = X.toarray() if sp.issparse(X) else np.asarray(X)
        if dense.ndim != 2 or dense.shape[1] != self.n_features_out_:
            raise ValueError(
                f"X must have shape (n_samples, {self.n_features_out_}), got {dense.shape}"
            )
        decoded = np.empty((dense.shape[0], self.n_features_in_), dtype=object)
        for j, levels in enumerate(self.categories_):
            block = dense[:, self.offsets_[j] : self.offsets_[j] + levels.shape[0]] != 0
            index = np.argmax(block, axis=1)
            decoded[:, j] = [levels[i] for i in index]
            empty = ~block.any(axis=1)
            if empty.any() and self.handle_unknown == "error":
                raise ValueError(
                    f"X's rows {np.flatnonzero(empty)[:5].tolist()} have no one in column "
                    f"{j}'s block: with handle_unknown='error' no level encodes so"
                )
            decoded[empty, j] = None
        dtypes = {levels.dtype for levels in self.categories_}
        if len(dtypes) == 1 and not any(value is None for value in decoded.flat):
            return decoded.astype(dtypes.pop())
        return decoded

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # a level of its own
        tags.input_tags.sparse = False
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags

    def get_feature_names_out(self, input_features: Sequence[str] | None = None) -> np.ndarray:
        """Name each output column ``column_level``, as scikit-learn does.

        Parameters
        ----------
        input_features : list of str, optional
            Names of the input columns (equal to ``feature_names_in_`` where that
            exists); defaults to ``feature_names_in_``, else ``x0, x1, ...``.

        Returns
        -------
        ndarray of str of shape (``n_features_out_``,)
        """
        check_fitted(self, "categories_")
        names = one_to_one_feature_names(self, input_features)
        return np.array(
            [
                f"{name}_{level}"
                for name, levels in zip(names, self.categories_, strict=True)
                for level in levels.tolist()
            ],
            dtype=object,
        )


def one_hot_encode(
    categorical: npt.ArrayLike, column_names: Sequence[str] | None = None
) -> tuple[np.ndarray, list[str]]:
    """One-hot encode every column of a categorical matrix.

    Parameters
    ----------
    categorical : array-like of shape (n_samples, n_columns)
        Values of any sortable type; each column's levels are sorted.
    column_names : list of str, optional
        Names of the columns; defaults to ``x0, x1, ...``.

    Returns
    -------
    indicators : ndarray of shape (n_samples, n_levels_total), dtype float64
    names : list of str
        ``column=level`` for each output column.

    Examples
    --------
    >>> indicators, names = one_hot_encode(
    ...     [["red", "S"], ["blue", "M"], ["red", "M"]], column_names=["colour", "size"])
    >>> names
    ['colour=blue', 'colour=red', 'size=M', 'size=S']
    >>> indicators.astype(int).tolist()
    [[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 1, 0]]
    """
    array = _check_categorical(categorical, "categorical")
    encoder = OneHotEncoder(sparse_output=False)
    try:
        indicators = encoder.fit_transform(array)
    except TypeError as error:
        raise TypeError(str(error).replace("X ", "categorical ", 1)) from error
    try:
        names = one_to_one_feature_names(
            encoder, None if column_names is None else [str(name) for name in column_names])
    except ValueError as error:
        raise ValueError(str(error).replace("input_features", "column_names", 1)) from error
    return indicators, [f"{name}={level}"
                        for name, levels in zip(names, encoder.categories_, strict=True)
                        for level in levels.tolist()]
