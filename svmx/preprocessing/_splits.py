"""Reproducible row-index splits: shuffles, hold-out splits and k folds.

Every helper returns row indices rather than sliced arrays, so any number of
parallel arrays (features, labels, weights, ids) can be cut the same way.
Randomness comes only from :class:`~svmx.preprocessing.SplitMix64`, so an
int seed gives the same split on every platform; ``seed`` accepts what every
svmx ``random_state`` accepts (see :func:`svmx._random.splitmix_generator`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from svmx._random import splitmix_generator
from svmx._validation import check_int, check_labels, check_ratio

__all__ = ["k_fold_indices", "shuffled_indices", "shuffled_split_indices", "stratified_split"]


def _test_size(n_samples: int, test_ratio: float) -> int:
    # Python's round() (half to even), then clamp so both sides keep a row.
    n_test = round(n_samples * test_ratio)
    if n_samples >= 2:
        n_test = min(max(n_test, 1), n_samples - 1)
    return n_test


def shuffled_indices(n_samples: int, seed: Any) -> np.ndarray:
    """Return a reproducible random permutation of ``range(n_samples)``.

    Parameters
    ----------
    n_samples : int
        Number of rows, at least 1.
    seed : None, int, numpy Generator or RandomState, or SplitMix64
        An int seeds a :class:`SplitMix64`; a SplitMix64 is drawn from (it
        is advanced); a numpy generator seeds one with a single draw; None
        uses fresh entropy (not reproducible). See
        :func:`svmx._random.splitmix_generator`.

    Returns
    -------
    ndarray of shape (n_samples,), dtype int64
        Each row index exactly once, in Fisher-Yates order.

    Examples
    --------
    >>> shuffled_indices(6, seed=0).tolist()
    [4, 2, 5, 3, 0, 1]
    """
    n_samples = check_int(n_samples, "n_samples", minimum=1)
    return splitmix_generator(seed, "seed").permutation(n_samples)


def shuffled_split_indices(
    n_samples: int, test_ratio: float, seed: Any
) -> tuple[np.ndarray, np.ndarray]:
    """Split ``range(n_samples)`` into shuffled training and test indices.

    The index-based hold-out split driven by SplitMix64: an int seed gives the
    same split on every platform and numpy version. For scikit-learn's
    ``train_test_split(*arrays, test_size=..., random_state=...)``, use
    :func:`~svmx.preprocessing.train_test_split`.

    The test side holds ``round(n_samples * test_ratio)`` rows (Python's
    rounding), clamped so that both sides are non-empty when
    ``n_samples >= 2``.

    Parameters
    ----------
    n_samples : int
        Number of rows, at least 1.
    test_ratio : float
        Fraction of rows for the test side, in [0, 1].
    seed : None, int, numpy Generator or RandomState, or SplitMix64
        As for :func:`shuffled_indices`.

    Returns
    -------
    train : ndarray of int64
        Training row indices, in shuffled order.
    test : ndarray of int64
        Test row indices, in shuffled order.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.arange(20).reshape(10, 2)
    >>> y = np.array([0, 1] * 5)
    >>> train, test = shuffled_split_indices(len(y), test_ratio=0.3, seed=42)
    >>> len(train), len(test)
    (7, 3)
    >>> X_test, y_test = X[test], y[test]
    >>> sorted(train.tolist() + test.tolist()) == list(range(10))
    True
    """
    n_samples = check_int(n_samples, "n_samples", minimum=1)
    test_ratio = check_ratio(test_ratio, "test_ratio")
    order = splitmix_generator(seed, "seed").permutation(n_samples)
    n_test = _test_size(n_samples, test_ratio)
    return order[n_test:], order[:n_test]


def stratified_split(
    labels: npt.ArrayLike, test_ratio: float, seed: Any
) -> tuple[np.ndarray, np.ndarray]:
    """Split row indices so that each class keeps its proportion on both sides.

    Each class with ``n_c >= 2`` members sends ``round(n_c * test_ratio)``
    of them, clamped to ``[1, n_c - 1]``, to the test side; a class with a
    single member goes to the training side. Both sides are then shuffled
    again, so neither is grouped by class.

    Parameters
    ----------
    labels : array-like of shape (n_samples,)
        Class label of each row.
    test_ratio : float
        Fraction of each class for the test side, in [0, 1].
    seed : None, int, numpy Generator or RandomState, or SplitMix64
        As for :func:`shuffled_indices`.

    Returns
    -------
    train : ndarray of int64
        Training row indices, in shuffled order.
    test : ndarray of int64
        Test row indices, in shuffled order.

    Raises
    ------
    ValueError
        If every class has a single member, so no row could be held out.

    Examples
    --------
    >>> import numpy as np
    >>> labels = np.array(["a"] * 6 + ["b"] * 4)
    >>> train, test = stratified_split(labels, test_ratio=0.5, seed=1)
    >>> sorted(labels[test].tolist())
    ['a', 'a', 'a', 'b', 'b']
    """
    labels = check_labels(labels)
    test_ratio = check_ratio(test_ratio, "test_ratio")
    generator = splitmix_generator(seed, "seed")
    _, codes, counts = np.unique(labels, return_inverse=True, return_counts=True)
    if counts.max() < 2:
        raise ValueError("labels: every class has a single member, so no row can be held out")
    # Rows grouped by class in a stable order, then each group shuffled.
    by_class = np.argsort(codes, kind="stable")
    starts = np.concatenate(([0], np.cumsum(counts)))
    train_parts, test_parts = [], []
    for code, count in enumerate(counts):
        members = by_class[starts[code] : starts[code + 1]].copy()
        if count == 1:
            train_parts.append(members)
            continue
        generator.shuffle(members)
        n_test = _test_size(int(count), test_ratio)
        test_parts.append(members[:n_test])
        train_parts.append(members[n_test:])
    train = np.concatenate(train_parts)
    test = np.concatenate(test_parts)
    generator.shuffle(train)
    generator.shuffle(test)
    return train, test


def k_fold_indices(
    n_samples: int, k: int, seed: Any
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Split ``range(n_samples)`` into ``k`` folds for cross-validation.

    Rows are shuffled (unless ``seed`` is None) and cut into ``k`` contiguous
    folds; the first ``n_samples % k`` folds hold one extra row, so sizes
    differ by at most one. Every row is validated exactly once.

    Parameters
    ----------
    n_samples : int
        Number of rows, at least 1.
    k : int
        Number of folds, ``2 <= k <= n_samples``.
    seed : None, int, numpy Generator or RandomState, or SplitMix64
        None keeps the row order (no shuffle); anything else shuffles the
        rows first, as described for :func:`shuffled_indices`.

    Returns
    -------
    list of (train, validation) tuples
        ``k`` pairs of sorted int64 index arrays.

    Examples
    --------
    >>> for train, validation in k_fold_indices(5, k=2, seed=None):
    ...     print(train.tolist(), validation.tolist())
    [3, 4] [0, 1, 2]
    [0, 1, 2] [3, 4]
    >>> [len(v) for _, v in k_fold_indices(10, k=3, seed=0)]
    [4, 3, 3]
    """
    n_samples = check_int(n_samples, "n_samples", minimum=1)
    k = check_int(k, "k", minimum=2)
    if k > n_samples:
        raise ValueError(f"k must be at most n_samples={n_samples}, got {k}")
    if seed is None:
        order = np.arange(n_samples, dtype=np.int64)
    else:
        order = splitmix_generator(seed, "seed").permutation(n_samples)
    fold_of_position = np.repeat(np.arange(k), _fold_sizes(n_samples, k))
    fold_of_row = np.empty(n_samples, dtype=np.int64)
    fold_of_row[order] = fold_of_position
    return folds_from_assignment(fold_of_row, k)


def _fold_sizes(n_samples: int, k: int) -> np.ndarray:
    sizes = np.full(k, n_samples // k, dtype=np.int64)
    sizes[: n_samples % k] += 1
    return sizes


def folds_from_assignment(fold_of_row: np.ndarray, k: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Turn a fold number per row into ``k`` sorted (train, validation) pairs."""
    folds = []
    for fold in range(k):
        in_fold = fold_of_row == fold
        folds.append((np.flatnonzero(~in_fold), np.flatnonzero(in_fold)))
    return folds
