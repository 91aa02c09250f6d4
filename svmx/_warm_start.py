"""Starting points for warm starts along C (alpha seeding, DeCoste & Wagstaff 2000).

For C-SVC and epsilon-SVR the dual's box is [0, C w_i] and its equality constraint
(y' alpha = 0, or sum(alpha - alpha*) = 0) does not involve C, so a solution for C_old,
scaled by C_new / C_old, is a feasible point of the problem for C_new; from there the
solver needs far fewer iterations than from 0, and it reaches the same optimum (the
problem is convex; the solver stops at the same optimality gap). The seeds are read
from the previous model's LIBSVM layout, which must have been fitted on the same rows
with the same weights and kernel.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx._layout import ovo_pairs

__all__ = ["pair_seeds", "regression_seed"]


def _dense_coef(model: Any) -> np.ndarray:
    coef = model._dual_coef_
    return coef.toarray() if sp.issparse(coef) else np.asarray(coef, dtype=np.float64)


def _positions(rows: np.ndarray, wanted: np.ndarray) -> np.ndarray | None:
    """Where each of `wanted` sits in the sorted `rows`, or None if one is missing."""
    at = np.searchsorted(rows, wanted)
    if at.size and (at.max() >= rows.size or not np.array_equal(rows[at], wanted)):
        return None
    return at


def pair_seeds(previous: Any, class_rows: list[np.ndarray],
               scale: float) -> dict[tuple[int, int], np.ndarray] | None:
    """Each one-vs-one pair's alphas in `previous` (a fitted C-SVC), times `scale`.

    ``class_rows[c]`` lists (sorted) the training rows of class c, as the fit poses
    them; pair (i, j) gets the alphas of its rows ``class_rows[i]`` then
    ``class_rows[j]``. None when `previous` was fitted on other rows or classes.

    Examples
    --------
    >>> from svmx import SVC
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> model = SVC(kernel="linear", C=0.1).fit(X, [0, 0, 1, 1])
    >>> seeds = pair_seeds(model, [np.array([0, 1]), np.array([2, 3])], 2.0)
    >>> np.round(seeds[0, 1], 6).tolist()  # feasible for C = 0.2: y'alpha = 0, in [0, 0.2]
    [0.15, 0.2, 0.2, 0.15]
    """
    n_classes = len(class_rows)
    n_support = np.asarray(previous._n_support)
    if n_support.size != n_classes:
        return None
    coef = np.abs(_dense_coef(previous))
    support = np.asarray(previous.support_)
    starts = np.concatenate([[0], np.cumsum(n_support)])
    blocks = [slice(starts[c], starts[c + 1]) for c in range(n_classes)]
    where = [_positions(class_rows[c], support[blocks[c]]) for c in range(n_classes)]
    if any(at is None for at in where):
        return None
    seeds = {}
    for i, j in ovo_pairs(n_classes):
        alpha = np.zeros(class_rows[i].size + class_rows[j].size)
        alpha[where[i]] = coef[j - 1, blocks[i]]
        alpha[class_rows[i].size + where[j]] = coef[i, blocks[j]]
        seeds[i, j] = alpha * scale
    return seeds


def regression_seed(previous: Any, rows: np.ndarray, scale: float) -> np.ndarray | None:
    """alpha then alpha* of `previous` (a fitted epsilon-SVR) over `rows`, times `scale`.

    A support vector's coefficient alpha_i - alpha*_i is positive (alpha_i) or
    negative (alpha*_i); at the optimum never both. None when `previous` was
    fitted on other rows.

    Examples
    --------
    >>> from svmx import SVR
    >>> X = np.array([[0.0], [1.0], [2.0]])
    >>> model = SVR(kernel="linear", C=0.01, epsilon=0.1).fit(X, [0.0, 1.0, 2.0])
    >>> regression_seed(model, np.arange(3), 3.0).round(6).tolist()
    [0.0, 0.0, 0.03, 0.03, 0.0, 0.0]
    """
    at = _positions(np.asarray(rows), np.asarray(previous.support_))
    if at is None:
        return None
    coef = _dense_coef(previous)[0]
    alpha = np.zeros(2 * rows.size)
    alpha[at] = np.maximum(coef, 0.0)
    alpha[rows.size + at] = np.maximum(-coef, 0.0)
    return alpha * scale
