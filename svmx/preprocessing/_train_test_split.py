"""``train_test_split`` with scikit-learn's signature, defaults, draws and return type.

svmx's index-based hold-out split is :func:`~svmx.preprocessing.shuffled_split_indices`
(SplitMix64, the same split on every platform); this module is the function a
scikit-learn user expects under the name ``train_test_split``: it cuts any number of
arrays and returns the pieces, and an int or RandomState ``random_state`` draws
exactly the rows scikit-learn draws (numpy's ``RandomState``, as scikit-learn's
``check_random_state``), stratified splits included.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx._random import random_state_generator
from svmx.exceptions import InvalidParameterError

__all__ = ["train_test_split"]

_DEFAULT_TEST_SIZE = 0.25


def _n_rows(data: Any) -> int:
    shape = getattr(data, "shape", None)
    if shape is not None:
        if len(shape) == 0:
            raise TypeError(f"a 0-d array cannot be split: {data!r}")
        return int(shape[0])
    if not hasattr(data, "__len__"):
        raise TypeError(f"expected an array-like with rows, got {type(data).__name__}")
    return len(data)


def _indexable(data: Any) -> Any:
    if data is None or hasattr(data, "iloc") or isinstance(data, np.ndarray):
        return data
    if sp.issparse(data):
        return data if data.format in ("csr", "csc") else data.tocsr()
    if hasattr(data, "__getitem__") and hasattr(data, "__len__"):
        return data
    return np.asarray(data)


def _check_arrays(arrays: tuple[Any, ...]) -> tuple[tuple[Any, ...], int]:
    if not arrays:
        raise ValueError("At least one array required as input")
    arrays = tuple(_indexable(data) for data in arrays)
    lengths = [_n_rows(data) for data in arrays if data is not None]
    if len(set(lengths)) > 1:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {lengths}")
    return arrays, lengths[0]


def _take(data: Any, rows: np.ndarray) -> Any:
    """Rows of an array, sparse matrix, data frame or list, in the container's own kind."""
    if data is None:
        return None
    if hasattr(data, "iloc"):
        return data.iloc[rows]
    if isinstance(data, np.ndarray) or sp.issparse(data) or hasattr(data, "shape"):
        return data[rows]
    return [data[int(row)] for row in rows]


def _is_fraction(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral)


def _check_size(value: Any, name: str, n_samples: int) -> None:
    if value is None:
        return
    if isinstance(value, numbers.Integral) and not isinstance(value, bool | np.bool_):
        if not 0 < value < n_samples:
            raise ValueError(
                f"{name}={value} should be either positive and smaller than the number of "
                f"samples {n_samples} or a float in the (0, 1) range"
            )
        return
    if isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_):
        if not 0.0 < value < 1.0:
            raise ValueError(
                f"{name}={value} should be either positive and smaller than the number of "
                f"samples {n_samples} or a float in the (0, 1) range"
            )
        return
    raise InvalidParameterError(
        f"The '{name}' parameter of train_test_split must be a float in the range (0.0, 1.0), "
        f"an int in the range [1, inf) or None. Got {value!r} instead."
    )


def split_sizes(
    n_samples: int, test_size: float | int | None, train_size: float | int | None
) -> tuple[int, int]:
    """The training and test sizes scikit-learn's ``train_test_split`` takes.

    A float is a fraction (the test side rounded up, the training side down),
    an int a count; a missing side is the rest; both None mean ``test_size=0.25``.

    Parameters
    ----------
    n_samples : int
    test_size, train_size : float, int or None

    Returns
    -------
    n_train, n_test : int

    Examples
    --------
    >>> split_sizes(10, None, None), split_sizes(10, 0.33, None), split_sizes(10, None, 4)
    ((7, 3), (6, 4), (4, 6))
    """
    if test_size is None and train_size is None:
        test_size = _DEFAULT_TEST_SIZE
    _check_size(test_size, "test_size", n_samples)
    _check_size(train_size, "train_size", n_samples)
    fractions = [float(size) for size in (test_size, train_size) if _is_fraction(size)]
    if len(fractions) == 2 and sum(fractions) > 1:
        raise ValueError(
            f"The sum of test_size and train_size = {sum(fractions)}, should be in the "
            "(0, 1) range. Reduce test_size and/or train_size."
        )
    n_test = math.ceil(test_size * n_samples) if _is_fraction(test_size) else test_size
    n_train = math.floor(train_size * n_samples) if _is_fraction(train_size) else train_size
    if n_train is None:
        n_train = n_samples - n_test
    elif n_test is None:
        n_test = n_samples - n_train
    if n_train + n_test > n_samples:
        raise ValueError(
            f"The sum of train_size and test_size = {n_train + n_test}, should be smaller "
            f"than the number of samples {n_samples}. Reduce test_size and/or train_size."
        )
    if n_train == 0:
        raise ValueError(
            f"With n_samples={n_samples}, test_size={test_size} and train_size={train_size}, "
            "the resulting train set will be empty. Adjust any of the aforementioned parameters."
        )
    return int(n_train), int(n_test)


def _apportion(counts: np.ndarray, n_draws: int, rng: Any) -> np.ndarray:
    """Split `n_draws` over classes in proportion to `counts`, rounding as scikit-learn.

    Each class gets the floor of its share; the draws left over go to the largest
    fractional parts, ties among them broken at random with `rng`.
    """
    shares = counts / counts.sum() * n_draws
    taken = np.floor(shares)
    left = int(n_draws - taken.sum())
    fractions = shares - taken
    for fraction in np.unique(fractions)[::-1]:
        if left <= 0:
            break
        (tied,) = np.where(fractions == fraction)
        chosen = rng.choice(tied, size=min(len(tied), left), replace=False)
        taken[chosen] += 1
        left -= len(chosen)
    return taken.astype(int)


def _stratified_rows(
    labels: Any, n_train: int, n_test: int, rng: Any
) -> tuple[np.ndarray, np.ndarray]:
    labels = np.asarray(labels)
    if labels.ndim == 2:  # multilabel rows stratify as their joined strings
        labels = np.array([" ".join(row.astype(str)) for row in labels])
    classes, codes = np.unique(labels, return_inverse=True)
    codes = codes.ravel()
    counts = np.bincount(codes)
    if counts.min() < 2:
        raise ValueError(
            "The least populated class in y has only 1 member, which is too few. The minimum "
            "number of groups for any class cannot be less than 2."
        )
    for side, size in (("train", n_train), ("test", n_test)):
        if size < len(classes):
            raise ValueError(
                f"The {side}_size = {size} should be greater or equal to the number of "
                f"classes = {len(classes)}"
            )
    members = np.split(np.argsort(codes, kind="mergesort"), np.cumsum(counts)[:-1])
    train_counts = _apportion(counts, n_train, rng)
    test_counts = _apportion(counts - train_counts, n_test, rng)
    train: list[Any] = []
    test: list[Any] = []
    for code, rows in enumerate(members):
        shuffled = rows.take(rng.permutation(counts[code]), mode="clip")
        n_in = train_counts[code]
        train.extend(shuffled[:n_in])
        test.extend(shuffled[n_in : n_in + test_counts[code]])
    return rng.permutation(train), rng.permutation(test)


def train_test_split(
    *arrays: Any,
    test_size: float | int | None = None,
    train_size: float | int | None = None,
    random_state: Any = None,
    shuffle: bool = True,
    stratify: Any = None,
) -> list[Any]:
    """Split arrays into random training and test subsets, as scikit-learn's function.

    Same signature, defaults, sizes and return type as
    ``sklearn.model_selection.train_test_split``; for an int or a
    ``numpy.random.RandomState`` ``random_state`` the rows drawn are scikit-learn's,
    stratified or not. For index arrays that are the same on every platform and
    numpy version, use :func:`shuffled_split_indices` or :func:`stratified_split`.

    Parameters
    ----------
    *arrays : sequence of indexables with the same number of rows
        Lists, numpy arrays, scipy sparse matrices or pandas objects.
    test_size : float or int, default=None
        A fraction in (0, 1) of the rows (rounded up), or a number of rows.
        None: the complement of ``train_size``, or 0.25 if that is None too.
    train_size : float or int, default=None
        A fraction in (0, 1) of the rows (rounded down), or a number of rows.
        None: the complement of ``test_size``.
    random_state : None, int, numpy RandomState or Generator, or SplitMix64, default=None
        Seed of the shuffle (see :func:`svmx._random.random_state_generator`):
        None draws from numpy's global RandomState, as scikit-learn.
    shuffle : bool, default=True
        Shuffle before splitting; without it the first rows train and the next test.
    stratify : array-like of shape (n_samples,), default=None
        Class labels whose proportions both sides keep (needs ``shuffle=True``).

    Returns
    -------
    list of length 2 * len(arrays)
        ``[a_train, a_test, b_train, b_test, ...]``, each of its input's kind
        (a list's rows as a list).

    Raises
    ------
    ValueError
        No arrays, arrays of different lengths, sizes that leave a side empty
        or overlap, a class of one member when stratifying, or stratifying
        without shuffling.

    Examples
    --------
    >>> import numpy as np
    >>> X, y = np.arange(10).reshape((5, 2)), list(range(5))
    >>> X_train, X_test, y_train, y_test = train_test_split(
    ...     X, y, test_size=0.33, random_state=42)
    >>> X_train.tolist(), y_test
    ([[4, 5], [0, 1], [6, 7]], [1, 4])
    >>> train_test_split(y, shuffle=False)
    [[0, 1, 2], [3, 4]]
    """
    arrays, n_samples = _check_arrays(arrays)
    if not isinstance(shuffle, bool | np.bool_):
        raise InvalidParameterError(f"shuffle must be True or False, got {shuffle!r}")
    n_train, n_test = split_sizes(n_samples, test_size, train_size)
    if not shuffle:
        if stratify is not None:
            raise ValueError("Stratified train/test split is not implemented for shuffle=False")
        train = np.arange(n_train)
        test = np.arange(n_train, n_train + n_test)
    else:
        rng = random_state_generator(random_state)
        if stratify is None:
            order = rng.permutation(n_samples)
            train, test = order[n_test : n_test + n_train], order[:n_test]
        else:
            if _n_rows(stratify) != n_samples:
                raise ValueError(f"stratify has {_n_rows(stratify)} labels but the arrays "
                                 f"have {n_samples} rows")
            train, test = _stratified_rows(stratify, n_train, n_test, rng)
    return [piece for data in arrays for piece in (_take(data, train), _take(data, test))]
