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

from svmx._newton_walk import free_set_steps

__all__ = ["newton_steps"]

#: The ridge's first value relative to the mean diagonal of Q_FF, its growth when the
#: Cholesky factorisation fails (an ill-conditioned block, indefinite through rounding),
#: and the largest ridge tried.
RIDGE_START = 1e-10
RIDGE_GROWTH = 100.0
RIDGE_LIMIT = 1e-2
#: The most free variables a step takes on: its block and inverse are two float64
#: matrices of this order (2 x 72 MB), factorised in O(n^3); SMO alone serves larger sets.
MAX_FREE = 3000


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
    the block, so a step costs O(|F|^2) after the first (`svmx._newton_walk`).

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
    if not (isinstance(alpha, np.ndarray) and alpha.dtype == np.float64
            and alpha.flags.c_contiguous and alpha.flags.writeable):
        raise TypeError("newton_steps: alpha must be a writeable, contiguous float64 array "
                        "(it is moved in place)")
    # Compiled and on this thread, as the inverse and the steps (svmx._newton_walk):
    # OpenBLAS's threads wait on a busy core, or on numpy's own pool.
    return free_set_steps(np.ascontiguousarray(gram, dtype=np.float64), rows, labels, p,
                          bounds, alpha, max_steps, MAX_FREE, RIDGE_START, RIDGE_GROWTH,
                          RIDGE_LIMIT)
