"""A pair's held-out decision values for Platt's sigmoid at the cost of a few solves.

LIBSVM's procedure (`svmx._probability`) trains five models per one-vs-one pair,
each from zero and each computing its own kernel values, then evaluates each
held-out row against the fold's support vectors one sparse kernel value at a
time: on dna.scale that made ``probability=True`` 8x the plain fit. Under
``solver='auto'`` the folds share work instead, with LIBSVM's folds (the same
permutation, the same contiguous runs of it) and the same optimum of each fold's
problem within ``tol``:

- the pair is trained first, and each fold of a C-SVC pair starts from the
  pair's solution over the fold's training rows (alpha seeding across folds,
  Wen et al. 2017) where the kernel is positive semi-definite
  (`seeds_converge`). The held-out rows' share of the equality constraint
  y'alpha = 0 is taken from the free alphas of the class in excess, equally
  and no alpha below 0, then from whole bounded alphas, those nearest their margin
  first (`fold_seed`), so most bounded alphas stay where they are. Where the folds
  compute their own kernel values, a fold's start also takes its gradients from the
  pair's final ones (`fold_gradients`): kernel columns for the alphas that changed,
  not for every nonzero one (svmguide1: a fold 6.5 -> 3 ms, probability=True 3.3x
  -> 2.1x the plain fit);
- where a kernel value costs more than reading one back (rows of 10 or more
  stored entries), the pair and its folds share one Gram matrix computed row by
  row as they read it (`svmx._libsvm.lazy_gram`, `fold_inputs`): the rows the
  pair's solve computed, its support vectors' among them, serve the folds' seeds,
  solves and held-out decision values. Its values are those of a kernel cache,
  so the pair's solution is the plain fit's to the bit (a pair the block solver
  takes is solved on its own rows, as in the plain fit). Each fold's SMO starts
  shrunk to the rows near the pair's margin (`near_margin`), and checks the others
  before it stops. On dna.scale (45 entries per row) this
  replaced a Gram matrix computed whole with matrix products for the folds alone:
  138 -> 86-89 ms per fit with 2 threads (bench_probability, Zen 4), as the pair's
  solve computes most rows anyway;
- otherwise each fold's held-out decision values come from the prediction engine,
  on the pair's rows gathered dense once where SMO trains sparse rows dense;
- the folds of a pair that has the fit's threads to itself run side by side.

The result does not depend on the thread count. ``solver='smo'`` keeps LIBSVM's
procedure to the last bit (svm-train -b 1).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

import numpy as np
import scipy.sparse as sp

from svmx import _libsvm
from svmx._fitted import csr_rows
from svmx._fold_seed import fold_seed, take_equally
from svmx._shared_gram import GRAM_SHARE_OF_CACHE, gram_bytes, stored_entries_per_row
from svmx._specs import BYTES_PER_MB, KernelSpec, Problem, SolveSpec
from svmx._training import NonFiniteSolution, solve_problem
from svmx._warm_start import seeds_converge

__all__ = ["FoldInputs", "fold_decisions", "fold_gradients", "fold_inputs", "fold_seed",
           "lazy_gram_fits", "near_margin",
           "pair_inputs", "placed", "seeded_held_out_decisions", "seeds_converge",
           "solve_beside_gram", "take_equally"]

# A pair's folds share one lazily computed Gram matrix (`lazy_gram_fits`) when its rows
# store at least this many entries: reading a kernel value another fold computed must
# cost less than computing it. Measured (Zen 4, probability=True fit, n_jobs 1 and 2):
# pendigits (16 features) 17-21% and a six-class set of 36 dense features 19-21%
# faster; svmguide1 (4 features) 21-27% slower.
LAZY_GRAM_MIN_ENTRIES = 10
# Pairs with fewer rows than this train their folds one after another: a fold
# then takes less time than handing it to a thread.
FOLD_THREADS_MIN_ROWS = 1_000
# A seeded fold that reads a shared Gram matrix starts SMO shrunk to the rows whose margin
# y f(x) - 1 in its pair's solution is below this (`near_margin`), and to its seed's
# support vectors: a pendigits fold keeps about 360 of its 1,220 rows, and its SMO
# iterations scan those. probability=True fit on one thread (AMD EPYC with AVX2, best of
# 11): pendigits 301 -> 237 ms, the six-class set of 36 features 168 -> 137 ms,
# dna.scale (half its rows support vectors) unchanged. Instructions per fit (callgrind)
# against the threshold: pendigits -20% at 0.1 and 0.25, -10% at 0.5, -14% at 0 (the
# rows it misses cost a second round); dna.scale +5% at 0, unchanged at 0.25.
ACTIVE_MARGIN = 0.25


def fold_gradients(on: tuple, labels: np.ndarray,
                   bounds: np.ndarray, pair_alpha: np.ndarray,
                   pair_gradients: tuple[np.ndarray, np.ndarray], fold: tuple,
                   seed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A seeded fold's G = Q seed - 1 and G_bar from its pair's final ones.

    Over the fold's training positions, G is the pair's plus the columns of the
    alphas that changed, times the change (the held-out rows' leave, the seed's cuts
    move), and G_bar the pair's less the columns of the alphas that left their bound,
    times the bound: kernel values for those few columns (`_weighted_sums`), not for
    every nonzero alpha of the seed as SMO's own start computes them (then permutes them
    in its cache when it shrinks at once). A held-out alpha at its bound changes both by
    the same column, so G_bar's change is G's corrected by the other changed columns only
    (a held-out free alpha, a cut one): those are among G's, so one block of kernel
    values gives both sums (svmguide1: two engine calls per fold took 0.6-0.7 ms, their
    fixed cost per row counted twice). ``on`` = (matrix, the pair's rows of it, kernel),
    what the folds train on.
    """
    held_out, training = fold
    G, G_bar = pair_gradients
    signs = labels.astype(np.float64)
    delta = np.zeros(pair_alpha.size)
    delta[held_out] = -pair_alpha[held_out]
    delta[training] = seed - pair_alpha[training]
    upper = pair_alpha >= bounds
    # G_bar's change less G's: + alpha of a held-out free alpha; a cut training alpha
    # takes back its change and, if it left its bound, gives up its bound.
    correction = np.zeros(pair_alpha.size)
    correction[held_out] = np.where(upper[held_out], 0.0, pair_alpha[held_out])
    left = upper[training] & (seed < bounds[training])
    correction[training] = -delta[training] - np.where(left, bounds[training], 0.0)
    matrix, rows, kernel = on
    moved = np.flatnonzero(delta)  # the correction's nonzeros are among these
    if moved.size == 0:
        return G[training].copy(), G_bar[training].copy()
    weights = np.stack([delta[moved], correction[moved]]) * signs[moved]
    sums = _weighted_sums(matrix, rows[training], rows[moved], weights, kernel)
    change_G = signs[training] * sums[:, 0]
    return (G[training] + change_G,
            G_bar[training] + change_G + signs[training] * sums[:, 1])


class FoldInputs(NamedTuple):
    """What a pair's folds train on, and under ``solver='auto'`` the pair first
    (`fold_inputs`): ``matrix``, the pair's ``rows`` of it, the ``kernel``, and
    whether ``matrix`` is a `svmx._libsvm.lazy_gram` the solves share."""

    matrix: Any
    rows: np.ndarray
    kernel: KernelSpec
    shares_gram: bool

    @property
    def on(self) -> tuple:
        """(matrix, rows, kernel): what a solve is given."""
        return self.matrix, self.rows, self.kernel


def fold_inputs(matrix, rows: np.ndarray, kernel: KernelSpec, solve: SolveSpec) -> FoldInputs:
    """What a pair and its folds train on when they share work.

    Where the pair's rows store enough entries (`lazy_gram_fits`), one
    `svmx._libsvm.lazy_gram` over them: the pair's solve computes the rows it
    reads (its support vectors' among them) and the folds read them back, then
    compute only the rest. Its values are the ones a kernel cache holds, so the
    pair's solution is the one on its own kernel columns, bit for bit. Otherwise,
    sparse rows that SMO would gather dense are gathered once for all six solves.

    Examples
    --------
    >>> rbf = KernelSpec.named("rbf")
    >>> solve = SolveSpec("auto", 1e-3, 2.0**20, True, -1, 1)
    >>> fold_inputs(np.ones((10, 16)), np.arange(4, 10), rbf, solve).shares_gram
    True
    >>> inputs = fold_inputs(np.ones((10, 4)), np.arange(4, 10), rbf, solve)
    >>> inputs.shares_gram, inputs.rows.tolist()
    (False, [4, 5, 6, 7, 8, 9])
    """
    if lazy_gram_fits(matrix, rows, kernel, solve.cache_bytes):
        gram = _libsvm.lazy_gram(matrix, rows, kernel, solve.solver)
        return FoldInputs(gram, np.arange(rows.size), kernel.as_gram(), True)
    if sp.issparse(matrix) and _libsvm.smo_trains_dense_rows(matrix, solve.solver):
        # SMO's own gather of sparse rows into dense ones, done once for all six solves.
        dense = _libsvm.gather_csr_rows_dense(matrix, rows)
        return FoldInputs(dense, np.arange(rows.size), kernel, False)
    return FoldInputs(matrix, rows, kernel, False)


def pair_inputs(inputs: FoldInputs, on: tuple, problem: Problem,
                solve: SolveSpec) -> tuple[tuple, SolveSpec]:
    """What the pair itself is solved on, and with which cache budget: its folds'
    `inputs` (the same solution, as `fold_inputs` says) where SMO solves it; its own
    rows ``on`` = (matrix, rows, kernel) where the plain fit gives it to the block
    solver, which a Gram matrix (a precomputed kernel) would turn away.

    Examples
    --------
    >>> rbf = KernelSpec.named("rbf")
    >>> solve = SolveSpec("auto", 1e-3, 2.0**20, True, -1, 1)
    >>> X, rows = np.ones((10, 16)), np.arange(4, 10)
    >>> problem = Problem("c_svc", C=np.ones(6), y=np.array([1, 1, 1, -1, -1, -1], np.int8))
    >>> pair_on, _ = pair_inputs(fold_inputs(X, rows, rbf, solve), (X, rows, rbf), problem,
    ...                          solve)
    >>> pair_on[2].is_precomputed  # the folds' Gram matrix
    True
    """
    matrix, rows, kernel = on
    if solve.engine_solver(problem.formulation, kernel.kernel_type, rows.size) != "smo":
        return on, solve
    return inputs.on, solve_beside_gram(inputs, solve)


def solve_beside_gram(inputs: FoldInputs, solve: SolveSpec, solves: int = 1) -> SolveSpec:
    """``solve`` for one of ``solves`` solves side by side over ``inputs``: with a shared
    Gram matrix they share what it leaves of the cache budget (at least 1 MB each)."""
    if not inputs.shares_gram:
        return solve
    left = (solve.cache_bytes - gram_bytes(inputs.rows.size)) / solves
    return solve.replace(cache_bytes=max(BYTES_PER_MB, left))


def lazy_gram_fits(matrix, rows: np.ndarray, kernel: KernelSpec, cache_bytes: float) -> bool:
    """Whether a pair's folds share a `svmx._libsvm.lazy_gram` over its ``rows``: a
    built-in kernel, rows that store at least ``LAZY_GRAM_MIN_ENTRIES`` entries, and
    room for the whole float32 matrix in ``GRAM_SHARE_OF_CACHE`` of the cache budget
    (rows are computed only as the folds read them).

    Examples
    --------
    >>> rbf, budget = KernelSpec.named("rbf"), 200 * 2.0**20
    >>> lazy_gram_fits(np.ones((1000, 16)), np.arange(1000), rbf, budget)
    True
    >>> lazy_gram_fits(np.ones((1000, 4)), np.arange(1000), rbf, budget)
    False
    >>> lazy_gram_fits(np.ones((10_000, 16)), np.arange(10_000), rbf, budget)
    False
    """
    if kernel.is_precomputed or gram_bytes(rows.size) > GRAM_SHARE_OF_CACHE * cache_bytes:
        return False
    return stored_entries_per_row(matrix, rows) >= LAZY_GRAM_MIN_ENTRIES


def _rows_of(matrix, rows: np.ndarray):
    return csr_rows(matrix, rows) if sp.issparse(matrix) else matrix[rows]


def _weighted_sums(matrix, test_rows: np.ndarray, support_rows: np.ndarray,
                   weights: np.ndarray, kernel: KernelSpec) -> np.ndarray:
    """K(x, SV) w for ``test_rows`` and each row w of ``weights`` (k, n_SV): (n_test, k).

    One block of kernel values for all k sums. The prediction engine takes the vectors
    as the first of k + 1 classes: pair (0, j) of its one-vs-one layout sums them with
    coefficient row j - 1, and the pairs of the empty classes are 0.

    Examples
    --------
    >>> X, rbf = np.array([[0.0], [1.0], [2.0]]), KernelSpec.named("rbf", gamma=1.0)
    >>> sums = _weighted_sums(X, np.array([0]), np.array([1, 2]),
    ...                       np.array([[1.0, 0.0], [0.0, 1.0]]), rbf)
    >>> np.allclose(sums, np.exp([[-1.0, -4.0]]))
    True
    """
    if hasattr(matrix, "values_at") or kernel.is_precomputed:
        return np.stack([_decisions(matrix, test_rows, support_rows, row, 0.0, kernel)
                         for row in weights], axis=1)
    vectors, tests = _rows_of(matrix, support_rows), _rows_of(matrix, test_rows)
    if not _libsvm.engine_serves(vectors):
        return _libsvm.kernel_matrix(tests, vectors, kernel) @ weights.T
    n_sums = weights.shape[0]
    n_support = np.zeros(n_sums + 1, dtype=np.intp)
    n_support[0] = support_rows.size
    values = _libsvm.decision_values(tests, vectors, np.ascontiguousarray(weights), n_support,
                                     kernel)
    return values[:, :n_sums]


def _decisions(matrix, test_rows: np.ndarray, support_rows: np.ndarray, coef: np.ndarray,
               rho: float, kernel: KernelSpec) -> np.ndarray:
    """K(x, SV) coef - rho for ``test_rows``: from a block of a Gram matrix, or from the
    prediction engine. Neither calls BLAS, whose own threads would contend with the
    pairs' and folds' threads."""
    if hasattr(matrix, "values_at"):  # a lazy_gram: the support vectors' rows, once
        block = matrix.values_at(support_rows, test_rows)
        return np.einsum("ji,j->i", block, coef) - rho
    if kernel.is_precomputed:
        block = matrix[np.ix_(test_rows, support_rows)]
        return np.einsum("ij,j->i", block, coef, dtype=np.float64) - rho
    vectors, tests = _rows_of(matrix, support_rows), _rows_of(matrix, test_rows)
    if support_rows.size == 0 or not _libsvm.engine_serves(vectors):
        block = _libsvm.kernel_matrix(tests, vectors, kernel)
        return np.einsum("ij,j->i", block, coef) - rho
    values = _libsvm.decision_values(tests, vectors, coef[None, :],
                                     np.array([support_rows.size]), kernel)
    return values[:, 0] - rho


def near_margin(margins: np.ndarray) -> np.ndarray:
    """The rows a seeded fold's solve starts with: those whose margin y f(x) - 1 in the
    pair's solution (``margins``) is below ``ACTIVE_MARGIN`` (the seed's nonzero alphas
    join them in the solver). The rest start shrunk; the solve checks them before it
    stops, so this changes its cost, not its optimum.

    Examples
    --------
    >>> near_margin(np.array([-0.5, 0.1, 0.3, 2.0])).tolist()
    [True, True, False, False]
    """
    return margins < ACTIVE_MARGIN


def fold_decisions(matrix, rows: np.ndarray, problem: Problem, kernel: KernelSpec,
                   solve: SolveSpec, fold: tuple, decide: Callable = _decisions,
                   pair_alpha: np.ndarray | None = None,
                   pair_gradients: tuple[np.ndarray, np.ndarray] | None = None,
                   pair_margins: np.ndarray | None = None) -> np.ndarray:
    """One fold's held-out decision values (a fold of `svmx._probability.fold_plan`).

    The fold trains on its training positions of ``rows`` (from
    `fold_seed` of ``pair_alpha`` when given, else from zero; with the pair's final
    ``pair_gradients``, its start's gradients come from them, `fold_gradients`; with
    the pair's ``pair_margins``, its start is shrunk to the rows within
    ``ACTIVE_MARGIN`` of the margin, `near_margin`) and ``decide`` evaluates its
    held-out rows, with the signature of `_decisions`. A fold
    of one class gives its constant; one with no finite solution NaN. With
    ``solve.log`` it prints what svm_train prints.
    """
    held_out, training = fold
    if not isinstance(training, np.ndarray):
        return np.full(held_out.size, training)
    labels = problem.y
    fold_problem = problem.on(problem.C[training], y=labels[training])
    if pair_alpha is not None:
        priority = None if pair_gradients is None else pair_gradients[0][training]
        seed = fold_seed(pair_alpha[training], labels[training], fold_problem.C, priority)
        gradients = active = None
        if pair_gradients is not None:
            gradients = fold_gradients((matrix, rows, kernel), labels, problem.C,
                                       pair_alpha, pair_gradients, fold, seed)
        elif pair_margins is not None:
            active = near_margin(pair_margins[training])
        fold_problem = fold_problem.seeded(seed, gradients, active)
    try:
        result = solve_problem(matrix, rows[training], fold_problem, kernel, solve)
    except NonFiniteSolution:
        return np.full(held_out.size, np.nan)
    support = np.flatnonzero(result.coef)
    if solve.log is not None:
        solve.log.out(f"Total nSV = {support.size}\n")
    return decide(matrix, rows[held_out], rows[training][support], result.coef[support],
                  result.rho, kernel)


def placed(folds: list[tuple], values: list[np.ndarray], n_rows: int) -> np.ndarray:
    """The folds' held-out values at their rows' positions."""
    decisions = np.zeros(n_rows, dtype=np.float64)
    for (held_out, _), fold_values in zip(folds, values, strict=True):
        decisions[held_out] = fold_values
    return decisions


def seeded_held_out_decisions(
    inputs: FoldInputs, problem: Problem, solve: SolveSpec,
    folds: list[tuple[np.ndarray, np.ndarray | float]], pair_alpha: np.ndarray | None,
    pair_gradients: tuple[np.ndarray, np.ndarray] | None = None,
    pair_margins: np.ndarray | None = None,
) -> np.ndarray:
    """The held-out decision values of a pair's folds, sharing work as the module says.

    ``inputs`` (from `fold_inputs`) is what the folds train on. ``folds`` lists,
    per fold, its held-out positions in the pair and either its training
    positions (class +1 first) or the constant its held-out rows get (a fold
    trained on one class). ``pair_alpha`` is the pair's C-SVC solution over its
    rows, where seeds converge (None: every fold starts from 0), and
    ``pair_gradients`` its final (G, G_bar) where SMO kept them, or its margins
    ``pair_margins`` (`near_margin`). Rows of a fold with no finite solution get NaN.
    """
    threads = 1
    if solve.log is None and inputs.rows.size >= FOLD_THREADS_MIN_ROWS:
        threads = min(solve.threads, len(folds))
    fold_solve = solve_beside_gram(inputs, solve, threads).replace(
        threads=max(1, solve.threads // threads))

    def one_fold(fold: tuple) -> np.ndarray:
        return fold_decisions(inputs.matrix, inputs.rows, problem, inputs.kernel, fold_solve,
                              fold, pair_alpha=pair_alpha,
                              pair_gradients=None if pair_alpha is None else pair_gradients,
                              pair_margins=None if pair_alpha is None else pair_margins)

    if threads > 1:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            values = list(pool.map(one_fold, folds))
    else:
        values = [one_fold(fold) for fold in folds]
    return placed(folds, values, inputs.rows.size)
