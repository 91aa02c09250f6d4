"""LIBSVM's fitted layout: assembling it from per-pair solutions, and reading it back.

For k classes there are k(k-1)/2 one-vs-one pairs (i, j), i < j, in that
order. Support vectors are the union over pairs of the samples with a
non-zero coefficient, grouped by class. ``dual_coef`` has shape
(k - 1, n_SV): in pair (i, j) the coefficients of class-i vectors sit in
row j - 1 and those of class-j vectors in row i.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmx import _libsvm

__all__ = [
    "PairSolution",
    "pair_weights",
    "assemble_one_vs_one",
    "ovo_pairs",
    "vote",
    "ovr_from_ovo",
]


@dataclass
class PairSolution:
    """The solution of one binary sub-problem: class i (+1) against class j (-1)."""

    first: int
    second: int
    coef: np.ndarray  # signed coefficients, class-i rows then class-j rows
    rho: float
    n_iter: int
    status: int
    objective: float = float("nan")  # the solver's dual objective (warm starts read it)


def ovo_pairs(n_classes: int) -> list[tuple[int, int]]:
    """The one-vs-one pairs in LIBSVM's order.

    Examples
    --------
    >>> ovo_pairs(3)
    [(0, 1), (0, 2), (1, 2)]
    """
    return [(i, j) for i in range(n_classes) for j in range(i + 1, n_classes)]


def assemble_one_vs_one(class_rows: list[np.ndarray], solutions: list[PairSolution]) -> dict:
    """Build support_, n_support_, dual_coef_ and intercept_ in LIBSVM's layout.

    Parameters
    ----------
    class_rows : list of ndarray
        For each class, the (ascending) training rows that belong to it.
    solutions : list of PairSolution
        One per pair, in ``ovo_pairs`` order.

    Examples
    --------
    >>> rows = [np.array([0, 2]), np.array([1])]
    >>> solution = PairSolution(0, 1, np.array([0.5, 0.0, -0.5]), rho=0.1, n_iter=3, status=0)
    >>> layout = assemble_one_vs_one(rows, [solution])
    >>> layout["support"].tolist(), layout["dual_coef"].tolist()
    ([0, 1], [[0.5, -0.5]])
    """
    n_classes = len(class_rows)
    n_samples = max((int(rows.max()) + 1 for rows in class_rows if rows.size), default=0)
    is_support = np.zeros(n_samples, dtype=bool)
    for solution in solutions:
        rows = np.concatenate([class_rows[solution.first], class_rows[solution.second]])
        is_support[rows[solution.coef != 0]] = True
    per_class = [rows[is_support[rows]] for rows in class_rows]
    support = np.concatenate(per_class).astype(np.int32)
    position = np.full(n_samples, -1, dtype=np.intp)
    position[support] = np.arange(support.size)
    dual_coef = np.zeros((max(n_classes - 1, 1), support.size), dtype=np.float64)
    for solution in solutions:
        i, j = solution.first, solution.second
        n_first = class_rows[i].size
        for rows, coef, row in (
            (class_rows[i], solution.coef[:n_first], j - 1),
            (class_rows[j], solution.coef[n_first:], i),
        ):
            # Every support vector's coefficient, zeros too: LIBSVM keeps their sign
            # (alpha * y is -0 for a class trained as -1), and so does its model file.
            kept = is_support[rows]
            dual_coef[row, position[rows[kept]]] = coef[kept]
    return {
        "support": support,
        "n_support": np.array([rows.size for rows in per_class], dtype=np.int32),
        "dual_coef": dual_coef,
        "intercept": np.array([-s.rho for s in solutions], dtype=np.float64),
        "n_iter": np.array([s.n_iter for s in solutions], dtype=np.int32),
        "objective": np.array([s.objective for s in solutions], dtype=np.float64),
        "fit_status": int(any(s.status != 0 for s in solutions)),
    }


def pair_weights(dual_coef: np.ndarray, n_support: np.ndarray) -> np.ndarray:
    """The (n_SV, n_pairs) matrix W with decision values = K(X, SV) @ W + intercept.

    Column p of pair (i, j) holds dual_coef[j - 1] on class i's vectors and
    dual_coef[i] on class j's, zero elsewhere, so one matrix product gives
    every pair's decision values.

    Examples
    --------
    >>> pair_weights(np.array([[1.0, -1.0]]), np.array([1, 1])).tolist()
    [[1.0], [-1.0]]
    """
    n_classes = n_support.size
    bounds = np.concatenate([[0], np.cumsum(n_support)])
    pairs = ovo_pairs(n_classes)
    weights = np.zeros((dual_coef.shape[1], max(len(pairs), 1)), dtype=np.float64)
    for p, (i, j) in enumerate(pairs):
        weights[bounds[i] : bounds[i + 1], p] = dual_coef[j - 1, bounds[i] : bounds[i + 1]]
        weights[bounds[j] : bounds[j + 1], p] = dual_coef[i, bounds[j] : bounds[j + 1]]
    return weights


# LIBSVM's one-vs-one vote (ties to the lowest class, NaN to a pair's second class),
# computed in C by the binding (`svmx._libsvm.ovo_vote`).
vote = _libsvm.ovo_vote


def ovr_from_ovo(ovo_values: np.ndarray, n_classes: int) -> np.ndarray:
    """Turn one-vs-one values into one-vs-rest scores of shape (n_samples, n_classes).

    Each class gets its votes plus a confidence in (-1/3, 1/3): the summed
    pair values scaled by ``s / (3 (|s| + 1))``, so the ranking follows the
    votes and the values only break ties.

    Examples
    --------
    >>> ovr_from_ovo(np.array([[1.0, 1.0, 1.0]]), 3).round(3).tolist()
    [[2.222, 1.0, -0.222]]
    """
    votes = np.zeros((ovo_values.shape[0], n_classes), dtype=np.float64)
    confidence = np.zeros_like(votes)
    for p, (i, j) in enumerate(ovo_pairs(n_classes)):
        # scikit-learn's convention here: a zero value counts for the first class.
        first = ovo_values[:, p] >= 0
        votes[:, i] += first
        votes[:, j] += ~first
        confidence[:, i] += ovo_values[:, p]
        confidence[:, j] -= ovo_values[:, p]
    return votes + confidence / (3.0 * (np.abs(confidence) + 1.0))
