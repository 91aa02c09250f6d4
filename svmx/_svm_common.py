"""What the five estimators of `svmx.svm` share: parameter constraints and the
docstring of the kernel and solver parameters."""

from __future__ import annotations

from typing import Any

from svmx._constraints import Interval, Kind
from svmx._random import validate_random_state

__all__ = ["NU", "POSITIVE", "RANDOM_STATE"]

POSITIVE = Interval("real", 0, None, closed="neither")
NU = Interval("real", 0, 1, closed="right")


def _is_random_state(value: Any) -> bool:
    try:
        validate_random_state(value)
    except TypeError:
        return False
    return True


# What every random_state in svmx accepts (svmx._random).
RANDOM_STATE = Kind(
    "None, an int, a numpy.random.Generator / RandomState or a SplitMix64",
    predicate=_is_random_state,
)

_KERNEL_DOC = """\
    kernel : {'linear', 'poly', 'rbf', 'sigmoid', 'precomputed'} or callable, default='rbf'
        The kernel. A callable takes two matrices and returns their Gram matrix.
    degree : int, default=3
        Degree of the polynomial kernel ('poly'); ignored by the others.
    gamma : {'scale', 'auto'} or float, default='scale'
        Coefficient of 'rbf', 'poly' and 'sigmoid': 'scale' is
        1 / (n_features * X.var()), 'auto' is 1 / n_features.
    coef0 : float, default=0.0
        Independent term of 'poly' and 'sigmoid'.
    shrinking : bool, default=True
        Whether to use the shrinking heuristic.
    tol : float, default=1e-3
        Stopping tolerance on the maximal violating pair.
    cache_size : float, default=200
        Kernel cache size in MB.
    verbose : bool, default=False
        Print LIBSVM's training output on stdout, as svm-train and scikit-learn do
        (``optimization finished, #iter = ...``, ``obj``, ``rho``, ``nSV`` per
        problem); svmx's own notes go to stderr.
    max_iter : int, default=-1
        Iteration limit per solve; -1 for none.
    solver : {'auto', 'smo', 'block'}, default='auto'
        'smo' is LIBSVM's algorithm step for step (same iterations, same
        answers). 'block' optimises batches of working-set variables whose
        kernel rows come from one matrix product in float32 (faster on large
        problems; it stops at the same optimality gap). 'auto' uses 'block'
        where it is available (C-SVC and one-class from 5,000 samples,
        epsilon-SVR, with two dual variables per sample, from 3,300; a
        built-in kernel), else 'smo';
        under 'auto' the one-vs-one pairs of three or more classes also share
        one float32 Gram matrix when it fits in three quarters of
        ``cache_size`` (computed once with matrix products instead of
        column by column in every pair).
    n_jobs : int or None, default=None
        Threads: one-vs-one pairs trained at once (classifiers), the block
        solver's kernel blocks and gradient updates, and prediction. None
        (and -1) means the cores the process may use, within the limit
        already in force: ``OMP_NUM_THREADS``, threadpoolctl's
        ``threadpool_limits`` or the share joblib gives each worker, so a fit
        inside ``GridSearchCV(n_jobs=k)`` does not oversubscribe (as
        scikit-learn's OpenMP estimators count); -2 means one fewer. The model
        does not depend on it."""
