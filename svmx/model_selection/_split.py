"""Cross-validation splitters named, and drawing, as scikit-learn's.

``KFold`` and ``StratifiedKFold`` give scikit-learn's folds (numpy's RandomState
shuffles them for an int seed); svmx's SplitMix64 folds are
:func:`svmx.preprocessing.k_fold_indices`.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from svmx._estimator import column_as_vector
from svmx._random import random_state_generator, validate_random_state
from svmx._validation import check_int, check_labels
from svmx.preprocessing._splits import folds_from_assignment

__all__ = ["KFold", "StratifiedKFold", "check_cv", "fold_indices"]

Split = tuple[np.ndarray, np.ndarray]


def n_rows(X: Any) -> int:
    """Number of rows of an array, sparse matrix, data frame or sequence."""
    shape = getattr(X, "shape", None)
    if shape is not None and len(shape) >= 1:
        return int(shape[0])
    return len(X)


def _fold_sizes(n_samples: int, n_splits: int) -> np.ndarray:
    sizes = np.full(n_splits, n_samples // n_splits, dtype=np.int64)
    sizes[: n_samples % n_splits] += 1
    return sizes


class _BaseKFold:
    def __init__(self, n_splits: int, shuffle: bool, random_state: Any) -> None:
        self.n_splits = check_int(n_splits, "n_splits", minimum=2)
        if not isinstance(shuffle, bool | np.bool_):
            raise TypeError(f"shuffle must be True or False, got {type(shuffle).__name__}")
        if not shuffle and random_state is not None:
            raise ValueError(
                "Setting a random_state has no effect since shuffle is False. You should "
                "leave random_state to its default (None), or set shuffle=True."
            )
        # Checked without drawing, so a generator passed in is not advanced yet.
        validate_random_state(random_state, "random_state")
        self.shuffle = bool(shuffle)
        self.random_state = random_state

    def _check_n_samples(self, n_samples: int) -> None:
        if self.n_splits > n_samples:
            raise ValueError(
                f"Cannot have number of splits n_splits={self.n_splits} greater than the "
                f"number of samples: n_samples={n_samples}."
            )

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
            f"{type(self).__name__}(n_splits={self.n_splits}, "
            f"random_state={self.random_state!r}, shuffle={self.shuffle})"
        )


class KFold(_BaseKFold):
    """K-fold cross-validation: each row is validated exactly once (scikit-learn's folds).

    The first ``n_samples % n_splits`` folds hold one row more than the others;
    without shuffling the folds are contiguous blocks of rows in order. With
    ``shuffle=True`` and an int or RandomState ``random_state`` the folds are
    exactly scikit-learn's (the rows shuffled by numpy's RandomState). The
    SplitMix64 folds, the same on every platform, are
    :func:`~svmx.preprocessing.k_fold_indices`.

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds, at least 2.
    shuffle : bool, default=False
        Shuffle the rows before cutting them into folds.
    random_state : None, int, numpy RandomState or Generator, or SplitMix64, default=None
        Seed of the shuffle, as scikit-learn's: an int gives the same folds at
        every ``split`` call; a generator is drawn from at each call; None
        draws from numpy's global RandomState. Must be None when ``shuffle=False``.

    Examples
    --------
    >>> import numpy as np
    >>> for train, test in KFold(n_splits=3).split(np.zeros((5, 2))):
    ...     print(train.tolist(), test.tolist())
    [2, 3, 4] [0, 1]
    [0, 1, 4] [2, 3]
    [0, 1, 2, 3] [4]
    >>> [test.tolist() for _, test in KFold(2, shuffle=True, random_state=0).split(range(4))]
    [[2, 3], [0, 1]]
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
        self._check_n_samples(n_samples)
        order = np.arange(n_samples, dtype=np.int64)
        if self.shuffle:
            random_state_generator(self.random_state).shuffle(order)
        fold_of_row = np.empty(n_samples, dtype=np.int64)
        fold_of_row[order] = np.repeat(np.arange(self.n_splits),
                                       _fold_sizes(n_samples, self.n_splits))
        yield from folds_from_assignment(fold_of_row, self.n_splits)


def _class_codes_in_order_of_appearance(y: Any, n_samples: int) -> np.ndarray:
    labels = check_labels(column_as_vector(y), "y")  # a column vector, as scikit-learn takes
    if labels.shape[0] != n_samples:
        raise ValueError(f"y has {labels.shape[0]} labels but X has {n_samples} rows")
    if labels.dtype.kind == "f" and not np.all(np.isfinite(labels) & (labels == np.round(labels))):
        raise ValueError(
            "Supported target types are: ('binary', 'multiclass'). Got 'continuous' instead."
        )
    _, first, codes = np.unique(labels, return_index=True, return_inverse=True)
    # Number the classes by first appearance, as scikit-learn deals them.
    _, rank_of_class = np.unique(first, return_inverse=True)
    return rank_of_class.ravel()[codes.ravel()]


class StratifiedKFold(_BaseKFold):
    """K-fold cross-validation keeping each class's share in every fold (scikit-learn's folds).

    Each fold's count of a class is what dealing the label-sorted rows to the
    folds in turn gives; a class's rows go to its folds in blocks, in row order
    (the blocks' fold numbers shuffled with ``shuffle=True``). With an int or
    RandomState ``random_state`` the folds are exactly scikit-learn's.

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds, at least 2.
    shuffle : bool, default=False
        Shuffle each class's fold assignment.
    random_state : None, int, numpy RandomState or Generator, or SplitMix64, default=None
        Seed of the shuffle, as for :class:`KFold`. Must be None when ``shuffle=False``.

    Warns
    -----
    UserWarning
        When the least populated class has fewer members than ``n_splits``.

    Examples
    --------
    >>> y = [0, 0, 0, 0, 1, 1]
    >>> for train, test in StratifiedKFold(n_splits=2).split(y, y):
    ...     print(test.tolist())
    [0, 1, 4]
    [2, 3, 5]
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
        n_samples = n_rows(X)
        codes = _class_codes_in_order_of_appearance(y, n_samples)
        self._check_n_samples(n_samples)
        counts = np.bincount(codes)
        if np.all(self.n_splits > counts):
            raise ValueError(
                f"n_splits={self.n_splits} cannot be greater than the number of members in "
                "each class."
            )
        if self.n_splits > counts.min():
            warnings.warn(
                f"The least populated class in y has only {counts.min()} members, which is "
                f"less than n_splits={self.n_splits}.", UserWarning, stacklevel=2)
        # How many rows of each class each fold gets: deal the sorted codes in turn.
        dealt = np.sort(codes)
        per_fold = np.array([np.bincount(dealt[fold :: self.n_splits], minlength=len(counts))
                             for fold in range(self.n_splits)])
        rng = random_state_generator(self.random_state) if self.shuffle else None
        fold_of_row = np.empty(n_samples, dtype=np.int64)
        for code in range(len(counts)):
            folds = np.repeat(np.arange(self.n_splits), per_fold[:, code])
            if rng is not None:
                rng.shuffle(folds)
            fold_of_row[codes == code] = folds
        yield from folds_from_assignment(fold_of_row, self.n_splits)


class _PredefinedSplits:
    def __init__(self, splits: Iterable[Split]) -> None:
        self.splits = [(np.asarray(train), np.asarray(test)) for train, test in splits]

    def split(self, X: Any, y: Any = None, groups: Any = None) -> Iterator[Split]:
        yield from self.splits

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        return len(self.splits)


def fold_indices(splits: Iterable[Split], n_samples: int) -> list[Split]:
    """The folds with each side as row indices: a boolean mask (one entry per sample, as
    scikit-learn's searches accept it) becomes the indices of its True entries (so
    `cross_validate`'s ``return_indices`` gives indices where scikit-learn's gives back
    the masks).

    The searches index the rows of a shared kernel matrix with the folds, where a mask
    read as indices would pick rows 0 and 1.

    Examples
    --------
    >>> mask = np.array([True, False, True, False])
    >>> [(train.tolist(), test.tolist()) for train, test in fold_indices([(mask, ~mask)], 4)]
    [([0, 2], [1, 3])]
    >>> fold_indices([(np.array([True, False]), np.array([2, 3]))], 4)
    Traceback (most recent call last):
    ...
    ValueError: cv's fold 0 has a boolean train mask of shape (2,); ...
    """
    folds = []
    for number, split in enumerate(splits):
        sides = []
        for side, rows in zip(("train", "test"), split, strict=True):
            rows = np.asarray(rows)
            if rows.dtype == bool:
                if rows.shape != (n_samples,):
                    raise ValueError(
                        f"cv's fold {number} has a boolean {side} mask of shape "
                        f"{rows.shape}; a mask needs one entry per sample ({n_samples},)")
                rows = np.flatnonzero(rows)
            sides.append(rows)
        folds.append((sides[0], sides[1]))
    return folds


def _are_class_labels(y: Any) -> bool:
    """Whether `y` is one label per sample that stratification can take (scikit-learn's
    'binary' or 'multiclass'): not a multilabel or multi-output matrix, not continuous.

    Examples
    --------
    >>> _are_class_labels([0, 1, 1]), _are_class_labels([[0, 1], [1, 0]])
    (True, False)
    >>> _are_class_labels([0.5, 1.0]), _are_class_labels(["a", "b"])
    (False, True)
    """
    if hasattr(y, "toarray"):  # a sparse label matrix: multilabel
        return False
    labels = np.asarray(y)
    if labels.ndim == 2 and labels.shape[1] == 1:
        labels = labels.ravel()
    if labels.ndim != 1:
        return False
    if labels.dtype.kind == "f":
        finite = labels[np.isfinite(labels)]
        return bool(np.all(finite == np.round(finite)))
    return labels.dtype.kind != "c"


def check_cv(cv: Any = 5, y: Any = None, *, classifier: bool = False) -> Any:
    """Turn a ``cv`` argument into an object with ``split``.

    Parameters
    ----------
    cv : None, int, splitter or iterable of (train, test), default=5
        None means 5; an int gives :class:`StratifiedKFold` for a classifier with one
        class label per sample, :class:`KFold` otherwise (multilabel or continuous y, a
        regressor; neither shuffled); an object with
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
    StratifiedKFold(n_splits=3, random_state=None, shuffle=False)
    """
    if cv is None:
        cv = 5
    if isinstance(cv, bool | str | bytes):
        raise TypeError("cv must be an int, a splitter or an iterable of (train, test) pairs")
    if isinstance(cv, int | np.integer):
        if classifier and y is not None and _are_class_labels(y):
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
