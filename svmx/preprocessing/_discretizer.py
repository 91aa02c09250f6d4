"""Supervised discretisation: cut continuous columns where the labels change.

Each column is sorted and split recursively, best split first: within a bin,
the cut (halfway between two neighbouring distinct values) that minimises
the split criterion over the labels is chosen, and kept only if it passes
the criterion's stopping rule and the ``max_bins`` / ``min_samples_bin``
limits.
"""

from __future__ import annotations

import heapq
import math

import numpy as np
import numpy.typing as npt

from svmx._estimator import BaseEstimator, TransformerMixin
from svmx._validation import (
    check_fitted,
    check_int,
    check_labels,
    check_matrix,
    check_n_features,
)

__all__ = ["SupervisedDiscretizer"]

_CRITERIA = ("entropy", "variance")
_ENCODINGS = ("ordinal", "onehot")


def _entropy_mass(counts: np.ndarray) -> np.ndarray:
    """``n * Ent`` in bits for each row of class counts (0 log 0 = 0)."""
    totals = counts.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(counts > 0, counts * np.log2(counts / np.maximum(totals, 1)), 0.0)
    return -terms.sum(axis=-1)


def _variance_mass(counts: np.ndarray) -> np.ndarray:
    """``n * sum_l p_l (1 - p_l)``: n times the variance of the label indicators."""
    totals = counts.sum(axis=-1)
    return totals - (counts**2).sum(axis=-1) / np.maximum(totals, 1)


def _mdl_accepts(parent: np.ndarray, left: np.ndarray, right: np.ndarray) -> bool:
    """Fayyad and Irani's minimum-description-length test for one cut."""
    n = parent.sum()
    ent, ent_left, ent_right = (_entropy_mass(c) / c.sum() for c in (parent, left, right))
    gain = ent - (left.sum() * ent_left + right.sum() * ent_right) / n
    k, k_left, k_right = (int(np.count_nonzero(c)) for c in (parent, left, right))
    delta = math.log2(3**k - 2) - (k * ent - k_left * ent_left - k_right * ent_right)
    return bool(gain > (math.log2(n - 1) + delta) / n)


class _ColumnSplitter:
    """Best-split search over one sorted column."""

    def __init__(
        self,
        values: np.ndarray,
        codes: np.ndarray,
        n_classes: int,
        criterion: str,
        min_samples_bin: int,
    ) -> None:
        self.values = values
        self.criterion = criterion
        self.min_samples_bin = min_samples_bin
        indicator = np.zeros((values.shape[0], n_classes))
        indicator[np.arange(values.shape[0]), codes] = 1.0
        # prefix[i] holds the class counts of the first i sorted rows.
        self.prefix = np.vstack((np.zeros(n_classes), np.cumsum(indicator, axis=0)))

    def best_cut(self, start: int, end: int) -> tuple[float, int] | None:
        """Return (impurity reduction, position) of the best cut in [start, end), or None."""
        low, high = start + self.min_samples_bin, end - self.min_samples_bin
        if low > high:
            return None
        positions = np.arange(max(low, start + 1), high + 1)
        positions = positions[self.values[positions - 1] < self.values[positions]]
        if positions.size == 0:
            return None
        parent = self.prefix[end] - self.prefix[start]
        left = self.prefix[positions] - self.prefix[start]
        right = parent - left
        mass = _entropy_mass if self.criterion == "entropy" else _variance_mass
        children = mass(left) + mass(right)
        best = int(np.argmin(children))
        reduction = float(mass(parent) - children[best])
        position = int(positions[best])
        if self.criterion == "entropy":
            if not _mdl_accepts(parent, left[best], right[best]):
                return None
        elif reduction <= 1e-12 * (end - start):
            return None
        return reduction, position

    def cut_value(self, position: int) -> float:
        below, above = self.values[position - 1], self.values[position]
        middle = below + (above - below) / 2.0
        # Neighbouring floats can round the midpoint down onto ``below``.
        return float(middle if middle > below else above)


def _column_cuts(
    values: np.ndarray,
    codes: np.ndarray,
    n_classes: int,
    criterion: str,
    max_bins: int | None,
    min_samples_bin: int,
) -> np.ndarray:
    order = np.argsort(values, kind="stable")
    splitter = _ColumnSplitter(values[order], codes[order], n_classes, criterion, min_samples_bin)
    heap: list[tuple[float, int, int, int]] = []

    def push(start: int, end: int) -> None:
        found = splitter.best_cut(start, end)
        if found is not None:
            heapq.heappush(heap, (-found[0], start, end, found[1]))

    push(0, values.shape[0])
    positions = []
    while heap and (max_bins is None or len(positions) + 1 < max_bins):
        _, start, end, position = heapq.heappop(heap)
        positions.append(position)
        push(start, position)
        push(position, end)
    return np.array(sorted(splitter.cut_value(p) for p in positions), dtype=np.float64)


class SupervisedDiscretizer(TransformerMixin, BaseEstimator):
    """Bin continuous columns at the values where the class labels change.

    Parameters
    ----------
    criterion : {'entropy', 'variance'}, default='entropy'
        Split criterion over the labels. ``'entropy'`` minimises the
        class entropy of the two sides weighted by their sizes (maximises
        information gain) and stops with Fayyad and Irani's MDL rule.
        ``'variance'`` minimises the sum over both sides of the side size
        times the variance of the label indicators (the Gini impurity) and
        stops when no cut lowers it.
    max_bins : int or None, default=None
        Largest number of bins per column; the most useful cuts are kept.
    min_samples_bin : int, default=1
        Smallest number of training rows in a bin.
    encode : {'ordinal', 'onehot'}, default='ordinal'
        ``transform`` returns bin indices, or dense one-hot bin indicators.

    Attributes
    ----------
    cuts_ : list of ndarray
        Sorted cut points of each column; bin ``b`` is
        ``cuts_[b - 1] <= x < cuts_[b]`` with ``-inf`` and ``inf`` at the ends.
    n_bins_ : ndarray of shape (``n_features_in_``,)
        Number of bins of each column.
    classes_ : ndarray of shape (n_classes,)
        Sorted class labels.
    bin_counts_ : list of ndarray of shape (n_bins, n_classes)
        Training rows of each class in each bin.
    n_features_in_ : int
        Number of columns seen in ``fit``.

    References
    ----------
    U. M. Fayyad and K. B. Irani, "Multi-interval discretization of
    continuous-valued attributes for classification learning", IJCAI 1993.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.arange(60.0).reshape(-1, 1)
    >>> y = np.array(["a"] * 20 + ["b"] * 20 + ["a"] * 20)
    >>> discretizer = SupervisedDiscretizer().fit(x, y)
    >>> discretizer.cuts_[0].tolist()
    [19.5, 39.5]
    >>> discretizer.transform([[0.0], [25.0], [100.0]]).ravel().tolist()
    [0, 1, 2]
    >>> for rule in discretizer.rules():
    ...     print(rule)
    x0: -inf <= x < 19.5 -> a (a: 1.00, b: 0.00)
    x0: 19.5 <= x < 39.5 -> b (a: 0.00, b: 1.00)
    x0: 39.5 <= x < inf -> a (a: 1.00, b: 0.00)
    """

    def __init__(
        self,
        criterion: str = "entropy",
        max_bins: int | None = None,
        min_samples_bin: int = 1,
        encode: str = "ordinal",
    ) -> None:
        self.criterion = criterion
        self.max_bins = max_bins
        self.min_samples_bin = min_samples_bin
        self.encode = encode

    def _svmx_tags(self) -> dict[str, bool]:
        return {"requires_y": True}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False
        return tags

    def _check_params(self) -> None:
        if self.criterion not in _CRITERIA:
            raise ValueError(f"criterion must be one of {_CRITERIA}, got {self.criterion!r}")
        if self.encode not in _ENCODINGS:
            raise ValueError(f"encode must be one of {_ENCODINGS}, got {self.encode!r}")
        if self.max_bins is not None:
            check_int(self.max_bins, "max_bins", minimum=1)
        check_int(self.min_samples_bin, "min_samples_bin", minimum=1)

    def fit(self, X: npt.ArrayLike, y: npt.ArrayLike) -> SupervisedDiscretizer:
        """Find the cut points of each column.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite continuous values.
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self
        """
        self._check_params()
        X = check_matrix(X)
        if not np.isfinite(X).all():
            raise ValueError("X must be finite (no NaN or infinity) to fit the discretizer")
        y = check_labels(y, "y")
        if y.shape[0] != X.shape[0]:
            raise ValueError(f"y has {y.shape[0]} labels but X has {X.shape[0]} rows")
        self.classes_, codes = np.unique(y, return_inverse=True)
        codes = codes.ravel()
        n_classes = self.classes_.shape[0]
        self.cuts_ = [
            _column_cuts(
                X[:, j], codes, n_classes, self.criterion, self.max_bins, self.min_samples_bin
            )
            for j in range(X.shape[1])
        ]
        self.n_bins_ = np.array([cuts.shape[0] + 1 for cuts in self.cuts_], dtype=np.int64)
        self.n_features_in_ = X.shape[1]
        bins = self._bins(X)
        self.bin_counts_ = []
        for j, n_bins in enumerate(self.n_bins_):
            counts = np.zeros((n_bins, n_classes), dtype=np.int64)
            np.add.at(counts, (bins[:, j], codes), 1)
            self.bin_counts_.append(counts)
        return self

    def _bins(self, X: np.ndarray) -> np.ndarray:
        return np.column_stack(
            [np.searchsorted(cuts, X[:, j], side="right") for j, cuts in enumerate(self.cuts_)]
        ).astype(np.int64)

    def transform(self, X: npt.ArrayLike) -> np.ndarray:
        """Replace each value by its bin index, or by one-hot bin indicators.

        Parameters
        ----------
        X : array-like of shape (n_samples, ``n_features_in_``)
            Values without NaN; infinities fall in the outer bins.

        Returns
        -------
        ndarray
            Of shape (n_samples, ``n_features_in_``) and dtype int64 for
            ``encode='ordinal'``; of shape (n_samples, ``n_bins_.sum()``) and
            dtype float64 for ``encode='onehot'``.
        """
        check_fitted(self, "cuts_")
        X = check_matrix(X)
        check_n_features(X, self.n_features_in_, owner=type(self).__name__)
        if np.isnan(X).any():
            raise ValueError("X must not contain NaN")
        bins = self._bins(X)
        if self.encode == "ordinal":
            return bins
        offsets = np.concatenate(([0], np.cumsum(self.n_bins_)[:-1]))
        encoded = np.zeros((X.shape[0], int(self.n_bins_.sum())))
        encoded[np.arange(X.shape[0])[:, None], bins + offsets] = 1.0
        return encoded

    def rules(self, feature_names: list[str] | None = None) -> list[str]:
        """Describe every bin as ``lower <= x < upper -> majority label (shares)``.

        Parameters
        ----------
        feature_names : list of str, optional
            Names of the columns; defaults to ``x0, x1, ...``.

        Returns
        -------
        list of str
            One line per bin, column by column; the majority label is the
            most frequent training label in the bin (the first in sorted
            order on a tie), followed by each label's share of the bin.
        """
        check_fitted(self, "cuts_")
        if feature_names is None:
            feature_names = [f"x{j}" for j in range(self.n_features_in_)]
        if len(feature_names) != self.n_features_in_:
            raise ValueError(
                f"feature_names must have {self.n_features_in_} names, got {len(feature_names)}"
            )
        lines = []
        for name, cuts, counts in zip(feature_names, self.cuts_, self.bin_counts_, strict=True):
            edges = np.concatenate(([-np.inf], cuts, [np.inf]))
            for b, bin_counts in enumerate(counts):
                shares = bin_counts / max(int(bin_counts.sum()), 1)
                majority = self.classes_[int(np.argmax(bin_counts))]
                detail = ", ".join(
                    f"{label}: {share:.2f}"
                    for label, share in zip(self.classes_.tolist(), shares, strict=True)
                )
                lines.append(
                    f"{name}: {edges[b]:.6g} <= x < {edges[b + 1]:.6g} -> {majority} ({detail})"
                )
        return lines
