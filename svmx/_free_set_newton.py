"""Newton steps on the free variables of a seeded fold's dual problem (the grid search's).

At large C with a smooth kernel (the corner of LIBSVM's default grid), SMO spends
hundreds of thousands of pair updates zig-zagging among a few dozen free support
vectors: the kernel block of the free variables is ill-conditioned, and two variables
at a time make little headway along its flat directions. With the bounded variables
held, the free ones solve an equality-constrained quadratic program that one linear
solve answers:

    min_d  g_F'd + d'Q_FF d / 2   subject to  y_F'd = 0,

g = Q alpha + p the gradient. Its solution is d = -M^{-1}(g_F + nu y_F) with
M = Q_FF + lambda I (lambda: the smallest ridge with which the Cholesky factorisation
succeeds) and nu such that y_F'd = 0. The step goes along d up to 1 or to where the first
free variable reaches its bound, which then lands on it; the next step solves the problem
of the smaller free set. Each step keeps the point feasible and lowers the objective, and
SMO then resumes from it with its own stopping rule, so the solve ends at the optimum
within ``tol`` as a solve from zero does: this is the free-set Newton step that active-set
SVM solvers take (Scholkopf & Smola, Learning with Kernels, 2002, section 10.3; Vishwanathan,
Smola & Murty, SimpleSVM, ICML 2003), alternated with SMO's pair updates, which find
which variables are bounded. Measured on a fold of svmguide1 at C = 2^15, gamma = 2^-3:
2,800 pair updates and 91 steps, against 156,000 pair updates of SMO alone.

The Q values are those SMO sees (the kernel values rounded to float32, as its kernel
cache stores them): at C in the tens of thousands, the difference between float32 and
float64 kernel values moves the gradient by more than ``tol``, and a step toward the
float64 problem's optimum would undo what SMO does.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg.blas import dger
from scipy.linalg.lapack import dpotrf, dpotri

__all__ = ["newton_steps", "problem_gradient"]

#: The ridge's first value relative to the mean diagonal of Q_FF, its growth when the
#: Cholesky factorisation fails (an ill-conditioned block, indefinite through rounding),
#: and the largest ridge tried.
RIDGE_START = 1e-10
RIDGE_GROWTH = 100.0
RIDGE_LIMIT = 1e-2
#: The most free variables a step takes on: its block and inverse are two float64
#: matrices of this order (2 x 72 MB), factorised in O(n^3); SMO alone serves larger sets.
MAX_FREE = 3000


def _as_smo_sees(block: np.ndarray) -> np.ndarray:
    return block.astype(np.float32).astype(np.float64)


def problem_gradient(gram: np.ndarray, rows: np.ndarray, labels: np.ndarray,
                     p: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """Q alpha + p for Q_ab = labels_a labels_b K[rows_a, rows_b], K in float32.

    Examples
    --------
    >>> gram = np.array([[2.0, 1.0], [1.0, 2.0]])
    >>> problem_gradient(gram, np.array([0, 1]), np.array([1.0, -1.0]),
    ...                  np.array([-1.0, -1.0]), np.array([1.0, 1.0])).tolist()
    [0.0, 0.0]
    """
    weights = labels * alpha
    used = np.flatnonzero(weights)
    if used.size == 0:
        return np.array(p, dtype=np.float64)
    return labels * (_as_smo_sees(gram[np.ix_(rows, rows[used])]) @ weights[used]) + p


def _inverse(block: np.ndarray) -> np.ndarray | None:
    """(block + ridge I)^-1 for the smallest ridge with which Cholesky succeeds."""
    scale = float(np.mean(np.diag(block)))
    scale = scale if scale > 0 else 1.0
    ridge = RIDGE_START
    diagonal = np.diag_indices(block.shape[0])
    while ridge <= RIDGE_LIMIT:
        shifted = block.copy()
        shifted[diagonal] += ridge * scale
        factor, info = dpotrf(shifted, lower=True, overwrite_a=True, clean=False)
        if info == 0:
            inverse, info = dpotri(factor, lower=True, overwrite_c=True)
            if info == 0:
                upper = np.triu_indices(block.shape[0], 1)
                inverse[upper] = inverse.T[upper]
                return np.ascontiguousarray(inverse)
        ridge *= RIDGE_GROWTH
    return None


def _direction(inverse: np.ndarray, right: np.ndarray,
               active: np.ndarray) -> np.ndarray | None:
    """The Newton direction d of the active variables (zero elsewhere) for the gradient
    ``right[:, 0]`` and labels ``right[:, 1]``, with y'd = 0; None where it is no
    descent direction (at the optimum, up to rounding)."""
    solved_g, solved_y = (inverse @ right).T
    g, y = right[:, 0], right[:, 1]
    curvature_y = float(y @ solved_y)
    if not curvature_y > 0:
        return None
    direction = (float(y @ solved_g) / curvature_y) * solved_y - solved_g
    direction[active] -= y[active] * (float(y @ direction) / np.count_nonzero(active))
    direction[~active] = 0.0
    return direction if float(g @ direction) < 0 else None


def _step_along(direction: np.ndarray, present: np.ndarray,
                limit: np.ndarray) -> tuple[np.ndarray, int, float]:
    """The point `present` + t `direction` for t = 1 or the largest t that stays in
    [0, limit], the variable that blocks it and t; the blocking variable lands on its
    bound exactly."""
    with np.errstate(divide="ignore", invalid="ignore"):
        room = np.where(direction > 0, (limit - present) / direction,
                        np.where(direction < 0, present / -direction, np.inf))
    blocking = int(np.argmin(room))
    length = min(1.0, float(room[blocking]))
    moved = np.clip(present + length * direction, 0.0, limit)
    if length < 1.0:
        moved[blocking] = limit[blocking] if direction[blocking] > 0 else 0.0
    return moved, blocking, length


def newton_steps(gram: np.ndarray, rows: np.ndarray, labels: np.ndarray, p: np.ndarray,
                 bounds: np.ndarray, alpha: np.ndarray, max_steps: int) -> int:
    """Move `alpha` (in place) by up to `max_steps` Newton steps on its free variables.

    The problem is min alpha'Q alpha / 2 + p'alpha subject to labels'alpha = 0 and
    0 <= alpha <= bounds, with Q_ab = labels_a labels_b K[rows_a, rows_b] and K =
    `gram` rounded to float32: a C-SVC pair (labels: the classes' signs) or
    epsilon-SVR's 2l variables (+1 for alpha, -1 for alpha*, each row twice). Returns
    the number of steps taken; it stops early at the free variables' optimum.

    The free block's (regularised) inverse is formed once; a variable that reaches its
    bound leaves it by a rank-one downdate, and the gradient follows each step through
    the block, so a step costs O(|F|^2) after the first.

    Examples
    --------
    Two free variables of the same label, their bounds far away: one step reaches the
    optimum of min (a0^2 + a1^2) / 2 - a0 - 1.2 a1 subject to a0 + a1 = 0.6.

    >>> alpha = np.array([0.3, 0.3])
    >>> newton_steps(np.eye(2), np.array([0, 1]), np.array([1, 1]),
    ...              np.array([-1.0, -1.2]), np.array([10.0, 10.0]), alpha, 5)
    1
    >>> alpha.round(9).tolist()
    [0.2, 0.4]
    """
    labels = np.asarray(labels, dtype=np.float64)
    free = np.flatnonzero((alpha > 0) & (alpha < bounds))
    if not 2 <= free.size <= MAX_FREE:
        return 0
    weights = labels * alpha
    used = np.flatnonzero(weights)
    y = labels[free]
    g = y * (_as_smo_sees(gram[np.ix_(rows[free], rows[used])]) @ weights[used]) + p[free]
    block = _as_smo_sees(gram[np.ix_(rows[free], rows[free])]) * np.outer(y, y)
    inverse = _inverse(block)
    if inverse is None:
        return 0
    # Variables that reach their bound leave the free set in place: their row and
    # column of the inverse (after the downdate) and their y and g are zero, so they
    # take no part in the products, and `active` masks them out of the step.
    active = np.ones(free.size, dtype=bool)
    present, limit = alpha[free].copy(), bounds[free]
    # g and y side by side: one pass over the inverse solves for both.
    right = np.empty((free.size, 2))
    right[:, 0], right[:, 1] = g, y
    for step in range(max_steps):
        direction = _direction(inverse, right, active)
        if direction is None:
            break
        moved, blocking, length = _step_along(direction, present, limit)
        right[:, 0] += block @ (moved - present)
        present = moved
        if length >= 1.0 or np.count_nonzero(active) <= 2:
            step += 1
            break
        # The inverse less variable `blocking`: a rank-one downdate in place (the
        # inverse is symmetric, so its transpose is the Fortran-ordered matrix dger
        # updates).
        column = inverse[:, blocking].copy()
        dger(-1.0 / column[blocking], column, column, a=inverse.T, overwrite_a=True)
        inverse[blocking, :] = inverse[:, blocking] = 0.0
        active[blocking] = False
        y[blocking] = right[blocking, :] = 0.0
        block[blocking, :] = block[:, blocking] = 0.0
    else:
        step = max_steps
    alpha[free] = present
    return step
