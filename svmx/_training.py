"""Training drivers: one problem, and the one-vs-one pairs of a classifier.

They take the resolved specs of `svmx._specs`, never the estimator, and call
the binding's `train_one`; `svmx._layout` assembles LIBSVM's fitted layout
from the per-pair solutions.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from svmx import _libsvm
from svmx._layout import PairSolution, assemble_one_vs_one, ovo_pairs
from svmx._shared_gram import shared_gram
from svmx._specs import KernelSpec, Problem, SolveSpec

__all__ = ["NonFiniteSolution", "Reporter", "fit_one_vs_one", "pair_problem", "solve_problem"]

# Where progress lines go when the estimator is verbose (None: nowhere).
Reporter = Callable[[str], None] | None

_NO_FINITE_ANSWER = {
    "nu_svc": "with nu={nu} the solution has no margin (r = 0), which happens when nu is "
    "too large for the data; use a smaller nu",
    "one_class": "with nu={nu} every sample sits at its bound, which leaves the offset rho "
    "unbounded; use a smaller nu",
}


class NonFiniteSolution(ValueError):
    """The engine found no finite solution (for example nu-SVC with no margin)."""


def solve_problem(
    X, rows: np.ndarray, problem: Problem, kernel: KernelSpec, solve: SolveSpec
) -> _libsvm.Solution:
    """Solve one problem in the engine; raise NonFiniteSolution if it has no finite answer.

    nu-SVC divides its solution by the margin r, which is 0 when nu is too
    large for the data (the classes' reduced convex hulls overlap); the
    binding reports that as ``NO_MARGIN``.

    Examples
    --------
    >>> from svmx._specs import KernelSpec, Problem, SolveSpec
    >>> problem = Problem("c_svc", C=np.ones(2), y=np.array([1, -1], np.int8))
    >>> solve = SolveSpec("smo", 1e-3, 1048576.0, True, -1, 1)
    >>> solve_problem(np.array([[-1.0], [1.0]]), np.arange(2), problem,
    ...               KernelSpec.named("linear"), solve).coef.tolist()
    [0.5, -0.5]
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        solution = _libsvm.train_one(X, rows, problem, kernel, solve)
    if solution.status == _libsvm.NO_MARGIN or not (
        np.isfinite(solution.rho) and np.isfinite(solution.coef).all()
    ):
        hint = _NO_FINITE_ANSWER.get(
            problem.formulation, "the input data may contain large values and need pre-processing"
        )
        raise NonFiniteSolution(
            f"The dual coefficients or intercepts are not finite: {hint.format(nu=problem.nu)}."
        )
    return solution


def pair_problem(
    template: Problem, class_rows: list[np.ndarray], bounds: np.ndarray, i: int, j: int
) -> tuple[np.ndarray, Problem]:
    """The rows and the binary problem of pair (i, j): class i is +1, class j is -1.

    Examples
    --------
    >>> template = Problem("c_svc", C=np.empty(0))
    >>> rows, problem = pair_problem(template, [np.array([0]), np.array([1, 2])],
    ...                              np.array([1.0, 2.0, 3.0]), 0, 1)
    >>> rows.tolist(), problem.y.tolist(), problem.C.tolist()
    ([0, 1, 2], [1, -1, -1], [1.0, 2.0, 3.0])
    """
    rows = np.concatenate([class_rows[i], class_rows[j]])
    labels = np.concatenate(
        [np.ones(class_rows[i].size, np.int8), -np.ones(class_rows[j].size, np.int8)]
    )
    return rows, template.on(bounds[rows], y=labels)


def fit_one_vs_one(
    matrix,
    class_rows: list[np.ndarray],
    bounds: np.ndarray,
    class_names: np.ndarray,
    template: Problem,
    kernel: KernelSpec,
    solve: SolveSpec,
    report: Reporter = None,
) -> dict:
    """Train every one-vs-one pair and assemble LIBSVM's layout.

    ``bounds`` holds each training row's upper bound C_i; ``template`` gives
    the formulation (and nu) every pair shares. Under ``solver='auto'`` the
    pairs of a many-class problem share one Gram matrix when it fits the
    cache; 'smo' keeps LIBSVM's per-pair kernel columns.
    """
    pairs = ovo_pairs(len(class_rows))
    names = list(class_names.tolist())  # plain Python values read well in messages
    threads = min(solve.threads, len(pairs))
    # Pairs run side by side on `threads` threads, each solve on its share of the rest.
    pair_solve = solve.replace(threads=max(1, solve.threads // threads))
    gram = None
    if solve.solver == "auto" and not kernel.is_precomputed:
        gram = shared_gram(matrix, class_rows, kernel, solve.cache_bytes, threads)
    solve_matrix, solve_rows = matrix, class_rows
    if gram is not None:
        if report:
            report(f"one {gram.matrix.shape[0]} x {gram.matrix.shape[0]} kernel matrix shared "
                   f"by {len(pairs)} pairs")
        solve_matrix, kernel = gram.matrix, kernel.as_gram()
        pair_solve = pair_solve.replace(cache_bytes=gram.pair_cache_bytes)
        solve_rows = [gram.position[rows] for rows in class_rows]

    def solve_pair(pair: tuple[int, int]) -> _libsvm.Solution:
        i, j = pair
        _, problem = pair_problem(template, class_rows, bounds, i, j)
        try:
            return solve_problem(solve_matrix, np.concatenate([solve_rows[i], solve_rows[j]]),
                                 problem, kernel, pair_solve)
        except NonFiniteSolution as error:
            raise NonFiniteSolution(f"Classes {names[i]!r} and {names[j]!r}: {error}") from None

    # Each pair is an independent solve that releases the GIL, so threads train
    # several at once; the results do not depend on the thread count.
    if threads > 1:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            results = list(pool.map(solve_pair, pairs))
    else:
        results = map(solve_pair, pairs)
    solutions = []
    for number, ((i, j), result) in enumerate(zip(pairs, results, strict=True), start=1):
        solutions.append(PairSolution(i, j, result.coef, result.rho, result.n_iter,
                                      result.status))
        if report:
            report(f"pair {number}/{len(pairs)} ({names[i]!r} vs {names[j]!r}): "
                   f"{describe(result)}")
    return assemble_one_vs_one(class_rows, solutions)


def describe(solution: _libsvm.Solution) -> str:
    """One progress line's account of a solution."""
    return (f"{solution.n_iter} iterations, objective {solution.obj:.6g}, "
            f"rho {solution.rho:.6g}, {int(np.count_nonzero(solution.coef))} support vectors")
