"""Label helpers: integer codes and per-class counts in sorted class order."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from svmx._validation import check_labels

__all__ = ["class_counts", "label_encode"]


def label_encode(labels: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Map labels to integer codes, from 0 to ``n_classes - 1`` in sorted class order.

    Parameters
    ----------
    labels : array-like of shape (n_samples,)
        Class labels of any sortable type (numbers or strings).

    Returns
    -------
    codes : ndarray of shape (n_samples,), dtype int64
        ``classes[codes]`` gives back ``labels``.
    classes : ndarray of shape (n_classes,)
        The distinct labels, sorted.

    Examples
    --------
    >>> codes, classes = label_encode(["spam", "ham", "spam", "eggs"])
    >>> codes.tolist(), classes.tolist()
    ([2, 1, 2, 0], ['eggs', 'ham', 'spam'])
    """
    labels = check_labels(labels)
    classes, codes = np.unique(labels, return_inverse=True)
    return codes.astype(np.int64).ravel(), classes


def class_counts(labels: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Count the members of each class, in sorted class order.

    Parameters
    ----------
    labels : array-like of shape (n_samples,)
        Class labels of any sortable type.

    Returns
    -------
    classes : ndarray of shape (n_classes,)
        The distinct labels, sorted.
    counts : ndarray of shape (n_classes,), dtype int64
        Number of rows with each label.

    Examples
    --------
    >>> classes, counts = class_counts([3, 1, 3, 3, 2])
    >>> classes.tolist(), counts.tolist()
    ([1, 2, 3], [1, 1, 3])
    """
    labels = check_labels(labels)
    classes, counts = np.unique(labels, return_counts=True)
    return classes, counts.astype(np.int64)
