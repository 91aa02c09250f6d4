"""Training drivers: one problem, and the one-vs-one pairs of a classifier.

They take the resolved specs of `svmx._specs`, never the estimator, and call
the binding's `train_one`; `svmx._layout` assembles LIBSVM's fitted layout
from the per-pair solutions.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import numpy as np

from svmx import _libsvm
from svmx._layout import PairSolution, assemble_one_vs_one, ovo_pairs
from svmx._progress import FitStatus
from svmx._shared_gram import shared_gram
from svmx._specs import KernelSpec, Problem, SolveSpec

__all__ = [
    "BufferedLog",
    "NonFiniteSolution",
    "TrainingLog",
    "cache_memories",
    "fit_one_vs_one",
    "pair_problem",
    "problem_summary",
    "solve_problem",
    "standard_log",
]


class TrainingLog:
    """Where a verbose fit writes: LIBSVM's training output, svmx's notes, its progress.

    ``out`` receives what LIBSVM's library prints on standard output (the
    solver's ``.`` and ``*``, ``optimization finished``, the per-problem lines),
    byte for byte; ``err`` what it prints on standard error (the max-iterations
    warning). svmx's own notes (``note``) go to ``err`` too, so that the output
    stays svm-train's. ``progress`` hears the solver's iterations and optimality
    gap and passes them, with the log's ``task``, to ``status`` (a
    `svmx._progress.FitStatus`), if any.

    Examples
    --------
    >>> written = []
    >>> log = TrainingLog(written.append, written.append, prefix="[svmx] SVC: ")
    >>> log.out("."); log.note("one Gram matrix")
    >>> written
    ['.', '[svmx] SVC: one Gram matrix\\n']
    """

    def __init__(self, out: Callable[[str], None], err: Callable[[str], None],
                 prefix: str = "", status: FitStatus | None = None, task: str = "") -> None:
        self.out = out
        self.err = err
        self.prefix = prefix
        self.status = status
        self.task = task

    def note(self, message: str) -> None:
        """One line of svmx's own (not LIBSVM's), on the error stream."""
        self.err(f"{self.prefix}{message}\n")

    def progress(self, n_iter: int, gap: float, tol: float) -> None:
        """How far the solve has come (called by the engine during the solve)."""
        if self.status is not None:
            self.status.update(self.task, n_iter, gap, tol)

    def for_task(self, task: str) -> TrainingLog:
        """The same log, its progress labelled ``task`` (one problem of several)."""
        return TrainingLog(self.out, self.err, self.prefix, self.status, task)

    def buffered(self) -> BufferedLog:
        """A log that keeps the text of one problem solved on a worker thread (its
        progress still reaches the status line as it comes)."""
        return BufferedLog(self.prefix, self.status, self.task)


class BufferedLog(TrainingLog):
    """Text kept in order, for `replay` once the problems before it are written.

    Examples
    --------
    >>> buffer = BufferedLog()
    >>> buffer.out("*"); buffer.err("!"); buffer.out(".")
    >>> written = []
    >>> buffer.replay(TrainingLog(written.append, lambda text: written.append("E" + text)))
    >>> written
    ['*', 'E!', '.']
    """

    def __init__(self, prefix: str = "", status: FitStatus | None = None,
                 task: str = "") -> None:
        self.parts: list[tuple[bool, str]] = []
        super().__init__(lambda text: self.parts.append((False, text)),
                         lambda text: self.parts.append((True, text)), prefix, status, task)

    def for_task(self, task: str) -> BufferedLog:
        """This buffer, its progress labelled ``task``."""
        self.task = task
        return self

    def replay(self, log: TrainingLog) -> None:
        for to_err, text in self.parts:
            (log.err if to_err else log.out)(text)
        self.parts.clear()


def _write_flushed(stream_name: str, text: str, status: FitStatus | None = None) -> None:
    # The stream is looked up at each write, so redirections (pytest's capture,
    # contextlib.redirect_stdout) are honoured; flushing keeps the order of the
    # two streams on a terminal. With a status line, it places the text so that the
    # two never share a terminal line (FitStatus.write_output).
    stream = getattr(sys, stream_name)
    if status is not None:
        status.write_output(stream, text)
        return
    stream.write(text)
    stream.flush()


def standard_log(prefix: str = "", status: bool = False) -> TrainingLog:
    """A log onto standard output and standard error, flushed at each write; with
    ``status``, a `FitStatus` line on standard error shows a long solve advancing."""
    line = FitStatus(prefix) if status else None
    return TrainingLog(lambda text: _write_flushed("stdout", text, line),
                       lambda text: _write_flushed("stderr", text, line), prefix, line)


# Below this many training rows the one-vs-one pairs are solved one after another
# whatever the thread count: each pair takes well under a millisecond, less than a
# thread pool's hand-off (pendigits, 300 rows, 45 pairs: 12 ms in one thread, 16 ms in
# two).
PAIR_THREADS_MIN_ROWS = 2000

# Where a verbose fit writes (None: nowhere); kept as a name for the estimators.
Reporter = TrainingLog | None


def sequential_sum(values: np.ndarray) -> float:
    """The sum in index order, as LIBSVM's loops add (numpy's sum is pairwise)."""
    return float(np.add.accumulate(values)[-1]) if values.size else 0.0


def problem_summary(problem: Problem, solution: _libsvm.Solution) -> str:
    """What LIBSVM prints after solving one problem, from its solve_* and svm_train_one.

    C-SVC with one bound for all its variables and epsilon-SVR print ``nu``,
    nu-SVC the ``C`` it amounts to (1/r), nu-SVR the ``epsilon`` it found; then
    every formulation ``obj = ..., rho = ...`` and ``nSV = ..., nBSV = ...``
    (bounded support vectors: |coef| at the upper bound). The block solver,
    which is not LIBSVM's, first reports its own iteration count.

    Examples
    --------
    >>> from svmx._specs import KernelSpec, SolveSpec
    >>> problem = Problem("c_svc", C=np.ones(2), y=np.array([1, -1], np.int8))
    >>> solve = SolveSpec("smo", 1e-3, 1048576.0, True, -1, 1)
    >>> solution = solve_problem(np.array([[-1.0], [1.0]]), np.arange(2), problem,
    ...                          KernelSpec.named("linear"), solve)
    >>> print(problem_summary(problem, solution), end="")
    nu = 0.500000
    obj = -0.500000, rho = 0.000000
    nSV = 2, nBSV = 0
    """
    coef = np.abs(solution.coef)
    bounds = np.asarray(problem.C, dtype=np.float64)
    n = coef.size
    lines = []
    if solution.solver == "block":
        lines.append(f"\nblock solver finished, #iter = {solution.n_iter}, "
                     f"#kernel rows = {solution.n_kernel_rows}")
    formulation = problem.formulation
    if formulation in ("c_svc", "epsilon_svr") and n and np.all(bounds == bounds[0]):
        lines.append(f"nu = {sequential_sum(coef) / (bounds[0] * n):f}")
    elif formulation == "nu_svc":
        lines.append(f"C = {1.0 / solution.r:f}")
        bounds = bounds * (1.0 / solution.r)
    elif formulation == "nu_svr":
        lines.append(f"epsilon = {solution.epsilon:f}")
    lines.append(f"obj = {solution.obj:f}, rho = {solution.rho:f}")
    support = coef > 0
    lines.append(f"nSV = {int(np.count_nonzero(support))}, "
                 f"nBSV = {int(np.count_nonzero(support & (coef >= bounds[:n])))}")
    return "\n".join(lines) + "\n"

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
    binding reports that as ``NO_MARGIN``. With a ``solve.log``, the solver's
    output and `problem_summary` are written to it.

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
        if solve.log is not None and solution.status != _libsvm.NO_MARGIN:
            solve.log.out(problem_summary(problem, solution))
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
    class_order: np.ndarray | None = None,
    sigmoids: Any = None,
    seeds: dict | None = None,
) -> dict:
    """Train every one-vs-one pair and assemble LIBSVM's layout.

    ``bounds`` holds each training row's upper bound C_i; ``template`` gives
    the formulation (and nu) every pair shares. Under ``solver='auto'`` the
    pairs of a many-class problem share one Gram matrix when it fits the
    cache; 'smo' keeps LIBSVM's per-pair kernel columns.

    ``class_order`` (a permutation of the class indices) is the order in which
    the pairs are trained and oriented: pair (a, b) of that order solves class
    ``class_order[a]`` as +1 against ``class_order[b]``, as LIBSVM does with its
    classes in order of first appearance. The layout returned is always over
    the classes as given (``class_rows`` order); a pair trained the other way
    round is turned over exactly (coefficients and rho negated). With a
    ``solve.log``, the pairs' output is written in training order, then
    LIBSVM's ``Total nSV`` line.

    ``sigmoids`` (a `svmx._probability.PairSigmoids`) fits each pair's Platt
    sigmoid with the pair (`PairSigmoids.fit_with_pair`: LIBSVM's folds just
    before it, or folds that share its work after it); the layout then has
    ``prob_a`` and ``prob_b`` (empty without). ``seeds`` (from
    `svmx._warm_start.pair_seeds`) gives pairs (i, j) of the sorted classes their
    solver's starting point.
    """
    n_classes = len(class_rows)
    log = solve.log
    trained = _trained_pairs(n_classes, class_order)
    names = list(class_names.tolist())  # plain Python values read well in messages
    threads = _pair_threads(solve.threads, class_rows, len(trained))
    pair_solve = solve.replace(threads=max(1, solve.threads // threads))  # a pair's share
    solve_matrix, solve_rows, pair_kernel, pair_solve = _pair_inputs(
        matrix, class_rows, kernel, pair_solve, solve, threads, len(trained))
    sizes = [class_rows[i].size + class_rows[j].size for i, j in trained]
    if pair_solve.memories is None:  # the pairs' and folds' solves hand their memory on
        pair_solve = pair_solve.replace(
            memories=cache_memories(sizes, pair_solve.cache_bytes, solve.threads))
    logs = _pair_logs(log, len(trained), threads)
    orders = sigmoids.draw_orders(sizes) if sigmoids is not None else []
    sigmoid_of = {}

    def solve_pair(number: int) -> _libsvm.Solution:
        i, j = trained[number]
        rows, problem = pair_problem(template, class_rows, bounds, i, j)
        seed = None if seeds is None else _oriented_seed(seeds, class_rows, i, j)
        if seed is not None:
            problem = problem.seeded(seed)
        on = (solve_matrix, np.concatenate([solve_rows[i], solve_rows[j]]), pair_kernel)
        spec = pair_solve.replace(log=logs[number])
        train_pair = partial(_train_pair, problem=problem, solve=spec, names=(names[i], names[j]))
        if sigmoids is None:
            return train_pair(on)
        result, sigmoid_of[i, j] = sigmoids.fit_with_pair(train_pair, rows, problem, spec,
                                                          orders[number], on)
        return result

    # Each pair is an independent solve that releases the GIL, so threads train
    # several at once; the results do not depend on the thread count.
    numbers = range(len(trained))
    if threads > 1:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            results = list(_replayed(pool.map(solve_pair, numbers), logs, log))
    else:
        results = map(solve_pair, numbers)
    layout = assemble_one_vs_one(class_rows, _turned_to_given_order(trained, results,
                                                                    class_rows))
    layout["prob_a"], layout["prob_b"] = _sigmoids_in_given_order(sigmoid_of, n_classes)
    if log is not None:
        log.out(f"Total nSV = {layout['support'].size}\n")
    return layout


def _oriented_seed(seeds: dict, class_rows: list[np.ndarray], i: int,
                   j: int) -> np.ndarray | None:
    """The seed of pair (i, j) trained as given (class i's rows, then class j's), from
    `seeds` of the sorted pairs: a pair trained the other way round takes its seed's two
    halves swapped. None when the pair has no seed.

    Examples
    --------
    >>> rows = [np.array([0, 1]), np.array([2])]
    >>> _oriented_seed({(0, 1): np.array([0.5, 0.25, 0.75])}, rows, 1, 0).tolist()
    [0.75, 0.5, 0.25]
    """
    if (i, j) in seeds:
        return seeds[i, j]
    if (j, i) not in seeds:
        return None
    seed, first = seeds[j, i], class_rows[j].size
    return np.concatenate([seed[first:], seed[:first]])


def _train_pair(on: tuple, problem: Problem, solve: SolveSpec, names: tuple,
                log: Any = None) -> _libsvm.Solution:
    """Solve one pair on ``on`` = (matrix, rows, kernel); a failure names its classes.
    ``log``, if given, takes the solve's output in place of ``solve.log``."""
    matrix, rows, kernel = on
    if log is not None:
        solve = solve.replace(log=log)
    try:
        return solve_problem(matrix, rows, problem, kernel, solve)
    except NonFiniteSolution as error:
        raise NonFiniteSolution(f"Classes {names[0]!r} and {names[1]!r}: {error}") from None


def _trained_pairs(n_classes: int, class_order: np.ndarray | None) -> list[tuple[int, int]]:
    """The pairs in training order: (class_order[a], class_order[b]) for a < b."""
    order = np.arange(n_classes) if class_order is None else np.asarray(class_order)
    if sorted(order.tolist()) != list(range(n_classes)):
        raise ValueError(f"class_order must be a permutation of range({n_classes}); "
                         f"got {order.tolist()}")
    return [(int(order[a]), int(order[b])) for a, b in ovo_pairs(n_classes)]


def _pair_threads(threads: int, class_rows: list[np.ndarray], n_pairs: int) -> int:
    """How many pairs run side by side: none of a small problem, whose pairs take less
    time than handing them to a thread pool."""
    if sum(rows.size for rows in class_rows) < PAIR_THREADS_MIN_ROWS:
        return 1
    return min(threads, n_pairs)


def _pair_logs(log: TrainingLog | None, n_pairs: int, threads: int) -> list:
    """Each pair's log, its progress labelled ``pair k/n``; on worker threads a buffer of
    its text, replayed in training order."""
    if log is None:
        return [None] * n_pairs
    logs = [log if threads == 1 else log.buffered() for _ in range(n_pairs)]
    if n_pairs == 1:  # one problem: its progress needs no label
        return logs
    return [pair_log.for_task(f"pair {number + 1}/{n_pairs}")
            for number, pair_log in enumerate(logs)]


def _pair_inputs(matrix, class_rows: list[np.ndarray], kernel: KernelSpec,
                 pair_solve: SolveSpec, solve: SolveSpec, threads: int, n_pairs: int) -> tuple:
    """What the pairs are solved on: the training matrix, or under ``solver='auto'`` a
    Gram matrix all pairs share when it fits the cache (matrix, rows per class, kernel,
    solve spec)."""
    gram = None
    if solve.solver == "auto" and not kernel.is_precomputed:
        gram = shared_gram(matrix, class_rows, kernel, solve.cache_bytes, threads)
    if gram is None:
        return matrix, class_rows, kernel, pair_solve
    if solve.log is not None:
        solve.log.note(f"one {gram.matrix.shape[0]} x {gram.matrix.shape[0]} kernel matrix "
                       f"shared by {n_pairs} pairs")
    return (gram.matrix, [gram.position[rows] for rows in class_rows], kernel.as_gram(),
            pair_solve.replace(cache_bytes=gram.pair_cache_bytes))


def cache_memories(sizes: list[int], cache_bytes: float,
                    threads: int) -> _libsvm.CacheMemories:
    """Kernel cache memory for solves of the given sizes, `threads` at a time: blocks
    made for the largest matrix whose cache holds it whole (see `CacheMemories`).

    Examples
    --------
    >>> cache_memories([100, 300], 2.0**20, 2).n_blocks  # made as caches ask
    0
    """
    return _libsvm.CacheMemories.for_solves(sizes, cache_bytes, threads)


def _turned_to_given_order(trained: list[tuple[int, int]], results,
                           class_rows: list[np.ndarray]) -> list[PairSolution]:
    """The pairs' solutions in ``ovo_pairs`` order, each oriented (i, j) with i < j; a
    pair trained as (j, i) is turned over exactly (coefficients and rho negated)."""
    by_pair = {}
    for (i, j), result in zip(trained, results, strict=True):
        coef, rho = result.coef, result.rho
        if i > j:
            n_i = class_rows[i].size
            coef, rho = -np.concatenate([coef[n_i:], coef[:n_i]]), -rho
            i, j = j, i
        by_pair[i, j] = PairSolution(i, j, coef, rho, result.n_iter, result.status, result.obj)
    return [by_pair[pair] for pair in ovo_pairs(len(class_rows))]


def _sigmoids_in_given_order(sigmoid_of: dict, n_classes: int) -> tuple[np.ndarray, np.ndarray]:
    """probA and probB in ``ovo_pairs`` order (empty without sigmoids). A pair turned
    over keeps A and negates B: 1 / (1 + exp(A (-f) + B)) is 1 - P of f with -B."""
    if not sigmoid_of:
        return np.empty(0, dtype=np.float64), np.empty(0, dtype=np.float64)
    oriented = [sigmoid_of[i, j] if (i, j) in sigmoid_of else
                (sigmoid_of[j, i][0], -sigmoid_of[j, i][1]) for i, j in ovo_pairs(n_classes)]
    return (np.array([a for a, _ in oriented], dtype=np.float64),
            np.array([b for _, b in oriented], dtype=np.float64))


def _replayed(results, logs: list, log: TrainingLog | None):
    """The results in order, writing each pair's buffered output as it comes."""
    for result, buffer in zip(results, logs, strict=True):
        if log is not None:
            buffer.replay(log)
        yield result
