"""LIBSVM's probability models: Platt sigmoids per pair, SVR's Laplace scale, one-class marks.

For each one-vs-one pair, decision values come from an internal 5-fold
cross-validation on that pair's samples (shuffled by a generator seeded from
the estimator's ``random_state``), and Platt's sigmoid is fitted to them
(Platt 1999; Lin, Lin & Weng 2007). At prediction the pairwise
probabilities are coupled into one distribution per sample (Wu, Lin & Weng
2004, method 2). With a :class:`~svmx.preprocessing.GlibcRand` as the
random state, the folds are svm-train's, and under ``solver='smo'`` on sparse
input every number is LIBSVM's to the last bit (svm-train -b 1). Under
``solver='auto'`` (the default) the same folds share work with their pair
(`svmx._platt_folds`): the same fold models to the solver's tolerance, several
times faster.

``svmx train -b 1`` also fits LIBSVM's two other probability models: for
epsilon- and nu-SVR the scale of a Laplace distribution of the error
(`laplace_scale`, from a 5-fold cross-validation), for one-class SVM LIBSVM
3.37's ten density marks on the training decision values (`density_marks`).

The argmax of ``predict_proba`` can disagree with ``predict``: the latter
votes on the decision values, the former ranks coupled cross-validated
sigmoids. That is LIBSVM's and scikit-learn's behaviour too.

A fold can have no solution where the whole pair has one: nu-SVC's nu may
be too large for a fold's samples (no margin, r = 0), and the engine then
returns non-finite values. Such folds are left out of the sigmoid fit; if every fold
fails, the sigmoid is the prior ``A = 0``, ``B = log((N- + 1) / (N+ + 1))``
(which is where LIBSVM and scikit-learn end up, as their line search fails on
the NaN decision values).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx import _libsvm
from svmx._glibc_rand import GlibcRand
from svmx._layout import ovo_pairs
from svmx._platt_folds import (
    fold_decisions,
    fold_inputs,
    pair_inputs,
    placed,
    seeded_held_out_decisions,
)
from svmx._random import numpy_generator
from svmx._specs import KernelSpec, Problem, SolveSpec
from svmx._training import sequential_sum, solve_problem
from svmx._warm_start import warm_starts_apply

__all__ = [
    "N_FOLDS",
    "PairSigmoids",
    "coupled_probabilities",
    "decisions_on",
    "density_marks",
    "laplace_scale",
]

N_FOLDS = 5
N_DENSITY_MARKS = 10

# What LIBSVM prints when Platt's Newton iterations stop early (sigmoid_train's status).
_PLATT_MESSAGES = {
    1: "Reaching maximal iterations in two-class probability estimates\n",
    2: "Line search fails in two-class probability estimates\n",
}


def _shuffler(random_state: Any):
    """What draws the folds' permutations: a GlibcRand shuffles exactly as LIBSVM does."""
    if isinstance(random_state, GlibcRand):
        return random_state
    return numpy_generator(random_state)


def decisions_on(matrix, test_rows: np.ndarray, support_rows: np.ndarray, coef: np.ndarray,
               rho: float, kernel: KernelSpec) -> np.ndarray:
    """K(x, SV) coef - rho for ``test_rows`` of ``matrix`` (a single decision function).

    Sparse rows are evaluated exactly as LIBSVM's svm_predict_values (LIBSVM's
    data are sparse), so that what is fitted to them is LIBSVM's to the last bit.
    """
    if kernel.is_precomputed:
        return _libsvm.libsvm_decision_values(
            matrix[test_rows], support_rows, coef, rho, kernel)
    if sp.issparse(matrix):
        return _libsvm.libsvm_decision_values(
            matrix[test_rows], matrix[support_rows], coef, rho, kernel)
    K = _libsvm.kernel_matrix(matrix[test_rows], matrix[support_rows], kernel)
    return K @ coef - rho


def _fold_bounds(n_rows: int, n_folds: int) -> list[tuple[int, int]]:
    """LIBSVM's contiguous folds of a permutation: fold i is [i n / k, (i + 1) n / k)."""
    return [(fold * n_rows // n_folds, (fold + 1) * n_rows // n_folds)
            for fold in range(n_folds)]


def fold_plan(order: np.ndarray, labels: np.ndarray) -> list[tuple[np.ndarray, Any]]:
    """LIBSVM's folds of a pair: per fold, its held-out positions and its training positions.

    The folds are contiguous runs of ``order`` (a permutation of the pair's
    positions), and each fold's model is trained on the other positions in that
    order, its +1 class first (as LIBSVM's svm_train groups them). A fold whose
    training positions hold one class only (or none) gets, in place of them, the
    decision value LIBSVM gives its held-out rows: +1, -1 (or 0). Empty folds
    are left out.

    Examples
    --------
    >>> plan = fold_plan(np.arange(5), np.array([1, -1, 1, -1, -1], np.int8))
    >>> [(held.tolist(), training.tolist()) for held, training in plan][:2]
    [([0], [2, 1, 3, 4]), ([1], [0, 2, 3, 4])]
    """
    plan = []
    for start, stop in _fold_bounds(order.size, N_FOLDS):
        held_out = order[start:stop]
        if held_out.size == 0:
            continue
        training = np.concatenate([order[:start], order[stop:]])
        positive = training[labels[training] == 1]
        negative = training[labels[training] == -1]
        if positive.size == 0 or negative.size == 0:
            plan.append((held_out, 1.0 if positive.size else -1.0 if negative.size else 0.0))
        else:
            plan.append((held_out, np.concatenate([positive, negative])))
    return plan


def _held_out_decisions(
    matrix, rows: np.ndarray, problem: Problem, kernel: KernelSpec, solve: SolveSpec,
    order: np.ndarray,
) -> np.ndarray:
    """Decision values of each of a pair's rows from a model trained on the other folds.

    LIBSVM's ``svm_binary_svc_probability`` over `fold_plan`'s folds: every fold
    trained from zero, its held-out rows evaluated as svm_predict_values does.
    ``problem`` is the pair's problem over ``rows``. With ``solve.log``, each
    fold's training prints what svm_train prints. Rows of a fold whose training
    problem has no finite solution get NaN.
    """
    folds = fold_plan(order, problem.y)
    return placed(folds, [fold_decisions(matrix, rows, problem, kernel, solve, fold,
                                         decisions_on) for fold in folds], rows.size)


class PairSigmoids:
    """Platt's sigmoid of each one-vs-one pair, from an internal 5-fold cross-validation.

    LIBSVM's ``svm_binary_svc_probability``, pair by pair: `fit_one_vs_one`
    draws every pair's permutation in training order first (`draw_orders`), so
    that pairs trained side by side make the same folds as one after another,
    then calls `fit_with_pair` for each pair: LIBSVM's folds just before the pair
    (its order of work, and so of its output), or folds that share the pair's work
    after it.

    Parameters
    ----------
    matrix
        What the pairs are trained on (the Gram matrix when ``kernel`` is precomputed).
    kernel : KernelSpec
    random_state
        Any svmx ``random_state``; a :class:`~svmx.preprocessing.GlibcRand`
        shuffles as svm-train does.
    """

    def __init__(self, matrix, kernel: KernelSpec, random_state: Any) -> None:
        self.matrix = matrix
        self.kernel = kernel
        self._shuffler = _shuffler(random_state)

    def draw_orders(self, sizes: list[int]) -> list[np.ndarray]:
        """One permutation of ``range(size)`` per pair, drawn in the order given."""
        return [np.asarray(self._shuffler.permutation(size)) for size in sizes]

    @staticmethod
    def shares_work(solve: SolveSpec) -> bool:
        """Whether the folds share work with their pair (``solver='auto'``,
        `svmx._platt_folds`): the pair is then trained first and its solution
        seeds the folds. Otherwise the folds are LIBSVM's, trained from zero."""
        return solve.solver == "auto"

    def fit_with_pair(self, train_pair: Any, rows: np.ndarray, problem: Problem,
                      solve: SolveSpec, order: np.ndarray, on: tuple) -> tuple[Any, tuple]:
        """Train the pair (``train_pair(on)``) and fit its sigmoid, in the order the folds
        need: LIBSVM's folds first, or the pair first where the folds share its work.

        ``on`` is what the pair is solved on: (matrix, the pair's rows of it, kernel).
        Where the folds share the pair's work, an SMO pair is solved on what they train
        on (`svmx._platt_folds.pair_inputs`), which gives the same solution; a pair the
        block solver takes stays on ``on``, as in the plain fit. Returns the
        pair's solution and (A, B). ``train_pair(on, log=...)`` writes its output to
        another log: a verbose fit keeps LIBSVM's order of output (the folds', then the
        pair's) either way.
        """
        if not self.shares_work(solve):
            sigmoid = self.fit(rows, problem, solve, order)
            return train_pair(on), sigmoid
        inputs = fold_inputs(*on, solve)
        pair_on, pair_solve = pair_inputs(inputs, on, problem, solve)
        pair_log = None if solve.log is None else solve.log.buffered()
        # A max_iter that stops a fold leaves it where its start led: with one, every
        # fold starts from zero, as LIBSVM's do (warm_starts_apply).
        seeds = problem.formulation == "c_svc" and warm_starts_apply(solve.max_iter,
                                                                     self.kernel)
        # Seeded folds that compute their kernel values (no shared Gram matrix) start
        # from the pair's final gradients, which SMO keeps: a few kernel columns per
        # fold instead of one per nonzero alpha (svmguide1: 3.3x -> 2.1x the plain fit).
        # Folds that read a shared Gram matrix build their start from it faster than
        # from the pair's (pendigits 4.5x -> 6.2x, dna.scale 1.9x -> 2.1x that way).
        # Folds on a shared Gram matrix start shrunk near the pair's margin instead
        # (`svmx._platt_folds.near_margin`), from the same kept gradients.
        keep = seeds and pair_on[0] is inputs.matrix and pair_on[1] is inputs.rows
        solution = train_pair(pair_on, solve=pair_solve, log=pair_log,
                              problem=problem.keeping_gradients() if keep else problem)
        seed = np.abs(solution.coef) if seeds else None
        gradients = margins = None
        if keep and inputs.shares_gram:
            margins = solution.gradients[0] - problem.y * solution.rho
        elif keep:
            gradients = solution.gradients
        decisions = seeded_held_out_decisions(inputs, problem, solve,
                                              fold_plan(order, problem.y), seed,
                                              gradients, margins)
        sigmoid = self._sigmoid(decisions, problem, solve)
        if pair_log is not None:
            pair_log.replay(solve.log)
        return solution, sigmoid

    def fit(self, rows: np.ndarray, problem: Problem, solve: SolveSpec,
            order: np.ndarray) -> tuple[float, float]:
        """(A, B) of the pair over ``rows`` (class +1 first) with LIBSVM's folds of
        ``order``, each trained from zero on this object's matrix."""
        decisions = _held_out_decisions(self.matrix, rows, problem, self.kernel, solve, order)
        return self._sigmoid(decisions, problem, solve)

    @staticmethod
    def _sigmoid(decisions: np.ndarray, problem: Problem, solve: SolveSpec) -> tuple:
        A, B, status = _fit_sigmoid(decisions, problem.y)
        if solve.log is not None and status in _PLATT_MESSAGES:
            solve.log.out(_PLATT_MESSAGES[status])
        return A, B


def laplace_scale(matrix, rows: np.ndarray, problem: Problem, kernel: KernelSpec,
                  solve: SolveSpec, random_state: Any) -> float:
    """LIBSVM's SVR probability model: the scale sigma of a Laplace distribution of the error.

    ``svm_svr_probability``: residuals ``y - f(x)`` from a 5-fold
    cross-validation (LIBSVM's unstratified folds: contiguous runs of a
    permutation), their mean absolute value m, then the mean absolute value of
    those within ``5 * sqrt(2) * m``. With ``solve.log``, the folds' training
    output and LIBSVM's line about the model are printed.

    Parameters
    ----------
    matrix
        The training matrix (the Gram matrix when ``kernel`` is precomputed).
    rows : ndarray of int
        The rows of ``matrix`` that ``problem`` is over, in training order.
    problem : Problem
        An epsilon-SVR or nu-SVR problem.
    kernel : KernelSpec
    solve : SolveSpec
    random_state
        Any svmx ``random_state``; a :class:`~svmx.preprocessing.GlibcRand`
        shuffles as svm-train does.

    Returns
    -------
    float
    """
    n_rows = rows.size
    n_folds = N_FOLDS
    if n_folds > n_rows:
        n_folds = n_rows
        if solve.log is not None:
            solve.log.err("WARNING: # folds > # data. Will use # folds = # data instead "
                          "(i.e., leave-one-out cross validation)\n")
    order = np.asarray(_shuffler(random_state).permutation(n_rows))
    predicted = np.empty(n_rows, dtype=np.float64)
    for start, stop in _fold_bounds(n_rows, n_folds):
        held_out = order[start:stop]
        training = np.concatenate([order[:start], order[stop:]])
        result = solve_problem(
            matrix, rows[training],
            problem.on(problem.C[training], target=problem.target[training]), kernel, solve,
        )
        support = np.flatnonzero(result.coef)
        predicted[held_out] = decisions_on(matrix, rows[held_out], rows[training][support],
                                         result.coef[support], result.rho, kernel)
    errors = np.abs(problem.target - predicted)
    mean_error = sequential_sum(errors) / n_rows
    spread = np.sqrt(2.0 * mean_error * mean_error)
    kept = errors[~(errors > 5.0 * spread)]
    sigma = sequential_sum(kept) / kept.size
    if solve.log is not None:
        solve.log.out("Prob. model for test data: target value = predicted value + z,\n"
                      f"z: Laplace distribution e^(-|z|/sigma)/(2sigma),sigma= {sigma:g}\n")
    return sigma


def density_marks(decisions: np.ndarray) -> np.ndarray | None:
    """LIBSVM 3.37's one-class probability model: 10 marks on the training decision values.

    The sorted decision values are split at 0 into negatives and
    non-negatives; five values are picked evenly from each side, and the marks
    are the midpoints between consecutive ones of those (with 0 in the middle).
    None when either side has fewer than five values (svm-train then warns
    and writes no marks).

    Examples
    --------
    >>> density_marks(np.arange(-10.0, 10.0)).tolist()
    [-9.0, -7.0, -5.0, -3.0, -1.0, 0.5, 2.0, 4.0, 6.0, 8.0]
    """
    values = np.sort(np.asarray(decisions, dtype=np.float64))
    half = N_DENSITY_MARKS // 2
    n_negative = int(np.searchsorted(values, 0.0, side="left"))
    if n_negative == values.size:  # LIBSVM's loop finds no value >= 0 and counts none
        n_negative = 0
    n_positive = values.size - n_negative
    if n_negative < half or n_positive < half:
        return None
    picked = [values[i * n_negative // half] for i in range(half)]
    picked.append(0.0)
    picked += [values[n_negative - 1 + (i - half) * n_positive // half]
               for i in range(half + 1, N_DENSITY_MARKS + 1)]
    return np.array([(picked[i] + picked[i + 1]) / 2 for i in range(N_DENSITY_MARKS)])


def _fit_sigmoid(decisions: np.ndarray, labels: np.ndarray) -> tuple[float, float, int]:
    """Platt's (A, B, status) over the rows with a finite held-out decision value.

    Examples
    --------
    >>> A, B, status = _fit_sigmoid(np.full(4, np.nan), np.array([1, 1, 1, -1], np.int8))
    >>> float(A), round(float(B), 6), status
    (0.0, -0.693147, 0)
    """
    known = np.isfinite(decisions)
    if not known.any():
        n_positive = int(np.count_nonzero(labels == 1))
        n_negative = labels.size - n_positive
        return 0.0, float(np.log((n_negative + 1.0) / (n_positive + 1.0))), 0
    return _libsvm.sigmoid_train(
        np.ascontiguousarray(decisions[known]), labels[known].astype(np.float64)
    )


def coupled_probabilities(
    ovo_values: np.ndarray, prob_a: np.ndarray, prob_b: np.ndarray, n_classes: int
) -> np.ndarray:
    """Class probabilities (n_samples, n_classes) from one-vs-one decision values.

    Examples
    --------
    >>> coupled_probabilities(np.array([[0.0]]), np.array([-1.0]), np.array([0.0]), 2).tolist()
    [[0.5, 0.5]]
    """
    if n_classes == 2:  # LIBSVM: the clipped sigmoid itself, no coupling iterations
        first = np.clip(_libsvm.sigmoid_predict(ovo_values[:, 0], prob_a[0], prob_b[0]),
                        _libsvm.MIN_PROB, 1.0 - _libsvm.MIN_PROB)
        return np.column_stack([first, 1.0 - first])
    pairwise = np.zeros((ovo_values.shape[0], n_classes, n_classes), dtype=np.float64)
    for p, (i, j) in enumerate(ovo_pairs(n_classes)):
        pairwise[:, i, j] = _libsvm.sigmoid_predict(ovo_values[:, p], prob_a[p], prob_b[p])
    return _libsvm.pairwise_coupling(pairwise)
