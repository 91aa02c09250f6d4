"""Cross-validation splitters built on :mod:`svmx.preprocessing` index helpers."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from svmx._random import splitmix_generator, validate_random_state
from svmx._validation import check_int, check_labels
from svmx.preprocessing._splits import folds_from_assignment, k_fold_indices

__all__ = ["KFold", "StratifiedKFold", "check_cv"]

Split = tuple[np.ndarray, np.ndarray]


def n_rows(X: Any) -> int:
    """Number of rows of an array, sparse matrix, data frame or sequence."""
    shape = getattr(X, "shape", None)
    if shape is not None and len(shape) >= 1:
        return int(shape[0])
    return len(X)


class _BaseKFold:
    def __init__(self, n_splits: int, shuffle: bool, random_state: Any) -> None:
        self.n_splits = check_int(n_splits, "n_splits", minimum=2)
        if not isinstance(shuffle, bool | np.bool_):
            raise TypeError(f"shuffle must be True or False, got {type(shuffle).__name__}")
        if not shuffle and random_state is not None:
            raise ValueError("random_state has no effect unless shuffle=True; leave it None")
        # Checked without drawing, so a generator passed in is not advanced yet.
        validate_random_state(random_state, "random_state")
        self.shuffle = bool(shuffle)
        self.random_state = random_state

    def _seed(self) -> Any:
        # A fixed default keeps shuffled folds reproducible without global state.
        if not self.shuffle:
            return None
        return 0 if self.random_state is None else self.random_state

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        """Return the number of folds.

        Parameters
        ----------
        X, y, groups : ignored
            Accepted for compatibility with scikit-learn splitters.

        Returns
        -------
        int
        """
        return self.n_splits

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(n_splits={self.n_splits}, shuffle={self.shuffle}, "
            f"random_state={self.random_state!r})"
        )


class KFold(_BaseKFold):
    """K-fold cross-validation: each row is validated exactly once.

    Fold sizes differ by at most one; without shuffling the folds are
    contiguous blocks of rows in order.

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds, at least 2.
    shuffle : bool, default=False
        Shuffle the rows (with :class:`~svmx.preprocessing.SplitMix64`)
        before cutting them into folds.
    random_state : None, int, numpy Generator or RandomState, or SplitMix64
        Seed of the shuffle: None means seed 0, so shuffled folds are
        reproducible; an int seeds a :class:`~svmx.preprocessing.SplitMix64`;
        a generator is drawn from at each ``split`` call, so successive calls
        give different folds. Must be None when ``shuffle=False``.

    Examples
    --------
    >>> import numpy as np
    >>> for train, test in KFold(n_splits=3).split(np.zeros((5, 2))):
    ...     print(train.tolist(), test.tolist())
    [2, 3, 4] [0, 1]
    [0, 1, 4] [2, 3]
    [0, 1, 2, 3] [4]
    """

    def __init__(
        self, n_splits: int = 5, *, shuffle: bool = False, random_state: Any = None
    ) -> None:
        super().__init__(n_splits, shuffle, random_state)

    def split(self, X: Any, y: Any = None, groups: Any = None) -> Iterator[Split]:
        """Yield ``(train, test)`` row-index arrays, one pair per fold.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Only its number of rows is used.
        y, groups : ignored

        Yields
        ------
        train, test : ndarray of int64
            Sorted row indices.
        """
        n_samples = n_rows(X)
        if self.n_splits > n_samples:
            raise ValueError(f"n_splits={self.n_splits} is larger than the {n_samples} rows of X")
        yield from k_fold_indices(n_samples, self.n_splits, self._seed())


class StratifiedKFold(_BaseKFold):
    """K-fold cross-validation keeping each class's share in every fold.

    Rows are dealt to the folds in turn, class by class (classes in sorted
    order, rows in order or shuffled), so every class's count per fold and
    every fold's size differ by at most one.

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds, at least 2.
    shuffle : bool, default=False
        Shuffle the rows of each class before dealing them.
    random_state : None, int, numpy Generator or RandomState, or SplitMix64
        Seed of the shuffle: None means seed 0, so shuffled folds are
        reproducible; an int seeds a :class:`~svmx.preprocessing.SplitMix64`;
        a generator is drawn from at each ``split`` call, so successive calls
        give different folds. Must be None when ``shuffle=False``.

    Examples
    --------
    >>> y = [0, 0, 0, 0, 1, 1]
    >>> for train, test in StratifiedKFold(n_splits=2).split(y, y):
    ...     print(test.tolist())
    [0, 2, 4]
    [1, 3, 5]
    """

    def __init__(
        self, n_splits: int = 5, *, shuffle: bool = False, random_state: Any = None
    ) -> None:
        super().__init__(n_splits, shuffle, random_state)

    def split(self, X: Any, y: npt.ArrayLike, groups: Any = None) -> Iterator[Split]:
        """Yield ``(train, test)`` row-index arrays, one pair per fold.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Only its number of rows is used.
        y : array-like of shape (n_samples,)
            Class labels to stratify on.
        groups : ignored

        Yields
        ------
        train, test : ndarray of int64
            Sorted row indices.
        """
        if y is None:
            raise ValueError("y is required to stratify the folds")
        labels = check_labels(y, "y")
        if labels.shape[0] != n_rows(X):
            raise ValueError(f"y has {labels.shape[0]} labels but X has {n_rows(X)} rows")
        if self.n_splits > labels.shape[0]:
            raise ValueError(
                f"n_splits={self.n_splits} is larger than the {labels.shape[0]} rows of X"
            )
        _, codes = np.unique(labels, return_inverse=True)
        dealing_order = np.argsort(codes.ravel(), kind="stable")
        seed = self._seed()
        if seed is not None:
            generator = splitmix_generator(seed, "random_state")
            counts = np.bincount(codes.ravel())
            for block in np.split(dealing_order, np.cumsum(counts)[:-1]):
                generator.shuffle(block)  # np.split returns views: shuffles in place
        fold_of_row = np.empty(labels.shape[0], dtype=np.int64)
        fold_of_row[dealing_order] = np.arange(labels.shape[0]) % self.n_splits
        yield from folds_from_assignment(fold_of_row, self.n_splits)


class _PredefinedSplits:
    def __init__(self, splits: Iterable[Split]) -> None:
        self.splits = [(np.asarray(train), np.asarray(test)) for train, test in splits]

    def split(self, X: Any, y: Any = None, groups: Any = None) -> Iterator[Split]:
        yield from self.splits

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        return len(self.splits)


def check_cv(cv: Any, y: Any = None, classifier: bool = False) -> Any:
    """Turn a ``cv`` argument into an object with ``split``.

    Parameters
    ----------
    cv : int, splitter or iterable of (train, test)
        An int gives :class:`StratifiedKFold` for a classifier with labels,
        :class:`KFold` otherwise (neither shuffled); an object with
        ``split`` is used as is; an iterable is taken as the folds.
    y : array-like, optional
        Targets, needed for stratification.
    classifier : bool, default=False
        Whether the estimator is a classifier.

    Returns
    -------
    object with ``split(X, y)`` and ``get_n_splits()``

    Examples
    --------
    >>> check_cv(3, y=[0, 1, 0, 1, 0, 1], classifier=True)
    StratifiedKFold(n_splits=3, shuffle=False, random_state=None)
    """
    if isinstance(cv, bool | str | bytes):
        raise TypeError("cv must be an int, a splitter or an iterable of (train, test) pairs")
    if isinstance(cv, int | np.integer):
        if classifier and y is not None:
            return StratifiedKFold(int(cv))
        return KFold(int(cv))
    if hasattr(cv, "split"):
        return cv
    if isinstance(cv, Iterable) and not isinstance(cv, str):
        return _PredefinedSplits(cv)
    raise TypeError(
        "cv must be an int, a splitter or an iterable of (train, test) pairs, "
        f"got {type(cv).__name__}"
    )
