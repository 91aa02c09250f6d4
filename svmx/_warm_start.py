"""Starting points for warm starts along C (alpha seeding, DeCoste & Wagstaff 2000).

For C-SVC and epsilon-SVR the dual's box is [0, C w_i] and its equality constraint
(y' alpha = 0, or sum(alpha - alpha*) = 0) does not involve C, so a solution for C_old
scaled by any s in [0, C_new / C_old] is a feasible point of the problem for C_new; the
solver reaches the same optimum from it (the problem is convex; it stops at the same
optimality gap), in fewer iterations the closer the seed is.

The scale is the best one along that ray. The dual objective at s alpha is
f(s) = s^2 A + s B, with A = alpha'Q alpha / 2 (C-SVC: B = -sum(alpha); SVR: B =
epsilon |c|_1 - y'c for c = alpha - alpha*), and A follows from the previous solve's
objective f(1) = A + B without a kernel value; so s = -B / 2A, clipped to the box
(`best_scale`, from the binding, where the grid search's folds use it too).
Where the previous C bounded every support vector this is C_new / C_old (DeCoste &
Wagstaff's scaling); where C no longer binds (the support vectors are free) it is 1,
the previous solution, which is then already optimal.

The seeds are read from the previous model's LIBSVM layout and objectives, which must
come from a fit on the same rows with the same weights and kernel.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx._layout import ovo_pairs
from svmx._libsvm import best_scale
from svmx._specs import KERNEL_TYPES, KernelSpec

__all__ = ["best_scale", "pair_seeds", "regression_seed", "seeds_converge",
           "warm_starts_apply"]


def seeds_converge(kernel: KernelSpec) -> bool:
    """Whether a solve started from a seed ends at the optimum a solve from zero ends at.

    It does when the kernel is positive semi-definite (the dual is convex): linear,
    RBF, and polynomial with gamma > 0 and coef0 >= 0. The sigmoid kernel is not, nor
    need a precomputed or callable one be: where the dual is not convex, the start
    decides which stationary point the solver stops at (with the sigmoid kernel, Platt
    probabilities 0.06 away from LIBSVM's procedure's), so their solves start from zero.

    Examples
    --------
    >>> seeds_converge(KernelSpec.named("rbf")), seeds_converge(KernelSpec.named("sigmoid"))
    (True, False)
    >>> seeds_converge(KernelSpec.named("poly", gamma=0.5, coef0=-1.0))
    False
    """
    if kernel.kernel_type in (KERNEL_TYPES["linear"], KERNEL_TYPES["rbf"]):
        return True
    return (kernel.kernel_type == KERNEL_TYPES["poly"] and kernel.gamma > 0
            and kernel.coef0 >= 0)


def warm_starts_apply(max_iter: Any, kernel: KernelSpec) -> bool:
    """Whether the C values of a search may each start from the last one's solution:
    `seeds_converge`, and no ``max_iter`` cuts a solve short (a stopped solve's end
    depends on its start; an unlimited one reaches the same optimum within ``tol``
    from any start).

    Examples
    --------
    >>> rbf = KernelSpec.named("rbf")
    >>> warm_starts_apply(-1, rbf), warm_starts_apply(100, rbf)
    (True, False)
    """
    return isinstance(max_iter, numbers.Integral) and max_iter < 0 and seeds_converge(kernel)


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
    >>> np.round(seeds[0, 1], 6).tolist()  # alpha times 1.4, the best scale in [0, 2]
    [0.105, 0.14, 0.14, 0.105]
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
    objectives = getattr(previous, "_pair_objectives", None)
    seeds = {}
    for number, (i, j) in enumerate(ovo_pairs(n_classes)):
        alpha = np.zeros(class_rows[i].size + class_rows[j].size)
        alpha[where[i]] = coef[j - 1, blocks[i]]
        alpha[class_rows[i].size + where[j]] = coef[i, blocks[j]]
        objective = np.nan if objectives is None else float(objectives[number])
        seeds[i, j] = alpha * best_scale(objective, -float(alpha.sum()), scale)
    return seeds


def regression_seed(previous: Any, rows: np.ndarray, targets: np.ndarray, epsilon: float,
                    scale: float) -> np.ndarray | None:
    """alpha then alpha* of `previous` (a fitted epsilon-SVR) over `rows`, times `scale`.

    A support vector's coefficient alpha_i - alpha*_i is positive (alpha_i) or
    negative (alpha*_i); at the optimum never both. `targets` are the rows'
    targets and `epsilon` the tube's half-width (for the best scale). None when
    `previous` was fitted on other rows.

    Examples
    --------
    >>> from svmx import SVR
    >>> X = np.array([[0.0], [1.0], [2.0]])
    >>> model = SVR(kernel="linear", C=0.01, epsilon=0.1).fit(X, [0.0, 1.0, 2.0])
    >>> regression_seed(model, np.arange(3), np.array([0.0, 1.0, 2.0]), 0.1, 3.0).round(6).tolist()
    [0.0, 0.0, 0.03, 0.03, 0.0, 0.0]
    """
    at = _positions(np.asarray(rows), np.asarray(previous.support_))
    if at is None:
        return None
    coef = _dense_coef(previous)[0]
    alpha = np.zeros(2 * rows.size)
    alpha[at] = np.maximum(coef, 0.0)
    alpha[rows.size + at] = np.maximum(-coef, 0.0)
    linear = epsilon * float(np.abs(coef).sum()) - float(np.asarray(targets)[at] @ coef)
    return alpha * best_scale(float(getattr(previous, "_objective", np.nan)), linear, scale)
