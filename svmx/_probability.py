"""Probability outputs of SVC and NuSVC: Platt sigmoids per pair, coupled over classes.

For each one-vs-one pair, decision values come from an internal 5-fold
cross-validation on that pair's samples (shuffled by a generator seeded from
the estimator's ``random_state``), and Platt's sigmoid is fitted to them
(Platt 1999; Lin, Lin & Weng 2007). At prediction the pairwise
probabilities are coupled into one distribution per sample (Wu, Lin & Weng
2004, method 2).

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

from svmx import _libsvm
from svmx._layout import ovo_pairs
from svmx._random import numpy_generator
from svmx._specs import KernelSpec, Problem, SolveSpec
from svmx._training import NonFiniteSolution, pair_problem, solve_problem

__all__ = ["N_FOLDS", "coupled_probabilities", "fit_pairwise_sigmoids"]

N_FOLDS = 5


def _held_out_decisions(
    matrix, rows: np.ndarray, problem: Problem, kernel: KernelSpec, solve: SolveSpec,
    generator: np.random.Generator,
) -> np.ndarray:
    """Decision values of each of a pair's rows from a model trained on the other folds.

    ``problem`` is the pair's problem over ``rows``. Rows of a fold whose
    training problem has no finite solution get NaN.
    """
    n_rows = rows.size
    labels = problem.y
    order = generator.permutation(n_rows)
    decisions = np.zeros(n_rows, dtype=np.float64)
    for fold in range(N_FOLDS):
        start, stop = fold * n_rows // N_FOLDS, (fold + 1) * n_rows // N_FOLDS
        held_out = order[start:stop]
        if held_out.size == 0:
            continue
        training = np.concatenate([order[:start], order[stop:]])
        positive = training[labels[training] == 1]
        negative = training[labels[training] == -1]
        if positive.size == 0 or negative.size == 0:
            decisions[held_out] = 1.0 if positive.size else -1.0 if negative.size else 0.0
            continue
        training = np.concatenate([positive, negative])
        try:
            result = solve_problem(
                matrix, rows[training],
                problem.on(problem.C[training], y=labels[training]), kernel, solve,
            )
        except NonFiniteSolution:
            decisions[held_out] = np.nan
            continue
        support = np.flatnonzero(result.coef)
        if kernel.is_precomputed:
            K = matrix[np.ix_(rows[held_out], rows[training][support])]
        else:
            K = _libsvm.kernel_matrix(
                matrix[rows[held_out]], matrix[rows[training][support]], kernel
            )
        decisions[held_out] = K @ result.coef[support] - result.rho
    return decisions


def fit_pairwise_sigmoids(
    matrix, class_rows: list[np.ndarray], bounds: np.ndarray, template: Problem,
    kernel: KernelSpec, solve: SolveSpec, random_state: Any,
) -> tuple[np.ndarray, np.ndarray]:
    """Platt's (A, B) for every one-vs-one pair, as ``probA_`` and ``probB_``.

    ``matrix`` is what the pairs were trained on (the Gram matrix when
    ``kernel`` is precomputed); ``template`` the formulation every pair shares.
    """
    generator = numpy_generator(random_state)
    pairs = ovo_pairs(len(class_rows))
    prob_a = np.empty(len(pairs), dtype=np.float64)
    prob_b = np.empty(len(pairs), dtype=np.float64)
    for p, (i, j) in enumerate(pairs):
        rows, problem = pair_problem(template, class_rows, bounds, i, j)
        decisions = _held_out_decisions(matrix, rows, problem, kernel, solve, generator)
        prob_a[p], prob_b[p] = _fit_sigmoid(decisions, problem.y)
    return prob_a, prob_b


def _fit_sigmoid(decisions: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """Platt's (A, B) over the rows with a finite held-out decision value.

    Examples
    --------
    >>> A, B = _fit_sigmoid(np.full(4, np.nan), np.array([1, 1, 1, -1], np.int8))
    >>> float(A), round(float(B), 6)
    (0.0, -0.693147)
    """
    known = np.isfinite(decisions)
    if not known.any():
        n_positive = int(np.count_nonzero(labels == 1))
        n_negative = labels.size - n_positive
        return 0.0, float(np.log((n_negative + 1.0) / (n_positive + 1.0)))
    A, B, _ = _libsvm.sigmoid_train(
        np.ascontiguousarray(decisions[known]), labels[known].astype(np.float64)
    )
    return A, B


def coupled_probabilities(
    ovo_values: np.ndarray, prob_a: np.ndarray, prob_b: np.ndarray, n_classes: int
) -> np.ndarray:
    """Class probabilities (n_samples, n_classes) from one-vs-one decision values.

    Examples
    --------
    >>> coupled_probabilities(np.array([[0.0]]), np.array([-1.0]), np.array([0.0]), 2).tolist()
    [[0.5, 0.5]]
    """
    pairwise = np.zeros((ovo_values.shape[0], n_classes, n_classes), dtype=np.float64)
    for p, (i, j) in enumerate(ovo_pairs(n_classes)):
        pairwise[:, i, j] = _libsvm.sigmoid_predict(ovo_values[:, p], prob_a[p], prob_b[p])
    return _libsvm.pairwise_coupling(pairwise)
